/**
@module
The Sends panel's model: a row per durable send from its ledger record, its timeline from its revisions
(executing → unknown → pending → committed or failed, each step with its cause), and the unknown outcomes
inbox. Pure functions over the ledger's public types; the hook feeds them `ledger.list()`, `ledger.subscribe`
and `ledger.history(id)`.
*/
import {
  type DeliveryMode,
  type DurableStatus,
  type ErrorSummary,
  type LedgerRecord,
  type LedgerRevision,
  type ResultSummary,
  statusOf,
} from '@surecall/client/ledger';

/** What the Sends panel shows of one record. */
export type SendRow = {
  readonly id: string;
  /**
  Where the send stands, as the durable agent reports it (`in-flight`, `committed`, `failed`, `unknown`,
  `pending`, `unresolved`).
  */
  readonly status: DurableStatus;
  readonly delivery: DeliveryMode;
  /** The idempotency key of a keyed send. */
  readonly key: string | undefined;
  readonly attempts: number;
  readonly ageMs: number;
  /** The text of the message's text parts, for a person to recognise the send. */
  readonly text: string;
  /** One line: the result, the failure, or why the outcome is unknown. */
  readonly detail: string;
  /** For a pending record: when its next probe is due. */
  readonly notBefore: number | undefined;
  readonly revision: number;
  /**
  The trace id of the send, where it was traced (`@surecall/client/otel`, docs/tracing.md#durable-sends): the
  id a person looks the send's trace up by in their tracing backend.
  */
  readonly traceId: string | undefined;
};

/** One step of a send's timeline: a revision of its record. */
export type TimelineStep = {
  readonly revision: number;
  readonly at: number;
  /**
  The ledger transition (`create`, `start`, `commit`, `fail`, `unknown`, `pending`, `unresolved`,
  `reconcile-commit`, `reconcile-fail`).
  */
  readonly cause: string;
  /** The status the record had after it. */
  readonly status: string;
  /**
  What the transition says about why: the error summary, the unknown reason, the result, the next probe time.
  */
  readonly detail: string;
};

/**
One line for an error summary: its name, kind and reason, and the HTTP status or remote code when there was
one. Public-safe by construction (the ledger keeps nothing else).

@example
```ts
describeError({ name: 'TransportError', kind: 'transport', reason: 'network', dispatched: true }); // 'TransportError (transport/network, dispatched)'
```
*/
export function describeError(error: ErrorSummary): string {
  const extra = [
    error.dispatched ? 'dispatched' : 'not dispatched',
    ...(error.httpStatus === undefined ? [] : [`HTTP ${error.httpStatus}`]),
    ...(error.remoteCode === undefined ? [] : [`code ${error.remoteCode}`]),
    ...(error.violation === undefined ? [] : [error.violation.rule]),
  ];
  return `${error.name} (${error.kind}/${error.reason}, ${extra.join(', ')})`;
}

/**
One line for what a committed send proved.

@example
```ts
describeResult({ kind: 'task', taskId: 't-1', contextId: 'c-1' }); // 'task t-1'
```
*/
export function describeResult(result: ResultSummary): string {
  return result.kind === 'task' ? `task ${result.taskId ?? ''}` : 'direct message';
}

function messageText(record: LedgerRecord): string {
  const texts = record.message.parts.flatMap((part) =>
    'text' in part && typeof part.text === 'string' ? [part.text] : [],
  );
  return texts.join(' ');
}

function stateDetail(record: LedgerRecord): string {
  const { state } = record;
  switch (state.status) {
    case 'prepared':
      return 'recorded, not sent yet';
    case 'executing':
      return `attempt ${state.attemptId} in flight`;
    case 'committed':
      return describeResult(state.result);
    case 'failed':
      return `${state.effect}: ${describeError(state.cause)}`;
    case 'unknown': {
      const probes = state.pending === undefined ? '' : `, ${state.pending.probes} probe(s) so far`;
      const cause = state.cause === undefined ? '' : `: ${describeError(state.cause)}`;
      return `${state.reason}${probes}${cause}`;
    }
    case 'duplicated':
      return describeDuplicate(state.taskIds);
  }
}

