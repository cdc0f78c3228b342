/**
@module
The IndexedDB ledger, the browser's store (and, through `portable.ts`, the store where no condition names the
platform), and the only module that imports `idb`
(CONTRIBUTING.md#library-boundaries: its errors never reach callers). Each write is one readwrite transaction
that compares the stored head with the revision the writer expected and resolves only on the transaction's
`complete` (docs/durable-send.md#execution-order: a completed IndexedDB transaction). One writer at a time
holds a Web Lock; other tabs follow read-only and hear of every change through a BroadcastChannel.
*/
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, openDB, type StoreNames } from 'idb';
import { LedgerError } from '../core/errors.js';
import { type LedgerStore, openLedgerEngine, type StoreCommit } from './engine.js';
import { deepFreeze, isSettled, type Ledger, type LedgerOptions, retentionOf } from './ledger.js';
import { decodeLedger, LedgerRecord, LedgerRevision, type LedgerStatus } from './record.js';

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
} from './ledger.js';
export { verifyHistory } from './ledger.js';
export type { DurableStatus } from './status.js';
export { statusOf } from './status.js';

interface LedgerDatabase extends DBSchema {
  // Values are read as `unknown`: storage is an edge, and every value is decoded on the way out.
  records: { key: string; value: unknown; indexes: { status: string; updatedAt: number } };
  revisions: { key: [string, number]; value: unknown };
  // The ledger's own sequence: one entry per record, keyed by the order the records were created in, which
  // `list` follows.
  sequence: { key: number; value: { readonly id: string }; indexes: { id: string } };
}

// Version 2 adds the `updatedAt` index that retention prunes by; version 3 the creation sequence.
const VERSION = 3;
/** Writes between two prunings. */
const PRUNE_EVERY = 256;

type Announcement = {
  readonly type: 'surecall-ledger-change';
  readonly id: string;
  readonly revision: number;
};

function isAnnouncement(value: unknown): value is Announcement {
  const candidate = value as Partial<Announcement> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.type === 'surecall-ledger-change' &&
    typeof candidate.id === 'string' &&
    Number.isSafeInteger(candidate.revision)
  );
}

function decodeRecord(value: unknown): LedgerRecord {
  const decoded = decodeLedger(LedgerRecord, value);
  if (!decoded.ok) {
    throw new LedgerError('corrupt', { rule: decoded.error.rule });
  }
  return deepFreeze(decoded.value);
}

function decodeRevision(value: unknown, position: number): LedgerRevision {
  const decoded = decodeLedger(LedgerRevision, value);
  if (!decoded.ok) {
    throw new LedgerError('corrupt', { rule: decoded.error.rule, position });
  }
  return deepFreeze(decoded.value);
}

// IndexedDB's own errors (DOMException and friends) stay inside this module.
async function io<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof LedgerError ? error : new LedgerError('io', { cause: error });
  }
}

type Lease = { readonly held: boolean; readonly release: () => void };

/**
Takes the Web Lock `surecall-ledger:<name>` if it is free, and holds it until `release`. Node has no
`navigator.locks`: there the lease is skipped and every instance writes, still guarded by the per-revision
compare-and-set.
*/
async function takeLease(name: string): Promise<Lease> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (locks === undefined) {
    return { held: true, release: () => undefined };
  }
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return new Promise<Lease>((resolve, reject) => {
    locks
      .request(`surecall-ledger:${name}`, { mode: 'exclusive', ifAvailable: true }, async (lock) => {
        if (lock === null) {
          resolve({ held: false, release: () => undefined });
          return;
        }
        resolve({ held: true, release });
        await released;
      })
      .catch((error: unknown) => reject(new LedgerError('io', { rule: 'web-lock', cause: error })));
  });
}

/**
Deletes the settled records whose `updatedAt` is older than `cutoff`, and their revisions, in one transaction:
the `updatedAt` index bounds the walk to the records past the window, and an open record among them is kept
(docs/durable-send.md#retention). A record that does not decode is `corrupt`, and the transaction deletes
nothing.
*/
async function prune(db: IDBPDatabase<LedgerDatabase>, cutoff: number): Promise<number> {
  const tx = db.transaction(['records', 'revisions', 'sequence'], 'readwrite');
  const revisions = tx.objectStore('revisions');
  const sequence = tx.objectStore('sequence').index('id');
  let pruned = 0;
  try {
    let cursor = await tx
      .objectStore('records')
      .index('updatedAt')
      .openCursor(IDBKeyRange.upperBound(cutoff, true));
    while (cursor !== null) {
      const decoded = decodeLedger(LedgerRecord, cursor.value);
      if (!decoded.ok) {
        throw new LedgerError('corrupt', { rule: decoded.error.rule });
      }
      if (isSettled(decoded.value)) {
        const id = decoded.value.id;
        await revisions.delete(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]));
        const place = await sequence.getKey(id);
        if (place !== undefined) {
          await tx.objectStore('sequence').delete(place);
        }
        await cursor.delete();
        pruned++;
      }
      cursor = await cursor.continue();
    }
    await tx.done;
  } catch (error) {
    tx.abort();
    await tx.done.catch(() => undefined);
    throw error;
  }
  return pruned;
}

