/**
A fleet on the PostgreSQL ledger whose database drops its connections
(docs/durable-send.md#when-the-database-drops-a-connection): a killer terminates the workers' backends every
20–100 ms with `pg_terminate_backend`, as a failover, an operator or `idle_session_timeout` does, while worker
processes (`test/support/fleet-worker.ts`) make 32 durable sends at a time; ledgers are opened under the
killer; and a subscriber follows through a restart of the server and through a time it cannot connect. No
process may die, every open succeeds or rejects with a `LedgerError`, every send ends committed or unknown,
nothing is lost, no message runs twice, and the subscriber hears every change.

The killer reaches only the backends of this file's ledgers, by the `application_name` their connection
strings carry, so the suites beside it keep their connections; the restart runs on a throwaway server of its
own (`scripts/postgres.sh`). `SURECALL_SEED` changes the seed of the killer's intervals.
*/
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { LedgerError } from '../../src/core/errors.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { durableAgent } from '../../src/durable/agent.js';
import { type Ledger, type LedgerChange, type LedgerRecord, verifyHistory } from '../../src/ledger/ledger.js';
import { openPostgresLedger } from '../../src/ledger/postgres/entry.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import { compileForChild } from '../support/child-build.js';
import { ended, type FleetAgent, seeded, startFleetAgent, startWorker } from '../support/fleet-processes.js';
import { intent } from '../support/intent.js';

const { SURECALL_SEED } = process.env;
const seed = Number(SURECALL_SEED ?? 20_261_236);
const url = inject('postgresUrl');
const script = fileURLToPath(new URL('../../../../scripts/postgres.sh', import.meta.url));
const run = promisify(execFile);

