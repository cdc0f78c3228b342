/**
@module
A read-only view of a file ledger (docs/durable-send.md#reading-a-file-ledger): the client's own read-only
open of the journal (`@surecall/client/ledger/file`, `readOnly: true`), which takes no lock and writes
nothing, so it can be inspected while a sender holds it, and checks every line as the store's own open does. A
journal that is missing, unreadable or damaged is a setup problem in words, with the line and the rule a
damaged one breaks.
*/
import { LedgerError } from '@surecall/client';
import type { Ledger } from '@surecall/client/ledger';
import { SetupError } from './connect.js';
import { type LedgerView, viewOf } from './ledger-view.js';
import { terminalText } from './text.js';

/**
Where a relative `--ledger` is, for every command alike: the file store's rule
(docs/durable-send.md#where-the-file-ledger-lives).
*/
export const whereRelativeNamesGo =
  'a relative --ledger is under ./.surecall/ledgers (or $SURECALL_LEDGER_DIR) for every command, and the send that wrote it printed its path';

/** The words for a journal the view cannot read; any other error as it is. */
function unreadable(error: unknown): unknown {
  if (!(error instanceof LedgerError)) {
    return error;
  }
  switch (error.reason) {
    case 'not-found':
      return new SetupError(
        `no ledger file at ${terminalText(error.path ?? 'the --ledger path')}: ${whereRelativeNamesGo}`,
      );
    case 'io':
      return new SetupError('the ledger file could not be read');
    case 'corrupt':
      return new SetupError(
        `the ledger file is corrupt: line ${error.position ?? '?'} breaks the rule ${error.rule ?? 'corrupt'}`,
      );
    default:
      return error;
  }
}

/** `work`, with a journal it cannot read in words. */
async function reading<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw unreadable(error);
  }
}

/**
Opens a read-only view of the journal `path` names, resolved as a durable send resolves it (a relative name
under the ledger directory, docs/durable-send.md#where-the-file-ledger-lives).

@example
```ts
const view = await openJournalView('sends.jsonl'); // ./.surecall/ledgers/sends.jsonl
```
*/
export async function openJournalView(path: string): Promise<LedgerView> {
  const { ledgerPath, openLedger } = await import('@surecall/client/ledger/file');
  const ledger: Ledger = await reading(() => openLedger({ name: path, readOnly: true }));
  const view = viewOf(ledger, ledgerPath(ledger));
  return {
    path: view.path,
    list: () => reading(view.list),
    get: (id) => reading(() => view.get(id)),
    history: (id) => reading(() => view.history(id)),
    watch: view.watch,
    close: view.close,
  };
}
