/**
@module
The file ledger's journal: an append-only file of lines chained as a whole, appended with group commit, checkpointed by a snapshot file and compacted by atomic rename. This module knows lines, their envelope and the chain that links them, never what a line's body means (that is `file.ts`'s business).

A line is `{"fence":F,"after":A,"digest":D,"body":B}` and a newline, exactly in that member order: `B` is a JSON text whose SHA-256 is `D` (the file store writes the revision's canonical digest input there, so the bytes it hashes are the bytes it writes), `A` is the digest of the line before it in the file (`null` for the first line), and `F` the fencing counter of the writer. Because every line names its predecessor, a deleted, duplicated or reordered line breaks the chain at the line after it, whichever record it belonged to (docs/durable-send.md#file-journal).
*/
// Its declarations name Node's types: a consumer's TypeScript loads them without a `types` setting
// (ARCHITECTURE.md#runtimes).
/// <reference types="node" preserve="true" />
import { hash } from 'node:crypto';
import { constants, fdatasyncSync, writeSync, writevSync } from 'node:fs';
import { type FileHandle, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LedgerError } from '../core/errors.js';

const NEWLINE = 0x0a;

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** Node's SHA-256 of a string's UTF-8 bytes as `sha256:` and 64 hex digits: the same digests WebCrypto gives, synchronously. */
export function nodeSha256(text: string): string {
  return `sha256:${hash('sha256', text, 'hex')}`;
}

/** One line as written: its envelope, and the body's exact text. */
export type JournalLine = {
  readonly fence: number;
  readonly after: string | null;
  readonly digest: string;
  /** The body's text, exactly as hashed. */
  readonly text: string;
  readonly body: unknown;
};

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const BODY = ',"body":';

/** The line for a body, newline included. */
export function formatLine(fence: number, after: string | null, digest: string, text: string): string {
  return `{"fence":${fence},"after":${after === null ? 'null' : `"${after}"`},"digest":"${digest}","body":${text}}\n`;
}

/**
Parses one line (without its newline): the envelope's members and their order, and the body's SHA-256 over its exact bytes. Throws `LedgerError('corrupt')` with the rule (`json`, `line`, `digest`); the caller adds the position.
*/
export function parseLine(line: string): JournalLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new LedgerError('corrupt', { rule: 'json', cause: error });
  }
  const members = value as { fence?: unknown; after?: unknown; digest?: unknown; body?: unknown } | null;
  const at = line.indexOf(BODY);
  if (
    typeof members !== 'object' ||
    members === null ||
    Array.isArray(members) ||
    Object.keys(members).join() !== 'fence,after,digest,body' ||
    !Number.isSafeInteger(members.fence) ||
    (members.fence as number) < 1 ||
    !(members.after === null || (typeof members.after === 'string' && DIGEST.test(members.after))) ||
    typeof members.digest !== 'string' ||
    !DIGEST.test(members.digest) ||
    !line.startsWith(`{"fence":${members.fence},"after":`) ||
    at === -1 ||
    !line.endsWith('}')
  ) {
    throw new LedgerError('corrupt', { rule: 'line' });
  }
  // The fence, the after digest and the line's own digest hold no `,"body":`, so its first occurrence starts the body.
  const text = line.slice(at + BODY.length, -1);
  if (nodeSha256(text) !== members.digest) {
    throw new LedgerError('corrupt', { rule: 'digest' });
  }
  return {
    fence: members.fence as number,
    after: members.after as string | null,
    digest: members.digest,
    text,
    body: members.body,
  };
}

/** A journal as read on open. */
export type JournalRead = {
  /** Whether the file existed. */
  readonly exists: boolean;
  /** The file's size. */
  readonly size: number;
  /** Every complete line from `from` on, without its newline, with its byte offset. */
  readonly lines: readonly { readonly text: string; readonly offset: number }[];
  /** Bytes up to and including the last newline. */
  readonly validBytes: number;
  /** The bytes after the last newline. */
  readonly tail: Uint8Array;
};

