/**
@module
The journal read as a whole (docs/durable-send.md#file-journal): its lines in order, each checked whole
(`line.ts`), linked to the line before it (the one chain across all records) under a fence that never goes
down, and each record's revisions replayed through the state machine. The file store's replay follows the
chain with {@link followChain}; `readJournal` is the same reading of a journal's text or bytes, for a tool
that holds the file but not the store (the devtools' import). Browser-safe.
*/
import { LedgerError } from '../../core/errors.js';
import { deepFreeze, platformSha256, type Sha256 } from '../ledger.js';
import type { LedgerRecord, LedgerRevision } from '../record.js';
import { applyTransition } from '../state-machine.js';
import { corruptAt, type JournalLine, splitLines, verifyLine } from './line.js';

/** Where the chain stands after a line: that line's digest and the highest fence so far. */
export type ChainCursor = { last: string | null; fence: number };

/**
Links `line` to the chain: it must name the digest of the line before it (`chain`), and its fence may not be
lower than any before it (`fence`): a line from an older fence after a newer one was written by a writer that
had already been superseded, so the journal holds two writers' histories, which a person must untangle.
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

/** One record of a journal, with its whole verified history. */
export type JournalEntry = { readonly record: LedgerRecord; readonly revisions: readonly LedgerRevision[] };

/**
A journal as read: every record in the journal's order of first lines (the ledger's own sequence), and how
many complete lines it holds.
*/
export type JournalContents = { readonly records: readonly JournalEntry[]; readonly lines: number };

/** A journal's complete lines: split from bytes, or from text already decoded. */
function linesOf(content: string | Uint8Array): readonly string[] {
  if (typeof content !== 'string') {
    return splitLines(content).lines.map((line) => line.text);
  }
  const end = content.lastIndexOf('\n');
  return end === -1 ? [] : content.slice(0, end).split('\n');
}

/**
Reads a whole journal, given its bytes (or its text): every complete line checked whole, chained, under a
fence that never goes down, and replayed into its record, as the file store reads it when it opens without a
snapshot. What follows the last newline is a write under way (or one a crash tore), never acknowledged, and is
left unread. Nothing is changed to make it fit: any damage is `LedgerError('corrupt')` with its rule
(docs/protocol-checks.md#ledger) and its 1-based line as `position`, and nothing is returned. The digests are
`sha256`'s, by default the platform's (`core/sha256.ts`: synchronous under Node, WebCrypto elsewhere).

@example
```ts
import { readJournal } from '@surecall/client/ledger/journal';
const { records } = await readJournal(new Uint8Array(await file.arrayBuffer()));
for (const { record, revisions } of records) console.log(record.id, record.state.status, revisions.length);
```
*/
export async function readJournal(
  content: string | Uint8Array,
  sha256: Sha256 = platformSha256,
): Promise<JournalContents> {
  const lines = linesOf(content);
  const cursor: ChainCursor = { last: null, fence: 0 };
  const entries = new Map<string, { record: LedgerRecord; revisions: LedgerRevision[] }>();
  for (const [index, text] of lines.entries()) {
    try {
      const line = await verifyLine(text, sha256);
      followChain(cursor, line);
      const { revision } = line;
      const entry = entries.get(revision.id);
      const record = deepFreeze(applyTransition(entry?.record, revision));
      if (entry === undefined) {
        entries.set(revision.id, { record, revisions: [revision] });
      } else {
        entry.record = record;
        entry.revisions.push(revision);
      }
    } catch (error) {
      throw corruptAt(error, index + 1);
    }
  }
  return { records: [...entries.values()], lines: lines.length };
}
