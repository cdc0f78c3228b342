/**
@module
What every devtools spec starts with: the page open on the embedded mock agent, connected, and a screenshot helper that saves each shot as a test artifact.
*/
import { expect, type Page, type TestInfo } from '@playwright/test';

/** Opens the devtools and waits until they are connected to the mock agent in the page. */
export async function openDevtools(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('connection')).toHaveText(
    /^Embedded mock agent · JSONRPC · http:\/\/127\.0\.0\.1:\d+\/a2a\/jsonrpc$/,
  );
}

/** Saves a full-page screenshot as a test artifact, under the test's output folder (test-results/e2e/…). */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<string> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