/**
Reads the journal from byte `from` on. A line counts only with its newline; what follows the last newline is returned as `tail` for the caller to judge (a torn write, or a damaged newline). A complete line that is not UTF-8 is `corrupt`, with its 1-based line number counted from `firstLine`.
*/
export async function readJournal(path: string, from = 0, firstLine = 1): Promise<JournalRead> {
  let bytes: Uint8Array;
  let size: number;
  try {
    const handle = await open(path, 'r');
    try {
      size = (await handle.stat()).size;
      if (size < from) {
        return { exists: true, size, lines: [], validBytes: from, tail: new Uint8Array() };
      }
      const buffer = new Uint8Array(size - from);
      let read = 0;
      while (read < buffer.byteLength) {
        const { bytesRead } = await handle.read(buffer, read, buffer.byteLength - read, from + read);
        if (bytesRead === 0) {
          break;
        }
        read += bytesRead;
      }
      bytes = buffer.subarray(0, read);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (code(error) === 'ENOENT') {
      return { exists: false, size: 0, lines: [], validBytes: 0, tail: new Uint8Array() };
    }
    throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'read', cause: error });
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const lines: { text: string; offset: number }[] = [];
  let start = 0;
  for (let index = bytes.indexOf(NEWLINE); index !== -1; index = bytes.indexOf(NEWLINE, start)) {
    try {
      lines.push({ text: decoder.decode(bytes.subarray(start, index)), offset: from + start });
    } catch (error) {
      throw new LedgerError('corrupt', { rule: 'utf-8', position: firstLine + lines.length, cause: error });
    }
    start = index + 1;
  }
  return { exists: true, size, lines, validBytes: from + start, tail: bytes.subarray(start) };
}

/** Reads the one line that starts at `offset` (without its newline) through an open handle; `corrupt` (`offset`) when none ends before the end of the file. */
export async function readLineAt(handle: FileHandle, offset: number): Promise<string> {
  let chunk = 4096;
  for (;;) {
    const buffer = new Uint8Array(chunk);
    const { bytesRead } = await handle.read(buffer, 0, chunk, offset);
    const end = buffer.subarray(0, bytesRead).indexOf(NEWLINE);
    if (end !== -1) {
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, end));
      } catch (error) {
        throw new LedgerError('corrupt', { rule: 'utf-8', cause: error });
      }
    }
    if (bytesRead < chunk) {
      throw new LedgerError('corrupt', { rule: 'offset' });
    }
    chunk *= 4;
  }
}

/** Above this many lines, `readLinesAt` reads the whole file once instead of one read per line. */
const WHOLE_FILE_LINES = 64;

