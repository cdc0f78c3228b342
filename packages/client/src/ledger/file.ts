/**
@module
The file ledger, Node's durable store (docs/durable-send.md#file-journal): an append-only journal of lines chained as a whole (`journal.ts`), one line per revision, each carrying the writer's fencing counter. A commit resolves only after an `fdatasync` covers its line, and concurrent commits share one sync (group commit).

The heap holds the open records (prepared, executing, unknown) with their histories, and for each settled record only an index entry (status, times, the byte offsets of its lines); a settled record is read back from the journal, and checked line by line, when asked for. A snapshot file `<path>.snapshot` checkpoints that index every few thousand lines and on close, so opening reads the snapshot, checks that the journal still ends its checkpointed part with the line the snapshot names, loads the open records, and replays only the lines written after the checkpoint. Settled records older than the retention window are pruned when the journal is compacted. A torn last line (bytes after the last newline that are not a whole line: a write a crash interrupted, never acknowledged) is truncated; anything else that fails to decode, chain or verify is `corrupt`, and nothing is ever changed to make it fit. One process writes at a time, under the lock file `<path>.lock` (see `lock.ts`).
*/
import type { FileHandle } from 'node:fs/promises';
import { open, unlink } from 'node:fs/promises';
import { LedgerError } from '../core/errors.js';
import { type LedgerStore, openLedgerEngine, type StoreCommit } from './engine.js';
import {
  type Appender,
  type JournalView,
  type LoneSync,
  nodeSha256,
  openAppender,
  parseLine,
  readJournal,
  readLineAt,
  readLinesAt,
  readOptional,
  writeAtomically,
} from './journal.js';
import {
  applyTransition,
  deepFreeze,
  isSettled,
  type Ledger,
  type LedgerOptions,
  retentionOf,
} from './ledger.js';
import { journalPath } from './location.js';
import { acquireLock, type FileLock } from './lock.js';
import { decodeLedger, type LedgerRecord, LedgerRevision, type LedgerStatus } from './record.js';

// Every store entry exports the same names: its `openLedger`, and the shared part from `entry.ts` (written once there).
export * from './entry.js';
export type { LoneSync } from './journal.js';

/** The file ledger's options: the ones every store takes, and where a lone writer's syncs are made. */
export type FileLedgerOptions = LedgerOptions & {
  /**
  Where the synchronized write of a commit made alone (nothing else queued for its sync) is made. `thread-pool` keeps the process's event loop free while the disk syncs. `event-loop` makes that write on the event-loop thread: no file-system thread has to wake for it, which on a virtual machine makes a lone commit's sync up to twice as fast, but nothing else in the process runs until the disk is done. Commits that share a sync always write from the thread pool. For a process that sends one message at a time and serves nothing else meanwhile, such as a command-line tool; not for a server (docs/durable-send.md#what-a-durable-send-costs). @default 'thread-pool'
  */
  readonly loneSync?: LoneSync;
};

/** An open record: kept whole in the heap. */
type OpenEntry = { record: LedgerRecord; revisions: LedgerRevision[]; offsets: number[] };
/** A settled record: what `list` and retention filter on, where its lines are (their order is the journal's), and its creation time, which the snapshot's format carries. */
type SettledEntry = { status: LedgerStatus; createdAt: number; updatedAt: number; offsets: number[] };

const REVISION_DOMAIN = 'surecall.ledger.revision.v1';
const SNAPSHOT_FORMAT = 'surecall.ledger.snapshot.v1';
/** Lines between two checkpoints, at least: bounds what an open replays after the snapshot. */
const CHECKPOINT_LINES = 4096;

/** A checkpoint writes the whole index, so it waits for 4096 lines or a quarter of the records, whichever is more: each appended line pays for at most four index entries. */
function checkpointDue(state: State): boolean {
  return state.sinceCheckpoint >= Math.max(CHECKPOINT_LINES, (state.open.size + state.settled.size) / 4);
}

