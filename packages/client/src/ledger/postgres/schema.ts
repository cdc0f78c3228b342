/**
@module
The ledger's tables, versioned (docs/durable-send.md#postgresql): the migrations from one version to the next,
run on a writer's open in one transaction under an advisory lock, and the version check of a read-only open,
which migrates nothing. A database at a later version than this module's is refused as `unsupported`.
*/
import { LedgerError } from '../../core/errors.js';
import { checkout, type Pool } from './connection.js';

/**
The version of the tables this module writes; a database at a later version is refused as `unsupported`.
*/
export const postgresSchemaVersion = 5;

/** The quoted, schema-qualified name of one of the ledger's tables (or indexes). */
export type Qualify = (name: string) => string;

/** Names in `schema`, which the options allow only as lowercase letters, digits and `_` (options.ts). */
export function qualify(schema: string): Qualify {
  return (name) => `"${schema}"."${name}"`;
}

/**
The versioned migrations, in order: migration n brings the schema from version n − 1 to n. Each is plain SQL,
run in one transaction under an advisory lock, so workers opening at once migrate once.
*/
function migrations(q: Qualify): readonly string[] {
  return [
    `CREATE TABLE ${q('records')} (
       id text PRIMARY KEY,
       status text NOT NULL,
       revision integer NOT NULL,
       digest text NOT NULL,
       created_at bigint NOT NULL,
       agent text NOT NULL,
       delivery text NOT NULL,
       contextual boolean NOT NULL,
       due_at bigint,
       lease_worker text,
       lease_session text,
       lease_expires timestamptz,
       body text NOT NULL
     );
     CREATE INDEX "records_due" ON ${q('records')} (due_at, id) WHERE due_at IS NOT NULL;
     CREATE INDEX "records_executing" ON ${q('records')} (lease_expires) WHERE status = 'executing';
     CREATE INDEX "records_status" ON ${q('records')} (status, created_at, id);
     CREATE INDEX "records_lease" ON ${q('records')} (lease_session) WHERE lease_session IS NOT NULL;
     CREATE INDEX "records_worker" ON ${q('records')} (lease_worker) WHERE lease_worker IS NOT NULL;
     CREATE TABLE ${q('revisions')} (
       id text NOT NULL,
       revision integer NOT NULL,
       body text NOT NULL,
       worker text NOT NULL,
       session text NOT NULL,
       written_at timestamptz NOT NULL DEFAULT clock_timestamp(),
       PRIMARY KEY (id, revision)
     );`,
    // Version 2: the time a record last moved, so pruning past the retention window reads an index, not every
    // body.
    `ALTER TABLE ${q('records')} ADD COLUMN updated_at bigint;
     UPDATE ${q('records')} SET updated_at = (body::jsonb ->> 'updatedAt')::bigint;
     ALTER TABLE ${q('records')} ALTER COLUMN updated_at SET NOT NULL;
     CREATE INDEX "records_settled" ON ${q('records')} (updated_at) WHERE status NOT IN ('prepared', 'executing', 'unknown');`,
    // Version 3: the ledger's own sequence, the order records were created in, which `list` returns (a
    // creation time in milliseconds and the id do not tell apart two records of one millisecond). Existing
    // records are numbered in the order `list` gave them until now; the database numbers every later one,
    // past them. And an index on when each revision was written, which a follower re-reads from after it
    // reconnects (docs/durable-send.md#when-the-database-drops-a-connection).
    `ALTER TABLE ${q('records')} ADD COLUMN seq bigint;
     UPDATE ${q('records')} r SET seq = numbered.n
       FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM ${q('records')}) numbered
       WHERE r.id = numbered.id;
     ALTER TABLE ${q('records')} ALTER COLUMN seq SET NOT NULL;
     ALTER TABLE ${q('records')} ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY;
     SELECT setval(pg_get_serial_sequence('${q('records')}', 'seq'), coalesce(max(seq), 0) + 1, false) FROM ${q('records')};
     DROP INDEX ${q('records_status')};
     CREATE INDEX "records_status" ON ${q('records')} (status, seq);
     CREATE INDEX "revisions_written" ON ${q('revisions')} (written_at);`,
    // Version 4: the status a record's body names, indexed in the ledger's sequence, which the inbox (`list`
    // by status), the sweep of orphans and the release select by, never the status column an edit could
    // change (docs/durable-send.md#what-the-store-checks). The two indexes of the status column served only
    // those, and go.
    `CREATE INDEX "records_body_status" ON ${q('records')} (((body::jsonb) -> 'state' ->> 'status'), seq);
     DROP INDEX ${q('records_status')};
     DROP INDEX ${q('records_executing')};`,
    // Version 5: one index of the leases, by worker then session, in place of one by session and one by
    // worker: every write of a leased record (a create, a start, a claim) added an entry to both. The
    // heartbeat and the end of a session name the worker beside the session, and the end of a previous
    // process's leases names the worker alone, so each reads it by its leading columns.
    `CREATE INDEX "records_leases" ON ${q('records')} (lease_worker, lease_session) WHERE lease_session IS NOT NULL;
     DROP INDEX ${q('records_lease')};
     DROP INDEX ${q('records_worker')};`,
  ];
}

