/**
@module
The audit of a committed send (docs/durable-send.md#the-audit): one bounded scan of the send's recovery
context right after the commit. A commit proves the peer holds the message once; it cannot show that the peer
ran it a second time, which a browser's own re-send of a POST does behind the page's back
(docs/interop.md#browsers), and then the page sees only the second answer. A second task holding the message
turns the record `duplicated`. Any other finding leaves the commit as it stands: the audit can only add
evidence of a duplicate, never take a commit back.
*/
import type { CallOptions } from '../client/call.js';
import type { A2aClient } from '../client/client.js';
import { LedgerError } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import { attemptMessage, type LedgerRecord, type LedgerTransition } from '../ledger/ledger.js';
import type { Message } from '../protocol/message.js';
import type { DurableEvent } from './events.js';
import type { ResolvedRecovery } from './options.js';
import { reportedProbe, type ScanPage, scanContextHistory } from './recovery.js';

/** What the audit needs from its agent. */
export type AuditorInput = {
  readonly client: A2aClient;
  readonly recovery: ResolvedRecovery;
  readonly skill: string | undefined;
  readonly emit: (event: DurableEvent) => void;
  /** Appends a transition to the record's head and announces it. */
  readonly write: (record: LedgerRecord, transition: LedgerTransition) => Promise<LedgerRecord>;
  /** The record's head, when the audit's write lost a race. */
  readonly reread: (id: string) => Promise<LedgerRecord | undefined>;
};

/**
Creates the audit of one agent: given a committed record whose attempt carried a recovery context, it scans
that context once, within the recovery's bounds, emits the scan as a probe (`audit: true`), and returns the
record as it then stands: `duplicated` when a second task holds the message, otherwise unchanged. Records it
cannot audit (not committed, no recovery context, an agent without context-history recovery) come back
unchanged, without I/O. It never throws for what the peer does: a failed scan is reported as a probe event and
leaves the commit standing.

@example
```ts
const audit = createAuditor({ client, recovery, skill, emit, write, reread: ledger.get });
const record = await audit(committed); // record.state.status: 'committed' or 'duplicated'
```
*/
export function createAuditor(input: AuditorInput): (record: LedgerRecord) => Promise<LedgerRecord> {
  const { client, recovery, skill, emit, write, reread } = input;
  return async (record) => {
    const { state } = record;
    if (state.status !== 'committed' || recovery.kind !== 'context-history') {
      return record;
    }
    const attempt = record.attempts.find((entry) => entry.attemptId === state.attemptId);
    if (attempt?.contextId === undefined) {
      return record;
    }
    const { id } = record;
    const { attemptId } = attempt;
    const callOptions: CallOptions = {
      attempt: { sendId: id, attemptId },
      ...optionalMembers({ skill }),
    };
    const onPage = (page: ScanPage) => emit({ type: 'probe-page', id, ...page, time: Date.now() });
    const report = await reportedProbe(
      emit,
      { id, attemptId, recovery: 'context-history', audit: true },
      async () => {
        try {
          const sent = attemptMessage(record, attemptId) as Message;
          return await scanContextHistory({ client, callOptions, sent, onPage }, attempt, recovery);
        } catch {
          // Not a client error: a fault of this process, not evidence. The commit stands; the span closes.
          return { result: 'transient-error', pagesScanned: 0, tasksExamined: 0, matches: 0 };
        }
      },
    );
    if (report.result !== 'duplicated' || report.taskIds === undefined) {
      return record;
    }
    let next: LedgerRecord;
    try {
      next = await write(record, { type: 'duplicate', attemptId, taskIds: [...report.taskIds] });
    } catch (error) {
      // Another writer moved the record meanwhile: what it wrote stands.
      if (error instanceof LedgerError && error.reason === 'stale-revision') {
        return (await reread(id)) ?? record;
      }
      throw error;
    }
    emit({ type: 'duplicated', id, attemptId, taskIds: report.taskIds, found: 'audit', time: Date.now() });
    return next;
  };
}
