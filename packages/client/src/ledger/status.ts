/**
@module
Where a record stands for its caller (`DurableStatus`): the ledger's states read as the durable agent reports
them. It sits on the ledger's floor, since every store entry exports `statusOf` and the durable layer above
re-exports it (ARCHITECTURE.md#import-rules).
*/
import { givenUp, type LedgerRecord } from './record.js';

/**
Where a record stands, for its caller:

- `committed`: the peer accepted the message and returned a durable handle (a task, or a direct message); not
  that the task finished (docs/durable-send.md#what-a-task-commits);
- `failed`: known not applied: it failed before it left, or the peer refused it before applying it;
- `unknown`: it may or may not have been applied: reconcile it before anything else;
- `pending`: a probe found no evidence yet; the next may run from `record.state.pending.notBefore`;
- `unresolved`: probing gave up (`no-evidence`; `direct-message`: no probe can find a direct Message;
  `no-list-tasks`: a v0.3 peer has no scan to run) or found evidence that contradicts itself
  (`conflicting-evidence`): a person decides; it is never sent again on its own;
- `in-flight`: prepared or executing; a send is under way (or the record is left from a crash before the
  ledger reopened);
- `duplicated`: a scan (a reconciliation, or the audit after a commit) found the message in two or more tasks,
  named in `record.state.taskIds`: the send ran more than once. Terminal, and never `committed`
  (docs/durable-send.md#duplicated).
*/
export type DurableStatus =
  | 'committed'
  | 'failed'
  | 'unknown'
  | 'pending'
  | 'unresolved'
  | 'in-flight'
  | 'duplicated';

/**
Where a record stands (see {@link DurableStatus}).

@example
```ts
statusOf(await ledger.get(id)); // 'pending'
```
*/
export function statusOf(record: LedgerRecord): DurableStatus {
  const { state } = record;
  switch (state.status) {
    case 'prepared':
    case 'executing':
      return 'in-flight';
    case 'committed':
    case 'failed':
    case 'duplicated':
      return state.status;
    case 'unknown':
      if (givenUp(state.reason)) {
        return 'unresolved';
      }
      return state.pending === undefined ? 'unknown' : 'pending';
  }
}