/** A send that ran more than once, for the Sends panel's alerts. */
export type DuplicatedSend = {
  readonly id: string;
  readonly text: string;
  readonly taskIds: readonly string[];
};

/**
The records that ended `duplicated` (docs/durable-send.md#duplicated), in the order given.

@example
```ts
duplicatedSends(records); // [{ id, text: 'book it', taskIds: ['t-1', 't-2'] }]
```
*/
export function duplicatedSends(records: readonly LedgerRecord[]): DuplicatedSend[] {
  return records.flatMap((record) =>
    record.state.status === 'duplicated'
      ? [{ id: record.id, text: messageText(record), taskIds: record.state.taskIds }]
      : [],
  );
}

/**
One line for a send found in more than one task (docs/durable-send.md#duplicated).

@example
```ts
describeDuplicate(['t-1', 't-2']); // 'ran 2 times: tasks t-1, t-2'
```
*/
export function describeDuplicate(taskIds: readonly string[]): string {
  return `ran ${taskIds.length} times: tasks ${taskIds.join(', ')}`;
}

/**
The row of one record, its age measured at `now`.

@example
```ts
sendRow(record, Date.now()).status; // 'unknown'
```
*/
export function sendRow(record: LedgerRecord, now: number): SendRow {
  const { state } = record;
  return {
    id: record.id,
    status: statusOf(record),
    delivery: record.delivery,
    key: record.idempotencyKey,
    attempts: record.attempts.length,
    ageMs: Math.max(0, now - record.createdAt),
    text: messageText(record),
    detail: stateDetail(record),
    notBefore: state.status === 'unknown' ? state.pending?.notBefore : undefined,
    revision: record.revision,
    traceId: traceIdOf(record.traceparent),
  };
}

/**
The trace id of a W3C Trace Context `traceparent` (its second field, 32 lowercase hex digits), or `undefined`
for none or one of another form: the record keeps the propagator's value as a label (ledger/intent.ts), and
the panel shows an id only where it is one.

@example
```ts
traceIdOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'); // '4bf92f3577b34da6a3ce929d0e0e4736'
```
*/
export function traceIdOf(traceparent: string | undefined): string | undefined {
  const match =
    traceparent === undefined ? null : /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/.exec(traceparent);
  return match?.[1] === undefined || /^0+$/.test(match[1]) ? undefined : match[1];
}

/**
Who holds a record, where the tabs of an origin share the ledger (docs/durable-send.md#tabs): the tab sending
it (an executing record) or probing it; `undefined` when no tab does.

@example
```ts
ownerNote(record, await ledger.ownerOf(record.id)); // 'sent by tab 9c41d2…'
```
*/
export function ownerNote(
  record: LedgerRecord,
  owner: { readonly tab: string; readonly thisTab: boolean } | undefined,
): string | undefined {
  if (owner === undefined) {
    return undefined;
  }
  const doing = record.state.status === 'executing' ? 'sent' : 'probed';
  return owner.thisTab ? `${doing} by this tab` : `${doing} by tab ${owner.tab.slice(0, 6)}…`;
}

/**
What a reconciliation a person started left, in the order its sends were given: how many ended in each status.
A send another tab is probing stays `unknown` here (docs/durable-send.md#tabs: one prober per record), so the
line says the click did run, and left them alone.

@example
```ts
reconcileReport(['committed', 'unknown', 'unknown']); // 'Reconciled 3: 1 committed · 2 unknown'
```
*/
export function reconcileReport(statuses: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const status of statuses) {
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  const parts = [...counts].map(([status, count]) => `${count} ${status}`);
  return `Reconciled ${statuses.length}: ${parts.join(' · ')}`;
}

