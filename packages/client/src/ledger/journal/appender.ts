/**
@module
The file ledger's group-commit appender (Node, docs/durable-send.md#file-journal): appends queue while a batch
is syncing, and the next batch takes them all in one synchronized `writev`, so concurrent writers share syncs
without any timer. It knows lines and the chain that links them (`line.ts`), never what a line's body means.
*/
// Its declarations name Node's types: a consumer's TypeScript loads them without a `types` setting
// (ARCHITECTURE.md#runtimes).
/// <reference types="node" preserve="true" />
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { LedgerError } from '../../core/errors.js';
import { formatLine } from './line.js';
import { APPEND_FLAGS, DSYNC, syncDirectory, writeAll, writeHere } from './writes.js';

/**
Buffers one `writev` passes as they are; a larger batch is joined into one buffer first (POSIX guarantees at
least 16 and Linux allows 1024 per call).
*/
const MAX_IOVECS = 512;

/**
Appends that start a batch at once instead of after a turn of the event loop. Writers woken together run their
next commits in one long run of microtasks; starting the write once this many have queued (from `enqueue`, in
the middle of that run) lets the disk sync those while the rest are still computing theirs, so the sync and
the CPU work overlap instead of taking turns. It only applies when no write is in flight: while one syncs,
appends queue for the next batch as before, so a slow disk still gets the largest batches.
*/
const EARLY_BATCH = 64;

/** One line to append: the body's text and its digest. */
export type LineInput = { readonly digest: string; readonly text: string };

/**
What an exclusive job sees: the journal's size and last digest (as they are now, also after a `replace`), and,
for a compaction, a way to replace the whole file.
*/
export type JournalView = {
  readonly size: number;
  readonly last: string | null;
  /**
  Replaces the journal with `lines`, chained anew under the current fence; resolves with each line's new
  offset.
  */
  replace(lines: readonly LineInput[]): Promise<number[]>;
};

/** The group-commit appender. */
export type Appender = {
  /**
  Queues `lines` as one write; resolves once a synchronized write covers them all, after calling `onDurable`
  with their offsets, synchronously, in append order.
  */
  append(lines: readonly LineInput[], onDurable: (offsets: readonly number[]) => void): Promise<void>;
  /** Runs `job` between two batches, with nothing else writing: a checkpoint or a compaction. */
  exclusive<T>(job: (view: JournalView) => Promise<T>): Promise<T>;
  /** Waits for queued work, then closes the file. */
  close(): Promise<void>;
};

/**
Where the synchronized write of a batch that holds one append is made (a writer alone: nobody else queued for
that sync): `thread-pool`, as every other batch, or `event-loop`, on the calling thread.
`FileLedgerOptions.loneSync` (file/open.ts) says when each suits.
*/
export type LoneSync = 'thread-pool' | 'event-loop';

/** How the file store opens its appender. */
export type AppenderOptions = {
  /** Truncates the journal to this size first: a torn tail a crash left. */
  readonly truncateTo?: number;
  /** Whether the journal is new, so its directory entry must be synced. */
  readonly created: boolean;
  readonly size: number;
  readonly last: string | null;
  readonly fence: () => number;
  /** The lock's fence check, synchronous, before every batch and before a replacement's rename. */
  readonly beforeBatch: () => void;
  readonly loneSync: LoneSync;
};

type Waiter = {
  readonly kind: 'append';
  readonly lines: readonly LineInput[];
  readonly onDurable: (offsets: readonly number[]) => void;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
};
type Job = {
  readonly kind: 'job';
  readonly run: (view: JournalView) => Promise<void>;
  readonly reject: (error: unknown) => void;
};

/** The appender's state, shared by the functions below. */
type AppenderState = {
  readonly path: string;
  readonly options: AppenderOptions;
  handle: FileHandle;
  /** The journal's size and last digest once every batch written so far is on disk. */
  size: number;
  last: string | null;
  readonly queue: (Waiter | Job)[];
  /** The fatal error of a failed write: every later append fails with it. */
  failure: LedgerError | undefined;
  draining: Promise<void>;
  running: boolean;
  closing: boolean;
  /** How many appends the last batch held. */
  lastBatch: number;
  /** While the drain waits to take a batch: starts it at once (see `EARLY_BATCH`). */
  early: (() => void) | undefined;
};

/**
Makes `error` fatal: what reached the disk is unknown, so every queued append fails with it, and so does every
later one.
*/
function failAll(state: AppenderState, error: unknown): LedgerError {
  state.failure =
    error instanceof LedgerError ? error : new LedgerError('io', { rule: 'write', cause: error });
  for (const entry of state.queue.splice(0)) {
    entry.reject(state.failure);
  }
  return state.failure;
}

