import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import {
  cardUrlOf,
  keyedAgentOrigin,
  nodeAgentCardUrl,
  openDevtools,
  screenshot,
  withMockToken,
} from './helpers.js';

test('discovers the mock agent in the page and sends an echo', async ({ page }, testInfo) => {
  await openDevtools(page);

  const agent = page.getByRole('tabpanel', { name: 'Agent' });
  await expect(agent.getByRole('heading', { name: 'surecall mock agent' })).toBeVisible();
  await expect(agent.getByTestId('card-digest')).toHaveText(/^sha256:[0-9a-f]{64}$/);
  // The page's own origin is loopback http, which TLS cannot vouch for: discover() pinned the first fetch's
  // digest.
  await expect(agent.getByTestId('card-trust')).toHaveText(/^the digest of the first fetch/);
  // The page and the agent in it share one origin: no preflight, so the card request keeps its version.
  await expect(agent.getByTestId('card-request')).toHaveText('GET with A2A-Version: 1.0');
  // The mock honours keys and says so on its card; a client that reports `honoursIdempotency` agrees.
  await expect(agent.getByTestId('idempotency')).toHaveText(
    /^(yes, says the client|unknown: this client does not report it) · card advertises the idempotency extension$/,
  );
  await expect(agent.getByRole('row', { name: /JSONRPC 1\.0 .*\/a2a\/jsonrpc.* pinned/ })).toBeVisible();
  // A skill description's code spans show as code, not as backticks; nothing else of it is interpreted.
  const sum = agent.getByRole('listitem').filter({ hasText: /^sum Adds two numbers/ });
  await expect(sum.locator('code').first()).toHaveText('{ "a": 1, "b": 2 }');
  await expect(sum.getByTestId('skill-description')).not.toContainText('`');

  // The card's JSON tree is one tab stop; the arrows walk and open it.
  const tree = agent.getByRole('tree', { name: 'Agent card JSON' });
  await tree.getByRole('treeitem').first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(tree.getByRole('treeitem', { name: /^name: "surecall mock agent"$/ })).toBeFocused();

  await page.getByRole('button', { name: /^Echo: echo hello/ }).click();
  await expect(page.getByTestId('send-outcome').first()).toHaveText('reply “echo hello”');
  await expect(page.getByTestId('feed-status')).toContainText('client: 2 events · 1 calls · 0 failed');

  await screenshot(page, testInfo, 'agent-and-echo');

  // The tabs follow the arrow keys (WAI-ARIA tabs pattern).
  await page.getByRole('tab', { name: 'Agent' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Tasks' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Tasks' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Faults' })).toHaveAttribute('aria-selected', 'true');

  // Readable narrower, too.
  await page.setViewportSize({ width: 760, height: 900 });
  await page.getByRole('tab', { name: 'Agent' }).click();
  await screenshot(page, testInfo, 'agent-narrow');
});

/**
A static card host on another origin than the page's (docs/interop.md#browsers): it serves the Node agent's
card to a plain GET, readable by any page, but refuses every CORS preflight, so Chromium refuses the card
request that carries `A2A-Version` before sending it. The card's interfaces are the Node agent's, which
answers its preflights.
*/
test('connects through the plain fallback when the card host refuses the A2A-Version preflight, and says so', async ({
  page,
}, testInfo) => {
  const card = await (await fetch(nodeAgentCardUrl)).text();
  const seen: { method: string; version: string | undefined; asked: string | undefined }[] = [];
  const host = createServer((incoming, outgoing) => {
    const version = incoming.headers['a2a-version'];
    const asked = incoming.headers['access-control-request-headers'];
    seen.push({
      method: incoming.method ?? '',
      version: typeof version === 'string' ? version : undefined,
      asked: typeof asked === 'string' ? asked : undefined,
    });
    if (incoming.method === 'OPTIONS') {
      outgoing.writeHead(403, { 'content-type': 'text/plain' }).end('no preflights here\n');
      return;
    }
    outgoing
      .writeHead(200, {
        'content-type': 'application/json',
        'access-control-allow-origin': incoming.headers.origin ?? '*',
      })
      .end(card);
  });
  host.listen(0, '127.0.0.1');
  await once(host, 'listening');
  const origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  try {
    await page.goto(`/?card=${encodeURIComponent(cardUrlOf(origin))}`);
    const agent = page.getByRole('tabpanel', { name: 'Agent' });
    await expect(agent.getByRole('heading', { name: 'surecall mock agent' })).toBeVisible();
    await expect(agent.getByTestId('card-request')).toHaveText(
      'a plain GET: the agent refused the preflight A2A-Version causes',
    );
    // The browser asked to send A2A-Version, was refused, and only plain GETs reached the host.
    expect(
      seen.some((request) => request.method === 'OPTIONS' && /a2a-version/i.test(request.asked ?? '')),
    ).toBe(true);
    const gets = seen.filter((request) => request.method === 'GET');
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.every((request) => request.version === undefined)).toBe(true);
    // The client it built talks to the agent's interface as usual.
    await page.getByRole('button', { name: /^Echo: echo hello/ }).click();
    await expect(page.getByTestId('send-outcome').first()).toHaveText('reply “echo hello”');
    await screenshot(page, testInfo, 'card-fallback');
  } finally {
    host.closeAllConnections();
    await new Promise<void>((resolve) => host.close(() => resolve()));
  }
});

test('the connect form folds once it connects, and keeps no bearer token to show', async ({
  page,
}, testInfo) => {
  const token = 'devtools-e2e-bearer-7f3a9c1d';
  await openDevtools(page);
  const form = page.getByRole('form', { name: 'Connect to an agent' });
  await expect(form).toBeHidden();
  await page.getByText('Connect to another agent').click();
  await expect(form).toBeVisible();
  await form.getByLabel('Card URL').fill(withMockToken(cardUrlOf(keyedAgentOrigin)));
  await form.getByLabel('Bearer token').fill(token);
  await form.getByLabel('Security scheme').fill('bearer');
  await expect(form.getByLabel('Bearer token')).toHaveAttribute('type', 'password');
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByTestId('connection')).toHaveText(
    `surecall mock agent · JSONRPC · ${keyedAgentOrigin}/a2a/jsonrpc`,
  );
  // Folded, and the token is nowhere: not in the page, not in its address, not in the form opened again.
  await expect(form).toBeHidden();
  expect(page.url()).not.toContain(token);
  expect(await page.content()).not.toContain(token);
  await page.getByText('Connect to another agent').click();
  await expect(form.getByLabel('Bearer token')).toHaveValue('');
  await expect(form.getByLabel('Card URL')).toHaveValue(withMockToken(cardUrlOf(keyedAgentOrigin)));
  await screenshot(page, testInfo, 'connect-form-reopened');
});

