/**
@module
The file ledger's journal: an append-only file of JSON lines, read whole on open, appended with group commit, and compacted by atomic rename. This module knows bytes and lines only; what a line means is `file.ts`'s business.
*/
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LedgerError } from '../core/errors.js';

/** A journal as read on open. */
export type JournalRead = {
  /** Whether the file existed. */
  readonly exists: boolean;
  /** Every complete line, without its newline. */
  readonly lines: readonly string[];
  /** Bytes up to and including the last newline. */
  readonly validBytes: number;
  /** Bytes after the last newline: the torn tail of a write a crash interrupted. */
  readonly tornBytes: number;
};

const NEWLINE = 0x0a;

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/**
Reads the whole journal. A line counts only with its newline: an append is acknowledged after its whole line, newline included, is synced, so bytes after the last newline were never acknowledged and are reported as the torn tail (the caller truncates them). A complete line that is not UTF-8 is `corrupt`, with its 1-based line number.
*/
export async function readJournal(path: string): Promise<JournalRead> {
  let bytes: Uint8Array;
  try {
    const handle = await open(path, 'r');
    try {
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (code(error) === 'ENOENT') {
      return { exists: false, lines: [], validBytes: 0, tornBytes: 0 };
    }
    throw new LedgerError('io', { rule: 'read', cause: error });
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const lines: string[] = [];
  let start = 0;
  for (let index = bytes.indexOf(NEWLINE); index !== -1; index = bytes.indexOf(NEWLINE, start)) {
    try {
      lines.push(decoder.decode(bytes.subarray(start, index)));
    } catch (error) {
      throw new LedgerError('corrupt', { rule: 'utf-8', position: lines.length + 1, cause: error });
    }
    start = index + 1;
  }
  return { exists: true, lines, validBytes: start, tornBytes: bytes.length - start };
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

/** The group-commit appender. */
export type Appender = {
  /** Queues `line` (newline included); resolves once a datasync covers it, after calling `onDurable` synchronously in append order. */
  append(line: string, onDurable: () => void): Promise<void>;
  /** Replaces the whole journal with `snapshot()`'s lines, between two batches (compaction). */
  rewrite(snapshot: () => readonly string[]): Promise<void>;
  /** Waits for queued appends, then closes the file. */
  close(): Promise<void>;
};

type Waiter = {
  readonly kind: 'append';
  readonly bytes: Uint8Array;
  readonly onDurable: () => void;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
};
type Rewrite = {
  readonly kind: 'rewrite';
  readonly snapshot: () => readonly string[];
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
};

async function writeAll(handle: FileHandle, buffers: Uint8Array[]): Promise<void> {
  const total = buffers.reduce((sum, buffer) => sum + buffer.byteLength, 0);
  const { bytesWritten } = await handle.writev(buffers);
  if (bytesWritten < total) {
    // A short write (a full disk, a signal): finish the rest, or fail if nothing more goes in.
    const rest = Buffer.concat(buffers).subarray(bytesWritten);
    let offset = 0;
    while (offset < rest.byteLength) {
      const { bytesWritten: more } = await handle.write(rest, offset);
      if (more === 0) {
        throw new LedgerError('io', { rule: 'short-write' });
      }
      offset += more;
    }
  }
}

/**
Opens the journal for appending, first truncating a torn tail (`truncateTo`) and syncing the directory of a new file. Appends queue while a batch is syncing; the next batch takes them all: one `writev` and one `fdatasync` for the whole batch, after `beforeBatch` (the lock's fence check). Concurrent writers therefore share syncs without any timer. A failed write or sync is fatal: what reached the disk is unknown, so every queued and later append fails with that error.
*/
export async function openAppender(
  path: string,
  options: {
    readonly truncateTo?: number;
    readonly created: boolean;
    readonly beforeBatch: () => Promise<void>;
  },
): Promise<Appender> {
  if (options.truncateTo !== undefined) {
    const handle = await open(path, 'r+');
    try {
      await handle.truncate(options.truncateTo);
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }
  let handle = await open(path, 'a');
  if (options.created) {
    await syncDirectory(path);
  }
  const encoder = new TextEncoder();
  const queue: (Waiter | Rewrite)[] = [];
  let failure: LedgerError | undefined;
  let draining: Promise<void> = Promise.resolve();
  let running = false;
  let closing = false;

  function fail(error: unknown): LedgerError {
    failure = error instanceof LedgerError ? error : new LedgerError('io', { rule: 'write', cause: error });
    for (const entry of queue.splice(0)) {
      entry.reject(failure);
    }
    return failure;
  }

  async function rewrite(job: Rewrite): Promise<void> {
    const temporary = `${path}.compact.tmp`;
    try {
      const target = await open(temporary, 'w');
      try {
        await writeAll(
          target,
          job.snapshot().map((line) => encoder.encode(line)),
        );
        await target.sync();
      } finally {
        await target.close();
      }
      await options.beforeBatch();
    } catch (error) {
      // Nothing replaced the journal yet: it stays whole and appends go on.
      await unlink(temporary).catch(() => undefined);
      job.reject(
        error instanceof LedgerError ? error : new LedgerError('io', { rule: 'compact', cause: error }),
      );
      return;
    }
    try {
      await rename(temporary, path);
      await syncDirectory(path);
      const next = await open(path, 'a');
      await handle.close();
      handle = next;
      job.resolve();
    } catch (error) {
      // The rename may or may not have happened: the journal's state is unknown, so nothing more is written.
      job.reject(fail(error));
    }
  }

  async function drain(): Promise<void> {
    try {
      await drainQueue();
    } finally {
      // Cleared in the same turn as the last look at the queue, so an append queued after it starts a new drain.
      running = false;
    }
  }

  async function drainQueue(): Promise<void> {
    while (queue.length > 0 && failure === undefined) {
      const head = queue[0] as Waiter | Rewrite;
      if (head.kind === 'rewrite') {
        queue.shift();
        await rewrite(head);
        continue;
      }
      const batch: Waiter[] = [];
      while (queue[0]?.kind === 'append') {
        batch.push(queue.shift() as Waiter);
      }
      try {
        await options.beforeBatch();
        await writeAll(
          handle,
          batch.map((waiter) => waiter.bytes),
        );
        await handle.datasync();
      } catch (error) {
        const fatal = fail(error);
        for (const waiter of batch) {
          waiter.reject(fatal);
        }
        return;
      }
      for (const waiter of batch) {
        waiter.onDurable();
        waiter.resolve();
      }
    }
  }

  function enqueue(entry: Waiter | Rewrite): void {
    queue.push(entry);
    if (!running) {
      running = true;
      draining = drain();
    }
  }

  return {
    append(line, onDurable) {
      if (failure !== undefined) {
        return Promise.reject(failure);
      }
      if (closing) {
        return Promise.reject(new LedgerError('closed'));
      }
      return new Promise<void>((resolve, reject) => {
        enqueue({ kind: 'append', bytes: encoder.encode(line), onDurable, resolve, reject });
      });
    },
    rewrite(snapshot) {
      if (failure !== undefined) {
        return Promise.reject(failure);
      }
      return new Promise<void>((resolve, reject) => {
        enqueue({ kind: 'rewrite', snapshot, resolve, reject });
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
