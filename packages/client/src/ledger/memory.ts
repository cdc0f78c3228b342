/**
@module
The memory ledger: the volatile store a caller chooses by name (`@surecall/client/ledger/memory`; no export
condition picks it, docs/durable-send.md#ledger-stores) and the one tests use. It keeps the same contract as
the durable stores (compare-and-set on the revision, frozen values, the same state machine), but nothing
outlives the process, and each `openLedger` starts empty.
*/
import { LedgerError } from '../core/errors.js';
import { type LedgerStore, openLedgerEngine } from './engine.js';
import { isSettled, type Ledger, type LedgerOptions, readOnlyOf, retentionOf } from './ledger.js';
import type { LedgerRecord, LedgerRevision } from './record.js';

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

type Entry = { record: LedgerRecord; revisions: LedgerRevision[] };

/** Appends between two prunings: a scan of the map costs O(records), so it runs once per this many writes. */
const PRUNE_EVERY = 256;

function memoryStore(retentionMs: number, writable: boolean): LedgerStore {
  const entries = new Map<string, Entry>();
  let writes = 0;
  // The heap is bounded by the retention window: settled records past it go, open ones never
  // (docs/durable-send.md#retention).
  function prune(): void {
    const cutoff = Date.now() - retentionMs;
    for (const [id, entry] of entries) {
      if (isSettled(entry.record) && entry.record.updatedAt < cutoff) {
        entries.delete(id);
      }
    }
  }
  return {
    writable,
    get: async (id) => entries.get(id)?.record,
    list: async (states) =>
      [...entries.values()]
        .map((entry) => entry.record)
        .filter((record) => states === undefined || states.has(record.state.status)),
    history: async (id) => [...(entries.get(id)?.revisions ?? [])],
    async append(record, revision) {
      if (++writes % PRUNE_EVERY === 0) {
        prune();
      }
      const entry = entries.get(record.id);
      if (revision.revision === 0) {
        if (entry !== undefined) {
          throw new LedgerError('stale-revision', { rule: 'exists' });
        }
        entries.set(record.id, { record, revisions: [revision] });
        return;
      }
      if (entry === undefined || entry.record.digest !== revision.previousDigest) {
        throw new LedgerError('stale-revision');
      }
      entry.record = record;
      entry.revisions.push(revision);
    },
    close: async () => undefined,
  };
}

/**
Opens an empty in-memory ledger. `name` is only a label; settled records older than `retentionMs` are dropped
as later writes come in. A `readOnly` one stays empty: it has nobody to follow.

@example
```ts
import { openLedger } from '@surecall/client/ledger';
const ledger = await openLedger({ name: 'test' });
```
*/
export async function openLedger(options: LedgerOptions): Promise<Ledger> {
  if (typeof options.name !== 'string' || options.name.length === 0) {
    throw new LedgerError('invalid-input', { rule: 'name' });
  }
  return openLedgerEngine(memoryStore(retentionOf(options), !readOnlyOf(options)));
}
