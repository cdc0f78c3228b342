import { type BrowserContext, expect, type Locator, type Page, type Route, test } from '@playwright/test';
import { armAfterCommit, connectTo, executionsAt, keyedAgentOrigin, screenshot } from './helpers.js';

// docs/durable-send.md#tabs: every tab of one origin writes the one IndexedDB ledger. Each spec opens several
// pages of one browser context (one origin, one database, one lock manager) on the devtools, connected to a
// Node agent whose own execution counter the specs read, and waits only for states.
test.describe.configure({ timeout: 90_000 });

const origin = keyedAgentOrigin;
const idempotencyKey = /"a2a-rust\.com\/idempotency-key":"([^"]+)"/;

function sendsPanel(page: Page): Locator {
  return page.getByRole('tabpanel', { name: 'Sends' });
}

function sendRow(page: Page, text: string): Locator {
  return sendsPanel(page)
    .getByRole('table', { name: 'Durable sends' })
    .getByTestId('durable-send')
    .filter({ hasText: text });
}

/** `count` pages of `context`, each connected, each a writer of the ledger. */
async function openTabs(context: BrowserContext, first: Page, count: number): Promise<Page[]> {
  const tabs = [first];
  while (tabs.length < count) {
    tabs.push(await context.newPage());
  }
  for (const tab of tabs) {
    await connectTo(tab, origin);
    await expect(tab.getByTestId('ledger-role')).toHaveText(' · this tab writes the ledger');
    await tab.getByRole('tab', { name: 'Sends' }).click();
  }
  return tabs;
}

async function durableSend(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Durable send' }).click();
}

/**
Holds every answer to a SendMessage of `page`: the request reaches the agent, which runs it, and its answer
never comes back. `arrived` resolves once a send has reached the agent and been answered there.
*/
async function loseAnswers(page: Page): Promise<{ readonly arrived: Promise<void> }> {
  let reached: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => {
    reached = resolve;
  });
  await page.route(`${origin}/a2a/jsonrpc`, async (route) => {
    if (!(route.request().postData() ?? '').includes('"SendMessage"')) {
      await route.continue();
      return;
    }
    await route.fetch();
    reached();
    // The answer is held for ever: the page goes before it would come.
  });
  return { arrived };
}

test('three tabs send at once: every send commits, in every tab, and the agent runs each once', async ({
  page,
  context,
  request,
}, testInfo) => {
  const tabs = await openTabs(context, page, 3);
  const before = await executionsAt(request, origin);
  const texts = tabs.map((_, index) => `task from tab ${index + 1}`);
  await Promise.all(tabs.map((tab, index) => durableSend(tab, texts[index] as string)));
  // Every tab sees every tab's send (the BroadcastChannel), committed.
  for (const tab of tabs) {
    for (const text of texts) {
      await expect(sendRow(tab, text).getByTestId('durable-status')).toHaveText('committed');
    }
  }
  expect(await executionsAt(request, origin)).toBe(before + 3);
  await screenshot(page, testInfo, 'three-tabs-committed');
});

test('a tab closed and a tab crashed mid-send leave their sends to another tab, which finds them unknown and reconciles them, each run once', async ({
  page,
  context,
  request,
}, testInfo) => {
  const [watcher, closed, crashed] = (await openTabs(context, page, 3)) as [Page, Page, Page];
  const before = await executionsAt(request, origin);
  const ends = {
    'task of the closed tab': () => closed.close(),
    'task of the crashed tab': async () => {
      const session = await context.newCDPSession(crashed);
      // The renderer dies with the call, which never answers.
      void session.send('Page.crash').catch(() => undefined);
    },
  };
  const victims = { 'task of the closed tab': closed, 'task of the crashed tab': crashed };
  for (const [text, end] of Object.entries(ends)) {
    const victim = victims[text as keyof typeof victims];
    const { arrived } = await loseAnswers(victim);
    await durableSend(victim, text);
    await arrived;
    // The sender is live: its send stays executing (in flight) in every other tab.
    await expect(sendRow(watcher, text).getByTestId('durable-status')).toHaveText('in-flight');
    // Each tab shows which tab sends it.
    await expect(sendRow(watcher, text).getByTestId('send-owner')).toHaveText(/^sent by tab [0-9a-f]{6}…$/);
    await expect(sendRow(victim, text).getByTestId('send-owner')).toHaveText('sent by this tab');
    await end();
    // Its lock went with it: the watcher turns the send unknown, and says why.
    const inbox = sendsPanel(watcher).getByRole('region', { name: 'Unknown outcomes' });
    const entry = inbox.getByTestId('inbox-entry').filter({ hasText: text });
    await expect(entry).toContainText('crashed-while-executing');
    await entry.getByRole('button', { name: /^Reconcile / }).click();
    await expect(sendRow(watcher, text).getByTestId('durable-status')).toHaveText('committed');
    await expect(sendRow(watcher, text).getByTestId('attempts')).toHaveText('1');
  }
  expect(await executionsAt(request, origin)).toBe(before + 2);
  await screenshot(watcher, testInfo, 'tabs-recovered');
  if (!crashed.isClosed()) {
    await crashed.close();
  }
});

