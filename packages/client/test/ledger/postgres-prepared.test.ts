/**
The writes of every commit and the announcements run as named prepared statements
(ledger/postgres/statements.ts), named after their text: ledgers of two schemas that share one pool, and so
one connection, each keep their own write.
*/
import pg from 'pg';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { openPostgresLedger } from '../../src/ledger/postgres/entry.js';
import { intent } from '../support/intent.js';

const url = inject('postgresUrl');
const suffix = crypto.randomUUID().slice(0, 8);
const schemas = [`prepared_a_${suffix}`, `prepared_b_${suffix}`] as const;
// One connection: both ledgers prepare their statements on it.
const shared = new pg.Pool({ connectionString: url, max: 1 });

afterAll(async () => {
  for (const schema of schemas) {
    await shared.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
  await shared.end();
});

describe('prepared statements on PostgreSQL', () => {
  it('prepares the commit statement once per connection, apart for each schema', async () => {
    const ledgers = await Promise.all(
      schemas.map((schema) => openPostgresLedger({ pool: shared }, { schema, worker: `w-${schema}` })),
    );
    for (const [index, ledger] of ledgers.entries()) {
      for (const id of [`first-${index}`, `second-${index}`]) {
        const started = await ledger.create(intent(id), { attemptId: `a-${id}`, messageId: `m-${id}` });
        await ledger.transition(id, started.revision, {
          type: 'commit',
          attemptId: `a-${id}`,
          result: { kind: 'message' },
        });
      }
    }
    for (const [index, schema] of schemas.entries()) {
      const stored = await shared.query<{ id: string; status: string }>(
        `SELECT id, status FROM ${schema}.records ORDER BY id`,
      );
      expect(stored.rows).toEqual([
        { id: `first-${index}`, status: 'committed' },
        { id: `second-${index}`, status: 'committed' },
      ]);
    }
    // The batch write of each schema, which inserts and moves records alike, prepared once on the one
    // connection, and used by every later commit; and the announcement to followers, whose text names no
    // schema (the channel is its parameter), so both ledgers share it.
    // The announcement leaves `notifyDelayMs` after the last commit.
    const prepared = await vi.waitFor(async () => {
      const found = await shared.query<{ name: string; statement: string }>(
        `SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'surecall\\_%' ORDER BY name`,
      );
      expect(found.rows).toHaveLength(3);
      return found;
    });
    for (const schema of schemas) {
      expect(prepared.rows.filter((row) => row.statement.includes(`"${schema}"."records"`))).toHaveLength(1);
    }
    expect(prepared.rows.filter((row) => row.statement.includes('pg_notify'))).toHaveLength(1);
    for (const ledger of ledgers) {
      await ledger.close();
    }
  });
});