function corruptAt(error: unknown, position?: number): LedgerError {
  const rule = error instanceof LedgerError ? (error.rule ?? error.reason) : 'replay';
  return new LedgerError('corrupt', {
    rule,
    ...(position === undefined ? {} : { position }),
    cause: error,
  });
}

/** A line's body back to the revision it digests: exactly the members `revisionDigestInput` writes, decoded with the revision schema (storage is an edge). */
function toRevision(body: unknown, digest: string): LedgerRevision {
  const members = body as {
    at?: unknown;
    domain?: unknown;
    id?: unknown;
    previous?: unknown;
    revision?: unknown;
    transition?: unknown;
  } | null;
  if (
    typeof members !== 'object' ||
    members === null ||
    Object.keys(members).join() !== 'at,domain,id,previous,revision,transition' ||
    members.domain !== REVISION_DOMAIN
  ) {
    throw new LedgerError('corrupt', { rule: 'body' });
  }
  const revision = members.revision;
  const candidate = {
    id: members.id,
    revision,
    ...(revision === 0 ? {} : { expectedRevision: typeof revision === 'number' ? revision - 1 : revision }),
    at: members.at,
    ...(members.previous === null ? {} : { previousDigest: members.previous }),
    transition: members.transition,
    digest,
  };
  const decoded = decodeLedger(LedgerRevision, candidate);
  if (!decoded.ok) {
    throw new LedgerError('corrupt', { rule: decoded.error.rule });
  }
  return deepFreeze(decoded.value);
}

/** Replays one record's lines (as read back at its offsets): each line's digest, the record's chain and the state machine. */
function replayRecord(id: string, lines: readonly string[]): OpenEntry & { texts: string[] } {
  let record: LedgerRecord | undefined;
  const revisions: LedgerRevision[] = [];
  const texts: string[] = [];
  for (const text of lines) {
    const line = parseLine(text);
    const revision = toRevision(line.body, line.digest);
    if (revision.id !== id) {
      throw new LedgerError('corrupt', { rule: 'offset' });
    }
    record = deepFreeze(applyTransition(record, revision));
    revisions.push(revision);
    texts.push(line.text);
  }
  if (record === undefined) {
    throw new LedgerError('corrupt', { rule: 'offset' });
  }
  return { record, revisions, offsets: [], texts };
}

/** A snapshot as read: the checkpoint, and one index entry per record, in columns (JSON parses flat arrays of numbers much faster than ten thousand small objects). */
type Snapshot = {
  readonly bytes: number;
  readonly lines: number;
  readonly lastOffset: number;
  readonly last: string | null;
  readonly fence: number;
  readonly ids: readonly string[];
  /** One letter per record, see `LETTERS`. */
  readonly statuses: string;
  readonly created: readonly number[];
  readonly updated: readonly number[];
  /** How many lines each record has; its offsets follow one another in `offsets`. */
  readonly counts: readonly number[];
  readonly offsets: readonly number[];
};

const LETTERS: Readonly<Record<string, LedgerStatus>> = {
  p: 'prepared',
  e: 'executing',
  c: 'committed',
  f: 'failed',
  u: 'unknown',
  d: 'duplicated' as LedgerStatus,
};
const LETTER_OF: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(LETTERS).map(([letter, status]) => [status, letter]),
);

