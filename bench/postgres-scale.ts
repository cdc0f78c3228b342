/**
The scale rows of `npm run bench -- postgres` (bench/postgres.ts), on the server that suite starts: what a
reconciler's two reads cost as the table of settled records grows, with retention on (the default 7 days,
which the settled records are within, so none is pruned meanwhile).

- `ledger-postgres-claim-1m`: one `claimDue({ limit: 16 })` of the 64 unknown records due (and the release
  of what it leased) with 1,000,000 settled records beside them, against the same at 10,000; the figure at
  100,000 is printed beside it. Goal: ratio ≤ 2 (flat within 2×).
- `ledger-postgres-inbox-1m`: one `list({ states: ['unknown'] })`, the inbox a durable agent's `unknown()`
  reads, over the same tables, the same way.

The settled records are copies of one committed send's row and revisions, ids renumbered, written with one
`INSERT … SELECT` per step, then `VACUUM ANALYZE`; the claims and the inbox never return them (they are not
due, and not unknown), so their bodies need not be the digests of their ids. Each figure is the median of
`samples` calls.
*/
import type pg from 'pg';
import type { Ledger } from '../packages/client/src/ledger/ledger.js';
import { openPostgresLedger } from '../packages/client/src/ledger/postgres/entry.js';
import { intent } from './fixtures.js';
import { type BenchRow, median, row, timeMs } from './harness.js';

const schema = 'bench_scale';
const steps = [10_000, 100_000, 1_000_000] as const;
const inbox = 64;
const samples = 51;

/** Records left unknown and due at once, the reconciler's work, made through the ledger. */
async function unknownRecords(ledger: Ledger): Promise<void> {
  for (let index = 0; index < inbox; index++) {
    const id = `unknown-${index}`;
    const started = await ledger.create(intent(id), { attemptId: `a-${id}`, messageId: `m-${id}` });
    await ledger.transition(id, started.revision, {
      type: 'unknown',
      attemptId: `a-${id}`,
      reason: 'ambiguous-outcome',
    });
  }
}

/** Copies the committed record `template` (its row and its revisions) until `to` settled records exist. */
async function seed(admin: pg.Pool, from: number, to: number): Promise<void> {
  const renamed = (column: string) => `replace(${column}, '"id":"template"', '"id":"settled-' || n || '"')`;
  await admin.query(
    `INSERT INTO ${schema}.records (id, status, revision, digest, created_at, updated_at, agent, delivery, contextual, due_at, body)
     SELECT 'settled-' || n, status, revision, digest, created_at, updated_at, agent, delivery, contextual, due_at, ${renamed('body')}
     FROM ${schema}.records, generate_series($1::integer, $2::integer) AS n WHERE id = 'template'`,
    [from, to - 1],
  );
  await admin.query(
    `INSERT INTO ${schema}.revisions (id, revision, body, worker, session)
     SELECT 'settled-' || n, revision, ${renamed('body')}, worker, session
     FROM ${schema}.revisions, generate_series($1::integer, $2::integer) AS n WHERE id = 'template'`,
    [from, to - 1],
  );
  await admin.query(`VACUUM ANALYZE ${schema}.records`);
  await admin.query(`VACUUM ANALYZE ${schema}.revisions`);
}

/** The median ms of one claim of due records (released again, so every sample finds the same ones). */
async function claimMs(ledger: Ledger): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < samples; index++) {
    let claimed: readonly { id: string }[] = [];
    times.push(
      await timeMs(async () => {
        claimed = await ledger.claimDue({ limit: 16 });
      }),
    );
    if (claimed.length !== 16) {
      throw new Error(`bench/postgres-scale: a claim leased ${claimed.length} records, not 16`);
    }
    for (const record of claimed) {
      await ledger.release(record.id);
    }
  }
  return median(times);
}

/** The median ms of one read of the inbox. */
async function inboxMs(ledger: Ledger): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < samples; index++) {
    let listed = 0;
    times.push(
      await timeMs(async () => {
        listed = (await ledger.list({ states: ['unknown'] })).length;
      }),
    );
    if (listed !== inbox) {
      throw new Error(`bench/postgres-scale: the inbox listed ${listed} records, not ${inbox}`);
    }
  }
  return median(times);
}

/** Measures both rows on the server at `url`, with `admin` (a pool of its own) seeding the tables. */
export async function scaleRows(url: string, admin: pg.Pool): Promise<BenchRow[]> {
  const ledger = await openPostgresLedger({ connectionString: url }, { schema, worker: 'bench-scale' });
  try {
    await unknownRecords(ledger);
    const started = await ledger.create(intent('template'), {
      attemptId: 'a-template',
      messageId: 'm-template',
    });
    await ledger.transition('template', started.revision, {
      type: 'commit',
      attemptId: 'a-template',
      result: { kind: 'task', taskId: 't-template', contextId: 'c-template' },
    });
    const claims: number[] = [];
    const reads: number[] = [];
    let seeded = 0;
    for (const size of steps) {
      await seed(admin, seeded, size);
      seeded = size;
      claims.push(await claimMs(ledger));
      reads.push(await inboxMs(ledger));
    }
    const ms = (value: number | undefined) => Math.round((value ?? 0) * 1000) / 1000;
    const beside = (figures: readonly number[]) =>
      `the same at 10k settled records [10k ${ms(figures[0])} ms; 100k ${ms(figures[1])} ms; 1M ${ms(figures[2])} ms]`;
    const at = (figures: readonly number[]) => ({ ours: figures[2] ?? 0, anchor: figures[0] ?? 0 });
    return [
      row('ledger-postgres-claim-1m', 'ms/claim (median)', at(claims), beside(claims), {
        op: '<=',
        ratio: 2,
      }),
      row('ledger-postgres-inbox-1m', 'ms/list (median)', at(reads), beside(reads), { op: '<=', ratio: 2 }),
    ];
  } finally {
    await ledger.close();
  }
}
