/**
The PostgreSQL ledger's schema migrations (ledger/postgres/schema.ts): a ledger written at an earlier version
is brought to `postgresSchemaVersion` on open, its records kept. Version 3 numbers the records in the ledger's
own sequence, the order `list` returns: existing records in the order `list` gave them until then (creation
time, then id), every later one after them, by the database. Version 4 indexes the status each record's body
names, which the inbox and the sweep of orphans select by (docs/durable-send.md#what-the-store-checks), in
place of the status column's two indexes. Version 5 has one index of the leases, by worker and session, in
place of one by each.
*/
import pg from 'pg';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { openPostgresLedger, postgresSchemaVersion } from '../../src/ledger/postgres/entry.js';
import { qualify } from '../../src/ledger/postgres/schema.js';
import { storeStatements } from '../../src/ledger/postgres/statements.js';
import { intent } from '../support/intent.js';

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

/**
Takes a schema of this version back to how `version` (1 to 4) left it, as a database written by an older
release holds it.
*/
async function downgrade(schema: string, version: 1 | 2 | 3 | 4): Promise<void> {
  await admin.query(`DROP INDEX ${schema}.records_leases`);
  await admin.query(
    `CREATE INDEX records_lease ON ${schema}.records (lease_session) WHERE lease_session IS NOT NULL`,
  );
  await admin.query(
    `CREATE INDEX records_worker ON ${schema}.records (lease_worker) WHERE lease_worker IS NOT NULL`,
  );
  await admin.query(`UPDATE ${schema}.meta SET value = $1 WHERE key = 'version'`, [String(version)]);
  if (version === 4) {
    return;
  }
  await admin.query(`DROP INDEX ${schema}.records_body_status`);
  await admin.query(
    `CREATE INDEX records_executing ON ${schema}.records (lease_expires) WHERE status = 'executing'`,
  );
  if (version === 3) {
    await admin.query(`CREATE INDEX records_status ON ${schema}.records (status, seq)`);
  } else {
    await admin.query(`DROP INDEX ${schema}.revisions_written`);
    await admin.query(`ALTER TABLE ${schema}.records DROP COLUMN seq`);
    await admin.query(`CREATE INDEX records_status ON ${schema}.records (status, created_at, id)`);
  }
  if (version === 1) {
    await admin.query(`DROP INDEX ${schema}.records_settled`);
    await admin.query(`ALTER TABLE ${schema}.records DROP COLUMN updated_at`);
  }
  await admin.query(`UPDATE ${schema}.meta SET value = $1 WHERE key = 'version'`, [String(version)]);
}

async function sequence(schema: string): Promise<{ id: string; seq: string }[]> {
  const found = await admin.query<{ id: string; seq: string }>(
    `SELECT id, seq::text AS seq FROM ${schema}.records ORDER BY records.seq`,
  );
  return found.rows;
}

// Every index of the ledger's tables at version 5, and how the one on the body's status is made.
const currentIndexes = [
  'meta_pkey',
  'records_body_status',
  'records_due',
  'records_leases',
  'records_pkey',
  'records_settled',
  'revisions_pkey',
  'revisions_written',
];
// The two lease indexes of versions 1 to 4, in place of `records_leases`.
const leaseIndexes = ['records_lease', 'records_worker'];
const bodyStatusIndex = "btree (((((body)::jsonb -> 'state'::text) ->> 'status'::text)), seq)";

async function indexes(schema: string): Promise<{ names: string[]; bodyStatus: string | undefined }> {
  const found = await admin.query<{ indexname: string; indexdef: string }>(
    'SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname',
    [schema],
  );
  const bodyStatus = found.rows.find((row) => row.indexname === 'records_body_status');
  return {
    names: found.rows.map((row) => row.indexname),
    bodyStatus: bodyStatus?.indexdef.replace(/^.* USING /, ''),
  };
}