/**
One open store: its database, the writer's Web Lock, the channel to other tabs, and its count of writes.
*/
type IdbStore = {
  readonly db: IDBPDatabase<LedgerDatabase>;
  readonly lease: Lease;
  readonly channel: BroadcastChannel | undefined;
  readonly retentionMs: number;
  /** Writes so far, which pace the pruning. */
  writes: number;
};

/** What one write commits: one revision, or a `create` and its `start`. */
type Commits = readonly Pick<StoreCommit, 'record' | 'revision'>[];

/**
Why a write whose first revision is `first` may not go on over the stored head (the compare-and-set), or
`undefined` when it may: revision 0 needs a new id, any later one the head at the digest it names.
*/
function refusalOver(stored: unknown, first: LedgerRevision): LedgerError | undefined {
  const head = stored === undefined ? undefined : decodeLedger(LedgerRecord, stored);
  const stale =
    first.revision === 0
      ? stored !== undefined
      : head === undefined || !head.ok || head.value.digest !== first.previousDigest;
  if (!stale) {
    return undefined;
  }
  if (head !== undefined && !head.ok) {
    return new LedgerError('corrupt', { rule: head.error.rule });
  }
  return new LedgerError('stale-revision', first.revision === 0 ? { rule: 'exists' } : {});
}

/**
The record's head, every revision's row and, for a new record, its place in the sequence; settles with `tx`.
*/
function putAll(
  tx: IDBPTransaction<LedgerDatabase, ('records' | 'revisions' | 'sequence')[], 'readwrite'>,
  commits: Commits,
): Promise<unknown> {
  const first = (commits[0] as Commits[number]).revision;
  const { record } = commits.at(-1) as Commits[number];
  const revisions = tx.objectStore('revisions');
  return Promise.all([
    tx.objectStore('records').put(record),
    ...commits.map((commit) => revisions.add(commit.revision)),
    ...(first.revision === 0 ? [tx.objectStore('sequence').add({ id: record.id })] : []),
    tx.done,
  ]);
}

/**
Consecutive revisions of one record (one, or a `create` and its `start`) in one transaction, which commits all
of them or none.
*/
function appendAll(store: IdbStore, commits: Commits): Promise<void> {
  return io(async () => {
    const first = (commits[0] as Commits[number]).revision;
    const { record } = commits.at(-1) as Commits[number];
    const tx = store.db.transaction(['records', 'revisions', 'sequence'], 'readwrite');
    // The compare-and-set, inside the same transaction as the write, so no other writer can slip in between.
    const refused = refusalOver(await tx.objectStore('records').get(record.id), first);
    if (refused !== undefined) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw refused;
    }
    try {
      await putAll(tx, commits);
    } catch (error) {
      // The revision's key already exists: another writer committed this very revision first.
      if (error instanceof DOMException && error.name === 'ConstraintError') {
        throw new LedgerError('stale-revision', { cause: error });
      }
      throw error;
    }
    for (const { revision } of commits) {
      store.channel?.postMessage({
        type: 'surecall-ledger-change',
        id: record.id,
        revision: revision.revision,
      } satisfies Announcement);
    }
    if (++store.writes % PRUNE_EVERY === 0) {
      // The write is durable already; a failed pruning is retried at the next one.
      await prune(store.db, Date.now() - store.retentionMs).catch(() => undefined);
    }
  });
}

/**
The records `values` hold, in the ledger's own sequence `order`; a record the sequence does not name is
damage, not a record to leave out.
*/
function inSequence(order: readonly { readonly id: string }[], values: readonly unknown[]): LedgerRecord[] {
  const found = new Map<string, LedgerRecord>();
  for (const value of values) {
    const record = decodeRecord(value);
    found.set(record.id, record);
  }
  const records: LedgerRecord[] = [];
  for (const { id } of order) {
    const record = found.get(id);
    if (record !== undefined) {
      records.push(record);
      found.delete(id);
    }
  }
  if (found.size > 0) {
    throw new LedgerError('corrupt', { rule: 'sequence' });
  }
  return records;
}

async function listRecords(
  db: IDBPDatabase<LedgerDatabase>,
  states: ReadonlySet<LedgerStatus> | undefined,
): Promise<LedgerRecord[]> {
  const tx = db.transaction(['records', 'sequence']);
  const [order, lists] = await Promise.all([
    tx.objectStore('sequence').getAll(),
    states === undefined
      ? tx.objectStore('records').getAll()
      : Promise.all([...states].map((status) => tx.objectStore('records').index('status').getAll(status))),
  ]);
  return inSequence(order, lists.flat());
}

async function readHistory(db: IDBPDatabase<LedgerDatabase>, id: string): Promise<LedgerRevision[]> {
  const values = await db.getAll('revisions', IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]));
  return values.map(decodeRevision);
}

