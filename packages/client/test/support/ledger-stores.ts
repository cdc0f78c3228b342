/**
@module
The stores the shared ledger contract (`ledger-contract.ts`, run by `src/ledger/ledger.test.ts`) runs against
in Node. The `client` project runs it on the memory, IndexedDB and file stores, and on IndexedDB once more
with two writers open on one database (two tabs, docs/durable-send.md#tabs); the `client (postgres)` project
(`SURECALL_LEDGER_STORES=postgres`) runs the very same suite on a real PostgreSQL that its global setup
started (`test/support/postgres-setup.ts`), one fresh schema per ledger name.
*/
import { createHash } from 'node:crypto';
import { inject } from 'vitest';
import * as file from '../../src/ledger/file.js';
import * as idb from '../../src/ledger/idb.js';
import * as memory from '../../src/ledger/memory.js';
import * as postgres from '../../src/ledger/postgres/entry.js';
import type { Backend } from './ledger-contract.js';
import { twoTabs } from './two-tabs.js';

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
    { name: 'file', openLedger: file.openLedger, compact: file.compactLedger },
  ];
}
