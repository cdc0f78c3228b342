import { expect, type Page, test } from '@playwright/test';
import {
  armAfterCommit,
  durableSendLost,
  executionsAt,
  nodeAgentCardUrl,
  openDevtools,
  screenshot,
  withMockToken,
} from './helpers.js';

function sendsPanel(page: Page) {
  return page.getByRole('tabpanel', { name: 'Sends' });
}

async function reconcileAndSeeCommitted(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Sends' }).click();
  const sends = sendsPanel(page);
  await sends.getByRole('button', { name: /^Reconcile [0-9a-f]{6}…/ }).click();
  await expect(sends.getByTestId('inbox-empty')).toBeVisible();
  const row = sends.getByRole('table', { name: 'Durable sends' }).getByTestId('durable-send');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('durable-status')).toHaveText('committed');
  await expect(row.getByTestId('attempts')).toHaveText('1');
  await expect(row.getByTestId('timeline-step')).toHaveText([
    /^prepared .* create: /,
    /^executing .* start: attempt /,
    /^unknown .* unknown: ambiguous-outcome: /,
    /^committed .* reconcile-commit: task /,
  ]);
}

/**
Chooses at-most-once delivery, which a browser needs acknowledged (docs/interop.md#browsers); the devtools
then audit each commit.
*/
async function atMostOnce(page: Page): Promise<void> {
  await page.getByLabel('Delivery').selectOption('at-most-once');
  await expect(page.getByRole('button', { name: 'Durable send' })).toBeDisabled();
  await page.getByLabel('The browser may send it twice (audited)').check();
  await expect(page.getByRole('button', { name: 'Durable send' })).toBeEnabled();
}

test('a lost answer lands in the unknown inbox and is reconciled to committed, with one execution', async ({
  page,
}, testInfo) => {
  await openDevtools(page);
  await expect(page.getByTestId('ledger-role')).toHaveText(' · this tab writes the ledger');
  // Keyed is the default where the peer honours keys; at-most-once shows the context scan.
  await expect(page.getByLabel('Delivery')).toHaveValue('keyed');
  await atMostOnce(page);
  // The README's story (README.md#devtools): a 503 after commit, which a browser never re-sends.
  await armAfterCommit(page, '5xx after commit');
  await durableSendLost(page, 'task book the 9:40 to Lyon');
  await screenshot(page, testInfo, 'sends-unknown');

  await reconcileAndSeeCommitted(page);
  await screenshot(page, testInfo, 'sends-committed');
  // docs/sends-panel.png, the README's picture, is this view.
  await page.screenshot({ path: testInfo.outputPath('sends-panel.png') });

  // The filter box finds the send by its text and status, and says when nothing matches.
  const filter = sendsPanel(page).getByRole('search', { name: 'Filter sends' });
  await filter.getByLabel('Filter sends').fill('lyon committed');
  await expect(filter.getByTestId('filter-count')).toHaveText('1 of 1');
  await filter.getByLabel('Filter sends').fill('lyon unknown');
  await expect(sendsPanel(page).getByTestId('no-match')).toBeVisible();
  await filter.getByLabel('Filter sends').fill('');

  // The send's row links to its executions: the agent ran it once, and the table adds up to the total.
  await sendsPanel(page)
    .getByRole('button', { name: /^Executions of [0-9a-f]{6}…/ })
    .click();
  const faults = page.getByRole('tabpanel', { name: 'Faults' });
  await expect(faults.getByTestId('executions-total')).toHaveText('1');
  const followed = faults.locator('[data-testid="execution-row"][aria-current="true"]');
  await expect(followed).toHaveAttribute('data-source', 'durable');
  await expect(followed).toContainText('task book the 9:40 to Lyon');
  await expect(followed.getByTestId('execution-count')).toHaveText('1');
  await expect(faults.getByTestId('execution-others')).toHaveText('Messages this page did not send0');
  await screenshot(page, testInfo, 'executions-of-a-durable-send');
});

