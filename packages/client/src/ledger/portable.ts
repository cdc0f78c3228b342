/**
@module
The IndexedDB store where no export condition names the platform: `@surecall/client/ledger` under `default`
(esbuild's `--platform=neutral`, Rollup's node-resolve without `browser: true`) and in workers (`worker`,
wrangler's `workerd`). No environment gets a volatile store by default (docs/durable-send.md#ledger-stores):
where there is no IndexedDB (workerd, a neutral bundle run elsewhere) the open is refused with the explicit
choices named, never answered by a store that forgets. It imports nothing Node-only, and the browser's own
bundle (`browser` → `idb.ts`) does not carry its message.
*/
import { LedgerError } from '../core/errors.js';
import { openLedger as openIndexedDbLedger } from './idb.js';
import type { Ledger, LedgerOptions } from './ledger.js';

// Every store entry exports the same names: its `openLedger`, and the ledger's model, verifier and status
// below (packages/client/test/exports.test.ts holds the lists equal).
export type {
  AgentIdentity,
  Attempt,
  AttemptStart,
  DeliveryMode,
  DueQuery,
  ErrorSummary,
  FailureEffect,
  HistoryVerification,
  Ledger,
  LedgerChange,
  LedgerFilter,
  LedgerOptions,
  LedgerRecord,
  LedgerRevision,
  LedgerState,
  LedgerStatus,
  LedgerTransition,
  ResultSummary,
  SendIntent,
  UnknownReason,
} from './ledger.js';
export { verifyHistory } from './ledger.js';
export type { DurableStatus } from './status.js';
export { statusOf } from './status.js';

/**
Opens the IndexedDB ledger named `options.name`, as `idb.ts` does, where the platform has IndexedDB.

@throws {LedgerError} `unsupported` (rule `indexeddb`) without IndexedDB, its message naming the explicit
  choices: `@surecall/client/ledger/memory` for a volatile ledger, `@surecall/client/ledger/file` under Node,
  Deno or Bun; otherwise what the IndexedDB store throws.

@example
```ts
import { openLedger } from '@surecall/client/ledger'; // in a worker, or a bundle with no platform condition
const ledger = await openLedger({ name: 'sends' });
```
*/
export function openLedger(options: LedgerOptions): Promise<Ledger> {
  if (typeof (globalThis as { indexedDB?: unknown }).indexedDB === 'undefined') {
    return Promise.reject(
      new LedgerError('unsupported', {
        rule: 'indexeddb',
        hint: ': no IndexedDB here, and no export condition named another durable store; import @surecall/client/ledger/memory for a volatile ledger, or @surecall/client/ledger/file under Node, Deno or Bun',
      }),
    );
  }
  return openIndexedDbLedger(options);
}
