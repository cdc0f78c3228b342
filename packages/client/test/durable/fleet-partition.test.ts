/**
A fleet whose workers are cut off from PostgreSQL by the network (docs/durable-send.md#leases): two worker
processes (`test/support/partition-worker.ts`), each inside a network namespace this file makes
(`test/support/netns.ts`), send to the loopback mock agent, which does the work and holds the answers until
both are cut off from the database (every packet of their path to it dropped, both ways); then the answers
go, and each worker's outcome writes wait on connections nothing crosses, past its lease. The one called
`fenced` is healed first, before anyone takes its records over: its late writes reach the database and are
refused on its lapsed lease alone. A third worker, outside, then reconciles every record by evidence; then
the one called `taken` is healed, and its late writes are refused too. Nothing is lost, nothing runs twice,
both cut-off workers' sends end `unknown` with the refusal, and after the takeover only the rescuer wrote.
The same runs with the server restarted (`pg_ctl restart -m fast`) while a worker is cut off, and with the
server's disk full (its data directory on a small tmpfs, filled) while the rescuer reconciles.

The server is the file's own (`test/support/own-postgres.ts`: its own data directory, port and addresses),
so the suites beside it never see the restart, the full disk or the namespaces' addresses. It needs root
and `ip`: without them `beforeAll` fails naming what is missing (it never skips). Every state is
waited for (a report, a row), never a time; everything made is removed in `afterAll`, and namespaces a killed
run left are removed by the next.

Each test fails without the lease check: in `src/ledger/postgres/statements.ts`, `mayWrite`, take
`AND lease_expires > clock_timestamp()` out of the arm of the writer's own session, and run this file: the
`fenced` worker's late writes commit, and every test fails at "refused on its lapsed lease"
(ARCHITECTURE.md#decisions, "PostgreSQL is a fleet's dispatch authority").
*/
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyHistory } from '../../src/ledger/ledger.js';
import { openPostgresLedger } from '../../src/ledger/postgres/entry.js';
import { compileForChild } from '../support/child-build.js';
import { ended, startWorker, type Worker } from '../support/fleet-processes.js';
import { type HeldAgent, startHeldAgent } from '../support/held-agent.js';
import { createNamespace, type Namespace, removeStale, requireNetworkNamespaces } from '../support/netns.js';
import { type OwnPostgres, startOwnPostgres } from '../support/own-postgres.js';

const run = promisify(execFile);
const sends = 4;
const leaseMs = 1500;

let directory = '';
// The tmpfs the server's data directory lives on (its write-ahead log stays on the disk, so a full tmpfs
// refuses writes with an error rather than stopping the server).
let disk = '';
let workerScript = '';
let namespaces: Namespace[] = [];
let server: OwnPostgres | undefined;
let agent: HeldAgent;
const unforward: (() => Promise<void>)[] = [];
const children = new Set<ChildProcess>();

beforeAll(async () => {
  await requireNetworkNamespaces();
  await removeStale();
  directory = await mkdtemp(join(tmpdir(), 'surecall-partition-'));
  workerScript = await compileForChild('test/support/partition-worker.ts', join(directory, 'build'));
  const relay = await compileForChild('test/support/loopback-relay.ts', join(directory, 'relay'));
  namespaces = [await createNamespace(0), await createNamespace(1)];
  agent = await startHeldAgent();
  for (const namespace of namespaces) {
    unforward.push(await namespace.forward(agent.port, relay));
  }
  // Beside the root-only folder, not in it: the server's user must reach it.
  disk = await mkdtemp(join(tmpdir(), 'surecall-partition-disk-'));
  await run('mount', ['-t', 'tmpfs', '-o', 'size=128m,mode=0700', 'tmpfs', disk]);
  server = await startOwnPostgres({
    hosts: namespaces.map((namespace) => namespace.postgresHost),
    trusted: '10.0.0.0/8',
    dataIn: disk,
  });
}, 300_000);
afterAll(async () => {
  await Promise.all([...children].map((child) => ended(child, 'SIGKILL')));
  await Promise.all(unforward.map((stop) => stop()));
  await Promise.all(namespaces.map((namespace) => namespace.remove().catch(() => undefined)));
  await server?.stop();
  await agent?.close();
  if (disk !== '') {
    await run('umount', [disk]).catch(() => undefined);
    await rm(disk, { recursive: true, force: true });
  }
  if (directory !== '') {
    await rm(directory, { recursive: true, force: true });
  }
}, 120_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One connection of the test's own to the server. */
async function database<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server?.url() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Resolves once `test` holds, asking again every 20 ms: waiting for a state of the database, not a time. */
async function until(what: string, test: () => Promise<boolean>): Promise<void> {
  for (let check = 0; !(await test().catch(() => false)); check++) {
    expect(check, what).toBeLessThan(6000);
    await sleep(20);
  }
}

/** How many of `ids` are `status` in the database (and, for `executing`, have lapsed leases). */
async function counted(schema: string, ids: readonly string[], status: string): Promise<number> {
  const lapsed = status === 'executing' ? 'AND lease_expires <= clock_timestamp()' : '';
  return database(async (client) => {
    const result = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${schema}".records WHERE id = ANY($1) AND status = $2 ${lapsed}`,
      [ids, status],
    );
    return Number(result.rows[0]?.n ?? -1);
  });
}

