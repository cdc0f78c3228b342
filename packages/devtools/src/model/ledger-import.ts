/**
@module
Reads a Node file ledger for inspection, with the client's own journal reader (`readJournal`,
`@surecall/client/ledger/journal`, docs/durable-send.md#reading-a-file-ledger): every line checked as the file
store checks it on open (its envelope, its body's digest, the one chain across lines, the fence, each record's
history through the state machine), so a corrupt, reordered or tampered line is refused with its line number
and rule, and nothing is half-loaded. The last line without a newline is the tail of a write under way, which
the file store never acknowledged, and is left out as the store leaves it.
*/
import { LedgerError } from '@surecall/client';
import type { LedgerRecord, LedgerRevision } from '@surecall/client/ledger';
import { readJournal } from '@surecall/client/ledger/journal';

/** One imported record with its verified history. */
export type ImportedSend = { readonly record: LedgerRecord; readonly revisions: readonly LedgerRevision[] };

/** Why a journal was refused: the 1-based line and the rule it broke (docs/protocol-checks.md#ledger). */
export type ImportProblem = { readonly line: number; readonly rule: string };

/** A whole journal, or the first problem in it. */
export type LedgerImport =
  | { readonly ok: true; readonly sends: readonly ImportedSend[]; readonly lines: number }
  | { readonly ok: false; readonly problem: ImportProblem };

/**
Decodes and verifies a journal's text, newest send first.

@example
```ts
const read = await importLedger(await file.text());
if (!read.ok) show(`line ${read.problem.line}: ${read.problem.rule}`);
```
*/
export async function importLedger(text: string): Promise<LedgerImport> {
  try {
    const { records, lines } = await readJournal(text);
    const sends = [...records].sort((left, right) => right.record.createdAt - left.record.createdAt);
    return { ok: true, sends, lines };
  } catch (error) {
    if (error instanceof LedgerError && error.reason === 'corrupt') {
      return { ok: false, problem: { line: error.position ?? 0, rule: error.rule ?? error.reason } };
    }
    throw error;
  }
}