/**
Writes `lines` chained anew from the first under `fence` to `temporary`, synced; resolves with each line's
offset and the last digest.
*/
async function writeReplacement(
  temporary: string,
  fence: number,
  lines: readonly LineInput[],
): Promise<{ offsets: number[]; size: number; last: string | null }> {
  const buffers: Uint8Array[] = [];
  const offsets: number[] = [];
  let size = 0;
  let chain: string | null = null;
  const encoder = new TextEncoder();
  for (const line of lines) {
    const bytes = encoder.encode(formatLine(fence, chain, line.digest, line.text));
    offsets.push(size);
    size += bytes.byteLength;
    buffers.push(bytes);
    chain = line.digest;
  }
  const target = await open(temporary, 'w');
  try {
    await writeAll(target, buffers);
    await target.sync();
  } finally {
    await target.close();
  }
  return { offsets, size, last: chain };
}

/**
A compaction's replacement of the whole journal (see `JournalView.replace`): written aside, the lock checked,
renamed over the journal, the directory synced, and the appender moved onto the new file.
*/
async function replace(state: AppenderState, lines: readonly LineInput[]): Promise<number[]> {
  const temporary = `${state.path}.compact.tmp`;
  let written: { offsets: number[]; size: number; last: string | null };
  try {
    written = await writeReplacement(temporary, state.options.fence(), lines);
    state.options.beforeBatch();
  } catch (error) {
    // Nothing replaced the journal yet: it stays whole and appends go on.
    await unlink(temporary).catch(() => undefined);
    throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'compact', cause: error });
  }
  try {
    await rename(temporary, state.path);
    await syncDirectory(state.path);
    const next = await open(state.path, APPEND_FLAGS);
    await state.handle.close();
    state.handle = next;
    state.size = written.size;
    state.last = written.last;
    return written.offsets;
  } catch (error) {
    // The rename may or may not have happened: the journal's state is unknown, so nothing more is written.
    throw failAll(state, error);
  }
}

/** The bytes of a batch, each line chained to the one before it, and each waiter's line offsets. */
function encodeBatch(
  state: AppenderState,
  batch: readonly Waiter[],
): { buffers: Uint8Array[]; offsets: number[][]; size: number; last: string | null } {
  const fence = state.options.fence();
  const offsets: number[][] = [];
  let position = state.size;
  let chain = state.last;
  // Each line encoded once, its length read off its bytes; the batch goes out as one `writev` of them.
  let buffers: Uint8Array[] = [];
  for (const waiter of batch) {
    const mine: number[] = [];
    for (const line of waiter.lines) {
      const bytes = Buffer.from(formatLine(fence, chain, line.digest, line.text));
      mine.push(position);
      position += bytes.byteLength;
      buffers.push(bytes);
      chain = line.digest;
    }
    offsets.push(mine);
  }
  if (buffers.length > MAX_IOVECS) {
    buffers = [Buffer.concat(buffers)];
  }
  return { buffers, offsets, size: position, last: chain };
}

/**
The synchronized write of a batch: on the calling thread for a lone append when `loneSync` says so, else
through the thread pool (followed by `fdatasync` without `O_DSYNC`).
*/
function syncedWrite(state: AppenderState, appends: number, buffers: Uint8Array[]): Promise<void> {
  const { handle } = state;
  if (appends === 1 && state.options.loneSync === 'event-loop') {
    return writeHere(handle.fd, buffers);
  }
  return DSYNC === undefined
    ? writeAll(handle, buffers).then(() => handle.datasync())
    : writeAll(handle, buffers);
}

/**
Takes the appends at the head of the queue and starts their synchronized write, all in this call (the fence
check is synchronous, and `writev` is handed to the thread pool before its first await), so that `enqueue` can
start a batch in the middle of a run of microtasks. Resolves once every waiter was told, or was failed with
the write's fatal error (then `failure` is set).
*/
function writeBatch(state: AppenderState): Promise<void> {
  try {
    state.options.beforeBatch();
  } catch (error) {
    failAll(state, error);
    return Promise.resolve();
  }
  const { queue } = state;
  let count = 0;
  while (queue[count]?.kind === 'append') {
    count++;
  }
  const batch = queue.splice(0, count) as Waiter[];
  const encoded = encodeBatch(state, batch);
  return syncedWrite(state, batch.length, encoded.buffers).then(
    () => {
      state.size = encoded.size;
      state.last = encoded.last;
      state.lastBatch = batch.length;
      // The appends that queued while this batch synced go out before its writers wake, so the disk does not
      // sit idle while each of them runs its next commit. Fewer wait a turn in the drain, as ever, to gather
      // more.
      const next = queue.length >= EARLY_BATCH && queue[0]?.kind === 'append' ? writeBatch(state) : undefined;
      for (const [index, waiter] of batch.entries()) {
        waiter.onDurable(encoded.offsets[index] as number[]);
        waiter.resolve();
      }
      return next;
    },
    (error: unknown) => {
      const fatal = failAll(state, error);
      for (const waiter of batch) {
        waiter.reject(fatal);
      }
    },
  );
}

/** Runs an exclusive job with a view of the journal as it stands. */
function runJob(state: AppenderState, job: Job): Promise<void> {
  return job.run({
    get size() {
      return state.size;
    },
    get last() {
      return state.last;
    },
    replace: (lines) => replace(state, lines),
  });
}

