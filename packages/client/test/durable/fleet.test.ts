/**
A fleet on the PostgreSQL ledger (docs/durable-send.md#running-a-fleet), on a real server the
`client (postgres)` project starts: worker processes (`test/support/fleet-worker.ts`) share one ledger and
make durable sends to a loopback mock agent with faults armed, and are killed with SIGKILL at seeded random
points and restarted; a worker paused past its lease cannot write; an unknown send goes through a pending
probe to a committed one under a later lease, with one business call; and one live process per worker id: a
second process with the id of one sending is refused, a restart after a SIGKILL mid-send opens at once and
recovers the send as unknown, and a send whose worker id is taken mid-send ends unknown
(docs/durable-send.md#one-live-process-per-worker-id).

`SURECALL_SEED` changes the seed.
*/
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FaultLab, FaultSpec, MockAgent } from '@surecall/mocks';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type A2aClient, createClient } from '../../src/client/client.js';
import { LedgerError } from '../../src/core/errors.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { durableAgent } from '../../src/durable/agent.js';
import { type LedgerRecord, verifyHistory } from '../../src/ledger/ledger.js';
import { openPostgresLedger } from '../../src/ledger/postgres/entry.js';
import { workerLockKeys } from '../../src/ledger/postgres/worker-lock.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import { compileForChild } from '../support/child-build.js';
import {
  ended,
  type FleetAgent,
  seeded,
  startFleetAgent,
  startWorker,
  type Worker,
} from '../support/fleet-processes.js';

const { SURECALL_SEED } = process.env;
const seed = Number(SURECALL_SEED ?? 20_261_201);
const url = inject('postgresUrl');

let directory = '';
let worker = '';
let fleetAgent: FleetAgent;
let agent: MockAgent;
let faults: FaultLab;
let cardUrl = '';
// SendMessage requests the mock agent received, per messageId: an at-most-once attempt must never arrive
// twice.
let requests: Map<string, number>;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-fleet-'));
  worker = await compileForChild('test/support/fleet-worker.ts', join(directory, 'build'));
  fleetAgent = await startFleetAgent();
  ({ agent, faults, cardUrl, requests } = fleetAgent);
}, 120_000);
afterAll(async () => {
  await fleetAgent?.close();
  await rm(directory, { recursive: true, force: true });
});

const children = new Set<ChildProcess>();
afterEach(async () => {
  faults.clear();
  agent.executions.reset();
  requests.clear();
  await Promise.all([...children].map((child) => ended(child, 'SIGKILL')));
  children.clear();
});

function start(args: readonly string[], name: string): Worker {
  return startWorker(worker, args, name, children);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function loopbackClient(): Promise<A2aClient> {
  const raw = (await (await fetch(cardUrl)).json()) as JsonValue;
  const card = parseAgentCard(raw);
  const pinned = card.supportedInterfaces.find((entry) => entry.protocolBinding === 'JSONRPC');
  return createClient({
    card,
    cardDigest: await cardDigest(raw),
    pin: { binding: 'JSONRPC', url: pinned?.url ?? '' },
    security: { kind: 'anonymous' },
  });
}

/** Reads the database directly: counts of what is still in flight or due, and who wrote each revision. */
async function database<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function openWork(schema: string): Promise<number> {
  return database(async (client) => {
    const result = await client.query<{ open: string }>(
      `SELECT count(*) AS open FROM "${schema}".records
       WHERE status = 'executing' OR due_at IS NOT NULL`,
    );
    return Number(result.rows[0]?.open ?? -1);
  });
}

async function writers(schema: string, id: string): Promise<{ revision: number; worker: string }[]> {
  return database(async (client) => {
    const result = await client.query<{ revision: number; worker: string }>(
      `SELECT revision, worker FROM "${schema}".revisions WHERE id = $1 ORDER BY revision`,
      [id],
    );
    return result.rows;
  });
}

/**
The backend that holds the worker lock of `worker` in `schema` (the two-key advisory lock, objsubid 2), if one
does.
*/
async function lockHolder(schema: string, worker: string): Promise<number | undefined> {
  const [first, second] = workerLockKeys(schema, worker);
  return database(async (client) => {
    const found = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
         AND classid::bigint = $1 AND objid::bigint = $2
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [first >>> 0, second >>> 0],
    );
    return found.rows[0]?.pid;
  });
}

