import { expect, test } from '@playwright/test';
import { openDevtools, screenshot, selectTab } from './helpers.js';

test('a streamed task shows its chunked artifact assembled and its frames with meters', async ({
  page,
}, testInfo) => {
  await openDevtools(page);

  await page.getByRole('button', { name: /^Streamed task: task alpha beta gamma/ }).click();
  const send = page.getByTestId('send').first();
  await expect(send.getByTestId('send-outcome')).toHaveText('task completed');
  await expect(send).toContainText('6 events');

  await send.getByRole('button', { name: 'open task' }).click();
  const tasks = page.getByRole('tabpanel', { name: 'Tasks' });
  const detail = tasks.getByRole('article');
  await expect(detail.getByTestId('task-state')).toHaveText('completed');
  const history = detail.getByRole('region', { name: 'Status history' }).getByRole('listitem');
  await expect(history.nth(0)).toContainText('submitted');
  await expect(history.nth(1)).toContainText('working');
  await expect(history.nth(2)).toContainText('completed');
  // GetTask's snapshot repeats a status the stream reported, or predates one: merged or placed by the agent's
  // timestamps, never a fourth entry after `completed` (the timeline once showed a stale `submitted` there
  // under load).
  await expect(history).toHaveCount(3);
  const artifact = detail.getByTestId('artifact');
  await expect(artifact.getByTestId('artifact-text')).toHaveText('alpha beta gamma');
  // Assembled from the stream's chunks; GetTask's snapshot only confirms it.
  await expect(artifact).toContainText('3 chunks assembled');
  await screenshot(page, testInfo, 'task-artifact');

  // ListTasks with a status filter finds it; a filter the task does not meet finds nothing.
  const filters = tasks.getByRole('form', { name: 'Task filters' });
  await filters.getByLabel('Status', { exact: true }).selectOption({ label: 'completed' });
  await filters.getByRole('button', { name: 'List tasks' }).click();
  const listed = tasks.getByRole('region', { name: 'Listed tasks' });
  await expect(listed.getByRole('listitem')).toHaveCount(1);
  await expect(listed).toContainText('page 1 · 1 in total');
  await filters.getByLabel('Status', { exact: true }).selectOption({ label: 'working' });
  await filters.getByRole('button', { name: 'List tasks' }).click();
  await expect(listed).toContainText('No task matches.');

  await selectTab(page, 'Streams');
  const streams = page.getByRole('tabpanel', { name: 'Streams' });
  await expect(streams.getByTestId('stream-status')).toHaveText('complete');
  const frames = streams.getByRole('region', { name: 'Frames' }).getByRole('row');
  await expect(frames).toHaveCount(7);
  await expect(frames.nth(1)).toContainText('task submitted');
  await expect(frames.nth(3)).toContainText('artifact text: start “alpha ”');
  await expect(frames.nth(5)).toContainText('artifact text: append, last chunk “gamma”');
  const meters = streams.getByRole('region', { name: 'Bounds' }).locator('meter');
  await expect(meters).toHaveCount(5);
  for (const bound of ['line', 'event', 'total', 'events', 'idle']) {
    await expect(streams.locator(`[data-bound="${bound}"]`)).toHaveClass(/level-ok/);
  }
  await expect(streams.locator('[data-bound="events"] .meter-text')).toHaveText('6 of 4096 (0.1%)');
  await expect(streams.locator('[data-bound="line"] .meter-text')).toContainText('of 512 KiB');

  await frames.nth(3).getByRole('button').click();
  await expect(streams.getByRole('tree', { name: 'Frame 2 JSON' })).toContainText('"alpha "');
  await screenshot(page, testInfo, 'stream-frames');
});

