/**
@module
The stores the shared ledger contract (`src/ledger/ledger.test.ts`) runs against. The `client` project runs it
on the memory, IndexedDB and file stores, and on IndexedDB once more with two writers open on one database
(two tabs, docs/durable-send.md#tabs); the `client (postgres)` project (`SURECALL_LEDGER_STORES=postgres`)
runs the very same suite on a real PostgreSQL that its global setup started
(`test/support/postgres-setup.ts`), one fresh schema per ledger name.
*/
import { createHash } from 'node:crypto';
import { inject } from 'vitest';
import * as file from '../../src/ledger/file.js';
import * as idb from '../../src/ledger/idb.js';
import type { Ledger, LedgerChange } from '../../src/ledger/ledger.js';
import * as memory from '../../src/ledger/memory.js';
import * as postgres from '../../src/ledger/postgres/entry.js';

export type Backend = {
  readonly name: 'memory' | 'idb' | 'idb, two tabs' | 'file' | 'postgres';
  readonly openLedger: (options: { name: string; retentionMs?: number }) => Promise<Ledger>;
};

/** A schema name for a test's ledger name: the same name reopens the same ledger. */
export function schemaOf(name: string): string {
  return `t_${createHash('sha256').update(name).digest('hex').slice(0, 24)}`;
}

/**
The PostgreSQL store under the contract: `name` picks the schema; the worker id is this process's, so a reopen
ends the leases of the ledger it reopens.
*/
export function postgresBackend(): Backend {
  const url = inject('postgresUrl');
  return {
    name: 'postgres',
    openLedger: async ({ name, retentionMs }) => {
      if (typeof name !== 'string' || name === '') {
        return postgres.openLedger({ name });
      }
      return postgres.openPostgresLedger(
        { connectionString: url },
        { schema: schemaOf(name), leaseMs: 5000, ...(retentionMs === undefined ? {} : { retentionMs }) },
      );
    },
  };
}

/**
Two tabs of one IndexedDB ledger as one `Ledger`: its writes alternate between the tabs, its reads go to the
tab that did not write last, and its claims to the first (a claim is its tab's, and a write by either tab ends
it). A subscriber hears each tab's own changes as they commit, so it hears every change once, in order, as
`local`; what each tab hears of the other through the BroadcastChannel is left to the tab tests.
*/
async function twoTabs(options: { name: string; retentionMs?: number }): Promise<Ledger> {
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

/** The stores this project runs the contract on. */
export function ledgerStores(): readonly Backend[] {
  const { SURECALL_LEDGER_STORES } = process.env;
  if (SURECALL_LEDGER_STORES === 'postgres') {
    return [postgresBackend()];
  }
  return [
    { name: 'memory', openLedger: memory.openLedger },
    { name: 'idb', openLedger: idb.openLedger },
    { name: 'idb, two tabs', openLedger: twoTabs },
    { name: 'file', openLedger: file.openLedger },
  ];
}
