/**
@module
The ledger contract (`test/support/ledger-contract.ts`) in Chromium, over the real IndexedDB and Web Locks of
one page: once with one writer, once with two ledgers open on one database name, whose two tab locks make them
two tabs of one origin (docs/durable-send.md#tabs). The `client (chromium)` project runs it in Debian's
Chromium (`vite.config.ts`); in Node the same contract runs over `fake-indexeddb`.
*/
import { expect, it } from 'vitest';
import * as idb from '../../src/ledger/idb.js';
import { type Backend, ledgerContract } from '../support/ledger-contract.js';
import { twoTabs } from '../support/two-tabs.js';

const page = Math.random().toString(36).slice(2);
let counter = 0;

/** The tab locks held in this page for the ledger `name` (docs/durable-send.md#tabs). */
async function tabLocks(name: string): Promise<number> {
  const { held = [] } = await navigator.locks.query();
  return held.filter((lock) => lock.name?.startsWith(`surecall-tab:${name}:`) === true).length;
}

it("runs in a page, where two ledgers open on one database are two tabs, each holding its tab's lock", async () => {
  expect(typeof window).toBe('object');
  expect(indexedDB).toBeInstanceOf(IDBFactory);
  const name = `ledger-${page}-locks`;
  const ledger = await twoTabs({ name });
  expect(await tabLocks(name)).toBe(2);
  await ledger.close();
  expect(await tabLocks(name)).toBe(0);
});

ledgerContract(
  [
    { name: 'idb', openLedger: idb.openLedger },
    { name: 'idb, two tabs', openLedger: twoTabs },
  ],
  // A database name no other test uses, in this run or one before it on the same profile.
  (backend: Backend) => `ledger-${page}-${backend.name === 'idb' ? 'one' : 'two'}-${++counter}`,
);
