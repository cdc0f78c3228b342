/**
@module
`@surecall/client/ledger/file`, the file ledger, Node's durable store (docs/durable-send.md#file-journal): an
append-only journal of lines chained as a whole (`journal/line.ts`), one line per revision, each carrying the
writer's fencing counter. A commit resolves only after a synchronized write covers its line, and concurrent
commits share one sync (group commit, `journal/appender.ts`).

The heap holds the open records (prepared, executing, unknown) with their histories, and for each settled
record only an index entry (status, times, the byte offsets of its lines); a settled record is read back from
the journal, and checked line by line, when asked for (`file/records.ts`). A snapshot file `<path>.snapshot`
checkpoints that index every few thousand lines and on close (`file/snapshot.ts`), so opening reads the
snapshot, checks that the journal still ends its checkpointed part with the line the snapshot names, loads the
open records, and replays only the lines written after the checkpoint (`file/replay.ts`). Settled records
older than the retention window are pruned when the journal is compacted (`file/compaction.ts`). A torn last
line (bytes after the last newline that are not a whole line: a write a crash interrupted, never acknowledged)
is truncated; anything else that fails to decode, chain or verify is `corrupt`, and nothing is ever changed to
make it fit. One process writes at a time, under the lock file `<path>.lock` (`lock.ts`); any number read
beside it with `readOnly` (`file/follower.ts`).
*/

export type { Compaction } from './file/compaction.js';
export { compactLedger } from './file/compaction.js';
export type { FileLedgerOptions } from './file/open.js';
export { ledgerPath, openLedger } from './file/open.js';
export type { LoneSync } from './journal/appender.js';
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