test('the Calls panel logs each unary call with its raw, redacted events', async ({ page }, testInfo) => {
  await openDevtools(page);
  await page.getByRole('button', { name: /^Echo: echo hello/ }).click();
  await expect(page.getByTestId('send-outcome').first()).toHaveText('reply “echo hello”');
  await page.getByRole('tab', { name: 'Calls' }).click();
  const calls = page.getByRole('tabpanel', { name: 'Calls' });
  const row = calls.getByTestId('call').first();
  await expect(row).toContainText('SendMessage');
  await expect(row.getByTestId('call-outcome')).toHaveText('answered 200');
  await row.getByRole('button', { name: /^Events of call \d+$/ }).click();
  const tree = row.getByRole('tree', { name: /^Call \d+ events$/ });
  await expect(tree).toContainText('"request"');
  await expect(tree).toContainText('"response"');
  // The events' redaction: no URL, and not the message sent.
  await expect(tree).not.toContainText('http://');
  await expect(tree).not.toContainText('echo hello');
  await screenshot(page, testInfo, 'calls-panel');
});

test('every panel names its region and its controls in the accessibility tree', async ({
  page,
}, testInfo) => {
  await openDevtools(page);
  await page.getByRole('button', { name: /^Streamed task: task alpha beta gamma/ }).click();
  await expect(page.getByTestId('send-outcome').first()).toHaveText('task completed');
  await page.getByTestId('send').first().getByRole('button', { name: 'open task' }).click();
  const tabs = page.getByRole('tablist').getByRole('tab');
  const names = await tabs.allInnerTexts();
  expect(names).toEqual(['Agent', 'Tasks', 'Streams', 'Calls', 'Sends', 'Recovery', 'Faults']);
  const trees: string[] = [];
  for (const name of names) {
    await page.getByRole('tab', { name }).click();
    const panel = page.getByRole('tabpanel', { name });
    await expect(panel).toBeVisible();
    // Playwright's own accessibility tree of the panel: every control a person operates has a name.
    const tree = await panel.ariaSnapshot();
    const unnamed = tree
      .split('\n')
      .filter((line) =>
        /^\s*- (button|textbox|combobox|checkbox|switch|spinbutton|slider|link|tab)\s*(\[|:|$)/.test(line),
      );
    expect(unnamed, `${name}: controls without a name`).toEqual([]);
    trees.push(tree);
    await screenshot(page, testInfo, `panel-${name.toLowerCase()}`);
  }
  // The trees name what they hold as the check above expects: a named control reads `- role "name"`.
  expect(trees.join('\n')).toMatch(/^\s*- button "Refresh \(GetTask\)"/m);
  expect(trees.join('\n')).toMatch(/^\s*- switch "Drop after commit"/m);
});