/** The messageId of a record's one attempt, as the agent counts its business actions by it. */
function messageIdOf(record: LedgerRecord): string {
  return record.attempts[0]?.messageId ?? '';
}

describe('a fleet of four workers on one PostgreSQL ledger', () => {
  it(`sends 200 durable messages through faults and SIGKILLs: each executed once or unknown with its evidence, none lost, none re-sent blindly, no lease held twice (seed ${seed})`, async () => {
    const schema = `fleet_${seed}_${Date.now()}`;
    const random = seeded(seed);
    const total = 200;
    const fleet = 4;
    const leaseMs = 3000;
    const spawnWorker = (slot: number, generation: number) =>
      start(
        [
          url,
          schema,
          cardUrl,
          `worker-${slot}`,
          String(leaseMs),
          String(slot),
          String(fleet),
          String(total),
          '4',
        ],
        `worker-${slot}#${generation}`,
      );
    // The faults of the run, re-armed after every kill: answers lost after the work was done, late answers,
    // connections reset before the work, and probes that fail on the way.
    const armed: FaultSpec[] = [
      { kind: 'drop-after', operation: 'SendMessage', count: 12 },
      { kind: 'delay', operation: 'SendMessage', ms: 150, when: 'after', count: 10 },
      { kind: 'drop-before', operation: 'SendMessage', count: 6 },
      { kind: 'drop-before', operation: 'ListTasks', count: 4 },
    ];
    const arm = () => {
      faults.clear();
      for (const spec of armed) {
        faults.set(spec);
      }
    };
    arm();
    // The schema is created once, before four workers race to open it.
    await (await openPostgresLedger({ connectionString: url }, { schema, worker: 'setup' })).close();
    const everyone: Worker[] = [];
    const live: Worker[] = [];
    for (let slot = 0; slot < fleet; slot++) {
      const started = spawnWorker(slot, 0);
      everyone.push(started);
      live.push(started);
    }
    await Promise.all(live.map((entry) => entry.until((report) => report.event === 'ready')));
    // Seeded kills while the sends are under way: a random worker, after a random number of its own reports.
    let kills = 0;
    for (let round = 0; round < 6; round++) {
      const slot = Math.floor(random() * fleet);
      const victim = live[slot] as Worker;
      const after = victim.reports.length + 5 + Math.floor(random() * 60);
      await victim.until((report) => report.event === 'done' || victim.reports.length >= after);
      if (victim.reports.some((report) => report.event === 'done')) {
        continue;
      }
      await ended(victim.process, 'SIGKILL');
      kills += 1;
      arm();
      const restarted = spawnWorker(slot, round + 1);
      everyone.push(restarted);
      live[slot] = restarted;
      await restarted.until((report) => report.event === 'ready');
    }
    await Promise.all(live.map((entry) => entry.until((report) => report.event === 'done')));
    faults.clear();
    // The survivors' reconcilers run until nothing is executing or due.
    for (let waited = 0; (await openWork(schema)) > 0; waited++) {
      expect(waited, 'the reconcilers settle every record').toBeLessThan(600);
      await sleep(100);
    }
    for (const entry of live) {
      entry.process.stdin?.end();
    }
    await Promise.all(live.map((entry) => ended(entry.process, 'SIGTERM')));

    const ledger = await openPostgresLedger({ connectionString: url }, { schema, readOnly: true });
    const records = await ledger.list();
    // No record lost: every send of the plan has its record.
    expect(records.map((record) => record.id).sort()).toEqual(
      Array.from({ length: total }, (_, index) => `fleet-${index}`).sort(),
    );
    const tally = new Map<string, number>();
    for (const record of records) {
      const runs = agent.executions.of(messageIdOf(record));
      const { state } = record;
      tally.set(state.status, (tally.get(state.status) ?? 0) + 1);
      // Never a second attempt: an unknown outcome is reconciled, never sent again.
      expect(record.attempts.length, record.id).toBeLessThanOrEqual(1);
      expect((await verifyHistory(await ledger.history(record.id))).ok, record.id).toBe(true);
      if (record.delivery === 'at-most-once') {
        // No attempt re-sent blindly: the attempt's message reached the agent at most once.
        expect(requests.get(messageIdOf(record)) ?? 0, record.id).toBeLessThanOrEqual(1);
      }
      switch (state.status) {
        case 'committed':
          expect(runs, record.id).toBe(1);
          break;
        case 'failed':
        case 'prepared':
          expect(runs, record.id).toBe(0);
          break;
        case 'unknown':
          // Left for a person, with the reason probing gave up and at most one run.
          expect(['no-evidence', 'conflicting-evidence'], record.id).toContain(state.reason);
          expect(runs, record.id).toBeLessThanOrEqual(1);
          break;
        default:
          expect.unreachable(`${record.id} is ${state.status}`);
      }
    }
    await ledger.close();
    expect(kills).toBeGreaterThan(0);
    expect(tally.get('committed') ?? 0).toBeGreaterThan(total / 2);
    // Reconciliation happened: some records went through unknown and were committed by evidence.
    const reconciled = await database(async (client) => {
      const result = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM "${schema}".revisions WHERE body LIKE '%"type":"reconcile-commit"%'`,
      );
      return Number(result.rows[0]?.n ?? 0);
    });
    expect(reconciled).toBeGreaterThan(0);

    // Two workers never held one lease: per record, the network exchanges of different processes never
    // overlap in time.
    type Span = { readonly worker: string; readonly from: number; readonly to: number };
    const spans = new Map<string, Span[]>();
    for (const entry of everyone) {
      const open = new Map<string, number>();
      for (const report of entry.reports) {
        if (report.id === undefined) {
          continue;
        }
        if (report.event === 'io-start') {
          open.set(report.id, report.t);
        } else if (report.event === 'io-end' && open.has(report.id)) {
          const list = spans.get(report.id) ?? [];
          list.push({ worker: entry.name, from: open.get(report.id) as number, to: report.t });
          spans.set(report.id, list);
          open.delete(report.id);
        }
      }
      // A killed process's exchange ended with it.
      for (const [id, from] of open) {
        const list = spans.get(id) ?? [];
        list.push({ worker: entry.name, from, to: entry.endedAt() ?? Date.now() });
        spans.set(id, list);
      }
    }
    for (const [id, list] of spans) {
      const sorted = [...list].sort((left, right) => left.from - right.from);
      for (let index = 1; index < sorted.length; index++) {
        const previous = sorted[index - 1] as Span;
        const current = sorted[index] as Span;
        if (previous.worker !== current.worker) {
          expect(current.from, `${id}: ${previous.worker} then ${current.worker}`).toBeGreaterThanOrEqual(
            previous.to,
          );
        }
      }
    }
  }, 180_000);
});

describe('leases', () => {
  it('refuses the stale transition of a worker paused past its lease (SIGSTOP, then SIGCONT)', async () => {
    const schema = `paused_${Date.now()}`;
    await (await openPostgresLedger({ connectionString: url }, { schema, worker: 'setup' })).close();
    // The work is done at once, and its answer held for 2.5 s: the worker is paused while its send is under
    // way.
    faults.set({ kind: 'delay', operation: 'SendMessage', ms: 2500, when: 'after', count: 1 });
    const paused = start([url, schema, cardUrl, 'paused', '600', '0', '1', '1', '1', 'paused'], 'paused');
    await paused.until((report) => report.event === 'io-start');
    expect(paused.process.kill('SIGSTOP')).toBe(true);
    try {
      // Another worker takes over once the lease lapsed: the record becomes unknown, and its keyed replay
      // commits it.
      await sleep(1000);
      const ledger = await openPostgresLedger(
        { connectionString: url },
        { schema, worker: 'rescuer', leaseMs: 5000 },
      );
      const client = await loopbackClient();
      const rescuer = durableAgent({
        client,
        ledger,
        delivery: 'keyed',
        recovery: { kind: 'keyed', retryAfterMs: 50 },
      });
      const report = await rescuer.reconcileDue();
      expect(report).toMatchObject({ claimed: 1, committed: 1 });
      const settled = (await ledger.get('paused-0')) as LedgerRecord;
      expect(settled.state.status).toBe('committed');
      await ledger.close();
    } finally {
      paused.process.kill('SIGCONT');
    }
    // The paused worker wakes up, gets its late answer, and cannot write it: its send still ends unknown,
    // with the store's refusal (docs/durable-send.md#after-dispatch).
    await paused.until((report) => report.event === 'refused' || report.event === 'sent');
    const outcome = paused.reports.find((report) => report.event === 'refused' || report.event === 'sent');
    expect(outcome).toMatchObject({ event: 'sent', status: 'unknown' });
    expect(['stale-revision', 'fenced']).toContain(outcome?.reason);
    const written = await writers(schema, 'paused-0');
    // create and start by the paused worker; then only the rescuer: unknown (crashed-while-executing) and the
    // reconciled commit.
    expect(written).toEqual([
      { revision: 0, worker: 'paused' },
      { revision: 1, worker: 'paused' },
      { revision: 2, worker: 'rescuer' },
      { revision: 3, worker: 'rescuer' },
    ]);
    const ledger = await openPostgresLedger({ connectionString: url }, { schema, readOnly: true });
    const record = (await ledger.get('paused-0')) as LedgerRecord;
    expect(record.revision).toBe(3);
    expect(agent.executions.of(messageIdOf(record))).toBe(1);
    await ledger.close();
  }, 60_000);

  it('proves Unknown → Pending → a durable retry under a later lease → Committed, with one business call across two probes', async () => {
    const schema = `proof_${Date.now()}`;
    const client = await loopbackClient();
    const recovery = { kind: 'keyed', retryAfterMs: 300, maxProbes: 5 } as const;
    const first = await openPostgresLedger({ connectionString: url }, { schema, worker: 'first' });
    const sender = durableAgent({ client, ledger: first, delivery: 'keyed', recovery });
    // The work is done and its answer lost: unknown.
    faults.set({ kind: 'drop-after', operation: 'SendMessage', count: 1 });
    const sent = await sender.send({ role: 'ROLE_USER', parts: [{ text: 'task proof' }] }, { id: 'proof-1' });
    expect(sent.status).toBe('unknown');
    const messageId = messageIdOf(sent.record);
    expect(agent.executions.of(messageId)).toBe(1);
    // Probe 1 fails on the way (a reset before the replay arrives): pending, its not-before time in the
    // database.
    faults.set({ kind: 'drop-before', operation: 'SendMessage', count: 1 });
    expect(await sender.reconcileDue()).toMatchObject({ claimed: 1, pending: 1 });
    const pending = (await first.get('proof-1')) as LedgerRecord;
    expect(pending.state).toMatchObject({ status: 'unknown', pending: { probes: 1 } });
    const notBefore = pending.state.status === 'unknown' ? (pending.state.pending?.notBefore ?? 0) : 0;
    const due = await database(async (db) => {
      const result = await db.query<{ due_at: string; lease_session: string | null }>(
        `SELECT due_at, lease_session FROM "${schema}".records WHERE id = 'proof-1'`,
      );
      return result.rows[0];
    });
    expect(Number(due?.due_at)).toBe(notBefore);
    // The pending transition ended the first worker's lease.
    expect(due?.lease_session).toBeNull();
    await first.close();

    // Another process, later: nothing is due before the not-before time; then probe 2 replays the key and
    // commits the original task.
    const second = await openPostgresLedger({ connectionString: url }, { schema, worker: 'second' });
    const retrier = durableAgent({ client, ledger: second, delivery: 'keyed', recovery });
    if (Date.now() < notBefore) {
      expect(await retrier.reconcileDue()).toMatchObject({ claimed: 0 });
      await sleep(notBefore - Date.now() + 10);
    }
    expect(await retrier.reconcileDue()).toMatchObject({ claimed: 1, committed: 1 });
    const committed = (await second.get('proof-1')) as LedgerRecord;
    expect(committed.state.status).toBe('committed');
    // The original physical attempt, unchanged, and one business call.
    expect(committed.attempts).toEqual(sent.record.attempts);
    expect(agent.executions.of(messageId)).toBe(1);
    // Two probes, each a replay of the same keyed message: the first never arrived, the second was answered
    // with the first run's task.
    expect(requests.get(messageId)).toBe(3);
    expect((await second.history('proof-1')).map((revision) => revision.transition.type)).toEqual([
      'create',
      'start',
      'unknown',
      'pending',
      'reconcile-commit',
    ]);
    expect((await writers(schema, 'proof-1')).map((entry) => entry.worker)).toEqual([
      'first',
      'first',
      'first',
      'first',
      'second',
    ]);
    await second.close();
  }, 60_000);
});

describe('one live process per worker id', () => {
  it('refuses a second process with the id of one that is sending, and after a SIGKILL mid-send opens at once and recovers its send as unknown', async () => {
    const schema = `twin_${Date.now()}`;
    await (await openPostgresLedger({ connectionString: url }, { schema, worker: 'setup' })).close();
    // The work is done at once, and its answer held: the first process is mid-send while the others open.
    faults.set({ kind: 'delay', operation: 'SendMessage', ms: 20_000, when: 'after', count: 1 });
    // A lease of 30 s: nothing below waits for one to lapse.
    const args = [url, schema, cardUrl, 'twin', '30000', '0', '1', '1', '1', 'twin'];
    const first = start(args, 'twin#0');
    await first.until((report) => report.event === 'io-start');
    const second = start(args, 'twin#1');
    await second.until((report) => report.event === 'open-refused' || report.event === 'ready');
    expect(second.reports.map((report) => report.event)).toEqual(['open-refused']);
    expect(second.reports[0]).toMatchObject({ reason: 'locked', rule: 'worker-live' });
    // It exits of itself: the refused open left nothing running.
    await second.until(() => false);
    expect(second.process.exitCode).toBe(1);
    // The refused process ended none of the first's leases: its send is still executing under them.
    const ledger = await openPostgresLedger({ connectionString: url }, { schema, readOnly: true });
    expect((await ledger.get('twin-0'))?.state.status).toBe('executing');
    await ended(first.process, 'SIGKILL');
    const third = start(args, 'twin#2');
    await third.until((report) => report.event === 'ready' || report.event === 'open-refused');
    expect(third.reports.map((report) => report.event)).toContain('ready');
    // Recovered by the open itself, its lease of 30 s not lapsed: unknown, never sent again.
    const recovered = (await ledger.get('twin-0')) as LedgerRecord;
    expect(recovered.state).toMatchObject({ status: 'unknown', reason: 'crashed-while-executing' });
    await third.until((report) => report.event === 'sent');
    expect(third.reports.find((report) => report.event === 'sent')).toMatchObject({ status: 'unknown' });
    expect(agent.executions.of(messageIdOf(recovered))).toBe(1);
    expect(requests.get(messageIdOf(recovered))).toBe(1);
    await ledger.close();
  }, 60_000);

  it('ends a dispatched send unknown, with the refusal as its error, when another session takes its worker id mid-send', async () => {
    const schema = `taken_${Date.now()}`;
    const ledger = await openPostgresLedger({ connectionString: url }, { schema, worker: 'taken' });
    const taker = new pg.Client({ connectionString: url });
    await taker.connect();
    try {
      const sender = durableAgent({ client: await loopbackClient(), ledger });
      faults.set({ kind: 'delay', operation: 'SendMessage', ms: 3000, when: 'after', count: 1 });
      const sending = sender.send(
        { role: 'ROLE_USER', parts: [{ text: 'task taken 0' }] },
        { id: 'taken-0' },
      );
      for (let check = 0; requests.size === 0; check++) {
        expect(check, 'the send leaves').toBeLessThan(500);
        await sleep(10);
      }
      // The lock's connection dropped, and another session takes the lock before the writer can again.
      const [first, second] = workerLockKeys(schema, 'taken');
      await taker.query('SELECT pg_terminate_backend($1), pg_advisory_lock($2::integer, $3::integer)', [
        await lockHolder(schema, 'taken'),
        first,
        second,
      ]);
      const outcome = await sending;
      expect(outcome.status).toBe('unknown');
      expect(outcome.error).toBeInstanceOf(LedgerError);
      expect(outcome.error).toMatchObject({ reason: 'fenced', rule: 'worker-live' });
      // The last revision the send wrote, still executing; the agent ran the work once.
      expect(outcome.record).toMatchObject({ revision: 1, state: { status: 'executing' } });
      expect(agent.executions.of(messageIdOf(outcome.record))).toBe(1);
      await taker.query('SELECT pg_advisory_unlock($1::integer, $2::integer)', [first, second]);
      const successor = await openPostgresLedger({ connectionString: url }, { schema, worker: 'taken' });
      expect((await successor.get('taken-0'))?.state).toMatchObject({
        status: 'unknown',
        reason: 'crashed-while-executing',
      });
      await successor.close();
    } finally {
      await taker.end();
      await ledger.close();
    }
  }, 60_000);
});