/** Reads many lines by offset: one read per line for a few, one read of the whole file for many (a `list` of settled records). */
export async function readLinesAt(
  handle: FileHandle,
  groups: readonly (readonly number[])[],
): Promise<string[][]> {
  const count = groups.reduce((sum, group) => sum + group.length, 0);
  if (count <= WHOLE_FILE_LINES) {
    return Promise.all(groups.map((group) => Promise.all(group.map((offset) => readLineAt(handle, offset)))));
  }
  const size = (await handle.stat()).size;
  const bytes = new Uint8Array(size);
  let read = 0;
  while (read < size) {
    const { bytesRead } = await handle.read(bytes, read, size - read, read);
    if (bytesRead === 0) {
      break;
    }
    read += bytesRead;
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return groups.map((group) =>
    group.map((offset) => {
      const end = offset < read ? bytes.subarray(0, read).indexOf(NEWLINE, offset) : -1;
      if (end === -1) {
        throw new LedgerError('corrupt', { rule: 'offset' });
      }
      try {
        return decoder.decode(bytes.subarray(offset, end));
      } catch (error) {
        throw new LedgerError('corrupt', { rule: 'utf-8', cause: error });
      }
    }),
  );
}

/** Makes a directory entry durable: a created or renamed file survives a crash only once its directory is synced. */
async function syncDirectory(path: string): Promise<void> {
  const directory = await open(dirname(path), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

/** Writes `path` atomically: a temporary file, synced, renamed over it, the directory synced. A crash leaves the old file or the new one, never a torn one. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.tmp`;
  try {
    const target = await open(temporary, 'w');
    try {
      await writeAll(target, [new TextEncoder().encode(text)]);
      await target.sync();
    } finally {
      await target.close();
    }
    await rename(temporary, path);
    await syncDirectory(path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'snapshot', cause: error });
  }
}

/** Reads a whole small file, or `undefined` when it does not exist. */
export async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (code(error) === 'ENOENT') {
      return undefined;
    }
    throw new LedgerError('io', { rule: 'read', cause: error });
  }
}

/**
How the appender opens the journal: for appending, and where the platform has it with `O_DSYNC`, so that each write returns only once its data (and the size that reaches it) is on disk, as a write followed by `fdatasync` would, in one system call and one thread-pool round trip instead of two. Without `O_DSYNC` (Windows) every batch is followed by `fdatasync`.
*/
const DSYNC: number | undefined = constants.O_DSYNC;
const APPEND_FLAGS: number | string =
  DSYNC === undefined ? 'a' : constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | DSYNC;

/** Buffers one `writev` passes as they are; a larger batch is joined into one buffer first (POSIX guarantees at least 16 and Linux allows 1024 per call). */
const MAX_IOVECS = 512;

/**
Appends that start a batch at once instead of after a turn of the event loop. Writers woken together run their next commits in one long run of microtasks; starting the write once this many have queued (from `enqueue`, in the middle of that run) lets the disk sync those while the rest are still computing theirs, so the sync and the CPU work overlap instead of taking turns. It only applies when no write is in flight: while one syncs, appends queue for the next batch as before, so a slow disk still gets the largest batches.
*/
const EARLY_BATCH = 64;

/** One line to append: the body's text and its digest. */
export type LineInput = { readonly digest: string; readonly text: string };

/** What an exclusive job sees: the journal's size and last digest (as they are now, also after a `replace`), and, for a compaction, a way to replace the whole file. */
export type JournalView = {
  readonly size: number;
  readonly last: string | null;
  /** Replaces the journal with `lines`, chained anew under the current fence; resolves with each line's new offset. */
  replace(lines: readonly LineInput[]): Promise<number[]>;
};

/** The group-commit appender. */
export type Appender = {
  /** Queues `lines` as one write; resolves once a synchronized write covers them all, after calling `onDurable` with their offsets, synchronously, in append order. */
  append(lines: readonly LineInput[], onDurable: (offsets: readonly number[]) => void): Promise<void>;
  /** Runs `job` between two batches, with nothing else writing: a checkpoint or a compaction. */
  exclusive<T>(job: (view: JournalView) => Promise<T>): Promise<T>;
  /** Waits for queued work, then closes the file. */
  close(): Promise<void>;
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

/** Writes all of `buffers` with one `writev`, then with `write` whatever a short write (a full disk, a signal) left, failing if nothing more goes in. Both calls are the thread pool's (`writeAll`) or the calling thread's (`writeHere`). */
async function writeFully(
  buffers: Uint8Array[],
  writev: (buffers: Uint8Array[]) => number | Promise<number>,
  write: (rest: Buffer, offset: number) => number | Promise<number>,
): Promise<void> {
  const total = buffers.reduce((sum, buffer) => sum + buffer.byteLength, 0);
  const written = await writev(buffers);
  if (written < total) {
    const rest = Buffer.concat(buffers).subarray(written);
    let offset = 0;
    while (offset < rest.byteLength) {
      const more = await write(rest, offset);
      if (more === 0) {
        throw new LedgerError('io', { rule: 'short-write' });
      }
      offset += more;
    }
  }
}

function writeAll(handle: FileHandle, buffers: Uint8Array[]): Promise<void> {
  return writeFully(
    buffers,
    async (all) => (await handle.writev(all)).bytesWritten,
    async (rest, offset) => (await handle.write(rest, offset)).bytesWritten,
  );
}

/** A batch's synchronized write as the thread pool makes it (`writeAll`, and the `fdatasync` where the journal has no `O_DSYNC`), made on the calling thread instead, its `writev` before this returns (see `LoneSync`). */
async function writeHere(fd: number, buffers: Uint8Array[]): Promise<void> {
  await writeFully(
    buffers,
    (all) => writevSync(fd, all),
    (rest, offset) => writeSync(fd, rest, offset),
  );
  if (DSYNC === undefined) {
    fdatasyncSync(fd);
  }
}

/** Where the synchronized write of a batch that holds one append is made (a writer alone: nobody else queued for that sync): `thread-pool`, as every other batch, or `event-loop`, on the calling thread. `FileLedgerOptions.loneSync` (file.ts) says when each suits. */
export type LoneSync = 'thread-pool' | 'event-loop';

/**
Opens the journal for appending (with `O_DSYNC` where the platform has it, see `APPEND_FLAGS`), first truncating a torn tail (`truncateTo`) and syncing the directory of a new file. Appends queue while a batch is syncing; the next batch takes them all: one synchronized `writev` (or a `writev` and an `fdatasync`) for the whole batch, after `beforeBatch` (the lock's fence check, synchronous). Concurrent writers therefore share syncs without any timer; a batch that finds no write in flight starts as soon as `EARLY_BATCH` appends have queued, and when a sync ends with that many queued behind it, their batch starts before the ended batch's writers are woken. Each line's `after` is filled in as the batch is written, so the chain follows the order of the file. A failed write or sync is fatal: what reached the disk is unknown, so every queued and later append fails with that error.
*/
export async function openAppender(
  path: string,
  options: {
    readonly truncateTo?: number;
    readonly created: boolean;
    readonly size: number;
    readonly last: string | null;
    readonly fence: () => number;
    readonly beforeBatch: () => void;
    readonly loneSync: LoneSync;
  },
): Promise<Appender> {
  let size = options.size;
  if (options.truncateTo !== undefined) {
    const handle = await open(path, 'r+');
    try {
      await handle.truncate(options.truncateTo);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    size = options.truncateTo;
  }
  let handle = await open(path, APPEND_FLAGS);
  if (options.created) {
    await syncDirectory(path);
  }
  let last = options.last;
  const queue: (Waiter | Job)[] = [];
  let failure: LedgerError | undefined;
  let draining: Promise<void> = Promise.resolve();
  let running = false;
  let closing = false;
  // How many appends the last batch held.
  let lastBatch = 0;
  // While the drain waits to take a batch: starts it at once (see `EARLY_BATCH`).
  let early: (() => void) | undefined;

  function fail(error: unknown): LedgerError {
    failure = error instanceof LedgerError ? error : new LedgerError('io', { rule: 'write', cause: error });
    for (const entry of queue.splice(0)) {
      entry.reject(failure);
    }
    return failure;
  }

  async function replace(lines: readonly LineInput[]): Promise<number[]> {
    const temporary = `${path}.compact.tmp`;
    const fence = options.fence();
    const buffers: Uint8Array[] = [];
    const offsets: number[] = [];
    let written = 0;
    let chain: string | null = null;
    const encoder = new TextEncoder();
    for (const line of lines) {
      const bytes = encoder.encode(formatLine(fence, chain, line.digest, line.text));
      offsets.push(written);
      written += bytes.byteLength;
      buffers.push(bytes);
      chain = line.digest;
    }
    try {
      const target = await open(temporary, 'w');
      try {
        await writeAll(target, buffers);
        await target.sync();
      } finally {
        await target.close();
      }
      options.beforeBatch();
    } catch (error) {
      // Nothing replaced the journal yet: it stays whole and appends go on.
      await unlink(temporary).catch(() => undefined);
      throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'compact', cause: error });
    }
    try {
      await rename(temporary, path);
      await syncDirectory(path);
      const next = await open(path, APPEND_FLAGS);
      await handle.close();
      handle = next;
      size = written;
      last = chain;
      return offsets;
    } catch (error) {
      // The rename may or may not have happened: the journal's state is unknown, so nothing more is written.
      throw fail(error);
    }
  }

  async function drain(): Promise<void> {
    try {
      await drainQueue();
    } catch (error) {
      // Nothing in the loop throws; were it to, the next append would start a new drain.
      running = false;
      throw error;
    }
  }

  /**
  Takes the appends at the head of the queue and starts their synchronized write, all in this call (the fence check is synchronous, and `writev` is handed to the thread pool before its first await), so that `enqueue` can start a batch in the middle of a run of microtasks. Resolves once every waiter was told, or was failed with the write's fatal error (then `failure` is set).
  */
  function writeBatch(): Promise<void> {
    try {
      options.beforeBatch();
    } catch (error) {
      fail(error);
      return Promise.resolve();
    }
    let count = 0;
    while (queue[count]?.kind === 'append') {
      count++;
    }
    const batch = queue.splice(0, count) as Waiter[];
    const fence = options.fence();
    const offsets: number[][] = [];
    let position = size;
    let chain = last;
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
    const written =
      batch.length === 1 && options.loneSync === 'event-loop'
        ? writeHere(handle.fd, buffers)
        : DSYNC === undefined
          ? writeAll(handle, buffers).then(() => handle.datasync())
          : writeAll(handle, buffers);
    return written.then(
      () => {
        size = position;
        last = chain;
        lastBatch = batch.length;
        // The appends that queued while this batch synced go out before its writers wake, so the disk does not sit idle while each of them runs its next commit. Fewer wait a turn in the drain, as ever, to gather more.
        const next = queue.length >= EARLY_BATCH && queue[0]?.kind === 'append' ? writeBatch() : undefined;
        for (const [index, waiter] of batch.entries()) {
          waiter.onDurable(offsets[index] as number[]);
          waiter.resolve();
        }
        return next;
      },
      (error: unknown) => {
        const fatal = fail(error);
        for (const waiter of batch) {
          waiter.reject(fatal);
        }
      },
    );
  }

  async function drainQueue(): Promise<void> {
    for (;;) {
      if (queue.length === 0 || failure !== undefined) {
        // Cleared in the same turn as this last look at the queue, so that an append queued after it starts a new drain. Cleared by the caller instead, a turn later, it left an append queued in that turn unwritten until another came.
        running = false;
        return;
      }
      const head = queue[0] as Waiter | Job;
      if (head.kind === 'job') {
        queue.shift();
        await head.run({
          get size() {
            return size;
          },
          get last() {
            return last;
          },
          replace,
        });
        continue;
      }
      // One turn of the event loop before the batch is taken: the writers the last batch woke (and those just arriving) queue their lines meanwhile, so they share this sync instead of the first of them taking one alone. A lone writer (the last batch held one append, and one waits now) has nobody to wait for. Meanwhile `enqueue` may start the batch itself, once `EARLY_BATCH` appends have queued.
      let started = false;
      if (!(queue.length === 1 && lastBatch === 1) && queue.length < EARLY_BATCH) {
        started = await new Promise<boolean>((resolve) => {
          early = () => resolve(writeBatch().then(() => true));
          setImmediate(() => resolve(false));
        });
        early = undefined;
      }
      // A failed batch set `failure`: the look at the top of the loop ends the drain.
      if (!started) {
        await writeBatch();
      }
    }
  }

  function enqueue(entry: Waiter | Job): void {
    queue.push(entry);
    if (early !== undefined && queue.length >= EARLY_BATCH) {
      early();
      early = undefined;
    }
    if (!running) {
      running = true;
      draining = drain();
    }
  }

  return {
    append(lines, onDurable) {
      if (failure !== undefined) {
        return Promise.reject(failure);
      }
      if (closing) {
        return Promise.reject(new LedgerError('closed'));
      }
      return new Promise<void>((resolve, reject) => {
        enqueue({ kind: 'append', lines, onDurable, resolve, reject });
      });
    },
    exclusive<T>(job: (view: JournalView) => Promise<T>): Promise<T> {
      if (failure !== undefined) {
        return Promise.reject(failure);
      }
      return new Promise<T>((resolve, reject) => {
        enqueue({
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
    },
    async close() {
      closing = true;
      while (running) {
        await draining;
      }
      await handle.close();
    },
  };
}
