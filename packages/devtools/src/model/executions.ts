/**
@module
The Executions table's model: one row per message this page sent, the send box's plain and streamed sends and
every attempt of every durable send in the ledger, each with the count the mock agent's own counter gives its
message id (`GET /__executions`), and a last row for the executions of messages this page did not send, so
the rows always add up to the counter's total.
*/
import type { LedgerRecord } from '@surecall/client/ledger';
import { statusOf } from '@surecall/client/ledger';
import type { ExecutionCount } from './faults.js';
import type { SendRecord } from './send.js';

/** One row: a message this page sent, and how many times the agent ran it. */
export type ExecutionRow = {
  readonly messageId: string;
  /** The message's text, as sent. */
  readonly text: string;
  /** Where it was sent from: the send box, or a durable send (an attempt of a ledger record). */
  readonly source: 'send box' | 'durable';
  /** The durable send's record id, for the link from its row in the Sends panel. */
  readonly recordId: string | undefined;
  /** What the client saw: the send box's outcome, or the durable send's status. */
  readonly outcome: string;
  /** The agent's count, `undefined` until the counter was read for this message id. */
  readonly executions: number | undefined;
};

/** The table: its rows, the executions of other messages, and the counter's total they add up to. */
export type ExecutionTable = {
  readonly rows: readonly ExecutionRow[];
  /** The counter's total less every row's count: messages this page did not send (another tab, a script). */
  readonly others: number;
  readonly total: number;
};

function textOf(record: LedgerRecord): string {
  return record.message.parts.map((part) => ('text' in part ? part.text : '[data]')).join(' ');
}

/** The message ids the counter is asked about: the send box's, then every durable attempt's. */
export function executionMessageIds(
  sends: readonly SendRecord[],
  records: readonly LedgerRecord[],
): string[] {
  return [
    ...new Set([
      ...sends.map((send) => send.messageId),
      ...records.flatMap((record) => record.attempts.map((attempt) => attempt.messageId)),
    ]),
  ];
}

/**
The Executions table over the send box's `sends`, the ledger's `records` and the counter's `executions`.

@example
```ts
const table = executionTable(box.sends, ledgerRecords, { total: 3, byMessageId: { m1: 1, m2: 1 } });
table.others; // 1: an execution of a message this page did not send
```
*/
export function executionTable(
  sends: readonly SendRecord[],
  records: readonly LedgerRecord[],
  executions: ExecutionCount,
): ExecutionTable {
  const count = (messageId: string) => executions.byMessageId[messageId];
  const boxed = new Set(sends.map((send) => send.messageId));
  const rows: ExecutionRow[] = [
    ...sends.map((send) => ({
      messageId: send.messageId,
      text: send.text,
      source: 'send box' as const,
      recordId: undefined,
      outcome: send.outcome,
      executions: count(send.messageId),
    })),
    ...records.flatMap((record) =>
      record.attempts
        .filter((attempt) => !boxed.has(attempt.messageId))
        .map((attempt) => ({
          messageId: attempt.messageId,
          text: textOf(record),
          source: 'durable' as const,
          recordId: record.id,
          outcome: statusOf(record),
          executions: count(attempt.messageId),
        })),
    ),
  ];
  const counted = new Set<string>();
  let sum = 0;
  for (const row of rows) {
    if (!counted.has(row.messageId)) {
      counted.add(row.messageId);
      sum += row.executions ?? 0;
    }
  }
  return { rows, others: Math.max(0, executions.total - sum), total: executions.total };
}
