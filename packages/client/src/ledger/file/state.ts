/**
@module
What an open file ledger holds in its heap (docs/durable-send.md#file-journal), shared by the writer and the
read-only open: the open records whole, each settled record as an index entry (status, times, where its lines
are), where the replay stands, and the read handle of the journal's current generation. The writer's own state
adds the appender, the lock and the appends in flight.
*/
// Its declarations name Node's types: a consumer's TypeScript loads them without a `types` setting
// (ARCHITECTURE.md#runtimes).
/// <reference types="node" preserve="true" />
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { LedgerError } from '../../core/errors.js';
import type { Appender } from '../journal/appender.js';
import { isSettled } from '../ledger.js';
import type { FileLock } from '../lock.js';
import type { LedgerRecord, LedgerRevision, LedgerStatus } from '../record.js';

/** An open record: kept whole in the heap, with the offsets of its lines. */
export type OpenEntry = { record: LedgerRecord; revisions: LedgerRevision[]; offsets: number[] };

/**
A settled record: what `list` and retention filter on, where its lines are (their order is the journal's), and
its creation time, which the snapshot's format carries.
*/
export type SettledEntry = { status: LedgerStatus; createdAt: number; updatedAt: number; offsets: number[] };

/**
The read side of the journal: one handle per file generation, closed once a compaction replaced it and no read
still uses it.
*/
export type JournalHandle = { readonly handle: FileHandle; users: number; retired: boolean };

/** The heap of an open file ledger, writer or reader. */
export type FileState = {
  readonly path: string;
  readonly open: Map<string, OpenEntry>;
  readonly settled: Map<string, SettledEntry>;
  /** The number of the last line replayed or written. */
  lines: number;
  /** The offset of that line. */
  lastOffset: number;
  /** Lines written since the last checkpoint. */
  sinceCheckpoint: number;
  /** The handle reads go through; `undefined` only while a new journal has no file yet. */
  reader: JournalHandle | undefined;
};

/** The writer's state: the heap, and what writes it. */
export type WriterState = FileState & {
  readonly retentionMs: number;
  readonly appender: Appender;
  readonly lock: FileLock;
  /**
  The heads appends have claimed and that are not durable yet: the compare-and-set runs against them first, so
  two writers of one revision cannot both be queued.
  */
  readonly pending: Map<string, string>;
  /** A checkpoint or compaction under way. */
  maintenance: Promise<unknown> | undefined;
  released: boolean;
};

/** An empty heap for the journal at `path`. */
export function emptyState(path: string): FileState {
  return {
    path,
    open: new Map(),
    settled: new Map(),
    lines: 0,
    lastOffset: 0,
    sinceCheckpoint: 0,
    reader: undefined,
  };
}

/** Files a record as its state says: whole while open, as an index entry once settled. */
export function place(
  state: FileState,
  record: LedgerRecord,
  revisions: LedgerRevision[],
  offsets: number[],
): void {
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
}

/** The journal's own order of records: where each record's first line is (compaction keeps that order). */
export function byFirstLine(
  left: { offsets: readonly number[] },
  right: { offsets: readonly number[] },
): number {
  return (left.offsets[0] ?? 0) - (right.offsets[0] ?? 0);
}

/** Opens a read handle on the journal's current generation. */
export async function openHandle(path: string): Promise<JournalHandle> {
  return { handle: await open(path, 'r'), users: 0, retired: false };
}

/** Closes `reader` once no read uses it any more; reads in flight finish on it. */
export async function retire(reader: JournalHandle): Promise<void> {
  reader.retired = true;
  if (reader.users === 0) {
    await reader.handle.close().catch(() => undefined);
  }
}

/**
Runs `work` on the current read handle, kept open until it is done even if a compaction retires it meanwhile.
*/
export async function withReader<T>(state: FileState, work: (handle: FileHandle) => Promise<T>): Promise<T> {
  const current = state.reader;
  if (current === undefined) {
    // An index entry that names lines of a journal that has no file.
    throw new LedgerError('corrupt', { rule: 'offset' });
  }
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
