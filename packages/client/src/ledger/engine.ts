/**
@module
The one implementation of the `Ledger` interface, over the small store contract (`store.ts`) that each backend
(memory, idb, file, PostgreSQL) fulfils. Validation, the revision digest, the state machine, change
notification and the recovery of crashed attempts live here once, so the stores cannot drift apart: the writes
in `engine/commits.ts`, the claims and the sweep of orphans in `engine/claims.ts`, over the state of
`engine/state.ts`.
*/
import { claim, claimDue, recoverOrphans, release } from './engine/claims.js';
import { announceRemote, create, transition } from './engine/commits.js';
import { closeEngine, type EngineState, engineState, guard } from './engine/state.js';
import { type Ledger, type LedgerFilter, platformSha256, type Sha256 } from './ledger.js';
import type { LedgerStore } from './store.js';

export type { LedgerStore, StoreCommit, StoreLeases } from './store.js';

/**
How the engine digests revisions; the file store passes Node's synchronous SHA-256, which gives the same
digests as WebCrypto.
*/
export type EngineOptions = { readonly sha256?: Sha256 };

/** The `Ledger` of an open engine: each call guarded by {@link guard}, so none starts once `close` has. */
function ledgerOf(state: EngineState): Ledger {
  const { store, listeners } = state;
  const list = (filter?: LedgerFilter) =>
    store.list(filter?.states === undefined ? undefined : new Set(filter.states));
  return {
    create: (intent, start) => guard(state, () => create(state, intent, start)),
    transition: (id, expectedRevision, input) =>
      guard(state, () => transition(state, id, expectedRevision, input)),
    get: (id) => guard(state, () => store.get(id)),
    list: (filter) => guard(state, () => list(filter)),
    history: (id) => guard(state, () => store.history(id)),
    claimDue: (query) => guard(state, () => claimDue(state, query)),
    claim: (id) => guard(state, () => claim(state, id)),
    release: (id) => guard(state, () => release(state, id)),
    ownerOf: (id) => guard(state, async () => store.ownerOf?.(id)),
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close: () => closeEngine(state),
  };
}

/**
Builds a `Ledger` over `store` and, when the store can write, turns every record left `executing` by a crash
into `unknown` with reason `crashed-while-executing` (docs/durable-send.md#execution-order: never "send
again").
*/
export async function openLedgerEngine(store: LedgerStore, options: EngineOptions = {}): Promise<Ledger> {
  const state = engineState(store, options.sha256 ?? platformSha256);
  // Remote changes reach the listeners in the order the store heard them: each announcement reads its
  // record's history first, and a later one whose read ends sooner would otherwise arrive first, so a
  // subscriber saw a record move backwards (revision 1, 2, then 0).
  let announced: Promise<void> = Promise.resolve();
  store.watch?.((id, revision) => {
    if (!state.closed && state.listeners.size > 0) {
      // A follower only announces what it could read and decode; a corrupt entry surfaces on the next read
      // instead.
      announced = announced.then(() => announceRemote(state, id, revision)).catch(() => undefined);
    }
  });
  const ledger = ledgerOf(state);
  if (store.writable) {
    // Once the ledger is closing, a late call only finds it closed.
    store.recoverWith?.(() => guard(state, () => recoverOrphans(state)));
    try {
      await recoverOrphans(state);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return ledger;
}
