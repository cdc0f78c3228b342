/**
@module
How an open file ledger, writer or read-only, loads its journal into the heap
(docs/durable-send.md#file-journal): the snapshot's checkpoint restored, then the lines after it replayed,
each checked whole (`journal/line.ts`), chained to the line before it (`journal/reader.ts`), and applied to
its record through the state machine. All of it through one read handle, so a reader that another process
writes beside sees one file generation.
*/
import { LedgerError } from '../../core/errors.js';
import { corruptAt, type Envelope, parseEnvelope, verifyLine } from '../journal/line.js';
import { type ChainCursor, followChain } from '../journal/reader.js';
import { type JournalRead, noJournal, openIfExists, readJournalFrom } from '../journal/reads.js';
import { nodeSha256 } from '../journal/writes.js';
import { deepFreeze } from '../ledger.js';
import { applyTransition } from '../state-machine.js';
import { loadSettled } from './records.js';
import { restoreSnapshot, type Snapshot } from './snapshot.js';
import { emptyState, type FileState, place, retire, withReader } from './state.js';

/** One revision a replay applied: which record, and its revision number. */
export type Replayed = { readonly id: string; readonly revision: number };

/**
Replays journal lines onto `state`, the first of them line `firstLine`: each one checked whole, linked to the
chain at `cursor` (which it moves on), and applied to its record (a settled record is read back first). Damage
is `corrupt` with the line's number. Returns what was applied, in order.
*/
export async function replayLines(
  state: FileState,
  lines: readonly { readonly text: string; readonly offset: number }[],
  cursor: ChainCursor,
  firstLine: number,
): Promise<Replayed[]> {
  const replayed: Replayed[] = [];
  for (const [index, { text, offset }] of lines.entries()) {
    const position = firstLine + index;
    try {
      const line = verifyLine(text, nodeSha256);
      followChain(cursor, line);
      const { revision } = line;
      const settled = state.settled.get(revision.id);
      const entry =
        state.open.get(revision.id) ??
        (settled === undefined
          ? undefined
          : await withReader(state, (handle) => loadSettled(handle, revision.id, settled)));
      const record = deepFreeze(applyTransition(entry?.record, revision));
      place(state, record, [...(entry?.revisions ?? []), revision], [...(entry?.offsets ?? []), offset]);
      state.lines = position;
      state.lastOffset = offset;
      replayed.push({ id: revision.id, revision: revision.revision });
    } catch (error) {
      throw corruptAt(error, position);
    }
  }
  return replayed;
}

/**
Judges the bytes after the journal's last newline, for the writer that will append after them. A torn write
leaves a strict prefix of a line, which never holds a whole line: those bytes were never acknowledged, and the
writer truncates them. Bytes that hold a whole line, with its newline missing or damaged, may have been
acknowledged, so they are `corrupt` (`unterminated-line`) and left as they are.
*/
export function judgeTail(tail: Uint8Array, position: number): void {
  if (tail.byteLength === 0) {
    return;
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(tail);
  for (const candidate of [text, text.slice(0, -1)]) {
    let envelope: Envelope;
    try {
      envelope = parseEnvelope(candidate);
    } catch {
      continue;
    }
    // A whole line: its envelope, and a body its digest covers.
    if (nodeSha256(envelope.text) === envelope.digest) {
      throw new LedgerError('corrupt', { rule: 'unterminated-line', position });
    }
  }
}

/**
A journal loaded into a fresh heap: the heap (with its read handle, unless there is no file), where the chain
stands, and what was read after the checkpoint.
*/
export type LoadedJournal = {
  readonly state: FileState;
  readonly cursor: ChainCursor;
  readonly read: JournalRead;
};

/**
Loads the journal at `path` into a fresh heap: from `snapshot`'s checkpoint when one is given (the journal
must still hold the checkpointed part it names: `checkpoint`), else from its first line. Every line after the
checkpoint is replayed; the tail after the last newline is returned unjudged in `read.tail`.
*/
export async function loadJournal(path: string, snapshot: Snapshot | undefined): Promise<LoadedJournal> {
  const state = emptyState(path);
  const handle = await openIfExists(path);
  state.reader = handle === undefined ? undefined : { handle, users: 0, retired: false };
  try {
    const firstLine = (snapshot?.lines ?? 0) + 1;
    const read =
      handle === undefined ? noJournal : await readJournalFrom(handle, snapshot?.bytes ?? 0, firstLine);
    let cursor: ChainCursor = { last: null, fence: 0 };
    if (snapshot !== undefined) {
      if (read.size < snapshot.bytes || (!read.exists && snapshot.bytes > 0)) {
        throw new LedgerError('corrupt', { rule: 'checkpoint' });
      }
      cursor = await restoreSnapshot(state, snapshot, handle);
    }
    await replayLines(state, read.lines, cursor, firstLine);
    return { state, cursor, read };
  } catch (error) {
    if (state.reader !== undefined) {
      await retire(state.reader);
    }
    throw error;
  }
}