/**
`records` with `record` in it: replaced when it is a later revision of one held, added otherwise; newest send
first. A change that arrives out of order (an older revision) is ignored.

@example
```ts
setRecords((held) => withRecord(held, change.record));
```
*/
export function withRecord(records: readonly LedgerRecord[], record: LedgerRecord): LedgerRecord[] {
  const held = records.find((entry) => entry.id === record.id);
  if (held !== undefined && held.revision >= record.revision) {
    return [...records];
  }
  return [...records.filter((entry) => entry.id !== record.id), record].sort(
    (left, right) => right.createdAt - left.createdAt || (left.id < right.id ? 1 : -1),
  );
}

function transitionDetail(revision: LedgerRevision): string {
  const { transition } = revision;
  switch (transition.type) {
    case 'create':
      return `${transition.intent.delivery}${transition.intent.idempotencyKey === undefined ? '' : `, key ${transition.intent.idempotencyKey}`}`;
    case 'start':
      return `attempt ${transition.attemptId}`;
    case 'commit':
    case 'reconcile-commit':
      return describeResult(transition.result);
    case 'fail':
    case 'reconcile-fail':
      return `${transition.effect}: ${describeError(transition.cause)}`;
    case 'unknown':
    case 'unresolved':
      return `${transition.reason}${transition.cause === undefined ? '' : `: ${describeError(transition.cause)}`}`;
    case 'pending':
      return `next probe not before ${new Date(transition.notBefore).toISOString().slice(11, 23)}`;
    case 'duplicate':
      return describeDuplicate(transition.taskIds);
  }
}

const statusAfter: Readonly<Record<string, string>> = {
  create: 'prepared',
  start: 'executing',
  commit: 'committed',
  'reconcile-commit': 'committed',
  fail: 'failed',
  'reconcile-fail': 'failed',
  unknown: 'unknown',
  unresolved: 'unresolved',
  pending: 'pending',
  duplicate: 'duplicated',
};

/**
A send's timeline from its history, oldest first: each revision's transition, the status it left and its
cause.

@example
```ts
timeline(await ledger.history(id)).map((step) => step.status); // ['prepared', 'executing', 'unknown', 'committed']
```
*/
export function timeline(revisions: readonly LedgerRevision[]): TimelineStep[] {
  return revisions.map((revision) => ({
    revision: revision.revision,
    at: revision.at,
    cause: revision.transition.type,
    status: statusAfter[revision.transition.type] ?? revision.transition.type,
    detail: transitionDetail(revision),
  }));
}

/** Whether a row belongs in the unknown outcomes inbox, and whether a probe may run now. */
export type InboxEntry = SendRow & { readonly due: boolean };

/**
The unknown outcomes inbox: every record the agent cannot yet call committed or failed, oldest first, each
marked due when a probe may run now (a pending record only from its not-before time; an unresolved one never:
a person decides).

@example
```ts
inbox(records, Date.now()).filter((entry) => entry.due);
```
*/
export function inbox(records: readonly LedgerRecord[], now: number): InboxEntry[] {
  return records
    .filter((record) => record.state.status === 'unknown')
    .map((record) => sendRow(record, now))
    .map((row) => ({
      ...row,
      due: row.status === 'unknown' || (row.status === 'pending' && (row.notBefore ?? 0) <= now),
    }))
    .sort((left, right) => right.ageMs - left.ageMs);
}

/**
Whether a durable event says that a send ran more than once (docs/durable-send.md#duplicated), for the status
line's count.

@example
```ts
useEventCount(agent?.events, isDuplicated);
```
*/
export function isDuplicated(event: unknown): boolean {
  return typeof event === 'object' && event !== null && (event as { type?: unknown }).type === 'duplicated';
}

/**
Why a durable send was refused before anything left (a follower tab's ledger, invalid input), naming only the
error's public `reason`.

@example
```ts
describeRefusal(new LedgerError('invalid-input')); // 'The durable send was refused: invalid-input'
```
*/
export function describeRefusal(error: unknown): string {
  return `The durable send was refused: ${error instanceof Error && 'reason' in error ? String(error.reason) : 'unexpectedly'}`;
}