test('a stream cut after two frames is resumed by SubscribeToTask: the Streams panel shows the seam and one log', async ({
  page,
}, testInfo) => {
  await openDevtools(page);
  await selectTab(page, 'Faults');
  const faults = page.getByRole('tabpanel', { name: 'Faults' });
  await faults.getByLabel('Operation').selectOption('SendStreamingMessage');
  await faults.getByRole('switch', { name: 'Cut stream' }).click();
  await expect(faults.getByRole('region', { name: 'Armed faults' })).toContainText(
    'Cut stream on SendStreamingMessage (afterFrames 2), 1 left',
  );

  await page.getByRole('button', { name: /^Streamed task: task alpha beta gamma/ }).click();
  const send = page.getByTestId('send').first();
  await expect(send.getByTestId('send-outcome')).toHaveText('task completed');
  // The message was sent once: the agent ran it once although its stream broke.
  await expect(faults.getByTestId('executions-total')).toHaveText('1');

  await selectTab(page, 'Streams');
  const streams = page.getByRole('tabpanel', { name: 'Streams' });
  await expect(streams.getByTestId('stream-status')).toHaveText('complete');
  const seam = streams.getByTestId('stream-seam');
  await expect(seam).toHaveCount(1);
  await expect(seam).toContainText(
    'stream broke (read) after 2 frames; resumed: attempt 1 by SubscribeToTask',
  );
  const rows = streams.getByRole('region', { name: 'Frames' }).getByRole('row');
  // The header, two frames, the seam, then the frames the subscription delivered, its snapshot first.
  await expect(rows.nth(1)).toContainText('task submitted');
  await expect(rows.nth(3)).toHaveAttribute('data-testid', 'stream-seam');
  await expect(rows.nth(4)).toContainText('task ');
  await expect(streams.getByRole('navigation', { name: 'Streams' })).toContainText('1 break');
  await screenshot(page, testInfo, 'stream-seam');
});

test('a task reads as its conversation: parts as text, Markdown and HTML never interpreted', async ({
  page,
}, testInfo) => {
  await openDevtools(page);
  const text = 'task **bold** <img src=x onerror="window.__surecallPwned=1"> `code`';
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send streaming' }).click();
  const send = page.getByTestId('send').first();
  await expect(send.getByTestId('send-outcome')).toHaveText('task completed');
  await send.getByRole('button', { name: 'open task' }).click();

  const conversation = page
    .getByRole('tabpanel', { name: 'Tasks' })
    .getByRole('article')
    .getByRole('region', { name: 'Conversation' });
  const turns = conversation.getByTestId('turn');
  await expect(turns.first()).toHaveAttribute('data-from', 'user');
  await expect(turns.first().locator('.part-text')).toHaveText(text);
  const artifact = conversation.locator('[data-testid="turn"][data-kind="artifact"]');
  await expect(artifact).toHaveCount(1);
  await expect(artifact.locator('.part-text')).toHaveText(
    '**bold** <img src=x onerror="window.__surecallPwned=1"> `code`',
  );
  // Nothing of the peer's text became markup.
  await expect(conversation.locator('img, strong, code')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __surecallPwned?: number }).__surecallPwned)).toBeUndefined();
  // The accessibility tree: a labelled region, a list of turns named by who spoke.
  await expect(conversation).toMatchAriaSnapshot(`
    - heading "Conversation" [level=3]
    - list:
      - listitem "user"
      - listitem /^agent · artifact/
  `);
  await screenshot(page, testInfo, 'task-conversation');
});

test('the filter box narrows the tasks seen and a stream’s frames by id, state and text', async ({
  page,
}, testInfo) => {
  await openDevtools(page);
  await page.getByRole('button', { name: /^Streamed task: task alpha beta gamma/ }).click();
  await expect(page.getByTestId('send-outcome').first()).toHaveText('task completed');
  await page.getByLabel('Message', { exact: true }).fill('task to lyon');
  await page.getByRole('button', { name: 'Send streaming' }).click();
  await expect(page.getByTestId('send-outcome').first()).toHaveText('task completed');

  await selectTab(page, 'Tasks');
  const seen = page
    .getByRole('tabpanel', { name: 'Tasks' })
    .getByRole('region', { name: 'Tasks seen in this session' });
  const tasksFilter = page.getByRole('search', { name: 'Filter tasks' });
  await expect(tasksFilter.getByTestId('filter-count')).toHaveText('2 of 2');
  await tasksFilter.getByLabel('Filter tasks').fill('LYON completed');
  await expect(tasksFilter.getByTestId('filter-count')).toHaveText('1 of 2');
  await expect(seen.getByRole('listitem')).toHaveCount(1);
  await tasksFilter.getByLabel('Filter tasks').fill('gamma');
  await expect(tasksFilter.getByTestId('filter-count')).toHaveText('1 of 2');
  await tasksFilter.getByLabel('Filter tasks').fill('canceled');
  await expect(seen.getByRole('listitem')).toHaveCount(0);

  await selectTab(page, 'Streams');
  const streams = page.getByRole('tabpanel', { name: 'Streams' });
  const framesFilter = streams.getByRole('search', { name: 'Filter frames' });
  await framesFilter.getByLabel('Filter frames').fill('artifact lyon');
  await expect(framesFilter.getByTestId('filter-count')).toHaveText(/^1 of \d+$/);
  await expect(
    streams.getByRole('region', { name: 'Frames' }).locator('[data-testid="frame"]:visible'),
  ).toHaveCount(1);
  await screenshot(page, testInfo, 'filtered-frames');
});
