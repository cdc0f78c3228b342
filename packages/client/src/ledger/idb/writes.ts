/**
@module
The IndexedDB ledger's one write (docs/durable-send.md#execution-order: a completed IndexedDB transaction):
one readwrite transaction that compares the stored head with the revision the writer expected, writes the
head, the revisions and the record's owner, and resolves only on the transaction's `complete`. IndexedDB
serialises readwrite transactions over the same stores across every tab of the origin, so two tabs can never
both move one record (docs/durable-send.md#tabs). Each write is announced to the other tabs on the
BroadcastChannel.
*/
import type { IDBPTransaction } from 'idb';
import { LedgerError } from '../../core/errors.js';
import { optionalMembers } from '../../core/optional-members.js';
import { decodeLedger } from '../decoding.js';
import { LedgerRecord, type LedgerRevision } from '../record.js';
import type { StoreCommit } from '../store.js';
import { type IdbStore, io, type LedgerDatabase, PRUNE_EVERY, prune } from './database.js';

/** What a tab tells the others of each revision it wrote; `owner` names the tab sending the record. */
export type Announcement = {
  readonly type: 'surecall-ledger-change';
  readonly id: string;
  readonly revision: number;
  readonly owner?: string;
};

export function isAnnouncement(value: unknown): value is Announcement {
  const candidate = value as Partial<Announcement> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.type === 'surecall-ledger-change' &&
    typeof candidate.id === 'string' &&
    Number.isSafeInteger(candidate.revision) &&
    (candidate.owner === undefined || typeof candidate.owner === 'string')
  );
}

/** What one write commits: one revision, or a `create` and its `start`. */
type Commits = readonly Pick<StoreCommit, 'record' | 'revision'>[];

type WriteTransaction = IDBPTransaction<
  LedgerDatabase,
  ('records' | 'revisions' | 'sequence' | 'owners')[],
  'readwrite'
>;

/**
Why a write whose first revision is `first` may not go on over the stored head (the compare-and-set), or
`undefined` when it may: revision 0 needs a new id, any later one the head at the digest it names.
*/
function refusalOver(stored: unknown, first: LedgerRevision): LedgerError | undefined {
  const head = stored === undefined ? undefined : decodeLedger(LedgerRecord, stored);
  const stale =
    first.revision === 0
      ? stored !== undefined
      : head === undefined || !head.ok || head.value.digest !== first.previousDigest;
  if (!stale) {
    return undefined;
  }
  if (head !== undefined && !head.ok) {
    return new LedgerError('corrupt', { rule: head.error.rule });
  }
  return new LedgerError('stale-revision', first.revision === 0 ? { rule: 'exists' } : {});
}

/**
The record's head, every revision's row, for a new record its place in the sequence, and its owner: this tab
while the record is executing, nobody once it moved on (a move ends a probe's claim too,
docs/durable-send.md#tabs); settles with `tx`.
*/
function putAll(tx: WriteTransaction, commits: Commits, tab: string | undefined): Promise<unknown> {
  const first = (commits[0] as Commits[number]).revision;
  const { record } = commits.at(-1) as Commits[number];
  const revisions = tx.objectStore('revisions');
  const owners = tx.objectStore('owners');
  return Promise.all([
    tx.objectStore('records').put(record),
    ...commits.map((commit) => revisions.add(commit.revision)),
    ...(first.revision === 0 ? [tx.objectStore('sequence').add({ id: record.id })] : []),
    tab !== undefined && record.state.status === 'executing'
      ? owners.put({ id: record.id, tab })
      : owners.delete(record.id),
    tx.done,
  ]);
}

/**
Consecutive revisions of one record (one, or a `create` and its `start`) in one transaction, which commits all
of them or none.
*/
export function appendAll(store: IdbStore, commits: Commits): Promise<void> {
  return io(async () => {
    const first = (commits[0] as Commits[number]).revision;
    const { record } = commits.at(-1) as Commits[number];
    const tx = store.db.transaction(['records', 'revisions', 'sequence', 'owners'], 'readwrite');
    // The compare-and-set, inside the same transaction as the write, so no other writer can slip in between.
    const refused = refusalOver(await tx.objectStore('records').get(record.id), first);
    if (refused !== undefined) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw refused;
    }
    try {
      await putAll(tx, commits, store.tab);
    } catch (error) {
      // The revision's key already exists: another writer committed this very revision first.
      if (error instanceof DOMException && error.name === 'ConstraintError') {
        throw new LedgerError('stale-revision', { cause: error });
      }
      throw error;
    }
    const owner = record.state.status === 'executing' ? store.tab : undefined;
    for (const { revision } of commits) {
      store.channel?.postMessage({
        type: 'surecall-ledger-change',
        id: record.id,
        revision: revision.revision,
        ...optionalMembers({ owner }),
      } satisfies Announcement);
    }
    if (++store.writes % PRUNE_EVERY === 0) {
      // The write is durable already; a failed pruning is retried at the next one.
      await prune(store.db, Date.now() - store.retentionMs).catch(() => undefined);
    }
  });
}
