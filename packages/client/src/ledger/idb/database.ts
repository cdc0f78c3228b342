/**
@module
The IndexedDB ledger's database (docs/durable-send.md#indexeddb): its object stores and their upgrades, the
decoding of every value read from them (storage is an edge), the pruning past the retention window, and the
reads of records and histories. Only `ledger/idb.ts` and this folder import `idb`
(CONTRIBUTING.md#library-boundaries: its errors never reach callers).
*/
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import { LedgerError } from '../../core/errors.js';
import { decodeLedger } from '../decoding.js';
import { deepFreeze, isSettled } from '../ledger.js';
import { LedgerRecord, LedgerRevision, type LedgerStatus } from '../record.js';

/**
Who may move a record now: the tab that is sending it (an `executing` record) or that claimed it for a probe
or a recovery (docs/durable-send.md#tabs). One row per such record, written in the transaction of the write or
claim that makes it so, and deleted by the next write that moves the record.
*/
export type Owner = { readonly id: string; readonly tab: string };

export interface LedgerDatabase extends DBSchema {
  // Values are read as `unknown`: storage is an edge, and every value is decoded on the way out.
  records: { key: string; value: unknown; indexes: { status: string; updatedAt: number } };
  revisions: { key: [string, number]; value: unknown };
  // The ledger's own sequence: one entry per record, keyed by the order the records were created in, which
  // `list` follows.
  sequence: { key: number; value: { readonly id: string }; indexes: { id: string } };
  owners: { key: string; value: unknown };
}

export type Database = IDBPDatabase<LedgerDatabase>;

// Version 2 adds the `updatedAt` index that retention prunes by; version 3 the creation sequence; version 4
// the owners of the records being sent or probed.
export const VERSION = 4;
/** Writes between two prunings. */
export const PRUNE_EVERY = 256;

/**
One open store: its database, this tab's id (`undefined` without Web Locks or when read-only), the channel to
other tabs, and its count of writes.
*/
export type IdbStore = {
  readonly db: Database;
  readonly tab: string | undefined;
  readonly channel: BroadcastChannel | undefined;
  readonly retentionMs: number;
  /** Writes so far, which pace the pruning. */
  writes: number;
};

export function decodeRecord(value: unknown): LedgerRecord {
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

/** An owner row as stored, or `corrupt` (rule `owner`) when it is not one. */
export function decodeOwner(value: unknown): Owner | undefined {
  if (value === undefined) {
    return undefined;
  }
  const row = value as Partial<Owner> | null;
  if (typeof row !== 'object' || row === null || typeof row.id !== 'string' || typeof row.tab !== 'string') {
    throw new LedgerError('corrupt', { rule: 'owner' });
  }
  return { id: row.id, tab: row.tab };
}

// IndexedDB's own errors (DOMException and friends) stay inside the store.
export async function io<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof LedgerError ? error : new LedgerError('io', { cause: error });
  }
}

/**
Deletes the settled records whose `updatedAt` is older than `cutoff`, and their revisions, in one transaction:
the `updatedAt` index bounds the walk to the records past the window, and an open record among them is kept
(docs/durable-send.md#retention). A record that does not decode is `corrupt`, and the transaction deletes
nothing.
*/
export async function prune(db: Database, cutoff: number): Promise<number> {
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

export async function listRecords(
  db: Database,
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

/** The records of one status with their owners, read in one transaction. */
export async function recordsWithOwners(
  db: Database,
  status: LedgerStatus,
): Promise<{ readonly record: LedgerRecord; readonly owner: Owner | undefined }[]> {
  const tx = db.transaction(['records', 'sequence', 'owners']);
  const [order, values, owners] = await Promise.all([
    tx.objectStore('sequence').getAll(),
    tx.objectStore('records').index('status').getAll(status),
    tx.objectStore('owners').getAll(),
  ]);
  const byId = new Map<string, Owner>();
  for (const value of owners) {
    const owner = decodeOwner(value) as Owner;
    byId.set(owner.id, owner);
  }
  return inSequence(order, values).map((record) => ({ record, owner: byId.get(record.id) }));
}

export async function readHistory(db: Database, id: string): Promise<LedgerRevision[]> {
  const values = await db.getAll('revisions', IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]));
  return values.map(decodeRevision);
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
export function upgrade(
  database: Database,
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
  if (oldVersion < 4) {
    // A record a version 3 writer left executing has no owner row: whichever tab opens first recovers it.
    database.createObjectStore('owners', { keyPath: 'id' });
  }
}
