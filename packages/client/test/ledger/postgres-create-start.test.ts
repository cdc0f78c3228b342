/**
`create(intent, start)` on the PostgreSQL ledger (docs/durable-send.md#execution-order): the record and its
first attempt are one statement, so they are written together or not at all, never a `prepared` record whose
start was lost.
*/
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { LedgerError } from '../../src/core/errors.js';
import { verifyHistory } from '../../src/ledger/ledger.js';
import { openPostgresLedger } from '../../src/ledger/postgres/entry.js';
import { intent } from '../support/intent.js';
import { rejectionOf } from '../support/rejection.js';

const url = inject('postgresUrl');
const schema = `create_start_${crypto.randomUUID().slice(0, 8)}`;
const admin = new pg.Pool({ connectionString: url, max: 1 });

afterAll(async () => {
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
});

describe('create with a first attempt on PostgreSQL', () => {
  it('writes both revisions in one statement: when the start cannot be written, neither is', async () => {
    const ledger = await openPostgresLedger({ connectionString: url }, { schema, worker: 'w1' });
    const kept = await ledger.create(intent('kept'), { attemptId: 'a-kept', messageId: 'm-a-kept' });
    const stored = await admin.query<{ revision: number }>(
      `SELECT revision FROM ${schema}.revisions WHERE id = 'kept' ORDER BY revision`,
    );
    expect(stored.rows.map((row) => row.revision)).toEqual([0, 1]);
    expect(await verifyHistory(await ledger.history('kept'))).toEqual({ ok: true, record: kept });

    // A stray row where the start's revision goes: the statement fails as a whole, and no record is left
    // prepared.
    await admin.query(
      `INSERT INTO ${schema}.revisions (id, revision, body, worker, session) VALUES ('lost', 1, '{}', 'other', 'other')`,
    );
    const failure = await rejectionOf(
      ledger.create(intent('lost'), { attemptId: 'a-lost', messageId: 'm-a-lost' }),
      LedgerError,
    );
    expect(failure.kind).toBe('ledger');
    // The stray row is all there is of `lost`: the store reads it as the revision of a record whose row is
    // gone (docs/durable-send.md#what-the-store-checks), and without it there is no record.
    expect(await rejectionOf(ledger.get('lost'), LedgerError)).toMatchObject({
      reason: 'corrupt',
      rule: 'record-missing',
    });
    const records = await admin.query(`SELECT id FROM ${schema}.records WHERE id = 'lost'`);
    expect(records.rowCount).toBe(0);
    await admin.query(`DELETE FROM ${schema}.revisions WHERE id = 'lost'`);
    expect(await ledger.get('lost')).toBeUndefined();
    await ledger.close();
  });
});