/**
One turn of the event loop before a batch is taken: the writers the last batch woke (and those just arriving)
queue their lines meanwhile, so they share this sync instead of the first of them taking one alone. A lone
writer (the last batch held one append, and one waits now) has nobody to wait for. Meanwhile `enqueue` may
start the batch itself, once `EARLY_BATCH` appends have queued.
*/
async function gatherAndWrite(state: AppenderState): Promise<void> {
  const { queue } = state;
  let started = false;
  if (!(queue.length === 1 && state.lastBatch === 1) && queue.length < EARLY_BATCH) {
    started = await new Promise<boolean>((resolve) => {
      state.early = () => resolve(writeBatch(state).then(() => true));
      setImmediate(() => resolve(false));
    });
    state.early = undefined;
  }
  // A failed batch set `failure`: the look at the top of the drain's loop ends it.
  if (!started) {
    await writeBatch(state);
  }
}

/** Writes batches and runs jobs, in queue order, until the queue is empty or a write failed. */
async function drainQueue(state: AppenderState): Promise<void> {
  const { queue } = state;
  for (;;) {
    if (queue.length === 0 || state.failure !== undefined) {
      // Cleared in the same turn as this last look at the queue, so that an append queued after it starts a
      // new drain. Cleared by the caller instead, a turn later, it left an append queued in that turn
      // unwritten until another came.
      state.running = false;
      return;
    }
    const head = queue[0] as Waiter | Job;
    if (head.kind === 'job') {
      queue.shift();
      await runJob(state, head);
      continue;
    }
    await gatherAndWrite(state);
  }
}

async function drain(state: AppenderState): Promise<void> {
  try {
    await drainQueue(state);
  } catch (error) {
    // Nothing in the loop throws; were it to, the next append would start a new drain.
    state.running = false;
    throw error;
  }
}

function enqueue(state: AppenderState, entry: Waiter | Job): void {
  state.queue.push(entry);
  if (state.early !== undefined && state.queue.length >= EARLY_BATCH) {
    state.early();
    state.early = undefined;
  }
  if (!state.running) {
    state.running = true;
    state.draining = drain(state);
  }
}

function append(
  state: AppenderState,
  lines: readonly LineInput[],
  onDurable: (offsets: readonly number[]) => void,
): Promise<void> {
  if (state.failure !== undefined) {
    return Promise.reject(state.failure);
  }
  if (state.closing) {
    return Promise.reject(new LedgerError('closed'));
  }
  return new Promise<void>((resolve, reject) => {
    enqueue(state, { kind: 'append', lines, onDurable, resolve, reject });
  });
}

function exclusive<T>(state: AppenderState, job: (view: JournalView) => Promise<T>): Promise<T> {
  if (state.failure !== undefined) {
    return Promise.reject(state.failure);
  }
  return new Promise<T>((resolve, reject) => {
    enqueue(state, {
      kind: 'job',
      run: async (view) => {
        try {
          resolve(await job(view));
        } catch (error) {
          reject(error);
        }
      },
      reject,
    });
  });
}

async function closeAppender(state: AppenderState): Promise<void> {
  state.closing = true;
  while (state.running) {
    await state.draining;
  }
  await state.handle.close();
}

/** Truncates the journal to `size` and syncs it: the torn tail of a write a crash interrupted. */
async function truncate(path: string, size: number): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(size);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/**
Opens the journal for appending (with `O_DSYNC` where the platform has it, see `APPEND_FLAGS` in writes.ts),
first truncating a torn tail (`truncateTo`) and syncing the directory of a new file. Appends queue while a
batch is syncing; the next batch takes them all: one synchronized `writev` (or a `writev` and an `fdatasync`)
for the whole batch, after `beforeBatch` (the lock's fence check, synchronous). Concurrent writers therefore
share syncs without any timer; a batch that finds no write in flight starts as soon as `EARLY_BATCH` appends
have queued, and when a sync ends with that many queued behind it, their batch starts before the ended batch's
writers are woken. Each line's `after` is filled in as the batch is written, so the chain follows the order of
the file. A failed write or sync is fatal: what reached the disk is unknown, so every queued and later append
fails with that error.
*/
export async function openAppender(path: string, options: AppenderOptions): Promise<Appender> {
  if (options.truncateTo !== undefined) {
    await truncate(path, options.truncateTo);
  }
  const handle = await open(path, APPEND_FLAGS);
  if (options.created) {
    await syncDirectory(path);
  }
  const state: AppenderState = {
    path,
    options,
    handle,
    size: options.truncateTo ?? options.size,
    last: options.last,
    queue: [],
    failure: undefined,
    draining: Promise.resolve(),
    running: false,
    closing: false,
    lastBatch: 0,
    early: undefined,
  };
  return {
    append: (lines, onDurable) => append(state, lines, onDurable),
    exclusive: (job) => exclusive(state, job),
    close: () => closeAppender(state),
  };
}
