/**
@module
The contract a ledger backend fulfils (memory, IndexedDB, the file journal, PostgreSQL): a few reads and one
compare-and-set append, over which the engine (`engine.ts`) builds the whole `Ledger` once, so the stores
cannot drift apart (docs/durable-send.md#ledger-stores).
*/
import type { DueQuery } from './ledger.js';
import type { LedgerRecord, LedgerRevision, LedgerStatus } from './record.js';

/**
What a backend provides. Reads return decoded, frozen values. `append` is the only write: it makes `record`
the head and adds `revision` durably, as one compare-and-set: for revision 0 the id must be new, otherwise the
stored head must still be revision − 1 with `previousDigest`; a lost race throws
`LedgerError('stale-revision')`.
*/
export interface LedgerStore {
  /**
  False for a store that only follows other writers (`readOnly`: an idb tab that only watches, a read-only
  file journal): every write is refused as `locked`.
  */
  readonly writable: boolean;
  get(id: string): Promise<LedgerRecord | undefined>;
  /**
  All records, or those whose status is in `states`, in the ledger's own sequence: the order they were created
  in it (the journal's lines, IndexedDB's sequence store, PostgreSQL's `seq` column, a map's insertion order).
  */
  list(states: ReadonlySet<LedgerStatus> | undefined): Promise<LedgerRecord[]>;
  history(id: string): Promise<LedgerRevision[]>;
  /**
  `text` is the exact text `revision.digest` is the SHA-256 of (`revisionDigestInput`), so a store that writes
  text writes those bytes and never serializes the revision again.
  */
  append(record: LedgerRecord, revision: LedgerRevision, text: string): Promise<void>;
  /**
  Optional: appends several commits of one record (revision n and n + 1) as one durable write; without it the
  engine appends them one after the other. A crash may keep a prefix of them, never a later one without an
  earlier one.
  */
  appendAll?(commits: readonly StoreCommit[]): Promise<void>;
  /**
  Registers the callback for changes made by another writer (another tab, another process), announced by id
  and revision.
  */
  watch?(onRemote: (id: string, revision: number) => void): void;
  /**
  The head this writer last wrote or claimed, when it is still at `revision`, without I/O; `undefined` to read
  it. The append's compare-and-set still decides, so a head another writer moved since only makes the write
  `stale-revision`.
  */
  head?(id: string, revision: number): LedgerRecord | undefined;
  /**
  The leases of a store that several writers share at once (PostgreSQL). Without it the store has one writer,
  and the engine keeps its claims in memory.
  */
  readonly leases?: StoreLeases;
  /**
  Optional: how this writer recovers the records other writers left executing, which a shared store calls
  whenever it learns that such a writer is gone (IndexedDB: a tab's Web Lock released) rather than only at the
  next open.
  */
  recoverWith?(recover: () => Promise<void>): void;
  /** Optional: the tab holding a record, for a store the tabs of an origin share (`Ledger.ownerOf`). */
  ownerOf?(id: string): Promise<{ readonly tab: string; readonly thisTab: boolean } | undefined>;
  close(): Promise<void>;
}

/** One commit handed to a store: the record as `revision` leaves it, and the digested text. */
export type StoreCommit = {
  readonly record: LedgerRecord;
  readonly revision: LedgerRevision;
  readonly text: string;
};

/**
The leases of a shared store (docs/durable-send.md#leases): a record being sent or probed is leased to one
writer until an expiry the store's own clock decides, and `append` refuses a writer whose lease another writer
took or that lapsed (`fenced`). Each method leases what it returns to this writer.
*/
export interface StoreLeases {
  /**
  Leases up to `limit` records left `executing` by a writer whose lease lapsed (crashed, paused, partitioned),
  so this writer turns them unknown.
  */
  orphans(limit: number): Promise<LedgerRecord[]>;
  /**
  Leases up to `query.limit` due records that no live writer holds, soonest due first (see `isDue` in
  ledger.ts).
  */
  claimDue(query: Required<Pick<DueQuery, 'limit'>> & DueQuery, now: number): Promise<LedgerRecord[]>;
  /**
  Leases one due record that no live writer holds; `undefined` when it is not due or another writer holds it.
  */
  claim(id: string, now: number): Promise<LedgerRecord | undefined>;
  /** Gives up this writer's lease on an unknown record it claimed and did not move. */
  release(id: string): Promise<void>;
}
