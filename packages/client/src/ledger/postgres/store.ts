/**
@module
The PostgreSQL store under the ledger engine (`engine.ts`): its reads, each checked against what the tables
say beside it (`row.ts`, `history.ts`), its one write (`writes.ts`), its leases (`leases.ts`), the follower
that hears other writers (`follower.ts`), and the closing of them all and of the writer's worker lock
(`worker-lock.ts`). A record's head is one row and each revision one more row
(docs/durable-send.md#postgresql).
*/
import { LedgerError } from '../../core/errors.js';
import type { LedgerStore } from '../engine.js';
import type { LedgerRecord, LedgerRevision, LedgerStatus } from '../record.js';
import { io, type Pool } from './connection.js';
import type { StoreContext } from './context.js';
import { createFollower, type Follower } from './follower.js';
import { checkedHistory, type HistoryRow } from './history.js';
import { endSessionLeases, startHeartbeat, storeLeases } from './leases.js';
import { createAnnouncer, endAnnouncements } from './notify.js';
import type { ResolvedPostgresLedgerOptions } from './options.js';
import { decodeRow, type RecordRow } from './row.js';
import { qualify } from './schema.js';
import { bind, type Statements } from './statements.js';
import { releaseWorkerLock, type WorkerLockState } from './worker-lock.js';
import { appendAll, createWrites } from './writes.js';

/** What the store is made of. */
export type StoreInput = {
  readonly pool: Pool;
  readonly settings: ResolvedPostgresLedgerOptions;
  readonly session: string;
  readonly statements: Statements;
  readonly ownsPool: boolean;
  /**
  The writer's worker lock, held from its open; none for a `readOnly` follower. The store releases it as it
  closes.
  */
  readonly lock: WorkerLockState | undefined;
  /** Takes the ledger's listeners off a pool the caller owns (`guardPool`). */
  readonly unguard: () => void;
};

/** The store, with the start of its following. */
export type PostgresStore = LedgerStore & {
  /** Starts following other writers' changes (LISTEN), once. */
  listen(): Promise<void>;
};

/** The store's parts that live from its open to its close. */
type Lifetime = {
  readonly context: StoreContext;
  readonly input: StoreInput;
  /** Other writers' changes, heard on a connection of its own once a first subscriber is there. */
  readonly follower: Follower;
  readonly heartbeat: ReturnType<typeof setInterval> | undefined;
  onRemote: ((id: string, revision: number) => void) | undefined;
  closing: Promise<void> | undefined;
};

/** What `get` reads: the record's row, or nulls and whether revisions of the missing record remain. */
type FoundRow = { readonly [TColumn in keyof RecordRow]: RecordRow[TColumn] | null } & {
  readonly orphaned: boolean | null;
};

/**
Runs a read, and once more when it finds the tables disagreeing: each read is one statement and sees one
snapshot, so a commit under way never tears it, and a read that still met one is read again before it is
called corrupt (docs/durable-send.md#what-the-store-checks).
*/
async function reread<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof LedgerError && error.reason === 'corrupt') {
      return read();
    }
    throw error;
  }
}

async function readRecord(context: StoreContext, id: string): Promise<LedgerRecord | undefined> {
  const result = await context.pool.query<FoundRow>(bind(context.statements.get, { ID: id }));
  const found = result.rows[0];
  const body = found?.body ?? null;
  if (found === undefined || body === null) {
    if (found?.orphaned === true) {
      throw new LedgerError('corrupt', { rule: 'record-missing' });
    }
    return undefined;
  }
  return decodeRow({ ...found, body });
}

async function listRecords(
  context: StoreContext,
  states: ReadonlySet<LedgerStatus> | undefined,
): Promise<LedgerRecord[]> {
  const { list, listIn } = context.statements;
  const result = await context.pool.query<RecordRow>(
    states === undefined ? bind(list, {}) : bind(listIn, { STATES: [...states] }),
  );
  return result.rows.map(decodeRow);
}

async function readHistory(context: StoreContext, id: string): Promise<LedgerRevision[]> {
  const result = await context.pool.query<HistoryRow>(bind(context.statements.history, { ID: id }));
  return checkedHistory(result.rows);
}

/**
Sends what is announced, stops the heartbeat, ends the session's leases and the following, then the worker
lock, then the pool or its guard.
*/
async function closeStore(lifetime: Lifetime): Promise<void> {
  const { context, input, follower, heartbeat } = lifetime;
  context.heads.clear();
  await endAnnouncements(context.announcer);
  if (heartbeat !== undefined) {
    clearInterval(heartbeat);
  }
  try {
    if (!context.settings.readOnly) {
      await endSessionLeases(context);
    }
    await follower.close();
  } finally {
    // After the leases: a process that opens with this worker id next finds them ended.
    if (context.lock !== undefined) {
      await releaseWorkerLock(context.lock);
    }
    if (input.ownsPool) {
      // Its listeners stay: pg-pool's `end` resolves while the connections it ends may still raise their
      // error.
      await context.pool.end().catch(() => undefined);
    } else {
      input.unguard();
    }
  }
}

/** The context of one writer's store over `input.pool`. */
function storeContext(input: StoreInput): StoreContext {
  const { pool, settings, session, statements, lock } = input;
  const channel = `${settings.schema}.changes`;
  const context: StoreContext = {
    pool,
    settings,
    session,
    statements,
    lock,
    heads: new Map(),
    announcer: createAnnouncer({ pool, notify: statements.notify, channel, session }),
    writes: createWrites(settings.poolSize, () => context),
    appended: 0,
  };
  return context;
}

/** The store of one writer; a writer's (not a `readOnly` follower's) leases are renewed from now on. */
export function createPostgresStore(input: StoreInput): PostgresStore {
  const context = storeContext(input);
  const lifetime: Lifetime = {
    context,
    input,
    follower: createFollower({
      pool: input.pool,
      channel: context.announcer.channel,
      session: input.session,
      revisions: qualify(input.settings.schema)('revisions'),
      onChange: (id, revision) => lifetime.onRemote?.(id, revision),
    }),
    heartbeat: input.settings.readOnly ? undefined : startHeartbeat(context),
    onRemote: undefined,
    closing: undefined,
  };
  return {
    writable: !input.settings.readOnly,
    leases: storeLeases(context),
    get: (id) => io(() => reread(() => readRecord(context, id))),
    list: (states) => io(() => reread(() => listRecords(context, states))),
    history: (id) => io(() => reread(() => readHistory(context, id))),
    head(id, revision) {
      const head = context.heads.get(id);
      return head?.revision === revision ? head : undefined;
    },
    append: (record, revision) => appendAll(context, [{ record, revision }]),
    appendAll: (commits) => appendAll(context, commits),
    watch(callback) {
      lifetime.onRemote = callback;
    },
    listen: () => lifetime.follower.start(),
    close() {
      lifetime.closing ??= closeStore(lifetime);
      return lifetime.closing;
    },
  };
}
