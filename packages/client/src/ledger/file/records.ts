/**
@module
The file store's reads (docs/durable-send.md#file-journal): an open record from the heap, a settled one read
back from the journal by its lines' offsets and checked again line by line (`journal/line.ts`, its record's
chain, the state machine), and `list` in the journal's own order.
*/
// Its declarations name Node's types: a consumer's TypeScript loads them without a `types` setting
// (ARCHITECTURE.md#runtimes).
/// <reference types="node" preserve="true" />
import type { FileHandle } from 'node:fs/promises';
import { LedgerError } from '../../core/errors.js';
import { corruptAt, verifyLine } from '../journal/line.js';
import { readLineAt, readLinesAt } from '../journal/reads.js';
import { nodeSha256 } from '../journal/writes.js';
import { deepFreeze } from '../ledger.js';
import type { LedgerRecord, LedgerRevision, LedgerStatus } from '../record.js';
import { applyTransition } from '../state-machine.js';
import { byFirstLine, type FileState, type OpenEntry, type SettledEntry, withReader } from './state.js';

/** A record replayed from its lines: the entry, and each line's body text (what a compaction copies). */
export type ReplayedRecord = OpenEntry & { readonly texts: string[] };

/**
Replays one record's lines (as read back at its offsets): each line checked whole, the record's chain and the
state machine; a line of another record means the offsets are wrong (`offset`).
*/
export function replayRecord(id: string, lines: readonly string[]): ReplayedRecord {
  let record: LedgerRecord | undefined;
  const revisions: LedgerRevision[] = [];
  const texts: string[] = [];
  for (const text of lines) {
    const { revision, text: body } = verifyLine(text, nodeSha256);
    if (revision.id !== id) {
      throw new LedgerError('corrupt', { rule: 'offset' });
    }
    record = deepFreeze(applyTransition(record, revision));
    revisions.push(revision);
    texts.push(body);
  }
  if (record === undefined) {
    throw new LedgerError('corrupt', { rule: 'offset' });
  }
  return { record, revisions, offsets: [], texts };
}

/**
Reads a settled record back through `handle`, its lines checked as `replayRecord` checks them; what fails a
check is `corrupt` with its rule.
*/
export async function loadSettled(
  handle: FileHandle,
  id: string,
  entry: SettledEntry,
): Promise<ReplayedRecord> {
  const lines = await Promise.all(entry.offsets.map((offset) => readLineAt(handle, offset)));
  try {
    return { ...replayRecord(id, lines), offsets: [...entry.offsets] };
  } catch (error) {
    throw corruptAt(error);
  }
}

/**
A record, open or settled, with its history; `undefined` for an id the journal does not hold. Damage found
reading it back is `corrupt`.
*/
export async function readEntry(state: FileState, id: string): Promise<OpenEntry | undefined> {
  const entry = state.open.get(id);
  if (entry !== undefined) {
    return entry;
  }
  const index = state.settled.get(id);
  if (index === undefined) {
    return undefined;
  }
  return withReader(state, (handle) => loadSettled(handle, id, index));
}

/**
Every record whose status is in `states` (all without), in the journal's order of first lines; settled ones
are read back, in one read of the journal when there are many.
*/
export async function listRecords(
  state: FileState,
  states: ReadonlySet<LedgerStatus> | undefined,
): Promise<LedgerRecord[]> {
  const found: { offsets: readonly number[]; record: LedgerRecord }[] = [];
  for (const entry of state.open.values()) {
    if (states === undefined || states.has(entry.record.state.status)) {
      found.push(entry);
    }
  }
  const wanted: [string, SettledEntry][] = [];
  for (const pair of state.settled) {
    if (states === undefined || states.has(pair[1].status)) {
      wanted.push(pair);
    }
  }
  if (wanted.length > 0) {
    const texts = await withReader(state, (handle) =>
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
  }
  return found.sort(byFirstLine).map((entry) => entry.record);
}
