/**
@module
The PostgreSQL ledger, the store a fleet of Node workers shares (docs/durable-send.md#postgresql), and the only module that loads `pg` (an optional peer dependency: nothing else in the package loads it; `postgres-connection.ts` only names its types). PostgreSQL is the dispatch authority: a record's head is one row, each revision one more row, and every write is ONE statement that checks the expected revision and the writer's lease and appends the revision, so a writer that lost its lease cannot write. A record being sent or probed is leased to one writer (its worker id and session, and an expiry on the database's clock, renewed while the writer lives); a record left executing by a writer whose lease lapsed becomes unknown, and any writer may then reconcile it. Due records carry their not-before time in a column, and writers claim them with `FOR UPDATE SKIP LOCKED`, so a fleet probes each record once without coordination. Plain SQL only (no extension, no trigger, no stored function), so PostgreSQL 13+ and compatible engines serve it; the schema lives in its own schema name and is versioned. A connection the database drops ends its statement with `LedgerError('io')`, never the process, and a follower reconnects and re-reads what it missed (`postgres-connection.ts`, docs/durable-send.md#when-the-database-drops-a-connection).
*/
import { hash } from 'node:crypto';
import { hostname } from 'node:os';
import type { Pool } from 'pg';
import { LedgerError } from '../core/errors.js';
import { type LedgerStore, openLedgerEngine, type StoreCommit, type StoreLeases } from './engine.js';
import {
  type AgentIdentity,
  deepFreeze,
  isDue,
  type Ledger,
  type LedgerChange,
  type LedgerOptions,
  retentionOf,
} from './ledger.js';
import { checkout, createFollower, guardPool } from './postgres-connection.js';
import { decodeLedger, LedgerRecord, LedgerRevision } from './record.js';

// Every store entry exports the same names: its `openLedger`, and the shared part from `entry.ts` (written once there).
export * from './entry.js';

/** Where the ledger's database is: a connection string (the ledger makes and ends its own pool, whose connections `pg_stat_activity` names `surecall-ledger` unless the string or `PGAPPNAME` names them), or a `pg` pool the caller owns, which has the ledger's `'error'` listeners, on the pool and on every connection it makes, from the open to `close` (docs/durable-send.md#when-the-database-drops-a-connection). */
export type PostgresConnection =
  | { readonly connectionString: string; readonly pool?: never }
  | { readonly pool: Pool; readonly connectionString?: never };

/** How one writer opens the shared ledger. */
export type PostgresLedgerOptions = {
  /** This writer's id, written on its leases and revisions: one live process per id. Opening with an id ends the leases its previous process held. @default `<hostname>-<pid>` */
  readonly worker?: string;
  /** How long a lease lasts without renewal, 100 ms to 1 h; the writer renews its leases every third of it. @default 30000 */
  readonly leaseMs?: number;
  /** The schema the ledger's tables live in: lowercase letters, digits and `_`, at most 48, starting with a letter or `_`. @default 'surecall_ledger' */
  readonly schema?: string;
  /** Connections of the pool the ledger makes from a connection string, 1 to 256. @default 10 */
  readonly poolSize?: number;
  /** How long a settled record is kept after it settled, as `LedgerOptions.retentionMs` (docs/durable-send.md#retention): past it any writer prunes it. @default 7 days */
  readonly retentionMs?: number;
  /** Follow only: reads and `subscribe` work, every write and claim is refused as `locked`, no lease is taken or recovered, and the schema is not migrated, only its version read, so a role that may only read can open it. For a panel or a CLI that watches a fleet. @default false */
  readonly readOnly?: boolean;
};

/** The PostgreSQL ledger: the shared `Ledger`, with what a fleet operator needs besides. */
export type PostgresLedger = Ledger & {
  /** This writer's id. */
  readonly worker: string;
  /** The schema its tables live in. */
  readonly schema: string;
  /** The version of the schema it opened (see `postgresSchemaVersion`). */
  readonly schemaVersion: number;
};

/** The version of the tables this module writes; a database at a later version is refused as `unsupported`. */
export const postgresSchemaVersion = 3;

