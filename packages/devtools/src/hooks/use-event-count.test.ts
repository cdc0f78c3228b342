import type { Ledger } from '@surecall/client/ledger';
import { describe, expect, it } from 'vitest';
import type { Feed } from './use-event-count.js';

// Compile-time checks: the feeds the devtools take as they are (CONTRIBUTING.md#tests, rule 21).
const fromLedger = (ledger: Ledger): Feed => ledger;
const fromEvents = (events: {
  subscribe(listener: (event: { type: 'probe' }) => unknown): () => void;
}): Feed => events;
// @ts-expect-error A feed must hand its listener to subscribe and return the unsubscribe function.
const notAFeed = (other: { subscribe(): void }): Feed => other;

describe('Feed', () => {
  it('takes the client’s ledger and any subscribe(listener) feed, and counts what they deliver', () => {
    let delivered = 0;
    const listeners: ((event: { type: 'probe' }) => unknown)[] = [];
    const feed = fromEvents({
      subscribe(listener) {
        listeners.push(listener);
        return () => listeners.splice(listeners.indexOf(listener), 1);
      },
    });
    const unsubscribe = feed.subscribe(() => {
      delivered += 1;
    });
    for (const listener of listeners) {
      listener({ type: 'probe' });
    }
    unsubscribe();
    expect(delivered).toBe(1);
    expect(listeners).toHaveLength(0);
    expect([fromLedger, notAFeed].every((check) => typeof check === 'function')).toBe(true);
  });
});