test('the page lifecycle: a frozen tab keeps its send, and a tab navigated away leaves it to the others', async ({
  page,
  context,
  request,
}, testInfo) => {
  const [watcher, frozen] = (await openTabs(context, page, 2)) as [Page, Page];
  const before = await executionsAt(request, origin);
  const text = 'task of the frozen tab';
  const { arrived } = await loseAnswers(frozen);
  await durableSend(frozen, text);
  await arrived;
  const session = await context.newCDPSession(frozen);
  await session.send('Page.setWebLifecycleState', { state: 'frozen' });
  // A tab opening now recovers, before it lists anything, what gone tabs left executing: the frozen tab still
  // holds its lock, so its send is still in flight.
  const [late] = (await openTabs(context, await context.newPage(), 1)) as [Page];
  await expect(sendRow(late, text).getByTestId('durable-status')).toHaveText('in-flight');
  await expect(sendRow(late, text).getByTestId('send-owner')).toHaveText(/^sent by tab [0-9a-f]{6}…$/);
  // Resumed, then navigated away: the document goes, and its lock with it.
  await session.send('Page.setWebLifecycleState', { state: 'active' });
  await frozen.goto('about:blank');
  const entry = sendsPanel(watcher)
    .getByRole('region', { name: 'Unknown outcomes' })
    .getByTestId('inbox-entry')
    .filter({ hasText: text });
  await expect(entry).toContainText('crashed-while-executing');
  await entry.getByRole('button', { name: /^Reconcile / }).click();
  for (const tab of [watcher, late]) {
    await expect(sendRow(tab, text).getByTestId('durable-status')).toHaveText('committed');
  }
  expect(await executionsAt(request, origin)).toBe(before + 1);
  await screenshot(late, testInfo, 'tabs-lifecycle');
});

test('two tabs reconciling at once probe each unknown send once', async ({
  page,
  context,
  request,
}, testInfo) => {
  const [first, second] = (await openTabs(context, page, 2)) as [Page, Page];
  const before = await executionsAt(request, origin);
  const texts = ['task lost one', 'task lost two', 'task lost three'];
  for (const text of texts) {
    // A gateway's 503 after the agent ran it: ambiguous, and never re-sent by Chromium itself.
    await armAfterCommit(first, '5xx after commit');
    await first.getByRole('tab', { name: 'Sends' }).click();
    await durableSend(first, text);
    await expect(sendRow(first, text).getByTestId('durable-status')).toHaveText('unknown');
  }
  for (const tab of [first, second]) {
    await tab.getByRole('tab', { name: 'Sends' }).click();
    await expect(
      sendsPanel(tab).getByRole('region', { name: 'Unknown outcomes' }).getByTestId('inbox-entry'),
    ).toHaveCount(texts.length);
  }
  // Every probe of a keyed send is a SendMessage carrying its key (a keyed replay): count them per key.
  const probes = new Map<string, number>();
  context.on('request', (sent) => {
    const key = idempotencyKey.exec(sent.postData() ?? '')?.[1];
    if (sent.method() === 'POST' && key !== undefined && (sent.postData() ?? '').includes('"SendMessage"')) {
      probes.set(key, (probes.get(key) ?? 0) + 1);
    }
  });
  // The first tab's probes are held at the agent's door until the second tab has reconciled too, so the
  // second meets the first one's claims, never records already settled: it must leave all three to the first.
  const held: Route[] = [];
  await first.route(`${origin}/a2a/jsonrpc`, async (route) => {
    const body = route.request().postData() ?? '';
    if (body.includes('"SendMessage"') && idempotencyKey.test(body)) {
      held.push(route);
      return;
    }
    await route.continue();
  });
  await sendsPanel(first).getByRole('button', { name: 'Reconcile all due (3)' }).click();
  await expect.poll(() => held.length).toBe(texts.length);
  await sendsPanel(second).getByRole('button', { name: 'Reconcile all due (3)' }).click();
  await expect(sendsPanel(second).getByTestId('reconcile-report')).toHaveText('Reconciled 3: 3 unknown');
  expect([...probes.values()]).toEqual([1, 1, 1]);
  for (const route of held) {
    await route.continue();
  }
  for (const tab of [first, second]) {
    for (const text of texts) {
      await expect(sendRow(tab, text).getByTestId('durable-status')).toHaveText('committed');
    }
  }
  expect([...probes.values()]).toEqual([1, 1, 1]);
  expect(await executionsAt(request, origin)).toBe(before + 3);
  await screenshot(second, testInfo, 'tabs-reconciled-once');
});
