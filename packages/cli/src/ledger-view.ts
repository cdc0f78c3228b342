/**
@module
What a reading command sees of a ledger (`sends list`, `show`, `watch`, `devtools`): the records, a record's
history, and its changes as they come, whichever store holds them. A read-only `Ledger` (a file journal opened
`readOnly`, a PostgreSQL follower) is one as it is.
*/
import type { Ledger, LedgerRecord, LedgerRevision } from '@surecall/client/ledger';

/** A read-only view of a ledger. */
export type LedgerView = {
  /** The journal's absolute path, for a file ledger; a PostgreSQL ledger has none to print. */
  readonly path: string | undefined;
  list(): Promise<LedgerRecord[]>;
  get(id: string): Promise<LedgerRecord | undefined>;
  history(id: string): Promise<LedgerRevision[]>;
  /** Calls `listener` with each record that changed, until the returned function is called. */
  watch(listener: (record: LedgerRecord) => void): () => void;
  close(): Promise<void>;
};

/**
The view of a read-only ledger, whose journal is at `path` when it is a file ledger.

@example
```ts
const reader = await openLedger({ name: 'sends.jsonl', readOnly: true });
const view = viewOf(reader, ledgerPath(reader));
```
*/
export function viewOf(ledger: Ledger, path?: string): LedgerView {
  return {
    path,
    list: () => ledger.list(),
    get: (id) => ledger.get(id),
    history: (id) => ledger.history(id),
    watch: (listener) => ledger.subscribe((change) => listener(change.record)),
    close: () => ledger.close(),
  };
}