const reportsOf = (worker: Worker, event: string) =>
  worker.reports.filter((report) => report.event === event);

/** What a variant does while a worker is cut off, before the rescuer reconciles, and while it does. */
type Fault = {
  readonly beforeRescue?: () => Promise<void>;
  readonly duringRescue?: () => Promise<void>;
};

/**
Runs the scenario as `variant` (lowercase letters: the ids' prefix, so two variants' keyed messages, whose ids
follow the record's, stay apart at the one agent).
*/
async function partitioned(variant: string, fault: Fault): Promise<void> {
  const schema = `${variant}_${Date.now()}`;
  await (
    await openPostgresLedger({ connectionString: server?.url() ?? '' }, { schema, worker: 'setup' })
  ).close();
  const [inFenced, inTaken] = namespaces as [Namespace, Namespace];
  const start = (name: string, url: string, through: readonly string[] = []) =>
    startWorker(
      workerScript,
      [
        url,
        schema,
        agent.cardUrl,
        name,
        String(leaseMs),
        `${variant}${name}`,
        String(name === 'rescuer' ? 0 : sends),
      ],
      name,
      children,
      through,
    );
  const fenced = start('fenced', server?.url(inFenced.postgresHost) ?? '', inFenced.exec);
  const taken = start('taken', server?.url(inTaken.postgresHost) ?? '', inTaken.exec);
  const rescuer = start('rescuer', server?.url() ?? '');
  const workers = [fenced, taken, rescuer] as const;
  try {
    await scenario(variant, schema, fault, workers, [inFenced, inTaken]);
  } finally {
    // A failed run leaves no cut path nor process to the next.
    await Promise.all([inFenced.heal(), inTaken.heal()]);
    await Promise.all(workers.map((worker) => ended(worker.process, 'SIGKILL')));
  }
}

