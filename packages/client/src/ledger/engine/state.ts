/**
@module
What one open ledger holds besides its store (`EngineState`), and the small rules over it that every operation
follows: announce a change to the listeners, count an operation in flight until it settles, refuse a write on
a follower, and stamp a revision's time on a clock that never runs backwards.
*/
import { LedgerError } from '../../core/errors.js';
import type { LedgerChange, Sha256 } from '../ledger.js';
import type { LedgerStore } from '../store.js';

/** The state of one open ledger, shared by the engine's operations (`commits.ts`, `claims.ts`). */
export type EngineState = {
  readonly store: LedgerStore;
  readonly sha256: Sha256;
  readonly listeners: Set<(change: LedgerChange) => void>;
  /** Operations in flight: a count, not a set of promises, since every commit passes here. */
  active: number;
  /** Resolves `close`'s wait once `active` is back to 0. */
  drained: (() => void) | undefined;
  /**
  A single-writer store's claims: records a probe of this process holds, so two reconcilers in it never probe
  one record at once.
  */
  readonly claimed: Set<string>;
  closed: boolean;
  /** The last time stamped (see {@link stamp}). */
  lastAt: number;
};

/** A fresh state over `store`. */
export function engineState(store: LedgerStore, sha256: Sha256): EngineState {
  return {
    store,
    sha256,
    listeners: new Set(),
    active: 0,
    drained: undefined,
    claimed: new Set(),
    closed: false,
    lastAt: 0,
  };
}

/** Tells every listener of `change`; a listener's failure is its own. */
export function emit(state: EngineState, change: LedgerChange): void {
  if (state.listeners.size === 0) {
    return;
  }
  for (const listener of [...state.listeners]) {
    try {
      listener(change);
    } catch {
      // The change is already durable and the other listeners still hear of it.
    }
  }
}

/** Runs one operation: refused once the ledger is closing, counted until it settles. */
export async function guard<T>(state: EngineState, work: () => Promise<T>): Promise<T> {
  if (state.closed) {
    throw new LedgerError('closed');
  }
  state.active++;
  try {
    return await work();
  } finally {
    state.active--;
    if (state.active === 0) {
      state.drained?.();
    }
  }
}

/** Refuses a write on a store that only follows another writer. */
export function requireWritable(state: EngineState): void {
  if (!state.store.writable) {
    throw new LedgerError('locked', { rule: 'follower' });
  }
}

/**
The time of a new revision: now, but never before `floor` (the record's last change) nor before the last time
stamped. One clock for the whole ledger that never runs backwards, even if the system clock does, so durations
measured on it (retry and probe delays) stay honest.
*/
export function stamp(state: EngineState, floor: number): number {
  state.lastAt = Math.max(Date.now(), state.lastAt, floor);
  return state.lastAt;
}

/** Refuses every later operation, waits for those in flight, then closes the store. */
export async function closeEngine(state: EngineState): Promise<void> {
  if (state.closed) {
    return;
  }
  state.closed = true;
  if (state.active > 0) {
    await new Promise<void>((resolve) => {
      state.drained = resolve;
    });
  }
  state.listeners.clear();
  await state.store.close();
}
