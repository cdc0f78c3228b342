/**
@module
What every ledger store entry (`@surecall/client/ledger`, `/ledger/file`, `/ledger/memory`, and the IndexedDB store a browser bundle gets) exports besides its own `openLedger`: the record model, the history verifier and the caller's view of a record. Written once here and re-exported by `memory.ts`, `idb.ts` and `file.ts`, so the export conditions can pick any store and the names stay the same.
*/

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