function whole(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function wholes(value: unknown, length: number | undefined, below = Number.MAX_SAFE_INTEGER): boolean {
  if (!Array.isArray(value) || (length !== undefined && value.length !== length)) {
    return false;
  }
  for (const item of value as unknown[]) {
    if (!whole(item) || item >= below) {
      return false;
    }
  }
  return true;
}

/** Reads and checks `<path>.snapshot`: its own SHA-256 (a truncated or damaged snapshot fails it), then every member's shape. `undefined` when there is none. */
async function readSnapshot(path: string): Promise<Snapshot | undefined> {
  const content = await readOptional(path);
  if (content === undefined) {
    return undefined;
  }
  const refuse = (rule: string) => new LedgerError('corrupt', { rule });
  const end = content.lastIndexOf('\n', content.length - 2);
  if (!content.endsWith('\n') || end === -1) {
    throw refuse('snapshot-truncated');
  }
  const text = content.slice(0, end);
  if (nodeSha256(text) !== content.slice(end + 1, -1)) {
    throw refuse('snapshot-digest');
  }
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new LedgerError('corrupt', { rule: 'snapshot', cause: error });
  }
  const { format, bytes, lines, lastOffset, last, fence, ids, statuses, created, updated, counts, offsets } =
    value as { [key: string]: unknown };
  const size = Array.isArray(ids) ? ids.length : -1;
  if (
    format !== SNAPSHOT_FORMAT ||
    !whole(bytes) ||
    !whole(lines) ||
    !whole(lastOffset) ||
    !(last === null || typeof last === 'string') ||
    !whole(fence) ||
    !Array.isArray(ids) ||
    !(ids as unknown[]).every((id) => typeof id === 'string') ||
    typeof statuses !== 'string' ||
    statuses.length !== size ||
    ![...statuses].every((letter) => Object.hasOwn(LETTERS, letter)) ||
    !wholes(created, size) ||
    !wholes(updated, size) ||
    !wholes(counts, size) ||
    !wholes(offsets, undefined, bytes as number) ||
    (counts as number[]).reduce((sum, count) => sum + count, 0) !== (offsets as number[]).length ||
    (counts as number[]).some((count) => count === 0)
  ) {
    throw refuse('snapshot');
  }
  return value as unknown as Snapshot;
}

type State = {
  readonly path: string;
  readonly retentionMs: number;
  readonly open: Map<string, OpenEntry>;
  readonly settled: Map<string, SettledEntry>;
  lines: number;
  lastOffset: number;
  sinceCheckpoint: number;
};

/** The read side of the journal: one handle per file generation, closed once a compaction replaced it and no read still uses it. */
type Reader = { handle: FileHandle; users: number; retired: boolean };

async function openReader(path: string): Promise<Reader> {
  return { handle: await open(path, 'r'), users: 0, retired: false };
}

/** The journal's own order of records: where each record's first line is (compaction keeps that order). */
function byFirstLine(left: { offsets: readonly number[] }, right: { offsets: readonly number[] }): number {
  return (left.offsets[0] ?? 0) - (right.offsets[0] ?? 0);
}

