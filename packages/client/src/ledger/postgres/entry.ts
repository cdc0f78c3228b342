/**
@module
`@surecall/client/ledger/postgres`: the PostgreSQL ledger, the store a fleet of Node workers shares
(docs/durable-send.md#postgresql). PostgreSQL is the dispatch authority: a record's head is one row, each
revision one more row, and every write is ONE statement that checks the expected revision and the writer's
lease and appends the revision, so a writer that lost its lease cannot write. A record being sent or probed is
leased to one writer (its worker id and session, and an expiry on the database's clock, renewed while the
writer lives); a record left executing by a writer whose lease lapsed becomes unknown, and any writer may then
reconcile it. Due records carry their not-before time in a column, and writers claim them with
`FOR UPDATE SKIP LOCKED`, so a fleet probes each record once without coordination. Plain SQL only (no
extension, no trigger, no stored function), so PostgreSQL 13+ serves it (ARCHITECTURE.md#decisions says what
the distributed PostgreSQL-compatible databases lack); the schema lives in its own schema name and is
versioned. A connection the database drops ends its statement with `LedgerError('io')`, never the process, and
a follower reconnects and re-reads what it missed (docs/durable-send.md#when-the-database-drops-a-connection).
One live process per worker id: a writer holds an advisory lock named after its worker id for its whole life,
so a second live process with the same id is refused at open
(docs/durable-send.md#one-live-process-per-worker-id). `pg` is an optional peer dependency, loaded by
`connection.ts` alone.

The folder: `options.ts` (the options, resolved once), `connection.ts` (the pool and its guards), `schema.ts`
(the versioned migrations), `statements.ts` (the SQL), `row.ts` (a record's columns, checked against its body)
and `history.ts` (a history, checked against its record's row), `store.ts` with `writes.ts` (its writes
gathered by `group-commit.ts`) and `leases.ts` (the store the engine runs on), `worker-lock.ts` (one live
process per worker id), `notify.ts` and `follower.ts` (`NOTIFY` and `LISTEN`).
*/
import { LedgerError } from '../../core/errors.js';
import { optionalMembers } from '../../core/optional-members.js';
import { openLedgerEngine } from '../engine.js';
import type { Ledger, LedgerChange, LedgerOptions } from '../ledger.js';
import { guardPool, io, openPool, type Pool, type PostgresConnection } from './connection.js';
import { endPreviousLeases } from './leases.js';
import {
  type PostgresLedgerOptions,
  type ResolvedPostgresLedgerOptions,
  resolvePostgresLedgerOptions,
} from './options.js';
import { openSchema, qualify } from './schema.js';
import { storeStatements } from './statements.js';
import { createPostgresStore, type PostgresStore } from './store.js';
import { acquireWorkerLock, releaseWorkerLock, type WorkerLockState } from './worker-lock.js';

// Every store entry exports the same names: its `openLedger`, and the ledger's model, verifier and status
// below (packages/client/test/exports.test.ts holds the lists equal).
export type {
  AgentIdentity,
  Attempt,
  AttemptStart,
  DeliveryMode,
  DueQuery,
  ErrorSummary,
  FailureEffect,
  HistoryVerification,
  Ledger,
  LedgerChange,
  LedgerFilter,
  LedgerOptions,
  LedgerRecord,
  LedgerRevision,
  LedgerState,
  LedgerStatus,
  LedgerTransition,
  ResultSummary,
  SendIntent,
  UnknownReason,
} from '../ledger.js';
export { verifyHistory } from '../ledger.js';
export type { DurableStatus } from '../status.js';
export { statusOf } from '../status.js';
export type { PostgresConnection } from './connection.js';
export type { PostgresLedgerOptions } from './options.js';
export { postgresSchemaVersion } from './schema.js';

/** The PostgreSQL ledger: the shared `Ledger`, with what a fleet operator needs besides. */
export type PostgresLedger = Ledger & {
  /** This writer's id. */
  readonly worker: string;
  /** The schema its tables live in. */
  readonly schema: string;
  /** The version of the schema it opened (see `postgresSchemaVersion`). */
  readonly schemaVersion: number;
};