let directory = '';
let worker = '';
let fleet: FleetAgent;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-failover-'));
  worker = await compileForChild('test/support/fleet-worker.ts', join(directory, 'build'));
  fleet = await startFleetAgent();
}, 120_000);
afterAll(async () => {
  await fleet?.close();
  await rm(directory, { recursive: true, force: true });
});
// What reached this process as an uncaught exception or an unhandled rejection during a test: a process of
// its own would have ended on the first, so every test fails on one.
const escaped: unknown[] = [];
const reached = (error: unknown) => {
  escaped.push(error);
};
beforeEach(() => {
  escaped.length = 0;
  process.on('uncaughtException', reached);
  process.on('unhandledRejection', reached);
});
afterEach(async () => {
  process.off('uncaughtException', reached);
  process.off('unhandledRejection', reached);
  await Promise.all([...children].map((child) => ended(child, 'SIGKILL')));
  children.clear();
  expect(escaped, 'nothing reaches the process').toEqual([]);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
The connection string of `base` with an `application_name`, the tag the killer finds these connections by.
*/
function tagged(base: string, tag: string): string {
  const address = new URL(base);
  address.searchParams.set('application_name', tag);
  return address.toString();
}

/** One connection of the test's own, untagged, so the killer never ends it. */
async function database<T>(work: (client: pg.Client) => Promise<T>, at = url): Promise<T> {
  const client = new pg.Client({ connectionString: at });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
Terminates every backend tagged `tag` (other than its own), after a seeded pause of 20 to 100 ms, until
`done()` says so or `rounds` have passed; resolves with the number of backends it terminated.
*/
async function killer(
  tag: string,
  random: () => number,
  done: () => boolean,
  rounds: number,
): Promise<number> {
  return database(async (client) => {
    let killed = 0;
    for (let round = 0; round < rounds && !done(); round++) {
      await sleep(20 + Math.floor(random() * 81));
      const result = await client.query<{ n: string }>(
        `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n FROM pg_stat_activity
         WHERE application_name = $1 AND pid <> pg_backend_pid()`,
        [tag],
      );
      killed += Number(result.rows[0]?.n ?? 0);
    }
    return killed;
  });
}

async function openWork(schema: string): Promise<number> {
  return database(async (client) => {
    const result = await client.query<{ open: string }>(
      `SELECT count(*) AS open FROM "${schema}".records WHERE status = 'executing' OR due_at IS NOT NULL`,
    );
    return Number(result.rows[0]?.open ?? -1);
  });
}

/**
A client of the loopback mock agent with the workers' identity (its JSON-RPC interface), for the rescuer's
probes.
*/
async function loopbackClient() {
  const raw = (await (await fetch(fleet.cardUrl)).json()) as JsonValue;
  const card = parseAgentCard(raw);
  const pinned = card.supportedInterfaces.find((entry) => entry.protocolBinding === 'JSONRPC');
  return createClient({
    card,
    cardDigest: await cardDigest(raw),
    pin: { binding: 'JSONRPC', url: pinned?.url ?? '' },
    security: { kind: 'anonymous' },
  });
}

function messageIdOf(record: LedgerRecord): string {
  return record.attempts[0]?.messageId ?? '';
}

type Hearing = {
  /** How many times each `<id>@<revision>` of another writer was heard. */
  readonly heard: Map<string, number>;
  /** Resolves once `test` holds, checked on each change heard. */
  until(test: () => boolean): Promise<void>;
};

/** Subscribes to `ledger` and keeps count of the other writers' changes it hears. */
function hearing(ledger: Ledger): Hearing {
  const heard = new Map<string, number>();
  const waiters: (() => void)[] = [];
  ledger.subscribe((change: LedgerChange) => {
    if (change.origin === 'remote') {
      const key = `${change.record.id}@${change.revision.revision}`;
      heard.set(key, (heard.get(key) ?? 0) + 1);
      for (const wake of waiters.splice(0)) {
        wake();
      }
    }
  });
  return {
    heard,
    until: (test) =>
      new Promise((resolve) => {
        const check = () => (test() ? resolve() : waiters.push(check));
        check();
      }),
  };
}

/**
Creates the record `id` through dropped connections: a create refused as `io` is tried again, unless it was
written after all.
*/
async function createThrough(ledger: Ledger, id: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await ledger.create(intent(id));
      return;
    } catch (error) {
      expect(error).toBeInstanceOf(LedgerError);
      expect(attempt, `create ${id}`).toBeLessThan(50);
      if ((await ledger.get(id).catch(() => undefined)) !== undefined) {
        return;
      }
    }
  }
}

/** Writes records `<prefix>-0`, `<prefix>-1`, … until the follower hears one: then it LISTENs. */
/**
Each change heard once: every one of `must` heard, and nothing but `may` (a change written before the
follower's first LISTEN may be heard by a later re-read, or not).
*/
function expectHeardOnce(heard: Hearing, must: readonly string[], may: readonly string[]): void {
  expect([...heard.heard.values()].every((times) => times === 1)).toBe(true);
  const keys = new Set(heard.heard.keys());
  for (const key of must) {
    expect(keys.has(key), key).toBe(true);
  }
  const allowed = new Set([...must, ...may]);
  expect([...keys].filter((key) => !allowed.has(key))).toEqual([]);
}

async function untilListening(writer: Ledger, follower: Hearing, prefix: string): Promise<string[]> {
  const written: string[] = [];
  for (let index = 0; ![...follower.heard.keys()].some((key) => key.startsWith(`${prefix}-`)); index++) {
    expect(index, 'the follower LISTENs').toBeLessThan(2000);
    written.push(`${prefix}-${index}`);
    await writer.create(intent(`${prefix}-${index}`));
  }
  return written;
}

describe('a fleet whose database drops its connections', () => {
  it(`keeps two workers of 16 concurrent sends each alive while their backends are terminated every 20–100 ms: every send ends committed or unknown, none lost, none run twice (seed ${seed})`, async () => {
    const schema = `failover_${seed}_${Date.now()}`;
    const tag = `surecall-killed-${crypto.randomUUID().slice(0, 8)}`;
    const total = 96;
    const workers = 2;
    await (await openPostgresLedger({ connectionString: url }, { schema, worker: 'setup' })).close();
    const fleetOf = Array.from({ length: workers }, (_, slot) =>
      startWorker(
        worker,
        [
          tagged(url, tag),
          schema,
          fleet.cardUrl,
          `worker-${slot}`,
          '3000',
          String(slot),
          String(workers),
          String(total),
          '16',
          'failover',
          '200',
        ],
        `worker-${slot}`,
        children,
      ),
    );
    await Promise.all(fleetOf.map((entry) => entry.until((report) => report.event === 'ready')));
    const finished = () =>
      fleetOf.every(
        (entry) => entry.endedAt() !== undefined || entry.reports.some((report) => report.event === 'done'),
      );
    const killed = await killer(tag, seeded(seed), finished, 3000);
    await Promise.all(fleetOf.map((entry) => entry.until((report) => report.event === 'done')));
    // No process died: each ran its share to the end and is still there to be closed.
    for (const entry of fleetOf) {
      expect(entry.endedAt(), `${entry.name} died`).toBeUndefined();
    }
    for (const entry of fleetOf) {
      entry.process.stdin?.end();
    }
    const exits = await Promise.all(
      fleetOf.map(
        (entry) =>
          new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
            if (entry.process.exitCode !== null || entry.process.signalCode !== null) {
              resolve([entry.process.exitCode, entry.process.signalCode]);
            } else {
              entry.process.once('exit', (code, signal) => resolve([code, signal]));
            }
          }),
      ),
    );
    // Closing a ledger whose connections were dropped never fails the process either.
    expect(exits).toEqual(fleetOf.map(() => [0, null]));
    expect(killed).toBeGreaterThan(0);

    // A rescuer reconciles what the workers left: records whose outcome the ledger could not record became
    // orphans when their worker closed.
    const client = await loopbackClient();
    const rescuer = await openPostgresLedger({ connectionString: url }, { schema, worker: 'rescuer' });
    const probing = { retryAfterMs: 50, maxProbes: 8 };
    const agents = [
      durableAgent({ client, ledger: rescuer, delivery: 'keyed', recovery: { kind: 'keyed', ...probing } }),
      durableAgent({
        client,
        ledger: rescuer,
        recovery: { kind: 'context-history', maxPages: 2, historyLength: 16, ...probing },
      }),
    ];
    for (let pass = 0; (await openWork(schema)) > 0; pass++) {
      expect(pass, 'the rescuer settles every record').toBeLessThan(400);
      for (const agent of agents) {
        await agent.reconcileDue();
      }
      await sleep(25);
    }
    const records = await rescuer.list();
    // Nothing lost: every send of the plan has its record, and every outcome a worker reported still stands
    // or moved on.
    expect(records.map((record) => record.id).sort()).toEqual(
      Array.from({ length: total }, (_, index) => `failover-${index}`).sort(),
    );
    const reported = new Map<string, string>();
    for (const entry of fleetOf) {
      for (const report of entry.reports) {
        if (report.event === 'sent' && report.id !== undefined && report.status !== undefined) {
          reported.set(report.id, report.status);
        }
      }
    }
    for (const record of records) {
      const runs = fleet.agent.executions.of(messageIdOf(record));
      expect(['committed', 'unknown'], record.id).toContain(record.state.status);
      if (reported.get(record.id) === 'committed') {
        expect(record.state.status, record.id).toBe('committed');
      }
      expect(record.attempts.length, record.id).toBe(1);
      expect((await verifyHistory(await rescuer.history(record.id))).ok, record.id).toBe(true);
      // No message runs twice: an at-most-once attempt arrived at most once, a keyed one may arrive again but
      // ran once.
      if (record.delivery === 'at-most-once') {
        expect(fleet.requests.get(messageIdOf(record)) ?? 0, record.id).toBeLessThanOrEqual(1);
      }
      expect(runs, record.id).toBeLessThanOrEqual(1);
      if (record.state.status === 'committed') {
        expect(runs, record.id).toBe(1);
      }
    }
    await rescuer.close();
  }, 300_000);
});

