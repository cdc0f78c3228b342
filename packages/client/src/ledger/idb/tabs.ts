/**
@module
The tabs of one IndexedDB ledger (docs/durable-send.md#tabs): each open ledger is a tab that holds the Web
Lock `surecall-tab:<ledger>:<tab id>` from its open to its close, so a tab is live exactly while that lock is
held. Its lock goes when the tab closes the ledger, is closed, crashes or navigates away: the browser releases
every lock of a document that is gone. Another tab learns that by waiting on the lock itself, never by
polling.
*/
import { LedgerError } from '../../core/errors.js';

/** This tab's hold on its lock, and what it knows of the others. */
export type Tabs = {
  /** This tab's id, fresh for every open: a tab that is gone never comes back. */
  readonly tab: string;
  /**
  A snapshot of which tabs are live: this one, and every other whose lock is held now (one of them may be gone
  by the time it is used, which only makes a claim wait, never take a live tab's record).
  */
  live(): Promise<(tab: string) => boolean>;
  /** Calls `onGone` once, when `tab`'s lock is released (at once when it already is). */
  watch(tab: string, onGone: () => Promise<void>): void;
  /** Stops every wait and releases this tab's lock. */
  close(): void;
};

/** The platform's Web Locks, or `undefined` where there are none (docs/durable-send.md#without-web-locks). */
export function webLocks(): LockManager | undefined {
  return (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
}

function lockName(ledger: string, tab: string): string {
  return `surecall-tab:${ledger}:${tab}`;
}

/** 128 random bits as hex: `crypto.randomUUID` needs a secure context, `getRandomValues` does not. */
function freshId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Takes this tab's lock (its name is new, so it is free) and resolves once it is held. */
export async function holdTabLock(locks: LockManager, ledger: string): Promise<Tabs> {
  const tab = freshId();
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await new Promise<void>((resolve, reject) => {
    locks
      .request(lockName(ledger, tab), { mode: 'exclusive' }, async () => {
        resolve();
        await released;
      })
      .catch((error: unknown) => reject(new LedgerError('io', { rule: 'web-lock', cause: error })));
  });
  const stop = new AbortController();
  // Tabs whose lock this tab was granted: they are gone for good, though the lock shows held while this tab's
  // recovery holds it.
  const gone = new Set<string>();
  const watched = new Set<string>();
  return {
    tab,
    async live() {
      const snapshot = await locks.query();
      const held = new Set((snapshot.held ?? []).map((lock) => lock.name));
      return (other) => other === tab || (!gone.has(other) && held.has(lockName(ledger, other)));
    },
    watch(other, onGone) {
      if (other === tab || watched.has(other) || stop.signal.aborted) {
        return;
      }
      watched.add(other);
      locks
        .request(lockName(ledger, other), { mode: 'exclusive', signal: stop.signal }, async () => {
          gone.add(other);
          // Held while the recovery runs, then given up: nobody else ever takes a gone tab's lock for long.
          await onGone().catch(() => undefined);
        })
        // Aborted by this tab's close.
        .catch(() => undefined);
    },
    close() {
      stop.abort();
      release();
    },
  };
}
