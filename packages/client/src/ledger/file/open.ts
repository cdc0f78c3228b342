/**
@module
Opening a file ledger (docs/durable-send.md#file-journal): its options checked in one place, then either the
writer (the lock taken, the journal loaded from its snapshot and the lines after it, a torn tail judged, the
appender opened) or, with `readOnly`, the reader that follows another writer (`follower.ts`). Both are one
engine over their store.
*/
import { unlink } from 'node:fs/promises';
import { LedgerError } from '../../core/errors.js';
import { openLedgerEngine } from '../engine.js';
import { type LoneSync, openAppender } from '../journal/appender.js';
import { nodeSha256 } from '../journal/writes.js';
import { type Ledger, type LedgerOptions, retentionOf } from '../ledger.js';
import { journalPath, resolveJournalPath } from '../location.js';
import { acquireLock, type FileLock } from '../lock.js';
import { refusal } from '../refusal-hints.js';
import { maintain, registerCompactor } from './compaction.js';
import { followerStore } from './follower.js';
import { judgeTail, loadJournal } from './replay.js';
import { readSnapshot } from './snapshot.js';
import { openHandle, retire, type WriterState } from './state.js';
import { writerStore } from './store.js';

/**
The file ledger's options: the ones every store takes, where a lone writer's syncs are made, and whether it
only reads.
*/
export type FileLedgerOptions = LedgerOptions & {
  /**
  Where the synchronized write of a commit made alone (nothing else queued for its sync) is made.
  `thread-pool` keeps the process's event loop free while the disk syncs. `event-loop` makes that write on the
  event-loop thread: no file-system thread has to wake for it, which on a virtual machine makes a lone
  commit's sync up to twice as fast, but nothing else in the process runs until the disk is done. Commits that
  share a sync always write from the thread pool. For a process that sends one message at a time and serves
  nothing else meanwhile, such as a command-line tool; not for a server
  (docs/durable-send.md#what-a-durable-send-costs). @default 'thread-pool'
  */
  readonly loneSync?: LoneSync;
  /**
  Follow only: the journal is read, never locked or written, so it can be inspected while a sender holds it
  (docs/durable-send.md#reading-a-file-ledger). Reads and `subscribe` work and see what the writer appends
  (looked for before each read and every 250 ms until `close`); every write and claim is refused as `locked`
  (rule `follower`), and `compactLedger` too. A journal that does not exist is `not-found` (rule `journal`),
  and no directory is created. @default false
  */
  readonly readOnly?: boolean;
};

/** The options as every open uses them, each checked. */
type ResolvedFileOptions = {
  readonly name: string;
  readonly retentionMs: number;
  readonly loneSync: LoneSync;
  readonly readOnly: boolean;
};

function resolveOptions(options: FileLedgerOptions): ResolvedFileOptions {
  if (typeof options.name !== 'string' || options.name.length === 0) {
    throw new LedgerError('invalid-input', { rule: 'name' });
  }
  const retentionMs = retentionOf(options);
  const loneSync = options.loneSync ?? 'thread-pool';
  if (loneSync !== 'thread-pool' && loneSync !== 'event-loop') {
    throw new LedgerError('invalid-input', { rule: 'lone-sync' });
  }
  const readOnly = options.readOnly ?? false;
  if (typeof readOnly !== 'boolean') {
    throw new LedgerError('invalid-input', { rule: 'read-only' });
  }
  return { name: options.name, retentionMs, loneSync, readOnly };
}

const paths = new WeakMap<Ledger, string>();

/**
The absolute path of an open file ledger's journal: where a relative `name` was put
(docs/durable-send.md#where-the-file-ledger-lives). Its lock file is this path plus `.lock`.

@example
```ts
const ledger = await openLedger({ name: 'sends' });
console.log(ledgerPath(ledger)); // e.g. /srv/app/.surecall/ledgers/sends
```
*/
export function ledgerPath(ledger: Ledger): string {
  const path = paths.get(ledger);
  if (path === undefined) {
    throw new LedgerError('invalid-input', { rule: 'not-a-file-ledger' });
  }
  return path;
}

/**
Takes the journal's lock; a refusal names the lock file, which is this process's own configuration, never
remote text.
*/
async function lockOf(path: string): Promise<FileLock> {
  try {
    return await acquireLock(`${path}.lock`);
  } catch (error) {
    throw error instanceof LedgerError
      ? refusal(error.reason, {
          ...(error.rule === undefined ? {} : { rule: error.rule }),
          path: `${path}.lock`,
          cause: error,
        })
      : error;
  }
}

