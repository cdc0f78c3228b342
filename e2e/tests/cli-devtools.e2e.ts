import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { mockControl, nodeAgentCardUrl, screenshot } from './helpers.js';

/**
`surecall devtools --ledger <file>` in Chromium: the CLI makes a durable send whose answer the Node mock agent
drops, serves the devtools app with the read-only endpoint over that file ledger, and the page shows the send
in the unknown inbox without a Reconcile action. A `surecall sends reconcile` in another process then moves it
to committed, and the page, polling the endpoint, follows. The production build of the devtools this config
makes first is the app the CLI serves.
*/

const bin = fileURLToPath(new URL('../../packages/cli/bin/surecall.js', import.meta.url));

function surecall(args: readonly string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string }>;
} {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const done = new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
  return { child, done };
}

test('surecall devtools shows a file ledger read-only, and follows a reconciliation made from a shell', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const directory = await mkdtemp(join(tmpdir(), 'surecall-e2e-cli-'));
  const ledger = join(directory, 'sends.jsonl');
  const origin = new URL(nodeAgentCardUrl).origin;
  let server: ChildProcess | undefined;
  try {
    const armed = await fetch(`${origin}/__faults`, {
      method: 'POST',
      headers: mockControl,
      body: JSON.stringify({ kind: 'drop-after', operation: 'SendMessage' }),
    });
    expect(armed.ok).toBe(true);
    const sent = await surecall([
      'send',
      nodeAgentCardUrl,
      'task book the 9:40 to Lyon',
      '--loopback',
      '--durable',
      '--ledger',
      ledger,
      '--delivery',
      'at-most-once',
      '--json',
    ]).done;
    expect(sent.code).toBe(3);
    const { id } = JSON.parse(sent.stdout) as { id: string };

    const devtools = surecall(['devtools', '--ledger', ledger, '--json']);
    server = devtools.child;
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      devtools.child.stdout?.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const line = text.split('\n')[0];
        if (text.includes('\n') && line !== undefined) {
          resolve((JSON.parse(line) as { url: string }).url);
        }
      });
      devtools.done.then(() => reject(new Error('surecall devtools exited before printing its URL')));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#ledger=/);

    await page.goto(url);
    await expect(page.getByTestId('connection')).toContainText('read-only');
    const entry = page.getByRole('region', { name: 'Unknown outcomes' }).getByTestId('inbox-entry');
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText('task book the 9:40 to Lyon');
    await expect(entry.getByRole('button', { name: /^Reconcile / })).toBeDisabled();
    // A read-only page offers nothing it cannot do (no import of another ledger), with the panels' margin.
    await expect(page.getByText('Import a Node file ledger')).toHaveCount(0);
    await expect(page.getByLabel('Ledger file (JSON lines)')).toHaveCount(0);
    const margin = await page
      .getByRole('main')
      .evaluate((main) => Number.parseFloat(getComputedStyle(main).paddingLeft));
    expect(margin).toBeGreaterThan(8);
    await screenshot(page, testInfo, 'cli-devtools-unknown');

    const reconciled = await surecall([
      'sends',
      'reconcile',
      id,
      '--ledger',
      ledger,
      '--card',
      nodeAgentCardUrl,
      '--loopback',
    ]).done;
    expect(reconciled.code).toBe(0);
    const row = page.getByRole('table', { name: 'Durable sends' }).getByTestId('durable-send');
    await expect(row.getByTestId('durable-status')).toHaveText('committed');
    await expect(page.getByTestId('inbox-empty')).toBeVisible();
    await screenshot(page, testInfo, 'cli-devtools-committed');

    server.kill('SIGTERM');
    expect((await devtools.done).code).toBe(0);
    server = undefined;
  } finally {
    server?.kill('SIGKILL');
    await rm(directory, { recursive: true, force: true });
  }
});

test('surecall devtools shows the trace id of a send a traced service made (docs/tracing.md#durable-sends)', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const directory = await mkdtemp(join(tmpdir(), 'surecall-e2e-trace-'));
  const ledger = join(directory, 'sends.jsonl');
  let server: ChildProcess | undefined;
  try {
    // A Node service's durable send with OpenTelemetry on: its record keeps the send's trace context.
    const script = fileURLToPath(new URL('./traced-send.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--conditions=@surecall/source', '--import', 'tsx', script, nodeAgentCardUrl, ledger],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let printed = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    expect(code).toBe(0);
    const sent = JSON.parse(printed) as { status: string; traceId: string };
    expect(sent.status).toBe('committed');
    expect(sent.traceId).toMatch(/^[\da-f]{32}$/);

    const devtools = surecall(['devtools', '--ledger', ledger, '--json']);
    server = devtools.child;
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      devtools.child.stdout?.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const line = text.split('\n')[0];
        if (text.includes('\n') && line !== undefined) {
          resolve((JSON.parse(line) as { url: string }).url);
        }
      });
      devtools.done.then(() => reject(new Error('surecall devtools exited before printing its URL')));
    });
    await page.goto(url);
    const row = page.getByRole('table', { name: 'Durable sends' }).getByTestId('durable-send');
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('durable-status')).toHaveText('committed');
    await expect(row.getByTestId('send-trace-id')).toHaveText(sent.traceId);
    await screenshot(page, testInfo, 'cli-devtools-trace-id');

    server.kill('SIGTERM');
    expect((await devtools.done).code).toBe(0);
    server = undefined;
  } finally {
    server?.kill('SIGKILL');
    await rm(directory, { recursive: true, force: true });
  }
});