/**
The version the `meta` table names (0 for none yet): `corrupt` unless a whole number, `unsupported` when later
than this library's.
*/
function storedVersion(rows: readonly { value: string }[]): number {
  const current = rows.length === 0 ? 0 : Number(rows[0]?.value);
  if (!Number.isSafeInteger(current) || current < 0) {
    throw new LedgerError('corrupt', { rule: 'schema-version' });
  }
  if (current > postgresSchemaVersion) {
    throw new LedgerError('unsupported', { rule: 'schema-version' });
  }
  return current;
}

/** Creates the schema or brings it to {@link postgresSchemaVersion}; a later version is refused. */
async function migrate(pool: Pool, schema: string, q: Qualify): Promise<number> {
  const held = await checkout(pool);
  const { client } = held;
  try {
    await client.query('BEGIN');
    // One migration at a time per schema, whatever the number of workers opening it.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`surecall-ledger:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${q('meta')} (key text PRIMARY KEY, value text NOT NULL)`);
    const found = await client.query<{ value: string }>(
      `SELECT value FROM ${q('meta')} WHERE key = 'version'`,
    );
    const current = storedVersion(found.rows);
    const steps = migrations(q);
    for (let version = current + 1; version <= postgresSchemaVersion; version++) {
      await client.query(steps[version - 1] as string);
    }
    await client.query(
      `INSERT INTO ${q('meta')} (key, value) VALUES ('version', $1)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [String(postgresSchemaVersion)],
    );
    await client.query('COMMIT');
    held.release(false);
    return postgresSchemaVersion;
  } catch (error) {
    // Ending the connection rolls the transaction back on the server, without a ROLLBACK awaited on a
    // connection that may be dying.
    held.release(true);
    throw error;
  }
}

/**
What a read-only open checks instead of migrating: the schema's version, read with one `SELECT`, so a role
that may only read (`USAGE` on the schema, `SELECT` on its tables) opens the ledger. A ledger no writer has
created yet is `not-found` (rule `schema`); a schema at another version is `unsupported` (rule
`schema-version`): a writer that runs this version migrates it first.
*/
async function readSchemaVersion(pool: Pool, q: Qualify): Promise<number> {
  let found: { rows: { value: string }[] };
  try {
    found = await pool.query<{ value: string }>(`SELECT value FROM ${q('meta')} WHERE key = 'version'`);
  } catch (error) {
    // PostgreSQL's SQLSTATE 3F000 (no such schema) and 42P01 (no such table).
    const code = (error as { code?: unknown }).code;
    if (code === '3F000' || code === '42P01') {
      throw new LedgerError('not-found', { rule: 'schema', cause: error });
    }
    throw error;
  }
  const current = storedVersion(found.rows);
  if (current !== postgresSchemaVersion) {
    throw new LedgerError('unsupported', { rule: 'schema-version' });
  }
  return current;
}

/**
The schema's version once the open may use it: a writer migrates it, a `readOnly` follower only checks it.
*/
export function openSchema(pool: Pool, schema: string, readOnly: boolean): Promise<number> {
  const q = qualify(schema);
  return readOnly ? readSchemaVersion(pool, q) : migrate(pool, schema, q);
}