async function scenario(
  variant: string,
  schema: string,
  fault: Fault,
  workers: readonly [Worker, Worker, Worker],
  [inFenced, inTaken]: readonly [Namespace, Namespace],
): Promise<void> {
  const [fenced, taken, rescuer] = workers;
  const idsOf = (name: string) => Array.from({ length: sends }, (_, index) => `${variant}${name}-${index}`);
  await Promise.all(workers.map((worker) => worker.until((report) => report.event === 'ready')));
  const cut = [...idsOf('fenced'), ...idsOf('taken')];

  // The work is done and its answers held: both are mid-send when the database goes out of reach.
  const release = agent.hold();
  fenced.process.stdin?.write('send\n');
  taken.process.stdin?.write('send\n');
  await agent.untilHeld(2 * sends);
  await Promise.all([inFenced.cut(), inTaken.cut()]);
  release();
  for (const worker of [fenced, taken]) {
    await worker.until(() => reportsOf(worker, 'io-end').length === sends);
  }
  // Their outcomes are on the way to a database that hears nothing, and their leases lapse.
  await until(
    'the cut-off leases lapse',
    async () => (await counted(schema, cut, 'executing')) === cut.length,
  );

  // Healed before anyone took its records over: the writes arrive, and the lapsed lease alone refuses them.
  await inFenced.heal();
  await fenced.until(() => reportsOf(fenced, 'sent').length === sends);
  expect(
    reportsOf(fenced, 'sent')
      .map((report) => [report.id, report.status, report.reason])
      .sort(),
    'refused on its lapsed lease',
  ).toEqual(idsOf('fenced').map((id) => [id, 'unknown', 'fenced']));
  expect(await counted(schema, idsOf('fenced'), 'executing')).toBe(sends);

  await fault.beforeRescue?.();
  rescuer.process.stdin?.write('reconcile\n');
  await fault.duringRescue?.();
  await until(
    'the rescuer commits every record',
    async () => (await counted(schema, cut, 'committed')) === cut.length,
  );

  // Healed after the takeover: its late writes are refused too (on the moved revision, or, when the
  // server restarted under it, by the connection the server no longer has), and its sends end unknown.
  await inTaken.heal();
  await taken.until(() => reportsOf(taken, 'sent').length === sends);
  for (const report of reportsOf(taken, 'sent')) {
    expect(report.status, report.id).toBe('unknown');
    expect(['stale-revision', 'fenced', 'io'], report.id).toContain(report.reason);
  }
  for (const worker of workers) {
    worker.process.stdin?.end();
  }
  await Promise.all(workers.map((worker) => worker.until(() => false)));
  expect(workers.map((worker) => [worker.name, worker.process.exitCode])).toEqual(
    workers.map((worker) => [worker.name, 0]),
  );
  expect(workers.flatMap((worker) => reportsOf(worker, 'refused'))).toEqual([]);

  const auditor = await openPostgresLedger(
    { connectionString: server?.url() ?? '' },
    { schema, worker: 'auditor', readOnly: true },
  );
  try {
    const records = await auditor.list();
    // Nothing lost, each run exactly once, the original attempt alone.
    expect(records.map((record) => record.id).sort()).toEqual([...cut].sort());
    for (const record of records) {
      const messageId = record.attempts[0]?.messageId ?? '';
      expect(record.state.status, record.id).toBe('committed');
      expect(record.attempts.length, record.id).toBe(1);
      expect(agent.agent.executions.of(messageId), record.id).toBe(1);
      if (record.delivery === 'at-most-once') {
        expect(agent.requests.get(messageId), record.id).toBe(1);
      }
      expect((await verifyHistory(await auditor.history(record.id))).ok, record.id).toBe(true);
    }
    // After the cut-off workers' first start, only the rescuer wrote.
    const writers = await database(async (client) => {
      const result = await client.query<{ worker: string }>(
        `SELECT DISTINCT worker FROM "${schema}".revisions WHERE revision > 1`,
      );
      return result.rows.map((row) => row.worker);
    });
    expect(writers).toEqual(['rescuer']);
  } finally {
    await auditor.close();
  }
}

describe('a fleet cut off from PostgreSQL by the network', () => {
  it('refuses the late writes of a worker cut off mid-send past its lease, before and after another worker reconciles its sends: none lost, none run twice, its sends unknown', async () => {
    await partitioned('partition', {});
  }, 180_000);

  it('the same with the server restarted (pg_ctl restart -m fast) while a worker is cut off', async () => {
    await partitioned('restart', { beforeRescue: () => (server as OwnPostgres).restart() });
  }, 180_000);

  it("the same with the server's disk full while the rescuer reconciles, until space is freed", async () => {
    const filler = join(disk, 'filler');
    const own = server as OwnPostgres;
    const before = (await own.log()).length;
    try {
      await partitioned('diskfull', {
        // dd ends with ENOSPC once the tmpfs holds not one page more.
        beforeRescue: () =>
          run('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M']).then(
            () => undefined,
            () => undefined,
          ),
        duringRescue: async () => {
          // The server refused a write for the full disk (a table or index could not grow): then the space
          // comes back.
          await until('a write refused for the full disk', async () =>
            (await own.log()).slice(before).includes('could not extend file'),
          );
          await rm(filler, { force: true });
        },
      });
    } finally {
      await rm(filler, { force: true });
    }
  }, 180_000);
});