describe('opening a ledger whose database drops its connections', () => {
  it('opens 40 ledgers, four at a time, while their backends are terminated every 20–100 ms: each opens and closes, or rejects with a LedgerError', async () => {
    const tag = `surecall-opened-${crypto.randomUUID().slice(0, 8)}`;
    const suffix = Date.now();
    // Two schemas exist before the killer starts, two are created under it.
    const schemas = [0, 1, 2, 3].map((index) => `opened_${suffix}_${index}`);
    for (const schema of schemas.slice(0, 2)) {
      await (await openPostgresLedger({ connectionString: url }, { schema, worker: 'setup' })).close();
    }
    let opening = true;
    const killing = killer(tag, seeded(seed + 1), () => !opening, 3000);
    const outcomes: string[] = [];
    try {
      for (let round = 0; round < 10; round++) {
        const opened = await Promise.allSettled(
          schemas.map((schema, index) =>
            openPostgresLedger(
              { connectionString: tagged(url, tag) },
              { schema, worker: `opener-${index}`, poolSize: 2 },
            ),
          ),
        );
        for (const outcome of opened) {
          if (outcome.status === 'fulfilled') {
            outcomes.push('opened');
            // Closing never rejects, whatever became of its connections.
            await outcome.value.close();
          } else {
            expect(outcome.reason).toBeInstanceOf(LedgerError);
            outcomes.push((outcome.reason as LedgerError).reason);
          }
        }
      }
    } finally {
      opening = false;
    }
    expect(await killing).toBeGreaterThan(0);
    // Nothing reached the process (checked after every test): no connection's error, no rejection of the
    // ledger's own.
    expect(escaped).toEqual([]);
    expect(outcomes).toHaveLength(40);
    for (const outcome of outcomes) {
      expect(['opened', 'io']).toContain(outcome);
    }
  }, 120_000);
});

