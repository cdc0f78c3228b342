/**
@module
What a reading command sees of a ledger (`sends list`, `show`, `watch`, `devtools`): the records, a record's
history, and its changes as they come, whichever store holds them. A read-only `Ledger` (a file journal opened
`readOnly`, a PostgreSQL follower) is one as it is.
*/
import type { Ledger, LedgerRecord, LedgerRevision } from '@surecall/client/ledger';

/** A read-only view of a ledger. */
export type LedgerView = {
  list(): Promise<LedgerRecord[]>;
  get(id: string): Promise<LedgerRecord | undefined>;
  history(id: string): Promise<LedgerRevision[]>;
  /** Calls `listener` with each record that changed, until the returned function is called. */
  watch(listener: (record: LedgerRecord) => void): () => void;
  close(): Promise<void>;
};

/**
The view of a read-only ledger.

@example
```ts
const view = viewOf(await openLedger({ name: './sends.jsonl', readOnly: true }));
```
*/
export function viewOf(ledger: Ledger): LedgerView {
  return {
    list: () => ledger.list(),
    get: (id) => ledger.get(id),
    history: (id) => ledger.history(id),
    watch: (listener) => ledger.subscribe((change) => listener(change.record)),
    close: () => ledger.close(),
  };
}
