/**
The group commit of the PostgreSQL store (docs/durable-send.md#group-commit): concurrent writes of one writer
share a statement, and so a round trip and a commit, while each still meets its own check of the expected
revision, its digest and the lease and fails alone, with its own reason; a lone write is sent alone, at once.
*/
import pg from 'pg';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { LedgerError } from '../../src/core/errors.js';
import { verifyHistory } from '../../src/ledger/ledger.js';
import { openPostgresLedger, type PostgresLedger } from '../../src/ledger/postgres/entry.js';
import { qualify } from '../../src/ledger/postgres/schema.js';
import { batchPreparations, storeStatements } from '../../src/ledger/postgres/statements.js';
import { intent } from '../support/intent.js';
import { rejectionOf } from '../support/rejection.js';

const url = inject('postgresUrl');
const suffix = crypto.randomUUID().slice(0, 8);
const admin = new pg.Pool({ connectionString: url, max: 2 });
const schemas: string[] = [];
const pools: pg.Pool[] = [];

afterAll(async () => {
  for (const schema of schemas) {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
  await admin.end();
  await Promise.all(pools.map((pool) => pool.end()));
});

/**
The records of each batch statement the ledger ran on `pool`, in the order it sent them, and which preparation
of it each was (`batchPreparations`).
*/
type Batches = { readonly sizes: number[]; readonly preparations: number[] };

/**
A ledger on a schema of its own, over a pool the test owns, whose batch statements are counted as they are
sent.
*/
async function countedLedger(
  poolSize = 16,
): Promise<{ ledger: PostgresLedger; schema: string; pool: pg.Pool; batches: Batches }> {
  const schema = `group_${schemas.length}_${suffix}`;
  schemas.push(schema);
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pools.push(pool);
  const { writeBatches } = storeStatements(qualify(schema));
  const names = writeBatches.map((statement) => statement.name);
  const { params } = writeBatches[0] as { params: readonly string[] };
  const created = params.indexOf('NEWIDS');
  const moved = params.indexOf('IDS');
  const batches: Batches = { sizes: [], preparations: [] };
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  vi.spyOn(pool, 'query').mockImplementation(((...args: unknown[]) => {
    const [sent] = args as [{ name?: string; values?: unknown[][] } | string];
    const preparation = typeof sent === 'object' ? names.indexOf(sent.name) : -1;
    if (typeof sent === 'object' && preparation >= 0) {
      batches.sizes.push((sent.values?.[created]?.length ?? 0) + (sent.values?.[moved]?.length ?? 0));
      batches.preparations.push(preparation);
    }
    return query(...args);
  }) as typeof pool.query);
  const ledger = await openPostgresLedger({ pool }, { schema, worker: 'w1', poolSize });
  return { ledger, schema, pool, batches };
}

const start = (id: string) => ({ attemptId: `a-${id}`, messageId: `m-a-${id}` });
const commit = (id: string) =>
  ({ type: 'commit', attemptId: `a-${id}`, result: { kind: 'message' } }) as const;

describe('group commit on PostgreSQL', () => {
  it('sends a lone write alone, and concurrent writes in far fewer statements, each written whole', async () => {
    const { ledger, batches } = await countedLedger();
    for (const id of ['lone-1', 'lone-2', 'lone-3']) {
      await ledger.create(intent(id), start(id));
    }
    // Nothing was under way: each went at once, one record to its statement.
    expect(batches.sizes).toEqual([1, 1, 1]);

    batches.sizes.length = 0;
    const ids = Array.from({ length: 48 }, (_, index) => `many-${index}`);
    await Promise.all(ids.map((id) => ledger.create(intent(id), start(id))));
    await Promise.all(ids.map((id) => ledger.transition(id, 1, commit(id))));
    expect(batches.sizes.reduce((sum, size) => sum + size, 0)).toBe(96);
    expect(batches.sizes.length).toBeLessThanOrEqual(24);
    expect(Math.max(...batches.sizes)).toBeGreaterThan(1);
    for (const id of ids) {
      const history = await ledger.history(id);
      expect(history.map((revision) => revision.revision)).toEqual([0, 1, 2]);
      expect(await verifyHistory(history)).toMatchObject({
        ok: true,
        record: { state: { status: 'committed' } },
      });
    }
    await ledger.close();
  });

  it('checks each write of a batch on its own: a refused one fails alone, with its own reason', async () => {
    const { ledger, schema, batches } = await countedLedger();
    const ids = ['moved-on', 'leased', 'fine-1', 'fine-2', 'fine-3'];
    for (const id of [...ids, 'taken']) {
      await ledger.create(intent(id), start(id));
    }
    // Behind the writer's back: one record moved on past the revision it expects, one leased to another live
    // session.
    await admin.query(`UPDATE ${schema}.records SET revision = revision + 1 WHERE id = 'moved-on'`);
    await admin.query(
      `UPDATE ${schema}.records SET lease_session = 'other', lease_expires = clock_timestamp() + interval '1 hour' WHERE id = 'leased'`,
    );
    batches.sizes.length = 0;
    // A write under way first, so that the ones after it gather into one batch.
    const first = ledger.transition('fine-1', 1, commit('fine-1'));
    const rest = [
      ledger.transition('moved-on', 1, commit('moved-on')),
      ledger.transition('leased', 1, commit('leased')),
      ledger.create(intent('taken')),
      ledger.transition('fine-2', 1, commit('fine-2')),
      ledger.transition('fine-3', 1, commit('fine-3')),
    ];
    const outcomes = await Promise.allSettled([first, ...rest]);
    expect(batches.sizes).toEqual([1, 5]);
    const refusals = outcomes.map((outcome) =>
      outcome.status === 'rejected' && outcome.reason instanceof LedgerError
        ? { reason: outcome.reason.reason, rule: outcome.reason.rule }
        : outcome.status,
    );
    expect(refusals).toEqual([
      'fulfilled',
      { reason: 'stale-revision', rule: undefined },
      { reason: 'fenced', rule: 'lease' },
      { reason: 'stale-revision', rule: 'exists' },
      'fulfilled',
      'fulfilled',
    ]);
    for (const id of ['fine-1', 'fine-2', 'fine-3']) {
      expect((await ledger.get(id))?.state.status).toBe('committed');
    }
    const written = await admin.query<{ id: string; revision: number }>(
      `SELECT id, max(revision) AS revision FROM ${schema}.revisions GROUP BY id ORDER BY id`,
    );
    expect(written.rows.find((row) => row.id === 'leased')?.revision).toBe(1);
    expect(written.rows.find((row) => row.id === 'moved-on')?.revision).toBe(1);
    await ledger.close();
  });

  it('writes the rest of a batch the database refused as a whole, each alone', async () => {
    const { ledger, schema, batches } = await countedLedger();
    // A stray row where `lost`'s start goes: the batch statement holding it fails as a whole.
    await admin.query(
      `INSERT INTO ${schema}.revisions (id, revision, body, worker, session) VALUES ('lost', 1, '{}', 'other', 'other')`,
    );
    const first = ledger.create(intent('first'), start('first'));
    const rest = ['kept-1', 'lost', 'kept-2'].map((id) => ledger.create(intent(id), start(id)));
    const outcomes = await Promise.allSettled([first, ...rest]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const failure = await rejectionOf(rest[1] as Promise<unknown>, LedgerError);
    expect(failure.reason).toBe('io');
    // The first alone, the three together, then each of them alone again.
    expect(batches.sizes).toEqual([1, 3, 1, 1, 1]);
    for (const id of ['first', 'kept-1', 'kept-2']) {
      expect(await verifyHistory(await ledger.history(id))).toMatchObject({ ok: true });
    }
    const records = await admin.query(`SELECT id FROM ${schema}.records WHERE id = 'lost'`);
    expect(records.rowCount).toBe(0);
    await ledger.close();
  });

  it('prepares its batch statement anew as its appends grow, so a plan made on a new table does not stay', async () => {
    // One connection, on which every batch is planned: a connection keeps a generic plan from a statement's
    // sixth run until the table's statistics change, and autovacuum analyzes a new table a minute later.
    const { ledger, schema, pool, batches } = await countedLedger(1);
    // Its first runs meet a table of a few rows, where reading it whole is the cheaper plan.
    const small = Array.from({ length: 8 }, (_, index) => `small-${index}`);
    for (const id of small) {
      await ledger.create(intent(id), start(id));
    }
    // Then the table grows past a thousand records, in batches.
    for (let wave = 0; wave < 16; wave++) {
      await Promise.all(
        Array.from({ length: 64 }, (_, index) => `grown-${wave}-${index}`).map((id) =>
          ledger.create(intent(id), start(id)),
        ),
      );
    }
    // Moves, one at a time, run the preparation this writer is at often enough for it to keep a plan.
    for (const id of small) {
      await ledger.transition(id, 1, commit(id));
    }
    const preparation = batchPreparations.findLastIndex((after) => after <= small.length + 16 * 64);
    expect(preparation).toBeGreaterThan(0);
    expect(batches.preparations[0]).toBe(0);
    expect(batches.preparations.at(-1)).toBe(preparation);
    expect(batches.preparations).toEqual([...batches.preparations].sort((a, b) => a - b));
    // What the connection runs for a move now: the primary key's index, not the whole table.
    const statement = storeStatements(qualify(schema)).writeBatches[preparation];
    const literals: Record<string, string> = {
      IDS: "'{small-0}'",
      STATUSES: "'{committed}'",
      REVISIONS: "'{2}'",
      DIGESTS: "'{d}'",
      UPDATED: "'{1}'",
      CONTEXTUAL: "'{f}'",
      DUE: "'{NULL}'",
      KEEP: "'{f}'",
      BODIES: "'{}'",
      EXPECTED: "'{1}'",
      PREVIOUS: "'{d}'",
      REVISIONIDS: "'{small-0}'",
      NUMBERS: "'{2}'",
      REVISIONBODIES: "'{}'",
      NEWBODIES: "''",
      W: "'w1'",
      S: "'s'",
      LEASE: '1000',
    };
    const values = statement?.params.map((param) => literals[param] ?? "'{}'") ?? [];
    const explained = await pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN EXECUTE ${statement?.name}(${values.join(', ')})`,
    );
    const plan = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    const update = plan.slice(plan.indexOf('Update on records r'), plan.indexOf('CTE head'));
    expect(update).toContain('records_pkey');
    expect(update).not.toContain('Seq Scan');
    await ledger.close();
  });

  it('stores each body of a batch as the very text JSON.stringify gives, escapes and all', async () => {
    const { ledger, schema, batches } = await countedLedger();
    // Texts that need JSON's escapes (quotes, backslashes, controls, U+2028) or none (é, an emoji, 東京): the
    // bodies travel as one text joined by U+0001 (the text of U+0001 a body holds is an escape), and each row
    // must keep its own text to the byte.
    const texts = ['say "hi" \\ back', 'line\nbreak\ttab\u0001', 'café 東京 🛫', 'sep\u2028arator', '[],{}'];
    const ids = texts.map((_, index) => `text-${index}`);
    const first = ledger.create(intent('text-first'), start('text-first'));
    await Promise.all(
      ids.map((id, index) =>
        ledger.create(
          {
            ...intent(id),
            message: { messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: texts[index] as string }] },
          },
          start(id),
        ),
      ),
    );
    await first;
    const moved = await Promise.all(ids.map((id) => ledger.transition(id, 1, commit(id))));
    // The creates gathered behind the first, and so did the moves.
    expect(Math.max(...batches.sizes)).toBeGreaterThan(1);
    for (const [index, id] of ids.entries()) {
      const row = await admin.query<{ body: string }>(`SELECT body FROM ${schema}.records WHERE id = $1`, [
        id,
      ]);
      expect(row.rows[0]?.body).toBe(JSON.stringify(moved[index]));
      const history = await ledger.history(id);
      const stored = await admin.query<{ body: string }>(
        `SELECT body FROM ${schema}.revisions WHERE id = $1 ORDER BY revision`,
        [id],
      );
      expect(stored.rows.map((revision) => revision.body)).toEqual(
        history.map((revision) => JSON.stringify(revision)),
      );
      expect((await ledger.get(id))?.message.parts).toEqual([{ text: texts[index] }]);
    }
    await ledger.close();
  });
});