/** The file store over a replayed state: reads, group-committed appends, checkpoints and compaction. */
function fileStore(state: State, appender: Appender, lock: FileLock, initialReader: Reader) {
  const { open: opened, settled } = state;
  let reader = initialReader;
  // The heads appends have claimed and that are not durable yet: the compare-and-set runs against them first, so two writers of one revision cannot both be queued.
  const pending = new Map<string, string>();
  let maintenance: Promise<unknown> | undefined;
  let released = false;

  async function withReader<T>(work: (handle: FileHandle) => Promise<T>): Promise<T> {
    const current = reader;
    current.users++;
    try {
      return await work(current.handle);
    } finally {
      current.users--;
      if (current.retired && current.users === 0) {
        await current.handle.close().catch(() => undefined);
      }
    }
  }

  /** Reads a settled record back from the journal, checking each line as open does. */
  async function load(id: string, entry: SettledEntry): Promise<OpenEntry & { texts: string[] }> {
    const offsets = entry.offsets;
    const lines = await withReader((handle) =>
      Promise.all(offsets.map((offset) => readLineAt(handle, offset))),
    );
    try {
      return { ...replayRecord(id, lines), offsets: [...offsets] };
    } catch (error) {
      throw corruptAt(error);
    }
  }

  async function read(id: string): Promise<OpenEntry | undefined> {
    const entry = opened.get(id);
    if (entry !== undefined) {
      return entry;
    }
    const index = settled.get(id);
    return index === undefined ? undefined : load(id, index);
  }

  function place(record: LedgerRecord, revisions: LedgerRevision[], offsets: number[]): void {
    if (isSettled(record)) {
      opened.delete(record.id);
      settled.set(record.id, {
        status: record.state.status,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
        offsets,
      });
    } else {
      settled.delete(record.id);
      opened.set(record.id, { record, revisions, offsets });
    }
  }

  async function appendAll(commits: readonly StoreCommit[]): Promise<void> {
    const first = commits[0] as StoreCommit;
    const id = first.record.id;
    // Synchronous for open records, so the compare-and-set and the claim below happen in one turn.
    let head = pending.get(id) ?? opened.get(id)?.record.digest;
    const index = settled.get(id);
    if (head === undefined && index !== undefined && first.revision.revision > 0) {
      const loaded = await load(id, index);
      // Another append may have claimed the record while it was read.
      head = pending.get(id) ?? opened.get(id)?.record.digest ?? loaded.record.digest;
    }
    const exists = head !== undefined || settled.has(id);
    if (first.revision.revision === 0 ? exists : head !== first.revision.previousDigest) {
      throw new LedgerError('stale-revision', first.revision.revision === 0 ? { rule: 'exists' } : {});
    }
    const last = commits.at(-1) as StoreCommit;
    pending.set(id, last.revision.digest);
    // What the record's history was before these commits, for the entry they leave.
    const before = opened.get(id) ?? (settled.has(id) ? await read(id) : undefined);
    const lines = commits.map((commit) => ({ digest: commit.revision.digest, text: commit.text }));
    try {
      await appender.append(lines, (offsets) => {
        if (pending.get(id) === last.revision.digest) {
          pending.delete(id);
        }
        // An open record's history grows in place (`history` hands out copies); a settled one's was read back above.
        const current = opened.get(id) ?? before ?? { record: last.record, revisions: [], offsets: [] };
        const revisions = current.revisions;
        const allOffsets = current.offsets;
        for (const [index, commit] of commits.entries()) {
          revisions.push(commit.revision);
          allOffsets.push(offsets[index] as number);
        }
        place(last.record, revisions, allOffsets);
        state.lines += commits.length;
        state.lastOffset = offsets.at(-1) as number;
        state.sinceCheckpoint += commits.length;
        if (maintenance === undefined && checkpointDue(state)) {
          maintenance = maintain(false)
            .catch(() => undefined)
            .finally(() => {
              maintenance = undefined;
            });
        }
      });
    } catch (error) {
      if (pending.get(id) === last.revision.digest) {
        pending.delete(id);
      }
      throw error;
    }
  }

  function snapshotText(view: JournalView): string {
    const ids: string[] = [];
    let statuses = '';
    const created: number[] = [];
    const updated: number[] = [];
    const counts: number[] = [];
    const offsets: number[] = [];
    const add = (id: string, status: LedgerStatus, createdAt: number, updatedAt: number, lines: number[]) => {
      ids.push(id);
      statuses += LETTER_OF[status] ?? '?';
      created.push(createdAt);
      updated.push(updatedAt);
      counts.push(lines.length);
      for (const offset of lines) {
        offsets.push(offset);
      }
    };
    for (const [id, { record, offsets: lines }] of opened) {
      add(id, record.state.status, record.createdAt, record.updatedAt, lines);
    }
    for (const [id, entry] of settled) {
      add(id, entry.status, entry.createdAt, entry.updatedAt, entry.offsets);
    }
    const text = JSON.stringify({
      format: SNAPSHOT_FORMAT,
      bytes: view.size,
      lines: state.lines,
      lastOffset: state.lastOffset,
      last: view.last,
      fence: lock.fence,
      ids,
      statuses,
      created,
      updated,
      counts,
      offsets,
    });
    return `${text}\n${nodeSha256(text)}\n`;
  }

  async function checkpoint(view: JournalView): Promise<void> {
    await writeAtomically(`${state.path}.snapshot`, snapshotText(view));
    state.sinceCheckpoint = 0;
  }

  function prunable(cutoff: number): string[] {
    const ids: string[] = [];
    for (const [id, entry] of settled) {
      if (entry.updatedAt < cutoff && !pending.has(id)) {
        ids.push(id);
      }
    }
    return ids;
  }

  /** Rewrites the journal with every record but the settled ones past the window, each record's lines together in creation order, checked as they are copied; then checkpoints it. */
  async function compact(view: JournalView, cutoff: number): Promise<{ records: number; revisions: number }> {
    for (const id of prunable(cutoff)) {
      settled.delete(id);
    }
    const kept = [
      ...[...opened].map(([id, entry]) => ({ id, offsets: entry.offsets })),
      ...[...settled].map(([id, entry]) => ({ id, offsets: entry.offsets })),
    ].sort(byFirstLine);
    const lines: { digest: string; text: string }[] = [];
    const owners: { id: string; count: number }[] = [];
    const groups = kept.map(({ offsets }) => offsets);
    const texts = await withReader((handle) => readLinesAt(handle, groups));
    for (const [index, { id }] of kept.entries()) {
      let revisions: LedgerRevision[];
      let bodies: string[];
      try {
        ({ revisions, texts: bodies } = replayRecord(id, texts[index] as string[]));
      } catch (error) {
        throw corruptAt(error);
      }
      for (const [position, revision] of revisions.entries()) {
        lines.push({ digest: revision.digest, text: bodies[position] as string });
      }
      owners.push({ id, count: revisions.length });
    }
    const offsets = await view.replace(lines);
    // The new file and its offsets take over together; reads in flight finish on the old file.
    const next = await openReader(state.path);
    const previous = reader;
    reader = next;
    previous.retired = true;
    if (previous.users === 0) {
      await previous.handle.close().catch(() => undefined);
    }
    let at = 0;
    for (const { id, count } of owners) {
      const mine = offsets.slice(at, at + count);
      at += count;
      const entry = opened.get(id) ?? settled.get(id);
      if (entry !== undefined) {
        entry.offsets = mine;
      }
    }
    state.lines = lines.length;
    state.lastOffset = offsets.at(-1) ?? 0;
    await checkpoint(view);
    return { records: owners.length, revisions: lines.length };
  }

  /** A checkpoint, or a compaction when enough settled records are past the window to be worth a rewrite. */
  function maintain(force: boolean): Promise<{ records: number; revisions: number }> {
    return appender.exclusive(async (view) => {
      const cutoff = Date.now() - state.retentionMs;
      const expired = prunable(cutoff).length;
      if (force || (expired >= 256 && expired * 4 >= opened.size + settled.size)) {
        return compact(view, cutoff);
      }
      if (state.sinceCheckpoint > 0) {
        await checkpoint(view);
      }
      return { records: opened.size + settled.size, revisions: state.lines };
    });
  }

  const store: LedgerStore = {
    writable: true,
    get: async (id) => (await read(id))?.record,
    // An open record is in the heap: a transition of it needs no read (the append's compare-and-set still decides).
    head(id, revision) {
      const record = opened.get(id)?.record;
      return record?.revision === revision ? record : undefined;
    },
    async list(states) {
      const found: { offsets: readonly number[]; record: LedgerRecord }[] = [];
      for (const entry of opened.values()) {
        if (states === undefined || states.has(entry.record.state.status)) {
          found.push(entry);
        }
      }
      const wanted: [string, SettledEntry][] = [];
      for (const pair of settled) {
        if (states === undefined || states.has(pair[1].status)) {
          wanted.push(pair);
        }
      }
      const texts = await withReader((handle) =>
        readLinesAt(
          handle,
          wanted.map(([, entry]) => entry.offsets),
        ),
      );
      for (const [index, [id, entry]] of wanted.entries()) {
        try {
          found.push({ offsets: entry.offsets, record: replayRecord(id, texts[index] as string[]).record });
        } catch (error) {
          throw corruptAt(error);
        }
      }
      return found.sort(byFirstLine).map((entry) => entry.record);
    },
    history: async (id) => [...((await read(id))?.revisions ?? [])],
    append: (record, revision, text) => appendAll([{ record, revision, text }]),
    appendAll,
    async close() {
      if (released) {
        return;
      }
      released = true;
      try {
        await maintenance;
        // A checkpoint on close: the next open replays nothing.
        await maintain(false).catch(() => undefined);
        await appender.close();
      } finally {
        reader.retired = true;
        if (reader.users === 0) {
          await reader.handle.close().catch(() => undefined);
        }
        await lock.release();
      }
    },
  };
  return { store, compact: () => maintain(true) };
}

