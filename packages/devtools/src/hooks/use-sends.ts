import type { Ledger, LedgerRecord, LedgerRevision } from '@surecall/client/ledger';
import { useCallback, useEffect, useState } from 'react';
import { withRecord } from '../model/sends.js';

/** The ledger's records as the Sends panel shows them, and a way to read one's history. */
export type Sends = {
  /** Newest first. */
  readonly records: readonly LedgerRecord[];
  /** The history of each record read so far, refreshed when the record changes. */
  readonly histories: ReadonlyMap<string, readonly LedgerRevision[]>;
  /**
  The tab holding each record read so far, where tabs share the ledger (docs/durable-send.md#tabs); refreshed
  with its history.
  */
  readonly owners: ReadonlyMap<string, { readonly tab: string; readonly thisTab: boolean }>;
  /** Reads (or reads again) a record's history and owner. */
  load(id: string): void;
  /** Why the ledger could not be read, if it could not. */
  readonly problem: string | undefined;
};

/**
Follows a ledger: `list()` once at mount (a subscription does not replay what happened before it), then every
change from `subscribe`, this tab's and, for IndexedDB, other tabs'. The histories of the records shown are
read with `history(id)`, and their owners with `ownerOf(id)`, and read again on each change to them.

@example
```ts
const { records, histories, load } = useSends(ledger);
```
*/
export function useSends(ledger: Ledger | undefined): Sends {
  const [records, setRecords] = useState<readonly LedgerRecord[]>([]);
  const [histories, setHistories] = useState<ReadonlyMap<string, readonly LedgerRevision[]>>(new Map());
  const [owners, setOwners] = useState<Sends['owners']>(new Map());
  const [problem, setProblem] = useState<string | undefined>(undefined);

  const load = useCallback(
    (id: string) => {
      ledger?.history(id).then(
        (revisions) => setHistories((held) => new Map(held).set(id, revisions)),
        () => setProblem('A record’s history could not be read'),
      );
      ledger?.ownerOf(id).then(
        (owner) =>
          setOwners((held) => {
            const next = new Map(held);
            if (owner === undefined) {
              next.delete(id);
            } else {
              next.set(id, owner);
            }
            return next;
          }),
        () => setProblem('A record’s owner could not be read'),
      );
    },
    [ledger],
  );

  useEffect(() => {
    setRecords([]);
    setHistories(new Map());
    setOwners(new Map());
    setProblem(undefined);
    if (ledger === undefined) {
      return undefined;
    }
    let live = true;
    // Subscribe first, then list: a change committed in between is both listed and heard, and withRecord
    // keeps the later revision.
    const unsubscribe = ledger.subscribe((change) => {
      setRecords((held) => withRecord(held, change.record));
      load(change.record.id);
    });
    ledger.list().then(
      (listed) => {
        if (!live) {
          return;
        }
        setRecords((held) => listed.reduce<LedgerRecord[]>(withRecord, [...held]));
        for (const record of listed) {
          load(record.id);
        }
      },
      () => setProblem('The ledger could not be read'),
    );
    return () => {
      live = false;
      unsubscribe();
    };
  }, [ledger, load]);

  return { records, histories, owners, load, problem };
}
