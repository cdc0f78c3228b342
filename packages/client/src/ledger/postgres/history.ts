/**
@module
A record's history as the store hands it out (docs/durable-send.md#what-the-store-checks): its revisions and
its record's row, read in one statement, are checked against each other first. The revisions are numbered from
0 without a gap and each follows its predecessor through the state machine; the record's row is there exactly
when revisions are, at the last revision's number and digest, and holds the record that replaying them gives.
The file journal's chain and checkpoints catch the same damage in its file
(docs/durable-send.md#file-journal).
*/
import { isDeepStrictEqual } from 'node:util';
import { LedgerError } from '../../core/errors.js';
import type { LedgerRecord, LedgerRevision } from '../record.js';
import { applyTransition } from '../state-machine.js';
import { decodeRevision, decodeRow, type RecordRow } from './row.js';

/**
One row the history statement reads (statements.ts): the record's row (part 0), or one revision (part 1) whose
record columns are null.
*/
export type HistoryRow = RecordRow & { readonly part: number };

function corrupt(rule: string, position?: number): never {
  throw new LedgerError('corrupt', position === undefined ? { rule } : { rule, position });
}

/**
The record `revisions` give, replayed through the state machine: a transition it refuses is corrupt at its
revision too.
*/
function replay(revisions: readonly LedgerRevision[]): LedgerRecord | undefined {
  let record: LedgerRecord | undefined;
  for (const revision of revisions) {
    try {
      record = applyTransition(record, revision);
    } catch (error) {
      if (error instanceof LedgerError && error.reason !== 'corrupt') {
        // An illegal transition in a stored history stands as the rule of its corruption, as in a journal's
        // replay.
        throw new LedgerError('corrupt', {
          rule: error.rule ?? error.reason,
          position: revision.revision,
          cause: error,
        });
      }
      throw error;
    }
  }
  return record;
}

/**
The body of a record's row as JSON data, to be compared member by member whatever order its members were
written in.
*/
function bodyOf(row: RecordRow): unknown {
  return JSON.parse(row.body);
}

/**
The revisions of one record's history rows, oldest first, once they agree with each other and with the
record's row: `corrupt` with `sequence` at a revision missing or out of place, `record-missing` when revisions
remain of a record whose row is gone, `head` when the row is not at the last revision (that revision or a
later one deleted, the row moved by hand) or holds another record than the revisions give (its body edited), a
row's `column-…` rule when a column disagrees with its body, and the state machine's rule where a revision
does not follow its predecessor.
*/
export function checkedHistory(rows: readonly HistoryRow[]): LedgerRevision[] {
  const head = rows.find((row) => row.part === 0);
  const revisions = rows.filter((row) => row.part === 1).map((row, index) => decodeRevision(row.body, index));
  for (const [index, revision] of revisions.entries()) {
    if (revision.revision !== index) {
      corrupt('sequence', index);
    }
  }
  if (head === undefined) {
    if (revisions.length > 0) {
      corrupt('record-missing');
    }
    return revisions;
  }
  const record = decodeRow(head);
  const last = revisions.at(-1);
  if (last === undefined || last.revision !== record.revision || last.digest !== record.digest) {
    corrupt('head', record.revision);
  }
  const replayed = replay(revisions);
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(replayed)), bodyOf(head))) {
    corrupt('head', record.revision);
  }
  return revisions;
}
