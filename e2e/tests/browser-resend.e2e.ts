import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  armAfterCommit,
  cardUrlOf,
  executionsAt,
  foreignAgentOrigin,
  keyedAgentOrigin,
  mockControl,
  openDevtools,
  screenshot,
  withMockToken,
} from './helpers.js';

// docs/interop.md#browsers: Chromium re-sends a POST by itself when a reused keep-alive connection closes
// before any byte of the answer. These specs lose the answer on a warm connection to a Node agent, read that
// agent's own execution counter, and hold the ledger to it: never `committed` where the agent ran the send
// twice.

// Each spec makes two or three durable sends, audits included, with a fault armed between them: on a loaded
// machine that is more than the config's 30 s. Every wait is still for a state, never for a time.
test.describe.configure({ timeout: 90_000 });

function sendsPanel(page: Page): Locator {
  return page.getByRole('tabpanel', { name: 'Sends' });
}

function sendRow(page: Page, text: string): Locator {
  return sendsPanel(page)
    .getByRole('table', { name: 'Durable sends' })
    .getByTestId('durable-send')
    .filter({ hasText: text });
}

async function connectTo(page: Page, origin: string): Promise<void> {
  await page.goto(`/?card=${encodeURIComponent(withMockToken(cardUrlOf(origin)))}`);
  await expect(page.getByTestId('connection')).toHaveText(
    `surecall mock agent · JSONRPC · ${origin}/a2a/jsonrpc`,
  );
}

async function durableSend(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Durable send' }).click();
}

test('at-most-once from the browser to an agent that ignores keys: refused until acknowledged, and a send Chromium ran twice ends duplicated, never committed', async ({
  page,
  request,
}, testInfo) => {
  await connectTo(page, foreignAgentOrigin);
  const delivery = page.getByLabel('Delivery');
  await expect(delivery.locator('option')).toHaveText(['at-most-once']);
  // docs/interop.md#browsers: no at-most-once send from a browser without the caller's word.
  await expect(page.getByRole('button', { name: 'Durable send' })).toBeDisabled();
  await expect(page.getByTestId('durable-refusal')).toContainText('needs your acknowledgement');
  await page.getByLabel('The browser may send it twice (audited)').check();
  await expect(page.getByRole('button', { name: 'Durable send' })).toBeEnabled();

  // A first send warms the connection (and the CORS preflight); the audit finds its one task.
  const before = await executionsAt(request, foreignAgentOrigin);
  await durableSend(page, 'task warm up');
  await expect(sendRow(page, 'task warm up').getByTestId('durable-status')).toHaveText('committed');
  expect(await executionsAt(request, foreignAgentOrigin)).toBe(before + 1);

  // Arming the fault is one more request on the same warm connection.
  await armAfterCommit(page);
  const armed = await executionsAt(request, foreignAgentOrigin);
  await page.getByRole('tab', { name: 'Sends' }).click();
  await durableSend(page, 'task book the 9:40 to Lyon');
  const row = sendRow(page, 'task book the 9:40 to Lyon');
  // Settled: duplicated when Chromium re-sent (the audit found two tasks), unknown when it did not (the
  // answer lost).
  await expect(row.getByTestId('durable-status')).toHaveText(/^(duplicated|unknown)$/);
  const ran = (await executionsAt(request, foreignAgentOrigin)) - armed;
  const status = await row.getByTestId('durable-status').textContent();
  testInfo.annotations.push({ type: 'chromium', description: `executions ${ran}, ledger ${status}` });
  await screenshot(page, testInfo, 'browser-resend-settled');
  if (ran === 2) {
    expect(status).toBe('duplicated');
    const alert = sendsPanel(page).getByTestId('duplicated-alert');
    await expect(alert).toHaveCount(1);
    await expect(alert).toContainText('ran 2 times');
    await expect(alert.getByTestId('duplicated-tasks')).toHaveText(/^\S+, \S+$/);
    await expect(page.getByTestId('duplicated-count')).toHaveText(' · 1 duplicated');
    await page.getByRole('tab', { name: 'Recovery' }).click();
    const spans = page.getByRole('tabpanel', { name: 'Recovery' }).getByTestId('recovery-span');
    // Two audits: the warm-up's found its one task, this one found two.
    await expect(spans).toHaveCount(2);
    const duplicated = spans.and(page.locator('[data-outcome="duplicated"]'));
    await expect(duplicated).toHaveCount(1);
    await expect(duplicated).toContainText('context-history audit of send');
    await expect(duplicated.getByTestId('span-counts')).toContainText('2 matches');
  } else {
    // Chromium did not re-send this time: one execution, its answer lost; the scan finds the one task.
    expect(ran).toBe(1);
    expect(status).toBe('unknown');
    await sendsPanel(page)
      .getByRole('button', { name: /^Reconcile [0-9a-f]{6}…/ })
      .click();
    await expect(row.getByTestId('durable-status')).toHaveText('committed');
    expect((await executionsAt(request, foreignAgentOrigin)) - armed).toBe(1);
  }
  // Whatever Chromium did, no send in this ledger is committed with more executions than its tasks show.
  await page.getByRole('tab', { name: 'Sends' }).click();
  await expect(sendsPanel(page).locator('[data-testid="durable-send"][data-status="committed"]')).toHaveCount(
    ran === 2 ? 1 : 2,
  );
});

