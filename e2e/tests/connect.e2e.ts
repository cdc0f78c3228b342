import { expect, test } from '@playwright/test';
import { cardUrlOf, keyedAgentOrigin, openDevtools, screenshot, withMockToken } from './helpers.js';

test('discovers the mock agent in the page and sends an echo', async ({ page }, testInfo) => {
  await openDevtools(page);

  const agent = page.getByRole('tabpanel', { name: 'Agent' });
  await expect(agent.getByRole('heading', { name: 'surecall mock agent' })).toBeVisible();
  await expect(agent.getByTestId('card-digest')).toHaveText(/^sha256:[0-9a-f]{64}$/);
  // The page's own origin is loopback http, which TLS cannot vouch for: discover() pinned the first fetch's
  // digest.
  await expect(agent.getByTestId('card-trust')).toHaveText(/^the digest of the first fetch/);
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
