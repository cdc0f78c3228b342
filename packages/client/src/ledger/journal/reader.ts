/**
@module
The journal read as a whole (docs/durable-send.md#file-journal): its lines in order, each checked whole (`line.ts`), linked to the line before it (the one chain across all records) under a fence that never goes down. Browser-safe.
*/
import { LedgerError } from '../../core/errors.js';
import type { JournalLine } from './line.js';

/** Where the chain stands after a line: that line's digest and the highest fence so far. */
export type ChainCursor = { last: string | null; fence: number };

/**
Links `line` to the chain: it must name the digest of the line before it (`chain`), and its fence may not be lower than any before it (`fence`): a line from an older fence after a newer one was written by a writer that had already been superseded, so the journal holds two writers' histories, which a person must untangle.
*/
export function followChain(cursor: ChainCursor, line: JournalLine): void {
  if (line.after !== cursor.last) {
    throw new LedgerError('corrupt', { rule: 'chain' });
  }
  if (line.fence < cursor.fence) {
    throw new LedgerError('corrupt', { rule: 'fence' });
  }
  cursor.last = line.digest;
  cursor.fence = line.fence;
}
