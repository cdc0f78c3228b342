/**
@module
The claims of the IndexedDB ledger shared by the tabs of an origin (docs/durable-send.md#tabs), modelled on
the fleet store's leases (`postgres/leases.ts`): a tab's Web Lock stands where a lease's expiry stands there.
A record is taken by writing this tab as its owner, in a readwrite transaction that finds the record's head
and owner row still as they were read, and only when that owner was judged gone from a snapshot of the locks
taken after the read: so a record is never taken from a live tab, and two tabs never take one record at once
(IndexedDB serialises the transactions). A claim dies with its tab: its lock goes, and the record is due again
for the others.
*/
import { dueAt } from '../engine/claims.js';
import { type DueQuery, isDue, matchesDue } from '../ledger.js';
import type { LedgerRecord } from '../record.js';
import type { StoreLeases } from '../store.js';
import { type Database, decodeOwner, decodeRecord, io, type Owner, recordsWithOwners } from './database.js';
import type { Tabs } from './tabs.js';

/** A record as read, with the owner row read with it. */
type Seen = { readonly record: LedgerRecord; readonly owner: Owner | undefined };

/**
Takes each of `seen`, in order and up to `limit`, whose head and owner row are still as read, naming `tab` its
owner; all in one readwrite transaction, which takes none when a stored value does not decode.
*/
async function take(
  db: Database,
  tab: string,
  seen: readonly Seen[],
  limit: number,
): Promise<LedgerRecord[]> {
  if (seen.length === 0) {
    return [];
  }
  const tx = db.transaction(['records', 'owners'], 'readwrite');
  const records = tx.objectStore('records');
  const owners = tx.objectStore('owners');
  const taken: LedgerRecord[] = [];
  try {
    for (const { record, owner } of seen) {
      if (taken.length === limit) {
        break;
      }
      const [head, row] = await Promise.all([records.get(record.id), owners.get(record.id)]);
      const current = head === undefined ? undefined : decodeRecord(head);
      if (current?.digest === record.digest && decodeOwner(row)?.tab === owner?.tab) {
        await owners.put({ id: record.id, tab });
        taken.push(current);
      }
    }
    await tx.done;
  } catch (error) {
    tx.abort();
    await tx.done.catch(() => undefined);
    throw error;
  }
  return taken;
}

async function readOne(db: Database, id: string): Promise<Seen | undefined> {
  const tx = db.transaction(['records', 'owners']);
  const [head, row] = await Promise.all([
    tx.objectStore('records').get(id),
    tx.objectStore('owners').get(id),
  ]);
  return head === undefined ? undefined : { record: decodeRecord(head), owner: decodeOwner(row) };
}

/** Gives up this tab's claim on a record it did not move; an executing record stays its sender's. */
async function release(db: Database, tab: string, id: string): Promise<void> {
  const tx = db.transaction(['records', 'owners'], 'readwrite');
  const [head, row] = await Promise.all([
    tx.objectStore('records').get(id),
    tx.objectStore('owners').get(id),
  ]);
  const owner = decodeOwner(row);
  const status = head === undefined ? undefined : decodeRecord(head).state.status;
  if (owner?.tab === tab && status !== 'executing') {
    await tx.objectStore('owners').delete(id);
  }
  await tx.done;
}

/**
The leases of a tab. `watchOwner` is called with every live tab found sending a record, so this tab hears when
that tab is gone.
*/
export function idbLeases(db: Database, tabs: Tabs, watchOwner: (tab: string) => void): StoreLeases {
  const { tab } = tabs;
  /** Whether `owner` leaves the record free: none, or a tab that is gone. */
  const free = (live: (tab: string) => boolean, owner: Owner | undefined) =>
    owner === undefined || !live(owner.tab);
  return {
    orphans: (limit) =>
      io(async () => {
        const rows = await recordsWithOwners(db, 'executing');
        const live = await tabs.live();
        const orphaned = rows.filter(({ owner }) => {
          if (owner !== undefined && owner.tab !== tab && live(owner.tab)) {
            watchOwner(owner.tab);
          }
          return free(live, owner);
        });
        return take(db, tab, orphaned, limit);
      }),
    claimDue: (query: Required<Pick<DueQuery, 'limit'>> & DueQuery, now) =>
      io(async () => {
        const rows = await recordsWithOwners(db, 'unknown');
        const live = await tabs.live();
        const due = rows.filter(
          ({ record, owner }) => isDue(record, now) && matchesDue(record, query) && free(live, owner),
        );
        // A stable sort: records due at the same time stay in the ledger's own sequence.
        due.sort((left, right) => dueAt(left.record) - dueAt(right.record));
        return take(db, tab, due, query.limit);
      }),
    claim: (id, now) =>
      io(async () => {
        const seen = await readOne(db, id);
        if (seen === undefined || !isDue(seen.record, now) || !free(await tabs.live(), seen.owner)) {
          return undefined;
        }
        const [taken] = await take(db, tab, [seen], 1);
        return taken;
      }),
    release: (id) => io(() => release(db, tab, id)),
  };
}
