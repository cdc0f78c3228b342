// The Playwright fixture of the installed @surecall/mocks, in Debian's Chromium: a page fetches the agent's
// card.
import { expect, test } from '@surecall/mocks/playwright';

test('the installed fixture serves a mock agent to a page', async ({ page, mockAgent }) => {
  await page.goto(mockAgent.cardUrl);
  const card = JSON.parse((await page.locator('body').textContent()) ?? '{}') as { name?: unknown };
  expect(typeof card.name).toBe('string');
  expect(mockAgent.executions.total()).toBe(0);
});