/** Loads the journal under `lock` and opens its appender: the writer's whole state. */
async function openWriter(path: string, options: ResolvedFileOptions, lock: FileLock): Promise<WriterState> {
  // Left by a compaction or a checkpoint that crashed before its rename; the files themselves are whole.
  await unlink(`${path}.compact.tmp`).catch(() => undefined);
  await unlink(`${path}.snapshot.tmp`).catch(() => undefined);
  const { state, cursor, read } = await loadJournal(path, await readSnapshot(`${path}.snapshot`));
  try {
    judgeTail(read.tail, state.lines + 1);
    state.sinceCheckpoint = read.lines.length;
    // A fresh lock file starts at 1; the journal remembers the fences of earlier holders.
    await lock.raise(cursor.fence + 1);
    const appender = await openAppender(path, {
      ...(read.tail.byteLength > 0 ? { truncateTo: read.validBytes } : {}),
      created: !read.exists,
      size: read.validBytes,
      last: cursor.last,
      fence: () => lock.fence,
      beforeBatch: lock.check,
      loneSync: options.loneSync,
    });
    state.reader ??= await openHandle(path);
    return Object.assign(state, {
      retentionMs: options.retentionMs,
      appender,
      lock,
      pending: new Map<string, string>(),
      maintenance: undefined,
      released: false,
    });
  } catch (error) {
    if (state.reader !== undefined) {
      await retire(state.reader);
    }
    throw error;
  }
}

/** The writer: the lock, the journal, the engine, and the crash recovery the engine runs on open. */
async function openWritable(options: ResolvedFileOptions): Promise<Ledger> {
  const path = await journalPath(options.name);
  const lock = await lockOf(path);
  let writer: WriterState;
  try {
    writer = await openWriter(path, options, lock);
  } catch (error) {
    await lock.release();
    throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'open', cause: error });
  }
  const store = writerStore(writer);
  let ledger: Ledger;
  try {
    ledger = await openLedgerEngine(store, { sha256: nodeSha256 });
  } catch (error) {
    // The engine closed the store, and with it the lock.
    throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'open', cause: error });
  }
  registerCompactor(ledger, () => maintain(writer, true));
  paths.set(ledger, path);
  return ledger;
}

/** The reader: no lock, nothing written, the engine over the follower store. */
async function openReadOnly(options: ResolvedFileOptions): Promise<Ledger> {
  const path = resolveJournalPath(options.name);
  let ledger: Ledger;
  try {
    ledger = await openLedgerEngine(await followerStore(path), { sha256: nodeSha256 });
  } catch (error) {
    throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'open', cause: error });
  }
  registerCompactor(ledger, () => Promise.reject(new LedgerError('locked', { rule: 'follower' })));
  paths.set(ledger, path);
  return ledger;
}

/**
Opens the file ledger named `options.name`: an absolute path as it is, a relative one under the ledger
directory (`SURECALL_LEDGER_DIR`, else `./.surecall/ledgers`; `ledgerPath(ledger)` says where). Takes the lock
file (a live holder → `locked`; a dead one's lock is taken over with a higher fence), reads the snapshot
`<path>.snapshot` if there is one (its own digest, then that the journal's checkpointed part still ends with
the line it names, else `corrupt`), loads the open records, replays the lines after the checkpoint (all of
them without a snapshot), judges the bytes after the last newline (a torn write is truncated; a whole line
whose newline is missing or damaged is `corrupt`), and turns records left `executing` by a crash into
`unknown`. A damaged snapshot is never skipped; deleting it by hand makes the next open replay and verify the
whole journal. With `readOnly`, none of that writes: see {@link FileLedgerOptions.readOnly}.

@example
```ts
import { openLedger } from '@surecall/client/ledger'; // the file store under Node
const ledger = await openLedger({ name: 'sends', retentionMs: 30 * 24 * 3_600_000 }); // ./.surecall/ledgers/sends
const reader = await openLedger({ name: 'sends', readOnly: true }); // beside it, while it writes
```
*/
export async function openLedger(options: FileLedgerOptions): Promise<Ledger> {
  const resolved = resolveOptions(options);
  return resolved.readOnly ? openReadOnly(resolved) : openWritable(resolved);
}