const defaultSchema = 'surecall_ledger';
const defaultLeaseMs = 30_000;

// Appends between two prunings of what is past the retention window.
const pruneEvery = 256;

// How many records one orphan sweep leases at a time.
const orphanBatch = 64;

// A PostgreSQL NOTIFY payload holds less than 8000 bytes; a batch of announcements stays under this.
const notifyBytes = 7000;
// Announcements of one writer are gathered this long, then sent in one notification.
const notifyDelayMs = 5;
// Tries of one notification: one whose connection was dropped goes again on another, then its news is given up (the changes it names are durable already).
const notifyTries = 3;
// What `pg_stat_activity` calls the connections of a pool the ledger makes, unless the connection string or PGAPPNAME names them.
const applicationName = 'surecall-ledger';

function invalid(rule: string): never {
  throw new LedgerError('invalid-input', { rule });
}

function whole(value: unknown, fallback: number, min: number, max: number, rule: string): number {
  const given = value ?? fallback;
  if (typeof given !== 'number' || !Number.isSafeInteger(given) || given < min || given > max) {
    invalid(rule);
  }
  return given;
}

type Resolved = {
  readonly worker: string;
  readonly leaseMs: number;
  readonly schema: string;
  readonly poolSize: number;
  readonly readOnly: boolean;
  readonly retentionMs: number;
};

/** The options of {@link openPostgresLedger}, checked in one place; every refusal is `invalid-input` with the option's name as the rule. */
function resolve(options: PostgresLedgerOptions): Resolved {
  if (typeof options !== 'object' || options === null) {
    invalid('options');
  }
  const worker = options.worker ?? `${hostname()}-${process.pid}`;
  // A label: printable, no control character, short enough for an index and a log line.
  if (typeof worker !== 'string' || worker.length === 0 || worker.length > 128 || /\p{Cc}/u.test(worker)) {
    invalid('worker');
  }
  const schema = options.schema ?? defaultSchema;
  if (typeof schema !== 'string' || !/^[a-z_][a-z0-9_]{0,47}$/.test(schema)) {
    invalid('schema');
  }
  const readOnly = options.readOnly ?? false;
  if (typeof readOnly !== 'boolean') {
    invalid('readOnly');
  }
  return {
    worker,
    schema,
    readOnly,
    leaseMs: whole(options.leaseMs, defaultLeaseMs, 100, 3_600_000, 'leaseMs'),
    poolSize: whole(options.poolSize, 10, 1, 256, 'poolSize'),
    retentionMs: retentionOf({
      name: schema,
      ...(options.retentionMs === undefined ? {} : { retentionMs: options.retentionMs }),
    }),
  };
}

// pg's own errors stay inside this module (CONTRIBUTING.md#library-boundaries): they travel on `cause`.
async function io<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof LedgerError ? error : new LedgerError('io', { cause: error });
  }
}

function decodeRecord(text: unknown): LedgerRecord {
  let value: unknown;
  try {
    value = JSON.parse(String(text));
  } catch (error) {
    throw new LedgerError('corrupt', { rule: 'json', cause: error });
  }
  const decoded = decodeLedger(LedgerRecord, value);
  if (!decoded.ok) {
    throw new LedgerError('corrupt', { rule: decoded.error.rule });
  }
  return deepFreeze(decoded.value);
}

function decodeRevision(text: unknown, position: number): LedgerRevision {
  let value: unknown;
  try {
    value = JSON.parse(String(text));
  } catch (error) {
    throw new LedgerError('corrupt', { rule: 'json', position, cause: error });
  }
  const decoded = decodeLedger(LedgerRevision, value);
  if (!decoded.ok) {
    throw new LedgerError('corrupt', { rule: decoded.error.rule, position });
  }
  return deepFreeze(decoded.value);
}

/** The agent column: one string per agent identity, so a claim can pick one agent's records by index. */
function agentKey(agent: AgentIdentity): string {
  return JSON.stringify([agent.cardDigest, agent.binding, agent.url, agent.tenant ?? null]);
}

