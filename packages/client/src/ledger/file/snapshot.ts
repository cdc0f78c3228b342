/**
@module
The file ledger's snapshot `<path>.snapshot` (docs/durable-send.md#file-journal): a checkpoint of the heap's
index, written atomically every few thousand lines and on close, so an open reads it and replays only the
lines after it. It is checked by its own SHA-256, then member by member, then against the journal: the
checkpointed part must still end with the very line it names.
*/
// Its declarations name Node's types: a consumer's TypeScript loads them without a `types` setting
// (ARCHITECTURE.md#runtimes).
/// <reference types="node" preserve="true" />
import type { FileHandle } from 'node:fs/promises';
import { LedgerError } from '../../core/errors.js';
import { corruptAt, parseEnvelope } from '../journal/line.js';
import type { ChainCursor } from '../journal/reader.js';
import { readLineAt, readLinesAt, readOptional } from '../journal/reads.js';
import { nodeSha256 } from '../journal/writes.js';
import type { LedgerStatus } from '../record.js';
import { replayRecord } from './records.js';
import type { FileState, SettledEntry } from './state.js';

const SNAPSHOT_FORMAT = 'surecall.ledger.snapshot.v1';

/**
A snapshot as read: the checkpoint, and one index entry per record, in columns (JSON parses flat arrays of
numbers much faster than ten thousand small objects).
*/
export type Snapshot = {
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

/**
Whether a parsed snapshot has every member in its form, its columns of one length and its offsets within the
checkpoint.
*/
function isSnapshot(value: Record<string, unknown>): boolean {
  const { format, bytes, lines, lastOffset, last, fence, ids, statuses, created, updated, counts, offsets } =
    value;
  const size = Array.isArray(ids) ? ids.length : -1;
  return (
    format === SNAPSHOT_FORMAT &&
    whole(bytes) &&
    whole(lines) &&
    whole(lastOffset) &&
    (last === null || typeof last === 'string') &&
    whole(fence) &&
    Array.isArray(ids) &&
    (ids as unknown[]).every((id) => typeof id === 'string') &&
    typeof statuses === 'string' &&
    statuses.length === size &&
    [...statuses].every((letter) => Object.hasOwn(LETTERS, letter)) &&
    wholes(created, size) &&
    wholes(updated, size) &&
    wholes(counts, size) &&
    wholes(offsets, undefined, bytes) &&
    (counts as number[]).reduce((sum, count) => sum + count, 0) === (offsets as number[]).length &&
    !(counts as number[]).some((count) => count === 0)
  );
}

/**
Reads and checks `<path>.snapshot`: its own SHA-256 (a truncated or damaged snapshot fails it), then every
member's shape. `undefined` when there is none.
*/
export async function readSnapshot(path: string): Promise<Snapshot | undefined> {
  const content = await readOptional(path);
  if (content === undefined) {
    return undefined;
  }
  const end = content.lastIndexOf('\n', content.length - 2);
  if (!content.endsWith('\n') || end === -1) {
    throw new LedgerError('corrupt', { rule: 'snapshot-truncated' });
  }
  const text = content.slice(0, end);
  if (nodeSha256(text) !== content.slice(end + 1, -1)) {
    throw new LedgerError('corrupt', { rule: 'snapshot-digest' });
  }
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new LedgerError('corrupt', { rule: 'snapshot', cause: error });
  }
  if (!isSnapshot(value)) {
    throw new LedgerError('corrupt', { rule: 'snapshot' });
  }
  return value as unknown as Snapshot;
}

/**
The snapshot of `state` at a checkpoint: the journal's size and last digest there, the fence, and every
record's index entry; then its own SHA-256 on a line of its own.
*/
export function snapshotText(
  state: FileState,
  checkpoint: { size: number; last: string | null; fence: number },
): string {
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
  for (const [id, { record, offsets: lines }] of state.open) {
    add(id, record.state.status, record.createdAt, record.updatedAt, lines);
  }
  for (const [id, entry] of state.settled) {
    add(id, entry.status, entry.createdAt, entry.updatedAt, entry.offsets);
  }
  const text = JSON.stringify({
    format: SNAPSHOT_FORMAT,
    bytes: checkpoint.size,
    lines: state.lines,
    lastOffset: state.lastOffset,
    last: checkpoint.last,
    fence: checkpoint.fence,
    ids,
    statuses,
    created,
    updated,
    counts,
    offsets,
  });
  return `${text}\n${nodeSha256(text)}\n`;
}

/**
That the journal's checkpointed part still ends with the very line the snapshot names: any line deleted, added
or resized before it moves that line (`checkpoint`).
*/
async function checkCheckpoint(handle: FileHandle | undefined, snapshot: Snapshot): Promise<void> {
  if (snapshot.bytes === 0) {
    if (snapshot.last !== null) {
      throw new LedgerError('corrupt', { rule: 'checkpoint' });
    }
    return;
  }
  const text = handle === undefined ? '' : await readLineAt(handle, snapshot.lastOffset).catch(() => '');
  let digest: string | undefined;
  try {
    digest = parseEnvelope(text).digest;
  } catch {
    digest = undefined;
  }
  if (digest !== snapshot.last || snapshot.lastOffset + Buffer.byteLength(text) + 1 !== snapshot.bytes) {
    throw new LedgerError('corrupt', { rule: 'checkpoint' });
  }
}

/** The snapshot's index entries: the settled ones as they are, the open ones to be loaded whole. */
function indexEntries(snapshot: Snapshot): {
  settled: [string, SettledEntry][];
  opening: [string, SettledEntry][];
} {
  const settled: [string, SettledEntry][] = [];
  const opening: [string, SettledEntry][] = [];
  let at = 0;
  for (let index = 0; index < snapshot.ids.length; index++) {
    const status = LETTERS[snapshot.statuses[index] as string] as LedgerStatus;
    const count = snapshot.counts[index] as number;
    const entry: SettledEntry = {
      status,
      createdAt: snapshot.created[index] as number,
      updatedAt: snapshot.updated[index] as number,
      offsets: snapshot.offsets.slice(at, at + count),
    };
    at += count;
    const open = status === 'prepared' || status === 'executing' || status === 'unknown';
    (open ? opening : settled).push([snapshot.ids[index] as string, entry]);
  }
  return { settled, opening };
}

/**
Restores `state` from a snapshot of the journal open at `handle`: checks its checkpoint, files its settled
records as index entries, and loads its open records whole, each checked line by line (in one read when there
are many). Returns where the chain stands at the checkpoint.
*/
export async function restoreSnapshot(
  state: FileState,
  snapshot: Snapshot,
  handle: FileHandle | undefined,
): Promise<ChainCursor> {
  await checkCheckpoint(handle, snapshot);
  state.lines = snapshot.lines;
  state.lastOffset = snapshot.lastOffset;
  const { settled, opening } = indexEntries(snapshot);
  for (const [id, entry] of settled) {
    state.settled.set(id, entry);
  }
  const texts =
    opening.length === 0 || handle === undefined
      ? []
      : await readLinesAt(
          handle,
          opening.map(([, entry]) => entry.offsets),
        );
  for (const [index, [id, entry]] of opening.entries()) {
    try {
      const loaded = replayRecord(id, texts[index] ?? []);
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
  return { last: snapshot.last, fence: snapshot.fence };
}