test('keyed delivery from the browser to an agent that honours keys: a lost answer on a warm connection runs once', async ({
  page,
  request,
}, testInfo) => {
  await connectTo(page, keyedAgentOrigin);
  // docs/interop.md#browsers: keyed is the default wherever the peer honours keys.
  await expect(page.getByLabel('Delivery')).toHaveValue('keyed');
  const before = await executionsAt(request, keyedAgentOrigin);
  await durableSend(page, 'task keyed warm up');
  await expect(sendRow(page, 'task keyed warm up').getByTestId('durable-status')).toHaveText('committed');

  await armAfterCommit(page);
  await page.getByRole('tab', { name: 'Sends' }).click();
  await durableSend(page, 'task keyed booking');
  const row = sendRow(page, 'task keyed booking');
  await expect(row).toContainText(/keyed\s*key [0-9a-f-]+/);
  // Committed when Chromium re-sent (the agent's key index answered the repeat with the same task), else
  // unknown.
  await expect(row.getByTestId('durable-status')).toHaveText(/^(committed|unknown)$/);
  if ((await row.getByTestId('durable-status').textContent()) === 'unknown') {
    await sendsPanel(page)
      .getByRole('button', { name: /^Reconcile [0-9a-f]{6}…/ })
      .click();
    await expect(row.getByTestId('durable-status')).toHaveText('committed');
  }
  expect((await executionsAt(request, keyedAgentOrigin)) - before).toBe(2);
  await expect(sendsPanel(page).getByTestId('duplicated-alert')).toHaveCount(0);
  await screenshot(page, testInfo, 'keyed-once');
});

test('connecting the devtools to a Node agent stops the embedded mock: that agent’s own counter moves', async ({
  page,
  request,
}, testInfo) => {
  await openDevtools(page);
  await page.getByText('Connect to another agent').click();
  const form = page.getByRole('form', { name: 'Connect to an agent' });
  await form.getByLabel('Card URL').fill(withMockToken(cardUrlOf(keyedAgentOrigin)));
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByTestId('connection')).toHaveText(
    `surecall mock agent · JSONRPC · ${keyedAgentOrigin}/a2a/jsonrpc`,
  );

  const before = await executionsAt(request, keyedAgentOrigin);
  await page.getByRole('tab', { name: 'Faults' }).click();
  const faults = page.getByRole('tabpanel', { name: 'Faults' });
  // The Faults panel reads the connected agent's counter, not the page's mock.
  await expect(faults.getByTestId('executions-total')).toHaveText(String(before));

  await page.getByLabel('Message', { exact: true }).fill('task counted at the node agent');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('send-outcome').first()).toHaveText(/^task /);
  expect(await executionsAt(request, keyedAgentOrigin)).toBe(before + 1);

  // A fault armed from the panel lands on that agent and is consumed by its next send there.
  await armAfterCommit(page);
  const armed = (await (
    await request.get(`${keyedAgentOrigin}/__faults`, { headers: mockControl })
  ).json()) as { faults: unknown[] };
  expect(armed.faults).toHaveLength(1);
  await page.getByRole('tab', { name: 'Sends' }).click();
  await durableSend(page, 'task lost at the node agent');
  await expect(sendRow(page, 'task lost at the node agent').getByTestId('durable-status')).toHaveText(
    /^(committed|unknown)$/,
  );
  expect(await executionsAt(request, keyedAgentOrigin)).toBe(before + 2);
  await page.getByRole('tab', { name: 'Faults' }).click();
  await expect(faults.getByTestId('executions-total')).toHaveText(String(before + 2));
  await screenshot(page, testInfo, 'connected-elsewhere');
});