/** When a record comes due for a probe, or `null` when it never will on its own (docs/durable-send.md#reconciling-an-unknown). */
function dueAt(record: LedgerRecord): number | null {
  const { state } = record;
  if (!isDue(record, Number.MAX_SAFE_INTEGER) || state.status !== 'unknown') {
    return null;
  }
  return state.pending?.notBefore ?? record.updatedAt;
}

/** Whether the record's current attempt carried a recovery contextId. */
function contextual(record: LedgerRecord): boolean {
  const { state } = record;
  return (
    state.status !== 'prepared' &&
    record.attempts.some(
      (attempt) => attempt.attemptId === state.attemptId && attempt.contextId !== undefined,
    )
  );
}

/** Whether a writer keeps its lease after moving a record into `record`'s state: while it is prepared (about to start) or executing (its one send under way). */
function keepsLease(record: LedgerRecord): boolean {
  return record.state.status === 'prepared' || record.state.status === 'executing';
}

/**
The versioned migrations, in order: migration n brings the schema from version n − 1 to n. Each is plain SQL, run in one transaction under an advisory lock, so workers opening at once migrate once.
*/
function migrations(q: (name: string) => string): readonly string[] {
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
    // Version 2: the time a record last moved, so pruning past the retention window reads an index, not every body.
    `ALTER TABLE ${q('records')} ADD COLUMN updated_at bigint;
     UPDATE ${q('records')} SET updated_at = (body::jsonb ->> 'updatedAt')::bigint;
     ALTER TABLE ${q('records')} ALTER COLUMN updated_at SET NOT NULL;
     CREATE INDEX "records_settled" ON ${q('records')} (updated_at) WHERE status NOT IN ('prepared', 'executing', 'unknown');`,
    // Version 3: the ledger's own sequence, the order records were created in, which `list` returns (a creation time in milliseconds and the id do not tell apart two records of one millisecond). Existing records are numbered in the order `list` gave them until now; the database numbers every later one, past them. And an index on when each revision was written, which a follower re-reads from after it reconnects (docs/durable-send.md#when-the-database-drops-a-connection).
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
  ];
}

/** The version the `meta` table names (0 for none yet): `corrupt` unless a whole number, `unsupported` when later than this library's. */
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
async function migrate(pool: Pool, schema: string, q: (name: string) => string): Promise<number> {
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
    // Ending the connection rolls the transaction back on the server, without a ROLLBACK awaited on a connection that may be dying.
    held.release(true);
    throw error;
  }
}

