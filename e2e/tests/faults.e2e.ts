import { expect, test } from '@playwright/test';
import { openDevtools, screenshot } from './helpers.js';

test('the Faults panel drops an answer after commit and the execution counter shows the work was done', async ({
  page,
}, testInfo) => {
  await openDevtools(page);
  await page.getByRole('tab', { name: 'Faults' }).click();
  const faults = page.getByRole('tabpanel', { name: 'Faults' });
  await expect(faults.getByTestId('executions-total')).toHaveText('0');
  await expect(faults.getByTestId('no-faults')).toBeVisible();

  const dropAfter = faults.getByRole('switch', { name: 'Drop after commit' });
  await expect(dropAfter).toHaveAttribute('aria-checked', 'false');
  // The switch says what a browser does with it against an agent in another process
  // (docs/interop.md#browsers).
  await expect(
    faults.getByText(/A browser talking to an agent in another process re-sends the POST/),
  ).toBeVisible();
  await expect(faults.getByText(/Every client sees it, a browser included/)).toBeVisible();
  await dropAfter.click();
  await expect(dropAfter).toHaveAttribute('aria-checked', 'true');
  await expect(faults.getByRole('region', { name: 'Armed faults' })).toContainText(
    'Drop after commit on SendMessage, 1 left',
  );
  await screenshot(page, testInfo, 'faults-armed');

  await page.getByLabel('Message', { exact: true }).fill('echo lost');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('send-outcome').first()).toContainText(
    'TransportError: transport (network); the request may have been applied: outcome unknown',
  );

  // The fault was spent by that send; the agent ran it once although the client never saw the answer.
  await expect(dropAfter).toHaveAttribute('aria-checked', 'false');
  await expect(faults.getByTestId('executions-total')).toHaveText('1');
  await expect(faults.getByRole('row', { name: /echo lost/ }).getByTestId('execution-count')).toHaveText('1');
  await screenshot(page, testInfo, 'faults-drop-after');
});