test('a reload after the answer was lost finds the ledger intact and the send still reconcilable', async ({
  page,
  request,
}, testInfo) => {
  // Other specs (the CLI's) send to this agent too: count from here.
  const before = await executionsAt(request, new URL(nodeAgentCardUrl).origin);
  // The Node agent keeps its tasks across the reload; the page's own mock would not.
  await page.goto(`/?card=${encodeURIComponent(withMockToken(nodeAgentCardUrl))}`);
  await expect(page.getByTestId('connection')).toContainText('JSONRPC · http://127.0.0.1:');
  await expect(page.getByTestId('ledger-role')).toHaveText(' · this tab writes the ledger');
  // Not a dropped connection here: Chromium silently re-sends a request whose reused keep-alive connection
  // closed without an answer, so against a separate process the "lost" answer can come back from a second
  // execution. A gateway's 503 after commit is as ambiguous and is never re-sent.
  await armAfterCommit(page, '5xx after commit');
  await durableSendLost(page, 'task reload in the middle');

  await page.reload();
  await expect(page.getByTestId('connection')).toContainText('JSONRPC · http://127.0.0.1:');
  await page.getByRole('tab', { name: 'Sends' }).click();
  const inbox = sendsPanel(page).getByRole('region', { name: 'Unknown outcomes' });
  await expect(inbox.getByTestId('inbox-entry')).toHaveCount(1);
  await expect(inbox.getByTestId('inbox-entry')).toContainText('task reload in the middle');
  await expect(sendsPanel(page).getByTestId('timeline-step')).toHaveCount(3);
  await screenshot(page, testInfo, 'sends-after-reload');

  await reconcileAndSeeCommitted(page);
  await page.getByRole('tab', { name: 'Faults' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Faults' }).getByTestId('executions-total')).toHaveText(
    String(before + 1),
  );
  await screenshot(page, testInfo, 'sends-reconciled-after-reload');
});

test('the Recovery panel shows a context-history scan step by step', async ({ page }, testInfo) => {
  await openDevtools(page);
  await atMostOnce(page);
  await armAfterCommit(page);
  await durableSendLost(page, 'task scan me');
  await reconcileAndSeeCommitted(page);

  await page.getByRole('tab', { name: 'Recovery' }).click();
  const recovery = page.getByRole('tabpanel', { name: 'Recovery' });
  const span = recovery.getByTestId('recovery-span');
  await expect(span).toHaveCount(1);
  await expect(span).toHaveAttribute('data-outcome', 'committed');
  await expect(span).toContainText('context-history probe of send');
  await expect(span.getByTestId('span-counts')).toHaveText(
    '1 page scanned · 1 task examined · 1 match → committed',
  );
  await expect(span.getByTestId('scan-step')).toHaveText([/^Page 1: 1 task examined, 1 match, last page/]);
  await screenshot(page, testInfo, 'recovery-scan');
});

test('a keyed send to the honouring mock is reconciled by a keyed replay, executed once', async ({
  page,
}, testInfo) => {
  await openDevtools(page);
  await expect(page.getByLabel('Delivery')).toHaveValue('keyed');
  await armAfterCommit(page);
  await durableSendLost(page, 'task keyed booking');
  const row = sendsPanel(page).getByRole('table', { name: 'Durable sends' }).getByTestId('durable-send');
  await expect(row).toContainText(/keyed\s*key [0-9a-f-]+/);

  await reconcileAndSeeCommitted(page);
  await screenshot(page, testInfo, 'sends-keyed');

  await page.getByRole('tab', { name: 'Recovery' }).click();
  const span = page.getByRole('tabpanel', { name: 'Recovery' }).getByTestId('recovery-span');
  await expect(span).toContainText('keyed probe of send');
  await expect(span.getByTestId('span-outcome')).toHaveText('committed');
  // A replay scans no page: its counts say what it did, not "0 page(s) scanned".
  await expect(span.getByTestId('span-counts')).toHaveText(
    'one keyed replay: the answer holds the task → committed',
  );
  await expect(span.getByTestId('scan-step')).toHaveCount(0);

  await page.getByRole('tab', { name: 'Faults' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Faults' }).getByTestId('executions-total')).toHaveText(
    '1',
  );
  await screenshot(page, testInfo, 'keyed-executions');
});
