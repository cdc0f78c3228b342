/**
@module
The IndexedDB ledger, the browser's store (and, through `portable.ts`, the store where no condition names the
platform), shared by every tab of an origin
(docs/durable-send.md#tabs); with `idb/` the only modules that import `idb`
(CONTRIBUTING.md#library-boundaries: its errors never reach callers). Its database is `idb/database.ts`, its
one write (a readwrite transaction that checks the stored head) `idb/writes.ts`, each tab's Web Lock
`idb/tabs.ts` and the claims between tabs `idb/leases.ts`; other tabs hear of every change through a
BroadcastChannel.
*/
import { openDB } from 'idb';
import { LedgerError } from '../core/errors.js';
import { type LedgerStore, openLedgerEngine } from './engine.js';
import {
  type Database,
  decodeOwner,
  decodeRecord,
  type IdbStore,
  io,
  type LedgerDatabase,
  listRecords,
  prune,
  readHistory,
  upgrade,
  VERSION,
} from './idb/database.js';
import { idbLeases } from './idb/leases.js';
import { holdTabLock, type Tabs, webLocks } from './idb/tabs.js';
import { appendAll, isAnnouncement } from './idb/writes.js';
import { type Ledger, type LedgerOptions, readOnlyOf, retentionOf } from './ledger.js';

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

/** Hands the changes other tabs announce on `channel` to `onRemote`, with the tab sending the record. */
function watchChannel(
  channel: BroadcastChannel | undefined,
  onRemote: (id: string, revision: number, owner: string | undefined) => void,
): void {
  if (channel !== undefined) {
    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (isAnnouncement(event.data)) {
        onRemote(event.data.id, event.data.revision, event.data.owner);
      }
    };
  }
}

/** The tab holding record `id`, from its owner row. */
async function ownerOf(
  db: Database,
  tab: string,
  id: string,
): Promise<{ readonly tab: string; readonly thisTab: boolean } | undefined> {
  const owner = decodeOwner(await db.get('owners', id));
  return owner === undefined ? undefined : { tab: owner.tab, thisTab: owner.tab === tab };
}

/**
The store over an open database. A writer with a tab lock (`tabs`) shares the ledger with every other tab:
the leases decide who may probe or recover a record, and each tab found sending a record is watched, so its
executing records are recovered the moment its lock goes (docs/durable-send.md#tabs).
*/
function idbStore(store: IdbStore, tabs: Tabs | undefined, writable: boolean): LedgerStore {
  const { db, channel } = store;
  let recover: () => Promise<void> = async () => undefined;
  const watchOwner = (tab: string) => tabs?.watch(tab, () => recover());
  return {
    writable,
    get: (id) =>
      io(async () => {
        const value = await db.get('records', id);
        return value === undefined ? undefined : decodeRecord(value);
      }),
    list: (states) => io(() => listRecords(db, states)),
    history: (id) => io(() => readHistory(db, id)),
    append: (record, revision) => appendAll(store, [{ record, revision }]),
    appendAll: (commits) => appendAll(store, commits),
    watch: (onRemote) =>
      watchChannel(channel, (id, revision, owner) => {
        if (owner !== undefined) {
          watchOwner(owner);
        }
        onRemote(id, revision);
      }),
    ...(tabs === undefined ? {} : { leases: idbLeases(db, tabs, watchOwner) }),
    ...(tabs === undefined ? {} : { ownerOf: (id: string) => io(() => ownerOf(db, tabs.tab, id)) }),
    recoverWith(given) {
      recover = given;
    },
    async close() {
      channel?.close();
      db.close();
      tabs?.close();
    },
  };
}

/**
Opens the IndexedDB ledger named `options.name` (the database name). Nothing is replayed: records are read
from the database when asked for, so neither open time nor the heap grows with the settled records; settled
records older than `retentionMs` are pruned when a writer opens and every 256 writes after.

Every tab of the origin writes (docs/durable-send.md#tabs): each holds a Web Lock of its own for as long as
its ledger is open, each record it sends names it as its owner, and a record left `executing` by a tab whose
lock is free (closed, crashed, navigated away) becomes `unknown` in whichever tab notices first: at its open,
or the moment that lock is released. No tab ever turns another live tab's send unknown, and a due record is
probed by the one tab that claimed it. Changes arrive through a BroadcastChannel when the platform has one.
With `readOnly` the tab only watches: reads and `subscribe` work, and every write is refused as `locked`.
Without Web Locks (docs/durable-send.md#without-web-locks: an old browser, Node with `fake-indexeddb`) the
ledger is one writer's: every instance writes, each write still a compare-and-set on the revision, records
left `executing` become `unknown` when one opens, and its claims are its own.

@throws {LedgerError} `unsupported` (rule `indexeddb`) without IndexedDB; `io` when the database or the tab's
  Web Lock cannot be
opened.

@example
```ts
import { openLedger } from '@surecall/client/ledger'; // the idb store in a browser bundle
const ledger = await openLedger({ name: 'sends' });
const watcher = await openLedger({ name: 'sends', readOnly: true }); // a page that only shows the sends
```
*/
export async function openLedger(options: LedgerOptions): Promise<Ledger> {
  if (typeof options.name !== 'string' || options.name.length === 0) {
    throw new LedgerError('invalid-input', { rule: 'name' });
  }
  const retentionMs = retentionOf(options);
  const readOnly = readOnlyOf(options);
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
  const locks = readOnly ? undefined : webLocks();
  const tabs =
    locks === undefined
      ? undefined
      : await holdTabLock(locks, options.name).catch((error: unknown) => {
          db.close();
          throw error;
        });
  const channel =
    typeof BroadcastChannel === 'undefined'
      ? undefined
      : new BroadcastChannel(`surecall-ledger:${options.name}`);
  const store = idbStore({ db, tab: tabs?.tab, channel, retentionMs, writes: 0 }, tabs, !readOnly);
  if (!readOnly) {
    // Open costs what the open records cost (the status index finds them) plus this pruning, which walks only
    // the records past the window.
    await io(() => prune(db, Date.now() - retentionMs)).catch(async (error: unknown) => {
      await store.close();
      throw error;
    });
  }
  return openLedgerEngine(store);
}
