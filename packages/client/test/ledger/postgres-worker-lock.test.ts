/**
One live process per worker id on the PostgreSQL ledger (docs/durable-send.md#one-live-process-per-worker-id):
a second open with a worker id another open holds in the same schema is refused as `locked` (rule
`worker-live`) and leaves the first's leases alone; once the first closes, the id opens again; a follower, or
another schema, is not refused. The worker lock's connection terminated with `pg_terminate_backend` is made
again and the writer writes on; terminated while another session takes the lock, the writer is `fenced` for
good, and the next open with the id recovers what it left executing. The two-process cases, and a send whose
worker id is taken mid-send, are in test/durable/fleet.test.ts.
*/
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { LedgerError } from '../../src/core/errors.js';
import { openPostgresLedger, type PostgresLedger } from '../../src/ledger/postgres/entry.js';
import { workerLockKeys } from '../../src/ledger/postgres/worker-lock.js';
import { intent } from '../support/intent.js';
import { rejectionOf } from '../support/rejection.js';

const url = inject('postgresUrl');
const suffix = crypto.randomUUID().slice(0, 8);
const admin = new pg.Pool({ connectionString: url, max: 2 });
const schemas: string[] = [];

afterAll(async () => {
  for (const schema of schemas) {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
  await admin.end();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freshSchema(name: string): string {
  const schema = `${name}_${suffix}`;
  schemas.push(schema);
  return schema;
}

function open(schema: string, worker: string, options: { readOnly?: boolean } = {}): Promise<PostgresLedger> {
  return openPostgresLedger({ connectionString: url }, { schema, worker, ...options });
}

function refusal(promise: Promise<unknown>): Promise<LedgerError> {
  return rejectionOf(promise, LedgerError);
}

/**
The backend that holds the worker lock of `worker` in `schema` (pg_locks shows the two-key form as objsubid
2), if one does.
*/
async function lockHolder(schema: string, worker: string): Promise<number | undefined> {
  const [first, second] = workerLockKeys(schema, worker);
  const found = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
       AND classid::bigint = $1 AND objid::bigint = $2
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [first >>> 0, second >>> 0],
  );
  return found.rows[0]?.pid;
}

/** A record left executing under `ledger`'s lease: created with its first attempt started. */
async function executing(ledger: PostgresLedger, id: string) {
  return ledger.create(intent(id), { attemptId: `a-${id}`, messageId: `m-a-${id}` });
}

describe('one live process per worker id', () => {
  it('refuses a second open with the same worker id as locked (worker-live), leaves the first writing, and opens once the first closed', async () => {
    const schema = freshSchema('twin');
    const first = await open(schema, 'twin');
    const started = await executing(first, 'twin-1');
    const refused = await refusal(open(schema, 'twin'));
    expect(refused).toMatchObject({ reason: 'locked', rule: 'worker-live' });
    expect(refused.message).toContain('another process holds this worker id');
    expect(refused.message).toContain('give each process its own worker id, or stop the other');
    // The refused open ended none of the first's leases: its record is still executing, and the first commits
    // it.
    expect((await first.get('twin-1'))?.state.status).toBe('executing');
    const committed = await first.transition('twin-1', started.revision, {
      type: 'commit',
      attemptId: 'a-twin-1',
      result: { kind: 'message' },
    });
    expect(committed.state.status).toBe('committed');
    // A follower takes no lock, and the same id in another schema is another lock.
    const follower = await open(schema, 'twin', { readOnly: true });
    expect((await follower.get('twin-1'))?.state.status).toBe('committed');
    await follower.close();
    const elsewhere = await open(freshSchema('twin_other'), 'twin');
    await elsewhere.create(intent('other-1'));
    await elsewhere.close();
    await first.close();
    expect(await lockHolder(schema, 'twin')).toBeUndefined();
    const second = await open(schema, 'twin');
    expect(await lockHolder(schema, 'twin')).toBeTypeOf('number');
    await second.create(intent('twin-2'));
    await second.close();
  });

  it('takes the lock again when the database drops its connection, and writes on', async () => {
    const schema = freshSchema('regained');
    const ledger = await open(schema, 'regained');
    try {
      await executing(ledger, 'before');
      const dropped = (await lockHolder(schema, 'regained')) as number;
      expect(dropped).toBeTypeOf('number');
      await admin.query('SELECT pg_terminate_backend($1)', [dropped]);
      let holder = await lockHolder(schema, 'regained');
      for (let check = 0; holder === undefined || holder === dropped; check++) {
        expect(check, 'the lock is taken again').toBeLessThan(500);
        await sleep(10);
        holder = await lockHolder(schema, 'regained');
      }
      const after = await executing(ledger, 'after');
      expect(after.state.status).toBe('executing');
      const before = (await ledger.get('before')) as NonNullable<Awaited<ReturnType<PostgresLedger['get']>>>;
      expect(
        (
          await ledger.transition('before', before.revision, {
            type: 'commit',
            attemptId: 'a-before',
            result: { kind: 'message' },
          })
        ).state.status,
      ).toBe('committed');
    } finally {
      await ledger.close();
    }
  });

  it('is fenced for good once another session took the lock while its connection was down; the next open with the id recovers its executing record', async () => {
    const schema = freshSchema('taken');
    const ledger = await open(schema, 'taken');
    const taker = new pg.Client({ connectionString: url });
    await taker.connect();
    try {
      const started = await executing(ledger, 'taken-1');
      const [first, second] = workerLockKeys(schema, 'taken');
      // In one statement: the lock's backend is terminated, and this session waits for the lock it held,
      // ahead of the writer's next try, which has to connect first.
      await taker.query('SELECT pg_terminate_backend($1), pg_advisory_lock($2::integer, $3::integer)', [
        await lockHolder(schema, 'taken'),
        first,
        second,
      ]);
      const fenced = await refusal(
        ledger.transition('taken-1', started.revision, {
          type: 'commit',
          attemptId: 'a-taken-1',
          result: { kind: 'message' },
        }),
      );
      expect(fenced).toMatchObject({ reason: 'fenced', rule: 'worker-live' });
      expect(fenced.message).toContain('give each process its own worker id');
      expect(await refusal(ledger.claimDue())).toMatchObject({ reason: 'fenced', rule: 'worker-live' });
      expect(await refusal(ledger.create(intent('taken-2')))).toMatchObject({ reason: 'fenced' });
      // Reads go on.
      expect((await ledger.get('taken-1'))?.state.status).toBe('executing');
      await taker.query('SELECT pg_advisory_unlock($1::integer, $2::integer)', [first, second]);
      // The id is free again: the next open takes it and recovers the record at once (its lease of 30 s has
      // not lapsed).
      const successor = await open(schema, 'taken');
      expect((await successor.get('taken-1'))?.state).toEqual({
        status: 'unknown',
        attemptId: 'a-taken-1',
        reason: 'crashed-while-executing',
      });
      await successor.close();
      // The fenced writer never writes again, even with the id free.
      expect(await refusal(ledger.create(intent('taken-3')))).toMatchObject({ reason: 'fenced' });
    } finally {
      await taker.end();
      await ledger.close();
    }
  });
});