/**
What a read-only open checks instead of migrating: the schema's version, read with one `SELECT`, so a role that may only read (`USAGE` on the schema, `SELECT` on its tables) opens the ledger. A ledger no writer has created yet is `not-found` (rule `schema`); a schema at another version is `unsupported` (rule `schema-version`): a writer that runs this version migrates it first.
*/
async function readSchemaVersion(pool: Pool, q: (name: string) => string): Promise<number> {
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

type StoreInput = {
  readonly pool: Pool;
  readonly settings: Resolved;
  readonly session: string;
  readonly q: (name: string) => string;
  readonly channel: string;
  readonly ownsPool: boolean;
  /** Takes the ledger's listeners off a pool the caller owns (`guardPool`). */
  readonly unguard: () => void;
};

type PostgresStore = LedgerStore & {
  /** Starts following other writers' changes (LISTEN), once. */
  listen(): Promise<void>;
};

function postgresStore(input: StoreInput): PostgresStore {
  const { pool, settings, session, q, channel, ownsPool, unguard } = input;
  let writes = 0;

  // docs/durable-send.md#retention: a settled record past the window goes with its revisions, in one statement; open records never do.
  async function prune(): Promise<void> {
    await pool.query(
      `WITH gone AS (
         DELETE FROM ${q('records')}
         WHERE status NOT IN ('prepared', 'executing', 'unknown') AND updated_at < $1
         RETURNING id
       )
       DELETE FROM ${q('revisions')} WHERE id IN (SELECT id FROM gone)`,
      [Date.now() - settings.retentionMs],
    );
  }
  const { worker, leaseMs } = settings;
  const records = q('records');
  const revisions = q('revisions');
  const leaseUntil = "clock_timestamp() + $LEASE::double precision * interval '1 millisecond'";
  // The lease condition every write states: the record is free, or this session holds a live lease, or another's lease lapsed.
  const mayWrite = `(lease_session IS NULL
      OR (lease_session = $S AND lease_expires > clock_timestamp())
      OR (lease_session <> $S AND lease_expires <= clock_timestamp()))`;
  // Numbered placeholders for the named ones above, per statement.
  const sql = (text: string, names: Record<string, number>) =>
    text.replace(/\$([A-Z]+)/g, (_, name: string) => {
      const index = names[name];
      if (index === undefined) {
        throw new TypeError(`surecall: no parameter named ${name}`);
      }
      return `$${index}`;
    });

  const claimSet = `lease_worker = $W, lease_session = $S, lease_expires = ${leaseUntil}`;
  // The statements every commit runs are named prepared statements: the server parses and plans each once per connection instead of on every commit, which was a large part of its work per commit. The name comes from the text, which holds the schema, so ledgers of two schemas sharing one pool never take each other's, and it stays within PostgreSQL's 63-byte names.
  const prepared = (text: string) => ({ name: `surecall_${hash('sha256', text, 'hex').slice(0, 32)}`, text });

  // The heads of the records this writer holds (prepared or executing under its lease, or claimed for a probe): a transition of one needs no read first. Bounded by what is in flight.
  const heads = new Map<string, LedgerRecord>();
  let onRemote: ((id: string, revision: number) => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  let closing: Promise<void> | undefined;
  // Other writers' changes, heard on a connection of its own once a first subscriber is there.
  const follower = createFollower({
    pool,
    channel,
    session,
    revisions,
    onChange: (id, revision) => onRemote?.(id, revision),
  });

  // Announcements gathered for the next notification: [id, revision] pairs.
  const queued: [string, number][] = [];
  let flushing: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /**
  Sends the gathered announcements, one notification per batch, each in a transaction of its own that need not wait for a disk flush: the changes it names are already durable, so an announcement lost to a crash or to a dropped connection loses no change, only its early news (a follower re-reads what it missed when it reconnects, docs/durable-send.md#when-the-database-drops-a-connection). Through `pool.query`, which holds the connection only for the statement and ends one that failed. Never rejects: `announce` starts it in the background, and `close` waits for it.
  */
  async function flush(): Promise<void> {
    timer = undefined;
    while (queued.length > 0) {
      const batch: [string, number][] = [];
      let bytes = 64;
      while (queued.length > 0) {
        const next = queued[0] as [string, number];
        const size = JSON.stringify(next).length + 1;
        if (batch.length > 0 && bytes + size > notifyBytes) {
          break;
        }
        batch.push(next);
        bytes += size;
        queued.shift();
      }
      const payload = JSON.stringify({ s: session, c: batch });
      for (let tries = 1; tries <= notifyTries; tries++) {
        try {
          // One statement: `set_config(…, true)` holds for its own transaction, up to the commit, which so need not wait for a disk flush.
          await pool.query("SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)", [
            channel,
            payload,
          ]);
          break;
        } catch {
          // The pool ended that connection; the next try takes another, and a follower hears a repeated batch once.
        }
      }
    }
  }

  function announce(id: string, revision: number): void {
    queued.push([id, revision]);
    if (timer === undefined && flushing === undefined) {
      timer = setTimeout(() => {
        flushing = flush().finally(() => {
          flushing = undefined;
          if (queued.length > 0 && !closed) {
            announce(...(queued.shift() as [string, number]));
          }
        });
      }, notifyDelayMs);
    }
  }

  /** Why a write found no row to move: the record is gone, moved on, or leased to another live writer. */
  async function refusal(id: string, expected: number): Promise<LedgerError> {
    const found = await pool.query<{ revision: number; held: boolean }>(
      `SELECT revision, NOT ${sql(mayWrite, { S: 2 })} AS held FROM ${records} WHERE id = $1`,
      [id, session],
    );
    const head = found.rows[0];
    if (head === undefined || head.revision !== expected) {
      return new LedgerError('stale-revision');
    }
    return new LedgerError('fenced', { rule: 'lease' });
  }

  // Each revision's row, beside the record's row the statement wrote.
  const revisionRows = `INSERT INTO ${revisions} (id, revision, body, worker, session)
     SELECT head.id, written.revision, written.body, $W, $S FROM head, unnest($NUMBERS::integer[], $BODIES::text[]) AS written (revision, body)`;
  // Revision 0: the record is new, leased to its creator, which is about to start it.
  const insertRecord = prepared(
    sql(
      `WITH head AS (
         INSERT INTO ${records} (id, status, revision, digest, created_at, updated_at, agent, delivery, contextual, due_at, lease_worker, lease_session, lease_expires, body)
         VALUES ($ID, $STATUS, $REVISION, $DIGEST, $CREATED, $UPDATED, $AGENT, $DELIVERY, $CONTEXTUAL, $DUE,
                 CASE WHEN $KEEP THEN $W END, CASE WHEN $KEEP THEN $S END, CASE WHEN $KEEP THEN ${leaseUntil} END, $BODY)
         ON CONFLICT (id) DO NOTHING
         RETURNING id
       )
       ${revisionRows}`,
      {
        ID: 1,
        STATUS: 2,
        REVISION: 3,
        DIGEST: 4,
        CREATED: 5,
        UPDATED: 6,
        AGENT: 7,
        DELIVERY: 8,
        CONTEXTUAL: 9,
        DUE: 10,
        KEEP: 11,
        W: 12,
        S: 13,
        LEASE: 14,
        BODY: 15,
        NUMBERS: 16,
        BODIES: 17,
      },
    ),
  );
  // docs/durable-send.md#leases: the expected revision, its digest and the lease, checked and moved in one statement.
  const moveRecord = prepared(
    sql(
      `WITH head AS (
         UPDATE ${records} SET status = $STATUS, revision = $REVISION, digest = $DIGEST, due_at = $DUE, body = $BODY,
           contextual = $CONTEXTUAL, updated_at = $UPDATED,
           lease_worker = CASE WHEN $KEEP THEN $W END,
           lease_session = CASE WHEN $KEEP THEN $S END,
           lease_expires = CASE WHEN $KEEP THEN ${leaseUntil} END
         WHERE id = $ID AND revision = $EXPECTED AND digest = $PREVIOUS AND ${mayWrite}
         RETURNING id
       )
       ${revisionRows}`,
      {
        ID: 1,
        STATUS: 2,
        REVISION: 3,
        DIGEST: 4,
        DUE: 5,
        BODY: 6,
        KEEP: 7,
        W: 8,
        S: 9,
        LEASE: 10,
        EXPECTED: 11,
        PREVIOUS: 12,
        CONTEXTUAL: 13,
        UPDATED: 14,
        NUMBERS: 15,
        BODIES: 16,
      },
    ),
  );

  /**
  Appends consecutive revisions of one record (one, or a `create` and its `start`) in ONE statement: the record's row moves to the last revision's state, and every revision gets its row. The first revision decides the check: revision 0 inserts the record (refused as `exists` when the id is taken); any later one needs the expected revision, its digest and the lease (docs/durable-send.md#leases).
  */
  async function appendRevisions(
    commits: readonly Pick<StoreCommit, 'record' | 'revision'>[],
  ): Promise<void> {
    const first = (commits[0] as (typeof commits)[number]).revision;
    const { record } = commits.at(-1) as (typeof commits)[number];
    const keep = keepsLease(record);
    const due = dueAt(record);
    const body = JSON.stringify(record);
    const numbers = commits.map((commit) => commit.revision.revision);
    const bodies = commits.map((commit) => JSON.stringify(commit.revision));
    if (first.revision === 0) {
      const inserted = await pool.query({
        ...insertRecord,
        values: [
          record.id,
          record.state.status,
          record.revision,
          record.digest,
          record.createdAt,
          record.updatedAt,
          agentKey(record.agent),
          record.delivery,
          contextual(record),
          due,
          keep,
          worker,
          session,
          leaseMs,
          body,
          numbers,
          bodies,
        ],
      });
      if (inserted.rowCount !== commits.length) {
        throw new LedgerError('stale-revision', { rule: 'exists' });
      }
      return;
    }
    const moved = await pool.query({
      ...moveRecord,
      values: [
        record.id,
        record.state.status,
        record.revision,
        record.digest,
        due,
        body,
        keep,
        worker,
        session,
        leaseMs,
        first.revision - 1,
        first.previousDigest ?? '',
        contextual(record),
        record.updatedAt,
        numbers,
        bodies,
      ],
    });
    if (moved.rowCount !== commits.length) {
      throw await refusal(record.id, first.revision - 1);
    }
  }

  /** Leases the rows `where` picks (at most `limit`, skipping rows another transaction holds) and returns their records. */
  async function lease(
    where: string,
    order: string,
    params: unknown[],
    limit: number,
  ): Promise<LedgerRecord[]> {
    const base = params.length;
    const result = await pool.query<{ body: string }>(
      sql(
        `WITH picked AS (
           SELECT id FROM ${records} WHERE ${where} ORDER BY ${order} LIMIT $LIMIT FOR UPDATE SKIP LOCKED
         )
         UPDATE ${records} r SET ${claimSet} FROM picked WHERE r.id = picked.id
         RETURNING r.body`,
        { LIMIT: base + 1, W: base + 2, S: base + 3, LEASE: base + 4 },
      ),
      [...params, limit, worker, session, leaseMs],
    );
    const leased = result.rows.map((found) => decodeRecord(found.body));
    for (const record of leased) {
      heads.set(record.id, record);
    }
    return leased;
  }

  /** A store write: its revisions in one statement, then this writer's cached head, then the announcement to followers. */
  function appendAll(commits: readonly Pick<StoreCommit, 'record' | 'revision'>[]): Promise<void> {
    return io(async () => {
      if (++writes % pruneEvery === 0) {
        await prune();
      }
      const { record } = commits.at(-1) as (typeof commits)[number];
      try {
        await appendRevisions(commits);
      } catch (error) {
        heads.delete(record.id);
        throw error;
      }
      if (keepsLease(record)) {
        heads.set(record.id, record);
      } else {
        heads.delete(record.id);
      }
      for (const { revision } of commits) {
        announce(record.id, revision.revision);
      }
    });
  }

  const leases: StoreLeases = {
    orphans: (limit) =>
      io(() =>
        lease(
          `status = 'executing' AND lease_expires <= clock_timestamp()`,
          'lease_expires',
          [],
          Math.min(limit, orphanBatch),
        ),
      ),
    claimDue: (query, now) =>
      io(() =>
        lease(
          `due_at <= $1 AND ($2::text IS NULL OR agent = $2) AND NOT (id = ANY($3::text[]))
           AND ($4::text[] IS NULL OR delivery = ANY($4::text[])) AND (NOT $5 OR contextual)
           AND (lease_session IS NULL OR lease_expires <= clock_timestamp())`,
          'due_at, id',
          [
            now,
            query.agent === undefined ? null : agentKey(query.agent),
            [...(query.exclude ?? [])],
            query.delivery === undefined ? null : [...query.delivery],
            query.contextual === true,
          ],
          query.limit,
        ),
      ),
    claim: (id, now) =>
      io(async () => {
        const result = await pool.query<{ body: string }>(
          sql(
            `UPDATE ${records} SET ${claimSet}
             WHERE id = $ID AND due_at <= $NOW AND (lease_session IS NULL OR lease_expires <= clock_timestamp())
             RETURNING body`,
            { ID: 1, NOW: 2, W: 3, S: 4, LEASE: 5 },
          ),
          [id, now, worker, session, leaseMs],
        );
        const found = result.rows[0];
        if (found === undefined) {
          return undefined;
        }
        const record = decodeRecord(found.body);
        heads.set(id, record);
        return record;
      }),
    release: (id) =>
      io(async () => {
        heads.delete(id);
        // Only a probe's claim: a prepared or executing record keeps its writer's lease until it moves or lapses.
        await pool.query(
          `UPDATE ${records} SET lease_worker = NULL, lease_session = NULL, lease_expires = NULL
           WHERE id = $1 AND lease_session = $2 AND status = 'unknown'`,
          [id, session],
        );
      }),
  };

  // The heartbeat: renews this session's live leases every third of their length. A lapsed lease is never renewed: it is lost, and another writer may take the record over.
  if (!settings.readOnly) {
    heartbeat = setInterval(
      () => {
        pool
          .query(
            `UPDATE ${records} SET lease_expires = clock_timestamp() + $2::double precision * interval '1 millisecond'
             WHERE lease_session = $1 AND lease_expires > clock_timestamp()`,
            [session, leaseMs],
          )
          .catch(() => undefined);
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    // A writer's leases never keep its process alive.
    heartbeat.unref?.();
  }

  return {
    writable: !settings.readOnly,
    leases,
    get: (id) =>
      io(async () => {
        const result = await pool.query<{ body: string }>(`SELECT body FROM ${records} WHERE id = $1`, [id]);
        const found = result.rows[0];
        return found === undefined ? undefined : decodeRecord(found.body);
      }),
    list: (states) =>
      io(async () => {
        const result =
          states === undefined
            ? await pool.query<{ body: string }>(`SELECT body FROM ${records} ORDER BY seq`)
            : await pool.query<{ body: string }>(
                `SELECT body FROM ${records} WHERE status = ANY($1::text[]) ORDER BY seq`,
                [[...states]],
              );
        return result.rows.map((found) => decodeRecord(found.body));
      }),
    history: (id) =>
      io(async () => {
        const result = await pool.query<{ body: string }>(
          `SELECT body FROM ${revisions} WHERE id = $1 ORDER BY revision`,
          [id],
        );
        return result.rows.map((found, index) => decodeRevision(found.body, index));
      }),
    head(id, revision) {
      const head = heads.get(id);
      return head?.revision === revision ? head : undefined;
    },
    append: (record, revision) => appendAll([{ record, revision }]),
    appendAll,
    watch(callback) {
      onRemote = callback;
    },
    listen: () => follower.start(),
    close() {
      closing ??= (async () => {
        closed = true;
        heads.clear();
        if (timer !== undefined) {
          clearTimeout(timer);
          timer = undefined;
        }
        // Neither rejects: a notification that could not be sent is only lost news.
        await flushing;
        await flush();
        if (heartbeat !== undefined) {
          clearInterval(heartbeat);
        }
        try {
          if (!settings.readOnly) {
            // Ends this session's leases now rather than at their expiry: a record it left executing is an orphan at once.
            await pool
              .query(`UPDATE ${records} SET lease_expires = clock_timestamp() WHERE lease_session = $1`, [
                session,
              ])
              .catch(() => undefined);
          }
          await follower.close();
        } finally {
          if (ownsPool) {
            // Its listeners stay: pg-pool's `end` resolves while the connections it ends may still raise their error.
            await pool.end().catch(() => undefined);
          } else {
            unguard();
          }
        }
      })();
      return closing;
    },
  };
}

/** The options object's connection, checked. */
async function poolOf(
  connection: PostgresConnection,
  poolSize: number,
): Promise<{ pool: Pool; owns: boolean }> {
  if (typeof connection !== 'object' || connection === null) {
    invalid('connection');
  }
  if (connection.pool !== undefined) {
    if (
      typeof connection.pool !== 'object' ||
      connection.pool === null ||
      typeof connection.pool.query !== 'function'
    ) {
      invalid('pool');
    }
    return { pool: connection.pool, owns: false };
  }
  if (typeof connection.connectionString !== 'string' || connection.connectionString.length === 0) {
    invalid('connectionString');
  }
  // Loaded only here: a bundle or a process that never opens a PostgreSQL ledger never loads pg.
  let pg: typeof import('pg')['default'];
  try {
    pg = (await import('pg')).default;
  } catch (error) {
    throw new LedgerError('unsupported', { rule: 'pg', cause: error });
  }
  const pool = new pg.Pool({
    connectionString: connection.connectionString,
    max: poolSize,
    fallback_application_name: applicationName,
  });
  return { pool, owns: true };
}

/**
Opens the shared PostgreSQL ledger for one writer (docs/durable-send.md#postgresql): creates or migrates its schema (a `readOnly` follower only checks its version, so a role that may only read can open it), ends the leases a previous process of the same `worker` held, turns the records left executing by writers whose lease lapsed into unknown, and starts renewing this writer's leases. `subscribe` also hears the changes of every other writer, through `LISTEN`/`NOTIFY`, once a first listener subscribes.

@throws {LedgerError} `invalid-input` for a bad option (the rule names it); `unsupported` when `pg` cannot be loaded or the schema is of a later version (for a `readOnly` follower, of any other version); `not-found` (rule `schema`) when a `readOnly` follower finds no ledger; `io` when the database cannot be reached or drops a connection while the ledger opens (a migration cut off leaves the schema as it was). Once open, a statement on a dropped connection fails with `io` too, and a `subscribe`r's connection is re-established (docs/durable-send.md#when-the-database-drops-a-connection).

@example
```ts
import { openPostgresLedger } from '@surecall/client/ledger/postgres';
const ledger = await openPostgresLedger({ connectionString: process.env.DATABASE_URL }, { worker: 'worker-1' });
const agent = durableAgent({ client, ledger, recovery: { kind: 'keyed' } });
await agent.runReconciler({ signal: shutdown.signal });
```
*/
export async function openPostgresLedger(
  connection: PostgresConnection,
  options: PostgresLedgerOptions = {},
): Promise<PostgresLedger> {
  const settings = resolve(options);
  const { pool, owns } = await poolOf(connection, settings.poolSize);
  // docs/durable-send.md#when-the-database-drops-a-connection: from here on, a connection the database drops ends a statement with `LedgerError('io')`, never the process.
  const unguard = guardPool(pool);
  const { schema, worker } = settings;
  const q = (name: string) => `"${schema}"."${name}"`;
  const session = crypto.randomUUID();
  let store: PostgresStore | undefined;
  try {
    // A follower only reads: it checks the version and leaves migrating to the writers.
    const schemaVersion = await io(() =>
      settings.readOnly ? readSchemaVersion(pool, q) : migrate(pool, schema, q),
    );
    if (!settings.readOnly) {
      // One live process per worker id: a restarted worker ends its previous process's leases at once, so what that process left executing is recovered now rather than when the leases lapse.
      await io(() =>
        pool.query(
          `UPDATE ${q('records')} SET lease_expires = clock_timestamp()
           WHERE lease_worker = $1 AND lease_session <> $2 AND lease_expires > clock_timestamp()`,
          [worker, session],
        ),
      );
    }
    store = postgresStore({
      pool,
      settings,
      session,
      q,
      channel: `${schema}.changes`,
      ownsPool: owns,
      unguard,
    });
    const following = store;
    const ledger = await openLedgerEngine(store);
    return Object.freeze({
      ...ledger,
      worker,
      schema,
      schemaVersion,
      subscribe(listener: (change: LedgerChange) => void) {
        // Other writers' changes arrive once the first subscriber is there; a failure to LISTEN leaves local changes flowing.
        following.listen().catch(() => undefined);
        return ledger.subscribe(listener);
      },
    });
  } catch (error) {
    if (store !== undefined) {
      await store.close().catch(() => undefined);
    } else if (owns) {
      await pool.end().catch(() => undefined);
    } else {
      unguard();
    }
    throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'open', cause: error });
  }
}

/**
Opens the PostgreSQL ledger at the connection string `options.name` with the default options, so the store entries stay interchangeable (`openLedger({ name })`); `openPostgresLedger` takes the worker, lease and schema.

@example
```ts
import { openLedger } from '@surecall/client/ledger/postgres';
const ledger = await openLedger({ name: 'postgres://app@db.internal/sends' });
```
*/
export async function openLedger(options: LedgerOptions): Promise<Ledger> {
  if (typeof options?.name !== 'string' || options.name.length === 0) {
    throw new LedgerError('invalid-input', { rule: 'name' });
  }
  return openPostgresLedger(
    { connectionString: options.name },
    options.retentionMs === undefined ? {} : { retentionMs: options.retentionMs },
  );
}
