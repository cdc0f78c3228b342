/**
A `readOnly` PostgreSQL ledger opened by a role that may only read (docs/durable-send.md#postgresql): it
follows the fleet's records without a statement that writes or locks, and refuses plainly a schema it cannot
use.
*/
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LedgerError } from '../../src/core/errors.js';
import { openPostgresLedger, postgresSchemaVersion } from '../../src/ledger/postgres/entry.js';
import { intent } from '../support/intent.js';
import { rejectionOf } from '../support/rejection.js';

const url = inject('postgresUrl');
const suffix = crypto.randomUUID().slice(0, 8);
const schema = `read_only_${suffix}`;
const role = `reader_${suffix}`;
const admin = new pg.Pool({ connectionString: url, max: 2 });

/** The same server as the role that may only read. */
function readerUrl(): string {
  const address = new URL(url);
  address.username = role;
  address.password = '';
  return address.toString();
}

function refusal(promise: Promise<unknown>): Promise<LedgerError> {
  return rejectionOf(promise, LedgerError);
}

beforeAll(async () => {
  const writer = await openPostgresLedger({ connectionString: url }, { schema, worker: 'writer' });
  await writer.create(intent('kept'), { attemptId: 'a-kept', messageId: 'attempt-kept' });
  await writer.close();
  await admin.query(`CREATE ROLE ${role} LOGIN`);
  await admin.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
  await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
});

afterAll(async () => {
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
  await admin.query(`DROP ROLE IF EXISTS ${role}`);
  await admin.end();
});

describe('a read-only PostgreSQL ledger', () => {
  it('opens with a role that may only read, lists the records and refuses every write', async () => {
    const follower = await openPostgresLedger(
      { connectionString: readerUrl() },
      { schema, readOnly: true, worker: 'follower' },
    );
    try {
      expect((await follower.list()).map((record) => record.id)).toEqual(['kept']);
      expect((await follower.get('kept'))?.state.status).toBe('executing');
      expect(await refusal(follower.create(intent('new')))).toMatchObject({ reason: 'locked' });
    } finally {
      await follower.close();
    }
  });

  it('is what such a role can open: a writer with the same role cannot migrate the schema', async () => {
    expect(
      await refusal(
        openPostgresLedger({ connectionString: readerUrl() }, { schema, worker: 'not-a-writer' }),
      ),
    ).toMatchObject({ reason: 'io' });
  });

  it('refuses a schema no writer has created as not-found', async () => {
    expect(
      await refusal(
        openPostgresLedger({ connectionString: url }, { schema: `absent_${suffix}`, readOnly: true }),
      ),
    ).toMatchObject({ reason: 'not-found', rule: 'schema' });
  });

  it('refuses a schema at another version, which only a writer may migrate', async () => {
    await admin.query(`UPDATE ${schema}.meta SET value = $1 WHERE key = 'version'`, [
      String(postgresSchemaVersion - 1),
    ]);
    try {
      expect(
        await refusal(openPostgresLedger({ connectionString: readerUrl() }, { schema, readOnly: true })),
      ).toMatchObject({ reason: 'unsupported', rule: 'schema-version' });
    } finally {
      await admin.query(`UPDATE ${schema}.meta SET value = $1 WHERE key = 'version'`, [
        String(postgresSchemaVersion),
      ]);
    }
  });
});