/**
Gives up what an open that failed had taken: the store with everything it started, or else the worker lock and
the pool or its guard.
*/
async function abandon(
  store: PostgresStore | undefined,
  lock: WorkerLockState | undefined,
  pool: Pool,
  owns: boolean,
  unguard: () => void,
): Promise<void> {
  if (store !== undefined) {
    await store.close().catch(() => undefined);
    return;
  }
  if (lock !== undefined) {
    await releaseWorkerLock(lock);
  }
  if (owns) {
    await pool.end().catch(() => undefined);
  } else {
    unguard();
  }
}

/**
The ledger over an open store: the engine's, with the writer's names, and `subscribe` also hearing other
writers.
*/
async function ledgerOver(
  store: PostgresStore,
  settings: ResolvedPostgresLedgerOptions,
  schemaVersion: number,
): Promise<PostgresLedger> {
  const ledger = await openLedgerEngine(store);
  return Object.freeze({
    ...ledger,
    worker: settings.worker,
    schema: settings.schema,
    schemaVersion,
    subscribe(listener: (change: LedgerChange) => void) {
      // Other writers' changes arrive once the first subscriber is there; a failure to LISTEN leaves local
      // changes flowing.
      store.listen().catch(() => undefined);
      return ledger.subscribe(listener);
    },
  });
}

/**
Opens the shared PostgreSQL ledger for one writer (docs/durable-send.md#postgresql): creates or migrates its
schema (a `readOnly` follower only checks its version, so a role that may only read can open it), takes the
lock of its `worker` id on a connection of its own, which it holds until `close`
(docs/durable-send.md#one-live-process-per-worker-id), ends the leases a previous process of the same `worker`
held, turns the records left executing by writers whose lease lapsed into unknown, and starts renewing this
writer's leases. `subscribe` also hears the changes of every other writer, through `LISTEN`/`NOTIFY`, once a
first listener subscribes.

@throws {LedgerError} `invalid-input` for a bad option (the rule names it; a `schema` PostgreSQL reserves or
  shares is one); `unsupported` when `pg` cannot be loaded or the schema is of a later version (for a
  `readOnly` follower, of any other version); `not-found` (rule `schema`) when a `readOnly` follower finds no
  ledger; `locked` (rule `worker-live`) when another live process holds the same `worker` id in this schema
  (give each process its own id, or stop the other); `io` when the database cannot be reached or drops a
  connection while the ledger opens (a migration cut off leaves the schema as it was). Once open, a statement
  on a dropped connection fails with `io` too, a write or claim that cannot take the worker lock again after
  its connection dropped with `io` (rule `worker-lock`), and with `fenced` (rule `worker-live`) for good once
  another process took it meanwhile, and a `subscribe`r's connection is re-established
  (docs/durable-send.md#when-the-database-drops-a-connection); a read that finds the tables disagreeing with
  themselves (a column edited, a revision or a record's row deleted) fails with `corrupt`, at the open too
  when a record it recovers is one (docs/durable-send.md#what-the-store-checks).

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
  const settings = resolvePostgresLedgerOptions(options);
  const { pool, owns } = await openPool(connection, settings.poolSize);
  // docs/durable-send.md#when-the-database-drops-a-connection: from here on, a connection the database drops
  // ends a statement with `LedgerError('io')`, never the process.
  const unguard = guardPool(pool);
  const session = crypto.randomUUID();
  const statements = storeStatements(qualify(settings.schema));
  let store: PostgresStore | undefined;
  let lock: WorkerLockState | undefined;
  try {
    // A follower only reads: it checks the version and leaves migrating to the writers.
    const schemaVersion = await io(() => openSchema(pool, settings.schema, settings.readOnly));
    if (!settings.readOnly) {
      // docs/durable-send.md#one-live-process-per-worker-id: refused while another live process holds the id;
      // once held, the id's previous process is gone, and its leases end now.
      lock = await acquireWorkerLock(pool, settings.schema, settings.worker);
      await io(() => endPreviousLeases(pool, statements, settings.worker, session));
    }
    store = createPostgresStore({ pool, settings, session, statements, ownsPool: owns, unguard, lock });
    return await ledgerOver(store, settings, schemaVersion);
  } catch (error) {
    await abandon(store, lock, pool, owns, unguard);
    throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'open', cause: error });
  }
}

/**
Opens the PostgreSQL ledger at the connection string `options.name` with the default options, so the store
entries stay interchangeable (`openLedger({ name })`); `openPostgresLedger` takes the worker, lease and
schema.

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
    optionalMembers({ retentionMs: options.retentionMs, readOnly: options.readOnly }),
  );
}
