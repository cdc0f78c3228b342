/**
@module
Who may probe a record (docs/durable-send.md#leases): the records due for a probe, leased to this ledger, by a
shared store's leases or, for a single-writer store, by the claims the engine keeps in memory; and the sweep
that turns a record left executing by a writer that is gone into unknown
(docs/durable-send.md#execution-order).
*/
import { LedgerError } from '../../core/errors.js';
import { type DueQuery, isDue, matchesDue } from '../ledger.js';
import type { LedgerRecord, LedgerStatus } from '../record.js';
import { transition } from './commits.js';
import { type EngineState, requireWritable } from './state.js';

/** The most records one `claimDue` leases. */
const maxClaim = 1024;

/**
A record left executing by a writer that is gone becomes unknown, never "send again". A single-writer store's
are all of them; a shared store's are those whose lease lapsed, leased to this writer first.
*/
export async function recoverOrphans(state: EngineState): Promise<void> {
  const { store } = state;
  const orphans = store.leases
    ? () => store.leases?.orphans(64) ?? Promise.resolve([])
    : async () => store.list(new Set<LedgerStatus>(['executing']));
  for (let batch = await orphans(); batch.length > 0; batch = store.leases ? await orphans() : []) {
    // All at once: the records are independent, and a group-committing store writes them under one sync.
    await Promise.all(
      batch.map((record) =>
        record.state.status === 'executing'
          ? transition(state, record.id, record.revision, {
              type: 'unknown',
              attemptId: record.state.attemptId,
              reason: 'crashed-while-executing',
            })
          : undefined,
      ),
    );
  }
}

/** When a due record's probe may run: its pending not-before time, else when it became unknown. */
export function dueAt(record: LedgerRecord): number {
  return record.state.status === 'unknown' ? (record.state.pending?.notBefore ?? record.updatedAt) : 0;
}

/** `Ledger.claimDue`: up to `query.limit` due records, soonest due first, leased to this ledger. */
export async function claimDue(state: EngineState, query: DueQuery = {}): Promise<LedgerRecord[]> {
  requireWritable(state);
  const limit = query.limit ?? 16;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > maxClaim) {
    throw new LedgerError('invalid-input', { rule: 'limit' });
  }
  const { store, claimed } = state;
  if (store.leases !== undefined) {
    await recoverOrphans(state);
    // Read after the sweep, so the records it just turned unknown are due in this very claim.
    return store.leases.claimDue({ ...query, limit }, Date.now());
  }
  const now = Date.now();
  const due = (await store.list(new Set<LedgerStatus>(['unknown']))).filter(
    (record) => isDue(record, now) && !claimed.has(record.id) && matchesDue(record, query),
  );
  // A stable sort: records due at the same time stay in the ledger's own sequence.
  due.sort((left, right) => dueAt(left) - dueAt(right));
  const taken = due.slice(0, limit);
  for (const record of taken) {
    claimed.add(record.id);
  }
  return taken;
}

/** `Ledger.claim`: one record, if it is due and nobody holds it. */
export async function claim(state: EngineState, id: string): Promise<LedgerRecord | undefined> {
  requireWritable(state);
  const now = Date.now();
  const { store, claimed } = state;
  if (store.leases !== undefined) {
    return store.leases.claim(id, now);
  }
  const record = await store.get(id);
  if (record === undefined || !isDue(record, now) || claimed.has(id)) {
    return undefined;
  }
  claimed.add(id);
  return record;
}

/** `Ledger.release`: gives up this ledger's claim on a record it did not move. */
export async function release(state: EngineState, id: string): Promise<void> {
  state.claimed.delete(id);
  await state.store.leases?.release(id);
}
