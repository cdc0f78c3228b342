/**
@module
The file store that writes (docs/durable-send.md#file-journal): the engine's store contract (`store.ts`) over
the heap, with each record's commits appended as one group-committed write, checked first against the head in
the heap or claimed by an append in flight, and filed once durable.
*/
import { LedgerError } from '../../core/errors.js';
import type { LedgerStore, StoreCommit } from '../store.js';
import { maintain, scheduleMaintenance } from './compaction.js';
import { listRecords, readEntry } from './records.js';
import { type OpenEntry, place, retire, type WriterState } from './state.js';

/**
The head a settled record's next commit must follow: read back from the journal, unless an append claimed the
record while it was read.
*/
async function settledHead(writer: WriterState, id: string): Promise<string | undefined> {
  const loaded = await readEntry(writer, id);
  return writer.pending.get(id) ?? writer.open.get(id)?.record.digest ?? loaded?.record.digest;
}

/**
Claims the record's head for `commits`, as one compare-and-set against `head` (an append in flight's, the
heap's, or a settled record's read back): for revision 0 the id must be new, else `head` must be the first
commit's predecessor. Then the last commit's digest becomes the head later appends are checked against, in the
same turn as the check.
*/
function claimHead(writer: WriterState, commits: readonly StoreCommit[], head: string | undefined): void {
  const first = commits[0] as StoreCommit;
  const last = commits.at(-1) as StoreCommit;
  const exists = head !== undefined || writer.settled.has(first.record.id);
  if (first.revision.revision === 0 ? exists : head !== first.revision.previousDigest) {
    throw new LedgerError('stale-revision', first.revision.revision === 0 ? { rule: 'exists' } : {});
  }
  writer.pending.set(first.record.id, last.revision.digest);
}

/**
Files durable commits of one record: its history grows in place while open (`history` hands out copies), from
the one read back while settled.
*/
function fileDurable(
  writer: WriterState,
  commits: readonly StoreCommit[],
  before: OpenEntry | undefined,
  offsets: readonly number[],
): void {
  const last = commits.at(-1) as StoreCommit;
  const { id } = last.record;
  if (writer.pending.get(id) === last.revision.digest) {
    writer.pending.delete(id);
  }
  const current = writer.open.get(id) ?? before ?? { record: last.record, revisions: [], offsets: [] };
  for (const [index, commit] of commits.entries()) {
    current.revisions.push(commit.revision);
    current.offsets.push(offsets[index] as number);
  }
  place(writer, last.record, current.revisions, current.offsets);
  writer.lines += commits.length;
  writer.lastOffset = offsets.at(-1) as number;
  writer.sinceCheckpoint += commits.length;
  scheduleMaintenance(writer);
}

/**
Appends the commits of one record (revision n, and n + 1 for a create with its start) as one group-committed
write.
*/
async function appendAll(writer: WriterState, commits: readonly StoreCommit[]): Promise<void> {
  const first = commits[0] as StoreCommit;
  const last = commits.at(-1) as StoreCommit;
  const { id } = first.record;
  // Synchronous for open records, so the compare-and-set and the claim happen in one turn.
  let head = writer.pending.get(id) ?? writer.open.get(id)?.record.digest;
  if (head === undefined && writer.settled.has(id) && first.revision.revision > 0) {
    head = await settledHead(writer, id);
  }
  claimHead(writer, commits, head);
  // What the record's history was before these commits, for the entry they leave.
  const before = writer.open.get(id) ?? (writer.settled.has(id) ? await readEntry(writer, id) : undefined);
  const lines = commits.map((commit) => ({ digest: commit.revision.digest, text: commit.text }));
  try {
    await writer.appender.append(lines, (offsets) => fileDurable(writer, commits, before, offsets));
  } catch (error) {
    if (writer.pending.get(id) === last.revision.digest) {
      writer.pending.delete(id);
    }
    throw error;
  }
}

/**
Waits for maintenance, checkpoints (so the next open replays nothing), closes the journal, and gives up the
lock.
*/
async function closeWriter(writer: WriterState): Promise<void> {
  if (writer.released) {
    return;
  }
  writer.released = true;
  try {
    await writer.maintenance;
    await maintain(writer, false).catch(() => undefined);
    await writer.appender.close();
  } finally {
    if (writer.reader !== undefined) {
      await retire(writer.reader);
    }
    await writer.lock.release();
  }
}

/** The writing file store over `writer`. */
export function writerStore(writer: WriterState): LedgerStore {
  return {
    writable: true,
    get: async (id) => (await readEntry(writer, id))?.record,
    // An open record is in the heap: a transition of it needs no read (the append's compare-and-set still
    // decides).
    head(id, revision) {
      const record = writer.open.get(id)?.record;
      return record?.revision === revision ? record : undefined;
    },
    list: (states) => listRecords(writer, states),
    history: async (id) => [...((await readEntry(writer, id))?.revisions ?? [])],
    append: (record, revision, text) => appendAll(writer, [{ record, revision, text }]),
    appendAll: (commits) => appendAll(writer, commits),
    close: () => closeWriter(writer),
  };
}