/** Hands the changes other tabs announce on `channel` to `onRemote`. */
function watchChannel(
  channel: BroadcastChannel | undefined,
  onRemote: (id: string, revision: number) => void,
): void {
  if (channel !== undefined) {
    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (isAnnouncement(event.data)) {
        onRemote(event.data.id, event.data.revision);
      }
    };
  }
}

function idbStore(store: IdbStore): LedgerStore {
  const { db, lease, channel } = store;
  return {
    writable: lease.held,
    get: (id) =>
      io(async () => {
        const value = await db.get('records', id);
        return value === undefined ? undefined : decodeRecord(value);
      }),
    list: (states) => io(() => listRecords(db, states)),
    history: (id) => io(() => readHistory(db, id)),
    append: (record, revision) => appendAll(store, [{ record, revision }]),
    appendAll: (commits) => appendAll(store, commits),
    watch: (onRemote) => watchChannel(channel, onRemote),
    async close() {
      channel?.close();
      db.close();
      lease.release();
    },
  };
}

/**
The ids of the records a version 2 database holds, in the order version 2 listed them: creation time, then id.
*/
function creationOrder(values: readonly unknown[]): string[] {
  const known = values as { id?: unknown; createdAt?: unknown }[];
  return known
    .map((value) => ({ id: String(value.id), at: Number(value.createdAt) || 0 }))
    .sort((left, right) => left.at - right.at || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0))
    .map(({ id }) => id);
}

/** Brings a database from `oldVersion` to {@link VERSION}, in the upgrade's own transaction. */
function upgrade(
  database: IDBPDatabase<LedgerDatabase>,
  oldVersion: number,
  transaction: IDBPTransaction<LedgerDatabase, StoreNames<LedgerDatabase>[], 'versionchange'>,
): void {
  if (oldVersion < 1) {
    const records = database.createObjectStore('records', { keyPath: 'id' });
    records.createIndex('status', 'state.status');
    database.createObjectStore('revisions', { keyPath: ['id', 'revision'] });
  }
  if (oldVersion < 2) {
    transaction.objectStore('records').createIndex('updatedAt', 'updatedAt');
  }
  if (oldVersion < 3) {
    const sequence = database.createObjectStore('sequence', { autoIncrement: true });
    sequence.createIndex('id', 'id', { unique: true });
    // Records a version 2 database holds take the order version 2 listed them in. A request that fails aborts
    // the upgrade, which fails the open as `io`.
    transaction
      .objectStore('records')
      .getAll()
      .then((values) => Promise.all(creationOrder(values).map((id) => sequence.add({ id }))))
      .catch(() => undefined);
  }
}

/**
Opens the IndexedDB ledger named `options.name` (the database name). Nothing is replayed: records are read
from the database when asked for, so neither open time nor the heap grows with the settled records; settled
records older than `retentionMs` are pruned when the writer opens and every 256 writes after. The tab that
gets the Web Lock writes; any other tab opens it read-only: reads and `subscribe` work (changes arrive through
a BroadcastChannel when the platform has one), and every write is refused as `locked`. Without Web Locks
(Node, with `fake-indexeddb` in tests) every instance writes, each write still a compare-and-set on the
revision. Records left `executing` become `unknown` when the writer opens.

@throws {LedgerError} `unsupported` (rule `indexeddb`) without IndexedDB; `io` when the database cannot be
  opened.

@example
```ts
import { openLedger } from '@surecall/client/ledger'; // the idb store in a browser bundle
const ledger = await openLedger({ name: 'sends' });
```
*/
export async function openLedger(options: LedgerOptions): Promise<Ledger> {
  if (typeof options.name !== 'string' || options.name.length === 0) {
    throw new LedgerError('invalid-input', { rule: 'name' });
  }
  const retentionMs = retentionOf(options);
  if (typeof indexedDB === 'undefined') {
    throw new LedgerError('unsupported', { rule: 'indexeddb' });
  }
  const db = await io(() =>
    openDB<LedgerDatabase>(options.name, VERSION, {
      upgrade: (database, oldVersion, _newVersion, transaction) => upgrade(database, oldVersion, transaction),
      // A newer version elsewhere wants the database: give it up; later calls fail as `io`.
      blocking() {
        db.close();
      },
    }),
  );
  const lease = await takeLease(options.name).catch((error: unknown) => {
    db.close();
    throw error;
  });
  const channel =
    typeof BroadcastChannel === 'undefined'
      ? undefined
      : new BroadcastChannel(`surecall-ledger:${options.name}`);
  if (lease.held) {
    // Open costs what the open records cost (the status index finds them) plus this pruning, which walks only
    // the records past the window.
    await io(() => prune(db, Date.now() - retentionMs)).catch((error: unknown) => {
      channel?.close();
      db.close();
      lease.release();
      throw error;
    });
  }
  return openLedgerEngine(idbStore({ db, lease, channel, retentionMs, writes: 0 }));
}
