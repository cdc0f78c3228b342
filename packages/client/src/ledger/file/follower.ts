/**
@module
The file ledger opened read-only (docs/durable-send.md#reading-a-file-ledger): no lock is taken and nothing is
written, so it works while a writer holds the journal. It reads the journal as the writer opens it (the
snapshot's checkpoint where it matches the file, then every line after it, each checked), and before each
read, and every `followIntervalMs` while it is open, it replays the lines appended since; a journal a
compaction replaced is read anew. A change it finds is announced to `subscribe`rs. A snapshot that does not
match the journal (the writer may be rewriting both) is not trusted: the whole journal is replayed and checked
instead.
*/
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { LedgerError } from '../../core/errors.js';
import type { ChainCursor } from '../journal/reader.js';
import { errorCode, readJournalFrom } from '../journal/reads.js';
import type { LedgerStore } from '../store.js';
import { listRecords, readEntry } from './records.js';
import { loadJournal, type Replayed, replayLines } from './replay.js';
import { readSnapshot, type Snapshot } from './snapshot.js';
import { type FileState, type JournalHandle, retire } from './state.js';

/** How often an open read-only ledger looks for lines another process appended. */
export const followIntervalMs = 250;

/** The journal as this reader last read it. */
type Reading = {
  readonly heap: FileState;
  readonly cursor: ChainCursor;
  /** Where the complete lines read so far end. */
  validBytes: number;
  /** The file generation the heap's handle is open on. */
  readonly inode: number;
};

type FollowerState = {
  readonly path: string;
  reading: Reading;
  /** A refresh under way: reads and the poll share it. */
  refreshing: Promise<void> | undefined;
  /** A refresh failed partway, so the next one reads the journal anew. */
  stale: boolean;
  onRemote: ((id: string, revision: number) => void) | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  closed: boolean;
};

async function statIfExists(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      return undefined;
    }
    throw new LedgerError('io', { rule: 'read', cause: error });
  }
}

async function snapshotIfAny(path: string): Promise<Snapshot | undefined> {
  try {
    return await readSnapshot(`${path}.snapshot`);
  } catch {
    return undefined;
  }
}

/**
Reads the journal at `path` whole into a fresh heap: from the snapshot when it matches the file, else from the
first line. A missing journal is `not-found` (`journal`), with the path it looked at: a relative name was
resolved under the ledger directory (docs/durable-send.md#where-the-file-ledger-lives), and a reader told
where it looked finds the file a writer put elsewhere.
*/
async function read(path: string): Promise<Reading> {
  if ((await statIfExists(path)) === undefined) {
    throw new LedgerError('not-found', { rule: 'journal', path });
  }
  const snapshot = await snapshotIfAny(path);
  let loaded: Awaited<ReturnType<typeof loadJournal>>;
  try {
    loaded = await loadJournal(path, snapshot);
  } catch (error) {
    if (snapshot === undefined) {
      throw error;
    }
    loaded = await loadJournal(path, undefined);
  }
  const handle = loaded.state.reader as JournalHandle | undefined;
  if (handle === undefined) {
    throw new LedgerError('not-found', { rule: 'journal', path });
  }
  const { ino } = await handle.handle.stat();
  return { heap: loaded.state, cursor: loaded.cursor, validBytes: loaded.read.validBytes, inode: ino };
}

/** How many revisions each record of a heap has. */
function revisionCounts(heap: FileState): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [id, entry] of heap.open) {
    counts.set(id, entry.offsets.length);
  }
  for (const [id, entry] of heap.settled) {
    counts.set(id, entry.offsets.length);
  }
  return counts;
}

function announce(follower: FollowerState, replayed: readonly Replayed[]): void {
  for (const { id, revision } of replayed) {
    follower.onRemote?.(id, revision);
  }
}

/**
Reads the journal anew (a compaction replaced it, or a refresh failed), and announces every revision the old
reading did not hold.
*/
async function reread(follower: FollowerState): Promise<void> {
  const before = revisionCounts(follower.reading.heap);
  const next = await read(follower.path);
  const previous = follower.reading;
  follower.reading = next;
  follower.stale = false;
  if (previous.heap.reader !== undefined) {
    await retire(previous.heap.reader);
  }
  const replayed: Replayed[] = [];
  for (const [id, count] of revisionCounts(next.heap)) {
    for (let revision = before.get(id) ?? 0; revision < count; revision++) {
      replayed.push({ id, revision });
    }
  }
  announce(follower, replayed);
}

/**
Replays what was appended since the last reading, or reads anew when the file is another generation or shorter
than what was read.
*/
async function advance(follower: FollowerState): Promise<void> {
  const now = await statIfExists(follower.path);
  const { reading } = follower;
  if (now === undefined) {
    // A compaction renames a new journal over the old one, never leaves none: keep what was read.
    return;
  }
  if (follower.stale || now.ino !== reading.inode || now.size < reading.validBytes) {
    await reread(follower);
    return;
  }
  if (now.size === reading.validBytes) {
    return;
  }
  const handle = reading.heap.reader as JournalHandle;
  const firstLine = reading.heap.lines + 1;
  follower.stale = true;
  const appended = await readJournalFrom(handle.handle, reading.validBytes, firstLine);
  // The bytes after the last newline are a write still under way: the next refresh reads them whole.
  const replayed = await replayLines(reading.heap, appended.lines, reading.cursor, firstLine);
  reading.validBytes = appended.validBytes;
  follower.stale = false;
  announce(follower, replayed);
}

function refresh(follower: FollowerState): Promise<void> {
  follower.refreshing ??= advance(follower).finally(() => {
    follower.refreshing = undefined;
  });
  return follower.refreshing;
}

function poll(follower: FollowerState): void {
  follower.timer = setTimeout(() => {
    refresh(follower)
      // A journal that fails a check is reported by the next read; the poll keeps looking.
      .catch(() => undefined)
      .finally(() => {
        if (!follower.closed) {
          poll(follower);
        }
      });
  }, followIntervalMs);
}

async function closeFollower(follower: FollowerState): Promise<void> {
  follower.closed = true;
  clearTimeout(follower.timer);
  await follower.refreshing?.catch(() => undefined);
  if (follower.reading.heap.reader !== undefined) {
    await retire(follower.reading.heap.reader);
  }
}

/**
Opens the journal at `path` read-only, as a store the engine serves reads and `subscribe` from; every write is
refused by the engine (`locked`, rule `follower`).
*/
export async function followerStore(path: string): Promise<LedgerStore> {
  const follower: FollowerState = {
    path,
    reading: await read(path),
    refreshing: undefined,
    stale: false,
    onRemote: undefined,
    timer: undefined,
    closed: false,
  };
  const current = async () => {
    await refresh(follower);
    return follower.reading.heap;
  };
  return {
    writable: false,
    get: async (id) => (await readEntry(await current(), id))?.record,
    list: async (states) => listRecords(await current(), states),
    history: async (id) => [...((await readEntry(await current(), id))?.revisions ?? [])],
    append: () => Promise.reject(new LedgerError('locked', { rule: 'follower' })),
    watch(onRemote) {
      follower.onRemote = onRemote;
      poll(follower);
    },
    close: () => closeFollower(follower),
  };
}
