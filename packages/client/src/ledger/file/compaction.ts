/**
@module
The file ledger's maintenance, between two group-commit batches (docs/durable-send.md#file-journal): a
checkpoint writes the snapshot every few thousand lines; a compaction prunes the settled records past the
retention window and rewrites every other record's lines together in the journal's order, each line checked as
it is copied, then checkpoints the result.
*/
import { LedgerError } from '../../core/errors.js';
import type { JournalView } from '../journal/appender.js';
import { corruptAt } from '../journal/line.js';
import { readLinesAt } from '../journal/reads.js';
import { writeAtomically } from '../journal/writes.js';
import type { Ledger } from '../ledger.js';
import { type ReplayedRecord, replayRecord } from './records.js';
import { snapshotText } from './snapshot.js';
import { byFirstLine, openHandle, retire, type WriterState, withReader } from './state.js';

/** Lines between two checkpoints, at least: bounds what an open replays after the snapshot. */
const CHECKPOINT_LINES = 4096;

/**
Settled records past the window that make a checkpoint compact instead, at least, and then only when they are
a quarter of the records.
*/
const COMPACT_RECORDS = 256;

/** What a compaction wrote. */
export type Compaction = { readonly records: number; readonly revisions: number };

/**
A checkpoint writes the whole index, so it waits for 4096 lines or a quarter of the records, whichever is
more: each appended line pays for at most four index entries.
*/
export function checkpointDue(writer: WriterState): boolean {
  return writer.sinceCheckpoint >= Math.max(CHECKPOINT_LINES, (writer.open.size + writer.settled.size) / 4);
}

async function checkpoint(writer: WriterState, view: JournalView): Promise<void> {
  const text = snapshotText(writer, { size: view.size, last: view.last, fence: writer.lock.fence });
  await writeAtomically(`${writer.path}.snapshot`, text);
  writer.sinceCheckpoint = 0;
}

/** The settled records past `cutoff` that no append in flight is about to move. */
function prunable(writer: WriterState, cutoff: number): string[] {
  const ids: string[] = [];
  for (const [id, entry] of writer.settled) {
    if (entry.updatedAt < cutoff && !writer.pending.has(id)) {
      ids.push(id);
    }
  }
  return ids;
}

/**
Every record kept, in the journal's order, read back and checked line by line: what a compaction copies.
*/
async function keptRecords(writer: WriterState): Promise<{ id: string; replayed: ReplayedRecord }[]> {
  const kept = [
    ...[...writer.open].map(([id, entry]) => ({ id, offsets: entry.offsets })),
    ...[...writer.settled].map(([id, entry]) => ({ id, offsets: entry.offsets })),
  ].sort(byFirstLine);
  const groups = kept.map(({ offsets }) => offsets);
  const texts = await withReader(writer, (handle) => readLinesAt(handle, groups));
  return kept.map(({ id }, index) => {
    try {
      return { id, replayed: replayRecord(id, texts[index] as string[]) };
    } catch (error) {
      throw corruptAt(error);
    }
  });
}

/**
Rewrites the journal with every record but the settled ones past the window, each record's lines together in
creation order, checked as they are copied; then checkpoints it.
*/
async function compact(writer: WriterState, view: JournalView, cutoff: number): Promise<Compaction> {
  for (const id of prunable(writer, cutoff)) {
    writer.settled.delete(id);
  }
  const records = await keptRecords(writer);
  const lines: { digest: string; text: string }[] = [];
  for (const { replayed } of records) {
    for (const [position, revision] of replayed.revisions.entries()) {
      lines.push({ digest: revision.digest, text: replayed.texts[position] as string });
    }
  }
  const offsets = await view.replace(lines);
  // The new file and its offsets take over together; reads in flight finish on the old file.
  const previous = writer.reader;
  writer.reader = await openHandle(writer.path);
  if (previous !== undefined) {
    await retire(previous);
  }
  let at = 0;
  for (const { id, replayed } of records) {
    const count = replayed.revisions.length;
    const entry = writer.open.get(id) ?? writer.settled.get(id);
    if (entry !== undefined) {
      entry.offsets = offsets.slice(at, at + count);
    }
    at += count;
  }
  writer.lines = lines.length;
  writer.lastOffset = offsets.at(-1) ?? 0;
  await checkpoint(writer, view);
  return { records: records.length, revisions: lines.length };
}

/**
A checkpoint, or a compaction when `force` says so or enough settled records are past the window to be worth a
rewrite.
*/
export function maintain(writer: WriterState, force: boolean): Promise<Compaction> {
  return writer.appender.exclusive(async (view) => {
    const cutoff = Date.now() - writer.retentionMs;
    const expired = prunable(writer, cutoff).length;
    if (force || (expired >= COMPACT_RECORDS && expired * 4 >= writer.open.size + writer.settled.size)) {
      return compact(writer, view, cutoff);
    }
    if (writer.sinceCheckpoint > 0) {
      await checkpoint(writer, view);
    }
    return { records: writer.open.size + writer.settled.size, revisions: writer.lines };
  });
}

/**
Starts a checkpoint (or compaction) in the background once one is due and none runs; its failure is the next
one's to find.
*/
export function scheduleMaintenance(writer: WriterState): void {
  if (writer.maintenance === undefined && checkpointDue(writer)) {
    writer.maintenance = maintain(writer, false)
      .catch(() => undefined)
      .finally(() => {
        writer.maintenance = undefined;
      });
  }
}

const compactors = new WeakMap<Ledger, () => Promise<Compaction>>();

/** Makes `compactLedger(ledger)` run `compact`. */
export function registerCompactor(ledger: Ledger, compact: () => Promise<Compaction>): void {
  compactors.set(ledger, compact);
}

/**
Compacts a file ledger's journal now: prunes the settled records past the retention window, writes every other
record's revisions together in creation order under the current fence (chained anew) to `<path>.compact.tmp`,
syncs it, renames it over the journal, syncs the directory, and checkpoints the result in `<path>.snapshot`.
Each line copied is checked (its digest and its record's chain) on the way. It runs between two group-commit
batches, so appends wait for it and none is lost. The store also compacts by itself at a checkpoint when at
least a quarter of the records (and at least 256) are past the window.

@throws {LedgerError} `invalid-input` for a ledger that is not a file ledger; `locked` (rule `follower`) for
  one opened `readOnly`; `io` or `fenced` when the rewrite fails (before the rename the old journal stays in
  use); `corrupt` when a line it copies fails its checks.

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
