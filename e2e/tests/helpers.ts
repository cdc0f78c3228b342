/**
@module
What every devtools spec starts with: the page open on the embedded mock agent, connected, and a screenshot
helper that saves each shot as a test artifact.
*/
import { type APIRequestContext, expect, type Page, type TestInfo } from '@playwright/test';

/** Opens the devtools and waits until they are connected to the mock agent in the page. */
export async function openDevtools(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('connection')).toHaveText(
    /^Embedded mock agent · JSONRPC · http:\/\/127\.0\.0\.1:\d+\/a2a\/jsonrpc$/,
  );
}

/**
Selects a panel's tab and waits until the shell says it is selected: a click that lands while the shell is
still settling after the connection is lost (seen once in CI under load: the tab focused, the Agent panel
still shown), so the click is repeated until the state it asks for holds.
*/
export async function selectTab(page: Page, name: string): Promise<void> {
  const tab = page.getByRole('tab', { name });
  await expect(async () => {
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true', { timeout: 2_000 });
  }).toPass();
}

/** Saves a full-page screenshot as a test artifact, under the test's output folder (test-results/e2e/…). */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<string> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The card URL of the Node mock agent the config starts beside the devtools. */
const { DEVTOOLS_E2E_AGENT_PORT, DEVTOOLS_E2E_FOREIGN_PORT, DEVTOOLS_E2E_KEYED_PORT } = process.env;
export const nodeAgentCardUrl = `http://127.0.0.1:${DEVTOOLS_E2E_AGENT_PORT ?? 4180}/.well-known/agent-card.json`;

/**
The Node mock agent in `foreign` mode: it ignores idempotency keys, so whatever reaches it twice runs twice.
*/
export const foreignAgentOrigin = `http://127.0.0.1:${DEVTOOLS_E2E_FOREIGN_PORT ?? 4181}`;

/** A second honouring Node mock agent, for the specs that count executions by difference. */
export const keyedAgentOrigin = `http://127.0.0.1:${DEVTOOLS_E2E_KEYED_PORT ?? 4182}`;

/** The card URL of an agent at `origin`. */
export function cardUrlOf(origin: string): string {
  return `${origin}/.well-known/agent-card.json`;
}

/** The Node agents' control token, drawn per run by the config (e2e/playwright.config.ts). */
export const mockToken = process.env['SURECALL_E2E_MOCK_TOKEN'] ?? '';

/** The headers that open the Node agents' control routes (`/__faults`, `/__executions`). */
export const mockControl = { 'x-surecall-mock-token': mockToken } as const;

/**
A card URL as the page should be given it: with the control token in its fragment, so the Faults panel can
reach the agent's fault lab (docs/interop.md#loopback-server-security).
*/
export function withMockToken(cardUrl: string): string {
  return `${cardUrl}#mock-token=${mockToken}`;
}

/**
The agent's own execution counter, read from its `/__executions` route by the test runner, not through the
page.
*/
export async function executionsAt(request: APIRequestContext, origin: string): Promise<number> {
  const response = await request.get(`${origin}/__executions`, { headers: mockControl });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { total?: unknown };
  expect(typeof body.total).toBe('number');
  return body.total as number;
}

/**
Arms one of the mock agent's after-commit faults on SendMessage from the Faults panel: the agent runs the next
send, then its answer is lost (`Drop after commit`) or replaced by a gateway's 503 (`5xx after commit`).
*/
export async function armAfterCommit(
  page: Page,
  fault: 'Drop after commit' | '5xx after commit' = 'Drop after commit',
): Promise<void> {
  await page.getByRole('tab', { name: 'Faults' }).click();
  const faults = page.getByRole('tabpanel', { name: 'Faults' });
  await faults.getByRole('switch', { name: fault }).click();
  await expect(faults.getByRole('region', { name: 'Armed faults' })).toContainText(
    new RegExp(`^Armed faults${fault} on SendMessage( \\(status 503\\))?, 1 left`),
  );
}

/** Makes a durable send of `text` and waits until the Sends panel shows it in the unknown outcomes inbox. */
export async function durableSendLost(page: Page, text: string): Promise<void> {
  await page.getByRole('tab', { name: 'Sends' }).click();
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Durable send' }).click();
  const sends = page.getByRole('tabpanel', { name: 'Sends' });
  await expect(sends).toBeVisible();
  const inbox = sends.getByRole('region', { name: 'Unknown outcomes' });
  await expect(inbox.getByTestId('inbox-entry')).toHaveCount(1);
  await expect(inbox.getByTestId('inbox-entry')).toContainText('ambiguous-outcome');
}

/** Opens the devtools connected to the Node agent at `origin`, its control token in the card URL. */
export async function connectTo(page: Page, origin: string): Promise<void> {
  await page.goto(`/?card=${encodeURIComponent(withMockToken(cardUrlOf(origin)))}`);
  await expect(page.getByTestId('connection')).toHaveText(
    `surecall mock agent · JSONRPC · ${origin}/a2a/jsonrpc`,
  );
}
