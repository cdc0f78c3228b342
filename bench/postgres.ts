/**
`npm run bench -- postgres`: the PostgreSQL ledger on a local server this suite starts (`scripts/postgres.sh`,
loopback, deleted afterwards).

- `ledger-postgres-commit-64`: ledger commits per second with 64 concurrent writers (one ledger, 64
  connections; each writer creates, starts and commits sends, three commits each, each checking its revision,
  digest and lease on its own row, and the writes made at once sharing a statement,
  docs/durable-send.md#group-commit), beside a bare `INSERT` loop (each its own transaction, so an
  `INSERT … ; COMMIT`) with 64 connections writing rows of the same size to the same server in the same run.
  Goal: ratio ≥ 1.0 (batching beats one commit per row).
- `durable-throughput-postgres-64`: durable sends per second, 64 concurrent senders across 4 worker processes
  each with its own PostgreSQL ledger on one schema, beside plain `sendMessage` calls from the same 4
  processes at the same concurrency, to the mock agent on loopback in this process. Goal: ratio ≥ 0.8.
- `ledger-postgres-claim-1m`, `ledger-postgres-inbox-1m`: claiming due records and listing the inbox as the
  table grows from 10,000 to 1,000,000 settled records (bench/postgres-scale.ts). Goal: ratio ≤ 2.
*/
import { type ChildProcess, execFile } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { startMockAgent } from '../mocks/src/mounts/node.js';
import type { Ledger } from '../packages/client/src/ledger/ledger.js';
import { openPostgresLedger } from '../packages/client/src/ledger/postgres/entry.js';
import { sourceChild } from './child.js';
import { intent } from './fixtures.js';
import { type BenchRow, row, sideBySide } from './harness.js';
import { scaleRows } from './postgres-scale.js';

const runs = 3;
const writers = 64;
const sampleMs = 2000;
const script = fileURLToPath(new URL('../scripts/postgres.sh', import.meta.url));
const shell = promisify(execFile);

let sample = 0;

/** Ledger commits per second: `writers` writers sending for `sampleMs`, three commits a send. */
async function ledgerRun(ledger: Ledger): Promise<number> {
  const prefix = `s${sample++}`;
  let commits = 0;
  const deadline = performance.now() + sampleMs;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let index = 0; performance.now() < deadline; index++) {
        const id = `${prefix}-${writer}-${index}`;
        await ledger.create(intent(id));
        await ledger.transition(id, 0, { type: 'start', attemptId: `a-${id}`, messageId: `m-${id}` });
        await ledger.transition(id, 1, {
          type: 'commit',
          attemptId: `a-${id}`,
          result: { kind: 'task', taskId: `t-${id}`, contextId: `c-${id}` },
        });
        commits += 3;
      }
    }),
  );
  return commits / ((performance.now() - start) / 1000);
}

/**
The anchor: `writers` connections each inserting a row of `bytes` bytes per transaction, for `sampleMs`.
*/
async function bareRun(pool: pg.Pool, bytes: number): Promise<number> {
  const body = 'x'.repeat(bytes);
  let rows = 0;
  const deadline = performance.now() + sampleMs;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (performance.now() < deadline) {
        await pool.query('INSERT INTO bench_anchor (body) VALUES ($1)', [body]);
        rows += 1;
      }
    }),
  );
  return rows / ((performance.now() - start) / 1000);
}

type Worker = { readonly child: ChildProcess; readonly lines: string[]; next(): Promise<string> };

function startWorker(args: readonly string[]): Worker {
  const child = sourceChild('bench/postgres-worker.ts', args, { stdin: 'pipe' });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const waiter = waiters.shift();
    if (waiter === undefined) {
      lines.push(line);
    } else {
      waiter(line);
    }
  });
  return {
    child,
    lines,
    next: () =>
      new Promise((resolve) => {
        const line = lines.shift();
        if (line === undefined) {
          waiters.push(resolve);
        } else {
          resolve(line);
        }
      }),
  };
}

/** Sends per second of four workers × 16 senders in `mode` for `sampleMs`. */
async function fleetRun(workers: readonly Worker[], mode: 'durable' | 'plain'): Promise<number> {
  for (const entry of workers) {
    entry.child.stdin?.write(`${mode} ${sampleMs}\n`);
  }
  const counts = await Promise.all(
    workers.map(async (entry) => JSON.parse(await entry.next()) as { sends: number; ms: number }),
  );
  return counts.reduce((sum, count) => sum + count.sends / (count.ms / 1000), 0);
}

/** Measures both rows on one fresh server. */
export async function run(): Promise<BenchRow[]> {
  const { stdout } = await shell('bash', [script, 'start'], { timeout: 600_000 });
  const url = stdout.trim().split('\n').at(-1) ?? '';
  const mock = await startMockAgent({ stepMs: 0 });
  const workers: Worker[] = [];
  try {
    const pool = new pg.Pool({ connectionString: url, max: writers });
    await pool.query('CREATE TABLE bench_anchor (id bigserial PRIMARY KEY, body text NOT NULL)');
    const ledger = await openPostgresLedger(
      { connectionString: url },
      { schema: 'bench_commit', poolSize: writers, worker: 'bench' },
    );
    // The anchor's rows are as large as the record rows the ledger writes.
    const probe = await ledger.create(intent('size'));
    const bytes = JSON.stringify(probe).length;
    const commit = await sideBySide(
      runs,
      () => ledgerRun(ledger),
      () => bareRun(pool, bytes),
    );
    await ledger.close();
    await pool.end();

    for (let index = 0; index < 4; index++) {
      const started = startWorker([url, 'bench_fleet', mock.cardUrl, `bench-${index}`, '16']);
      workers.push(started);
    }
    for (const entry of workers) {
      if ((await entry.next()) !== 'ready') {
        throw new Error('bench/postgres: a worker did not start');
      }
    }
    const throughput = await sideBySide(
      runs,
      () => fleetRun(workers, 'durable'),
      () => fleetRun(workers, 'plain'),
    );
    for (const entry of workers) {
      entry.child.stdin?.end();
    }
    // The table as it grows, once the timed rows are done, so its seeding never slows theirs.
    const admin = new pg.Pool({ connectionString: url, max: 2 });
    const scale = await scaleRows(url, admin).finally(() => admin.end());
    return [
      row(
        'ledger-postgres-commit-64',
        'commits/s',
        commit,
        `bare INSERT; COMMIT loop, ${writers} connections, same server`,
        { op: '>=', ratio: 1.0 },
      ),
      row(
        'durable-throughput-postgres-64',
        'sends/s',
        throughput,
        'plain sendMessage, 4 processes × 16 senders',
        { op: '>=', ratio: 0.8 },
      ),
      ...scale,
    ];
  } finally {
    for (const entry of workers) {
      entry.child.stdin?.end();
      entry.child.kill('SIGTERM');
    }
    await mock.close();
    await shell('bash', [script, 'stop', url], { timeout: 120_000 });
  }
}