/** What a compaction wrote. */
export type Compaction = { readonly records: number; readonly revisions: number };

const compactors = new WeakMap<Ledger, () => Promise<Compaction>>();

/**
Compacts a file ledger's journal now: prunes the settled records past the retention window, writes every other record's revisions together in creation order under the current fence (chained anew) to `<path>.compact.tmp`, syncs it, renames it over the journal, syncs the directory, and checkpoints the result in `<path>.snapshot`. Each line copied is checked (its digest and its record's chain) on the way. It runs between two group-commit batches, so appends wait for it and none is lost. The store also compacts by itself at a checkpoint when at least a quarter of the records (and at least 256) are past the window.

@throws {LedgerError} `invalid-input` for a ledger that is not a file ledger; `io` or `fenced` when the rewrite fails (before the rename the old journal stays in use); `corrupt` when a line it copies fails its checks.

@example
```ts
const ledger = await openLedger({ name: '/var/lib/app/sends.jsonl' });
await compactLedger(ledger);
```
*/
export async function compactLedger(ledger: Ledger): Promise<Compaction> {
  const compact = compactors.get(ledger);
  if (compact === undefined) {
    throw new LedgerError('invalid-input', { rule: 'not-a-file-ledger' });
  }
  return compact();
}

/**
Judges the bytes after the journal's last newline. A torn write leaves a strict prefix of a line, which never holds a whole line: those bytes were never acknowledged and are truncated. Bytes that hold a whole line, with its newline missing or damaged, may have been acknowledged, so they are `corrupt` (`unterminated-line`) and left as they are.
*/
function judgeTail(tail: Uint8Array, position: number): void {
  if (tail.byteLength === 0) {
    return;
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(tail);
  for (const candidate of [text, text.slice(0, -1)]) {
    try {
      parseLine(candidate);
    } catch {
      continue;
    }
    throw new LedgerError('corrupt', { rule: 'unterminated-line', position });
  }
}

/** Replays journal lines onto `state`, each one's envelope, chain link, fence, digest, record chain and transition checked; returns the last digest and fence. */
async function replayLines(
  state: State,
  lines: readonly { text: string; offset: number }[],
  from: { last: string | null; fence: number; firstLine: number },
  load: (id: string, entry: SettledEntry) => Promise<OpenEntry>,
): Promise<{ last: string | null; fence: number }> {
  let { last, fence } = from;
  for (const [index, { text, offset }] of lines.entries()) {
    const position = from.firstLine + index;
    try {
      const line = parseLine(text);
      if (line.after !== last) {
        throw new LedgerError('corrupt', { rule: 'chain' });
      }
      // A line from an older fence after a newer one was written by a writer that had already been superseded: the journal holds two writers' histories, which a person must untangle.
      if (line.fence < fence) {
        throw new LedgerError('corrupt', { rule: 'fence' });
      }
      fence = line.fence;
      const revision = toRevision(line.body, line.digest);
      const index_ = state.settled.get(revision.id);
      const entry =
        state.open.get(revision.id) ?? (index_ === undefined ? undefined : await load(revision.id, index_));
      const record = deepFreeze(applyTransition(entry?.record, revision));
      const revisions = [...(entry?.revisions ?? []), revision];
      const offsets = [...(entry?.offsets ?? []), offset];
      if (isSettled(record)) {
        state.open.delete(record.id);
        state.settled.set(record.id, {
          status: record.state.status,
          createdAt: record.createdAt,
          updatedAt: record.updatedAt,
          offsets,
        });
      } else {
        state.settled.delete(record.id);
        state.open.set(record.id, { record, revisions, offsets });
      }
      last = line.digest;
      state.lines = position;
      state.lastOffset = offset;
    } catch (error) {
      throw corruptAt(error, position);
    }
  }
  return { last, fence };
}

const paths = new WeakMap<Ledger, string>();

/**
The absolute path of an open file ledger's journal: where a relative `name` was put (docs/durable-send.md#where-the-file-ledger-lives). Its lock file is this path plus `.lock`.

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
Opens the file ledger named `options.name`: an absolute path as it is, a relative one under the ledger directory (`SURECALL_LEDGER_DIR`, else `./.surecall/ledgers`; `ledgerPath(ledger)` says where). Takes the lock file (a live holder → `locked`; a dead one's lock is taken over with a higher fence), reads the snapshot `<path>.snapshot` if there is one (its own digest, then that the journal's checkpointed part still ends with the line it names, else `corrupt`), loads the open records, replays the lines after the checkpoint (all of them without a snapshot), judges the bytes after the last newline (a torn write is truncated; a whole line whose newline is missing or damaged is `corrupt`), and turns records left `executing` by a crash into `unknown`. A damaged snapshot is never skipped; deleting it by hand makes the next open replay and verify the whole journal.

@example
```ts
import { openLedger } from '@surecall/client/ledger'; // the file store under Node
const ledger = await openLedger({ name: 'sends', retentionMs: 30 * 24 * 3_600_000 }); // ./.surecall/ledgers/sends
```
*/
export async function openLedger(options: FileLedgerOptions): Promise<Ledger> {
  if (typeof options.name !== 'string' || options.name.length === 0) {
    throw new LedgerError('invalid-input', { rule: 'name' });
  }
  const retentionMs = retentionOf(options);
  const loneSync = options.loneSync ?? 'thread-pool';
  if (loneSync !== 'thread-pool' && loneSync !== 'event-loop') {
    throw new LedgerError('invalid-input', { rule: 'lone-sync' });
  }
  const path = await journalPath(options.name);
  let lock: FileLock;
  try {
    lock = await acquireLock(`${path}.lock`);
  } catch (error) {
    // Name the file another writer holds: the path is this process's own configuration, never remote text.
    throw error instanceof LedgerError
      ? new LedgerError(error.reason, {
          ...(error.rule === undefined ? {} : { rule: error.rule }),
          path: `${path}.lock`,
          cause: error,
        })
      : error;
  }
  let store: LedgerStore | undefined;
  let reader: Reader | undefined;
  try {
    // Left by a compaction or a checkpoint that crashed before its rename; the files themselves are whole.
    await unlink(`${path}.compact.tmp`).catch(() => undefined);
    await unlink(`${path}.snapshot.tmp`).catch(() => undefined);
    const state: State = {
      path,
      retentionMs,
      open: new Map(),
      settled: new Map(),
      lines: 0,
      lastOffset: 0,
      sinceCheckpoint: 0,
    };
    const snapshot = await readSnapshot(`${path}.snapshot`);
    const from = snapshot?.bytes ?? 0;
    const read = await readJournal(path, from, (snapshot?.lines ?? 0) + 1);
    if (snapshot !== undefined && (read.size < snapshot.bytes || (!read.exists && snapshot.bytes > 0))) {
      throw new LedgerError('corrupt', { rule: 'checkpoint' });
    }
    reader = read.exists ? await openReader(path) : undefined;
    const loadFrom = async (id: string, entry: SettledEntry): Promise<OpenEntry> => {
      if (reader === undefined) {
        throw new LedgerError('corrupt', { rule: 'offset' });
      }
      const handle = reader.handle;
      const lines = await Promise.all(entry.offsets.map((offset) => readLineAt(handle, offset)));
      return { ...replayRecord(id, lines), offsets: [...entry.offsets] };
    };
    let last: string | null = null;
    let fence = 0;
    if (snapshot !== undefined) {
      if (snapshot.bytes > 0) {
        // The checkpointed part must still end with the very line the snapshot names: any line deleted, added or resized before it moves that line.
        const handle = (reader as Reader).handle;
        const text = await readLineAt(handle, snapshot.lastOffset).catch(() => '');
        let digest: string | undefined;
        try {
          digest = parseLine(text).digest;
        } catch {
          digest = undefined;
        }
        if (
          digest !== snapshot.last ||
          snapshot.lastOffset + Buffer.byteLength(text) + 1 !== snapshot.bytes
        ) {
          throw new LedgerError('corrupt', { rule: 'checkpoint' });
        }
      } else if (snapshot.last !== null) {
        throw new LedgerError('corrupt', { rule: 'checkpoint' });
      }
      last = snapshot.last;
      fence = snapshot.fence;
      state.lines = snapshot.lines;
      state.lastOffset = snapshot.lastOffset;
      let at = 0;
      const opening: [string, SettledEntry][] = [];
      for (let index = 0; index < snapshot.ids.length; index++) {
        const id = snapshot.ids[index] as string;
        const status = LETTERS[snapshot.statuses[index] as string] as LedgerStatus;
        const count = snapshot.counts[index] as number;
        const entry: SettledEntry = {
          status,
          createdAt: snapshot.created[index] as number,
          updatedAt: snapshot.updated[index] as number,
          offsets: snapshot.offsets.slice(at, at + count),
        };
        at += count;
        if (status === 'prepared' || status === 'executing' || status === 'unknown') {
          opening.push([id, entry]);
        } else {
          state.settled.set(id, entry);
        }
      }
      // The open records are loaded whole and checked line by line, in one read when there are many.
      const texts =
        opening.length === 0
          ? []
          : await readLinesAt(
              (reader as Reader).handle,
              opening.map(([, entry]) => entry.offsets),
            );
      for (const [index, [id, entry]] of opening.entries()) {
        try {
          const loaded = replayRecord(id, texts[index] as string[]);
          if (loaded.record.state.status !== entry.status) {
            throw new LedgerError('corrupt', { rule: 'snapshot' });
          }
          state.open.set(id, { record: loaded.record, revisions: loaded.revisions, offsets: entry.offsets });
        } catch (error) {
          throw corruptAt(error);
        }
      }
      if (state.open.size + state.settled.size !== snapshot.ids.length) {
        throw new LedgerError('corrupt', { rule: 'snapshot' });
      }
    }
    const replayed = await replayLines(
      state,
      read.lines,
      { last, fence, firstLine: (snapshot?.lines ?? 0) + 1 },
      loadFrom,
    );
    judgeTail(read.tail, state.lines + 1);
    state.sinceCheckpoint = read.lines.length;
    // A fresh lock file starts at 1; the journal remembers the fences of earlier holders.
    await lock.raise(replayed.fence + 1);
    const appender = await openAppender(path, {
      ...(read.tail.byteLength > 0 ? { truncateTo: read.validBytes } : {}),
      created: !read.exists,
      size: read.validBytes,
      last: replayed.last,
      fence: () => lock.fence,
      beforeBatch: lock.check,
      loneSync,
    });
    reader ??= await openReader(path);
    const built = fileStore(state, appender, lock, reader);
    store = built.store;
    const ledger = await openLedgerEngine(store, { sha256: nodeSha256 });
    compactors.set(ledger, built.compact);
    paths.set(ledger, path);
    return ledger;
  } catch (error) {
    if (store === undefined) {
      await reader?.handle.close().catch(() => undefined);
      await lock.release();
    } else {
      await store.close();
    }
    throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'open', cause: error });
  }
}
