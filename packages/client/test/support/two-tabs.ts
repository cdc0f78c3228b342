/**
@module
Two tabs of one IndexedDB ledger as one `Ledger`, for the contract suite (`ledger-contract.ts`): in Node over
`fake-indexeddb` (`ledger-stores.ts`), in Chromium over the real IndexedDB and Web Locks
(`test/ledger/idb.browser.test.ts`), where the two ledgers of one page hold two tab locks as two tabs of one
origin do (docs/durable-send.md#tabs).
*/
import * as idb from '../../src/ledger/idb.js';
import type { Ledger, LedgerChange } from '../../src/ledger/ledger.js';

/**
Two tabs of one IndexedDB ledger as one `Ledger`: its writes alternate between the tabs, its reads go to the
tab that did not write last, and its claims to the first (a claim is its tab's, and a write by either tab ends
it). A subscriber hears each tab's own changes as they commit, so it hears every change once, in order, as
`local`; what each tab hears of the other through the BroadcastChannel is left to the tab tests.
*/
export async function twoTabs(options: { name: string; retentionMs?: number }): Promise<Ledger> {
  // One after the other: each open recovers what closed tabs left executing.
  const first = await idb.openLedger(options);
  const second = await idb.openLedger(options).catch(async (error: unknown) => {
    await first.close();
    throw error;
  });
  let writes = 0;
  const writer = () => (writes++ % 2 === 0 ? first : second);
  const reader = () => (writes % 2 === 0 ? second : first);
  return {
    create: (intent, start) => writer().create(intent, start),
    transition: (id, expected, input) => writer().transition(id, expected, input),
    get: (id) => reader().get(id),
    list: (filter) => reader().list(filter),
    history: (id) => reader().history(id),
    claimDue: (query) => first.claimDue(query),
    claim: (id) => first.claim(id),
    release: (id) => first.release(id),
    ownerOf: (id) => reader().ownerOf(id),
    subscribe(listener) {
      const own = (change: LedgerChange) => {
        if (change.origin === 'local') {
          listener(change);
        }
      };
      const stops = [first.subscribe(own), second.subscribe(own)];
      return () => {
        for (const stop of stops) {
          stop();
        }
      };
    },
    close: async () => {
      await Promise.all([first.close(), second.close()]);
    },
  };
}