describe('a subscriber whose connection drops', () => {
  it('reconnects with backoff while it may not log in, then reads what was written meanwhile, each change once', async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const schema = `deaf_${suffix}`;
    const role = `deaf_${suffix}`;
    const tag = `surecall-deaf-${suffix}`;
    const writer = await openPostgresLedger({ connectionString: url }, { schema, worker: 'writer' });
    await database(async (client) => {
      await client.query(`CREATE ROLE ${role} LOGIN`);
      await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
      await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
    });
    const address = new URL(tagged(url, tag));
    address.username = role;
    const follower = await openPostgresLedger(
      { connectionString: address.toString() },
      { schema, worker: 'follower', readOnly: true },
    );
    const heard = hearing(follower);
    try {
      const before = await untilListening(writer, heard, 'before');
      const heardBefore = [...heard.heard.keys()];
      // Its connections are terminated, and it may not log in again: every reconnect fails until it may.
      await database(async (client) => {
        await client.query(`ALTER ROLE ${role} NOLOGIN`);
        await client.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
          [tag],
        );
        for (let check = 0; ; check++) {
          const left = await client.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1 AND state IS NOT NULL`,
            [tag],
          );
          if (Number(left.rows[0]?.n) === 0) {
            break;
          }
          expect(check, 'the terminated backends end').toBeLessThan(500);
          await sleep(10);
        }
      });
      // Written while the follower cannot hear: it must read them when it reconnects.
      const deaf = Array.from({ length: 9 }, (_, index) => `deaf-${index}`);
      for (const id of deaf) {
        await writer.create(intent(id));
      }
      await database((client) => client.query(`ALTER ROLE ${role} LOGIN`));
      await heard.until(() => deaf.every((id) => heard.heard.has(`${id}@0`)));
      // And it LISTENs again: a change made now is heard as it happens.
      await writer.create(intent('after'));
      await heard.until(() => heard.heard.has('after@0'));
      // Each change once: the re-read skips what was heard before the connection dropped.
      expectHeardOnce(
        heard,
        [...heardBefore, ...[...deaf, 'after'].map((id) => `${id}@0`)],
        before.map((id) => `${id}@0`),
      );
    } finally {
      await follower.close();
      await writer.close();
      await database(async (client) => {
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
        await client.query(`DROP ROLE ${role}`);
      });
    }
  }, 120_000);

  it('closes while it reconnects, and leaves a pool the caller passed as it found it', async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const schema = `unheard_${suffix}`;
    const role = `unheard_${suffix}`;
    const tag = `surecall-unheard-${suffix}`;
    const writer = await openPostgresLedger({ connectionString: url }, { schema, worker: 'writer' });
    await database(async (client) => {
      await client.query(`CREATE ROLE ${role} LOGIN`);
      await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
      await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
    });
    const address = new URL(tagged(url, tag));
    address.username = role;
    // The caller's pool, with the listener pg asks a pool's owner for.
    const pool = new pg.Pool({ connectionString: address.toString(), max: 3 });
    pool.on('error', () => undefined);
    const listeners = () => ['connect', 'remove', 'error'].map((event) => pool.listenerCount(event));
    const found = listeners();
    const follower = await openPostgresLedger({ pool }, { schema, worker: 'follower', readOnly: true });
    try {
      await untilListening(writer, hearing(follower), 'before');
      await database(async (client) => {
        await client.query(`ALTER ROLE ${role} NOLOGIN`);
        await client.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
          [tag],
        );
      });
      // Closing ends the reconnecting, and gives every connection back: the pool can end.
      await follower.close();
      expect(listeners()).toEqual(found);
      expect(await follower.list().catch((error: unknown) => error)).toMatchObject({ reason: 'closed' });
      await database((client) => client.query(`ALTER ROLE ${role} LOGIN`));
      expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await follower.close();
      await pool.end();
      await writer.close();
      await database(async (client) => {
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
        await client.query(`DROP ROLE ${role}`);
      });
    }
  }, 120_000);

  describe('through a restart of its server', () => {
    // A server of its own: the restart drops every connection on it, which the suites beside this one must
    // not see.
    let own = '';
    beforeAll(async () => {
      const { stdout } = await run('bash', [script, 'start'], { timeout: 600_000 });
      own = stdout.trim().split('\n').at(-1) ?? '';
      expect(own).toMatch(/^postgres:\/\//);
    }, 600_000);
    afterAll(async () => {
      if (own !== '') {
        await run('bash', [script, 'stop', own], { timeout: 120_000 });
      }
    }, 120_000);

    it('reconnects after the server restarts (pg_ctl restart -m fast) and hears every change made after it, each once', async () => {
      const schema = 'restarted';
      const writer = await openPostgresLedger({ connectionString: own }, { schema, worker: 'writer' });
      const follower = await openPostgresLedger(
        { connectionString: own },
        { schema, worker: 'follower', readOnly: true },
      );
      const heard = hearing(follower);
      try {
        const before = await untilListening(writer, heard, 'before');
        const heardBefore = [...heard.heard.keys()];
        await run('bash', [script, 'restart', own], { timeout: 120_000 });
        // The writer's pooled connections were dropped too: a create refused as `io` goes again.
        const after = Array.from({ length: 9 }, (_, index) => `after-${index}`);
        for (const id of after) {
          await createThrough(writer, id);
        }
        await heard.until(() => after.every((id) => heard.heard.has(`${id}@0`)));
        expectHeardOnce(
          heard,
          [...heardBefore, ...after.map((id) => `${id}@0`)],
          before.map((id) => `${id}@0`),
        );
      } finally {
        await follower.close();
        await writer.close();
      }
    }, 120_000);
  });
});