describe('PostgreSQL schema migrations', () => {
  it('is at version 5', () => {
    expect(postgresSchemaVersion).toBe(5);
  });

  it.each([
    { from: 2, created: ['r-c', 'r-a', 'r-b'], ids: ['r-a', 'r-b', 'r-c'] },
    { from: 1, created: ['r-c', 'r-a', 'r-b'], ids: ['r-a', 'r-b', 'r-c'] },
    { from: 2, created: [], ids: [] },
  ] as const)(
    'brings a version $from ledger of $ids.length records to version 5, numbering them in the order list gave them and every later one after them',
    async ({ from, created, ids }) => {
      const schema = `migrated_${from}_${ids.length}_${suffix}`;
      schemas.push(schema);
      const first = await openPostgresLedger({ connectionString: url }, { schema, worker: 'first' });
      // Records of one millisecond: until now `list` told them apart by id, so that is the order they are
      // numbered in, whatever order they were created in.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(1000);
      try {
        for (const id of created) {
          await first.create(intent(id));
        }
      } finally {
        vi.useRealTimers();
      }
      await first.close();
      await downgrade(schema, from);
      const stamped = await admin.query<{ created_at: string }>(
        `SELECT DISTINCT created_at::text AS created_at FROM ${schema}.records`,
      );
      expect(stamped.rows).toEqual(created.length === 0 ? [] : [{ created_at: '1000' }]);

      const second = await openPostgresLedger({ connectionString: url }, { schema, worker: 'second' });
      try {
        expect(second.schemaVersion).toBe(5);
        expect(await sequence(schema)).toEqual(ids.map((id, index) => ({ id, seq: String(index + 1) })));
        // The database numbers what is created from now on, past the numbered records.
        await second.create(intent('later-z'));
        await second.create(intent('later-a'));
        expect(await sequence(schema)).toEqual([
          ...ids.map((id, index) => ({ id, seq: String(index + 1) })),
          { id: 'later-z', seq: String(ids.length + 1) },
          { id: 'later-a', seq: String(ids.length + 2) },
        ]);
        // Every record is kept, whole, and moves on as before.
        for (const id of ids) {
          expect((await second.get(id))?.state.status).toBe('prepared');
        }
        const columns = await admin.query<{ is_identity: string; identity_generation: string }>(
          `SELECT is_identity, identity_generation FROM information_schema.columns
         WHERE table_schema = $1 AND table_name = 'records' AND column_name = 'seq'`,
          [schema],
        );
        expect(columns.rows).toEqual([{ is_identity: 'YES', identity_generation: 'ALWAYS' }]);
        const written = await admin.query<{ indexdef: string }>(
          `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'revisions_written'`,
          [schema],
        );
        expect(written.rows.map((row) => row.indexdef.replace(/^.* USING /, ''))).toEqual([
          'btree (written_at)',
        ]);
        expect(await indexes(schema)).toEqual({ names: currentIndexes, bodyStatus: bodyStatusIndex });
        // The inbox reads the new index: every record is listed by the status its body names.
        expect((await second.list({ states: ['prepared'] })).map((record) => record.id)).toEqual([
          ...ids,
          'later-z',
          'later-a',
        ]);
      } finally {
        await second.close();
      }
      // A migrated ledger opens as it stands.
      const third = await openPostgresLedger({ connectionString: url }, { schema, worker: 'third' });
      expect(third.schemaVersion).toBe(5);
      expect((await sequence(schema)).map((row) => row.id)).toEqual([...ids, 'later-z', 'later-a']);
      await third.close();
    },
  );

  it('brings a version 3 ledger to version 5: the status its bodies name indexed, the status column no longer', async () => {
    const schema = `migrated_3_${suffix}`;
    schemas.push(schema);
    const first = await openPostgresLedger({ connectionString: url }, { schema, worker: 'first' });
    await first.create(intent('v3-prepared'));
    const started = await first.create(intent('v3-unknown'), { attemptId: 'a-v3', messageId: 'm-a-v3' });
    await first.transition(started.id, started.revision, {
      type: 'unknown',
      attemptId: 'a-v3',
      reason: 'ambiguous-outcome',
    });
    await first.close();
    await downgrade(schema, 3);
    expect((await indexes(schema)).names).toEqual(
      [
        ...currentIndexes.filter((name) => name !== 'records_body_status' && name !== 'records_leases'),
        ...leaseIndexes,
        'records_executing',
        'records_status',
      ].sort(),
    );

    const second = await openPostgresLedger({ connectionString: url }, { schema, worker: 'second' });
    try {
      expect(second.schemaVersion).toBe(5);
      expect(await indexes(schema)).toEqual({ names: currentIndexes, bodyStatus: bodyStatusIndex });
      expect((await second.list({ states: ['unknown'] })).map((record) => record.id)).toEqual(['v3-unknown']);
      expect((await second.list()).map((record) => record.id)).toEqual(['v3-prepared', 'v3-unknown']);
      expect((await second.claimDue()).map((record) => record.id)).toEqual(['v3-unknown']);
    } finally {
      await second.close();
    }
  });

  it('brings a version 4 ledger to version 5: one index of the leases, which the heartbeat and the ends of leases read', async () => {
    const schema = `migrated_4_${suffix}`;
    schemas.push(schema);
    const first = await openPostgresLedger({ connectionString: url }, { schema, worker: 'v4-worker' });
    await first.create(intent('v4-executing'), { attemptId: 'a-v4', messageId: 'm-a-v4' });
    await first.close();
    await downgrade(schema, 4);
    expect((await indexes(schema)).names).toEqual(
      [...currentIndexes.filter((name) => name !== 'records_leases'), ...leaseIndexes].sort(),
    );

    // The same worker id: its open ends the previous process's leases (`endWorker`) and recovers the record.
    const second = await openPostgresLedger({ connectionString: url }, { schema, worker: 'v4-worker' });
    try {
      expect(second.schemaVersion).toBe(5);
      expect(await indexes(schema)).toEqual({ names: currentIndexes, bodyStatus: bodyStatusIndex });
      expect((await second.get('v4-executing'))?.state.status).toBe('unknown');
      const statements = storeStatements(qualify(schema));
      const client = await admin.connect();
      try {
        // Whatever the table's size, each of them reads the index: no plan without one is left.
        await client.query('SET enable_seqscan = off');
        await client.query('SET plan_cache_mode = force_generic_plan');
        for (const [name, text, values] of [
          ['renew', statements.renew.text, ['v4-worker', 'session', 1000]],
          ['end_session', statements.endSession.text, ['v4-worker', 'session']],
          ['end_worker', statements.endWorker.text, ['v4-worker', 'session']],
        ] as const) {
          await client.query(`PREPARE ${name} AS ${text}`);
          const plan = await client.query<{ 'QUERY PLAN': string }>(
            `EXPLAIN EXECUTE ${name}(${values.map((value) => (typeof value === 'number' ? value : `'${value}'`)).join(', ')})`,
          );
          const shown = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
          // By its leading column, the worker, not scanned whole for a session.
          expect(shown).toContain('using records_leases');
          expect(shown).toMatch(/Index Cond: \(+lease_worker = \$1\)/);
        }
      } finally {
        client.release(true);
      }
    } finally {
      await second.close();
    }
  });

  it('lists records in the order they were created in the ledger', async () => {
    const schema = `listed_${suffix}`;
    schemas.push(schema);
    const ledger = await openPostgresLedger({ connectionString: url }, { schema, worker: 'lister' });
    try {
      const ids = Array.from({ length: 12 }, (_, index) => `h-${String(index).padStart(2, '0')}`);
      for (const id of ids) {
        await ledger.create(intent(id));
      }
      expect((await ledger.list()).map((record) => record.id)).toEqual(ids);
      expect((await ledger.list({ states: ['prepared'] })).map((record) => record.id)).toEqual(ids);
      expect((await sequence(schema)).map((row) => row.id)).toEqual(ids);
    } finally {
      await ledger.close();
    }
  });
});
