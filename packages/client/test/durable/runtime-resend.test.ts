import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startMockAgent } from '@surecall/mocks/node';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileForChild } from '../support/child-build.js';
import type { ResendFindings } from '../support/resend-probe.js';

// docs/interop.md#runtimes: whether a runtime's fetch sends a POST again by itself when a warm keep-alive
// connection closes before any byte of the answer, measured in the runtime itself (Bun and Deno from their
// npm packages, the repository's devDependencies), and what the durable agent allows there. Node and Bun do
// not re-send: at-most-once needs no acknowledgement, and a lost answer is unknown with one execution. Deno
// re-sends, as Chromium does (e2e/tests/browser-resend.e2e.ts): at-most-once is refused without the
// acknowledgement, and a send it ran twice ends duplicated, never committed. A runtime upgrade that starts
// re-sending fails here.

const run = promisify(execFile);
const bin = (name: string) =>
  fileURLToPath(new URL(`../../../../node_modules/.bin/${name}`, import.meta.url));

/** What a child reports: the probe's findings, its lost send reconciled. */
type Report = Required<ResendFindings>;

let directory = '';
let child = '';
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-resend-'));
  child = await compileForChild('test/support/resend-child.ts', join(directory, 'build'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Runs the child in `runtime` against a fresh mock agent that ignores keys. */
async function measure(runtime: 'node' | 'bun' | 'deno'): Promise<Report> {
  const mock = await startMockAgent({ mode: 'foreign', stepMs: 0 });
  try {
    const [command, args] =
      runtime === 'node'
        ? [process.execPath, [child]]
        : runtime === 'bun'
          ? [bin('bun'), ['run', child]]
          : // Only the agent's port: the child needs nothing else (docs/interop.md#runtimes).
            [bin('deno'), ['run', `--allow-net=127.0.0.1:${mock.port}`, child]];
    const { stdout } = await run(command, [...args, mock.origin, mock.token], {
      cwd: join(directory, 'build'),
      env: { ...process.env, NO_COLOR: '1' },
    });
    const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Report;
    // The child's count and the agent's own agree: the warm-up, the lost send and the plain one, and what
    // rounds run again because their send left on a fresh connection ran (resend-probe.ts).
    expect(mock.executions.total()).toBe(1 + report.ranAfterReconciling + report.plainRan + report.discarded);
    return report;
  } finally {
    await mock.close();
  }
}

describe('a lost answer on a warm connection, in each runtime', () => {
  it.each(['node', 'bun'] as const)(
    '%s does not re-send: at-most-once needs no acknowledgement, and the lost send is unknown with one execution until reconciled',
    async (runtime) => {
      expect(await measure(runtime)).toEqual({
        refused: null,
        audit: false,
        warm: 'committed',
        lost: 'unknown',
        ran: 1,
        reconciled: 'committed',
        ranAfterReconciling: 1,
        plain: expect.stringMatching(/^transport network dispatched=true$/),
        plainRan: 1,
        discarded: expect.any(Number),
      });
    },
    60_000,
  );

  it('deno re-sends: at-most-once is refused without the acknowledgement, and a send it ran twice is duplicated, never committed', async () => {
    const report = await measure('deno');
    expect(report).toMatchObject({ refused: 'acknowledgeBrowserResend not-satisfied', audit: true });
    expect(report.warm).toBe('committed');
    // What Deno 2 does (docs/interop.md#runtimes): it re-sent the lost SendMessage, and the plain send
    // "answered" after running twice.
    expect(report.ran).toBe(2);
    expect(report.lost).toBe('duplicated');
    expect(report.reconciled).toBeNull();
    expect(report).toMatchObject({ plain: 'answered', plainRan: 2 });
  }, 60_000);
});

describe('a lost answer on a warm connection, in workerd', () => {
  it('workerd does not re-send: at-most-once needs no acknowledgement, the lost send is unknown with one execution, and @surecall/client/ledger refuses by name', async () => {
    // Bundled as wrangler bundles a worker: its export conditions, the source condition for this tree.
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL('../support/resend-worker.ts', import.meta.url))],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['@surecall/source', 'workerd', 'worker', 'browser'],
      write: false,
      logLevel: 'silent',
    });
    const mock = await startMockAgent({ mode: 'foreign', stepMs: 0 });
    const worker = new Miniflare({
      modules: true,
      script: bundle.outputFiles[0]?.text ?? '',
      compatibilityDate: '2026-07-30',
    });
    try {
      const answer = await worker.dispatchFetch('http://worker.test/', {
        method: 'POST',
        body: JSON.stringify({ origin: mock.origin, token: mock.token }),
      });
      expect(answer.status).toBe(200);
      const report = (await answer.json()) as Record<string, unknown>;
      expect(report).toEqual({
        store: {
          name: 'LedgerError',
          reason: 'unsupported',
          rule: 'indexeddb',
          message: expect.stringContaining('import @surecall/client/ledger/memory for a volatile ledger'),
        },
        refused: null,
        audit: false,
        warm: 'committed',
        lost: 'unknown',
        ran: 1,
        plain: 'transport network dispatched=true',
        plainRan: 1,
        discarded: expect.any(Number),
      });
      expect(mock.executions.total()).toBe(3 + Number(report['discarded']));
    } finally {
      await worker.dispose();
      await mock.close();
    }
  }, 120_000);
});
