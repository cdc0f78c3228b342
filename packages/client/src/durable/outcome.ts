/**
@module
Where a durable send stands for its caller, and what a failed call means for a durable send
(docs/durable-send.md#classifying-a-failure) and for a reconciliation probe
(docs/durable-send.md#probe-failures). Both are pure tables over the closed error taxonomy: whether the
request may have reached the peer (`dispatched`), and whether the peer's answer is an authoritative refusal
made before anything was applied.
*/

import { isClientError } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import { notAppliedCodes } from '../idempotency/retry.js';
import { type ErrorSummary, errorSummary, type LedgerRecord } from '../ledger/ledger.js';
import { type DurableStatus, statusOf } from '../ledger/status.js';
import type { SendMessageResponse } from '../protocol/send-message.js';
import type { ProbeResult, ProbeRule } from './events.js';

export type { DurableStatus } from '../ledger/status.js';
export { statusOf } from '../ledger/status.js';

/**
How a send that failed ended (docs/durable-send.md#classifying-a-failure):

- `not-started`: it failed before dispatch, nothing left;
- `not-applied`: the peer answered with an authoritative pre-application rejection;
- `unknown`: anything else after possible dispatch (a lost or late answer, a reset, an answer that is not A2A
  or breaks the protocol, a remote error without one of those codes, a cancellation once sent, or a failure
  this client cannot name); reconcile first.
*/
export type SendFailure =
  | { readonly outcome: 'not-started'; readonly cause: ErrorSummary }
  | { readonly outcome: 'not-applied'; readonly cause: ErrorSummary }
  | { readonly outcome: 'unknown'; readonly cause?: ErrorSummary };

/**
Classifies what a send threw. Anything that is not a client error is `unknown` without a cause: it may have
come from anywhere after the ledger said `executing`, and only a client error's summary is public-safe.

@example
```ts
classifySendFailure(new TransportError('network', { dispatched: true })); // { outcome: 'unknown', cause: { … } }
classifySendFailure(new RemoteError({ dispatched: true, remoteCode: -32602 })).outcome; // 'not-applied'
```
*/
export function classifySendFailure(error: unknown): SendFailure {
  if (!isClientError(error)) {
    return { outcome: 'unknown' };
  }
  const cause = errorSummary(error);
  if (!error.dispatched) {
    return { outcome: 'not-started', cause };
  }
  if (error.kind === 'remote' && error.remoteCode !== undefined && notAppliedCodes.has(error.remoteCode)) {
    return { outcome: 'not-applied', cause };
  }
  return { outcome: 'unknown', cause };
}

/** What a probe that threw found: never a `match` or a `none`. */
export type ProbeFailure = {
  readonly result: Exclude<ProbeResult, 'match' | 'none'>;
  readonly rule: ProbeRule;
  readonly cause: ErrorSummary;
};

/**
Classifies what a probe (a ListTasks page, a keyed or message-id replay) threw, by
docs/durable-send.md#probe-failures. A probe error is never "reconcile first", which would be recursive:

- `transient-error`: a lost connection or a timeout (`dependency-unavailable`), a token provider that is
  unavailable (`dependency-unavailable`), a remote error without a definitive code (`remote-unavailable`):
  probe again after the delay;
- `refused`: a denied token (`permission-denied`), a definitive rejection (`operation-rejected`), a request or
  capability the client will not send, or credentials it does not have (`operation-unsupported`): no later
  probe can do better;
- `conflict`: an answer that is not A2A or breaks the protocol (`invalid-response`): the peer's evidence
  cannot be trusted.

Returns `undefined` for anything that is not a client error: that is a fault of this process, not evidence,
and the caller rethrows it without touching the ledger.

@example
```ts
classifyProbeFailure(new TransportError('timeout', { dispatched: true }))?.result; // 'transient-error'
```
*/
export function classifyProbeFailure(error: unknown): ProbeFailure | undefined {
  if (!isClientError(error)) {
    return undefined;
  }
  const cause = errorSummary(error);
  switch (error.kind) {
    case 'transport':
      return { result: 'transient-error', rule: 'dependency-unavailable', cause };
    case 'authorization':
      if (error.reason === 'unavailable') {
        return { result: 'transient-error', rule: 'dependency-unavailable', cause };
      }
      return {
        result: 'refused',
        rule: error.reason === 'permission-denied' ? 'permission-denied' : 'operation-unsupported',
        cause,
      };
    case 'request':
    case 'capability':
      return { result: 'refused', rule: 'operation-unsupported', cause };
    case 'remote':
      return error.remoteCode !== undefined && notAppliedCodes.has(error.remoteCode)
        ? { result: 'refused', rule: 'operation-rejected', cause }
        : { result: 'transient-error', rule: 'remote-unavailable', cause };
    case 'http-protocol':
    case 'invalid-response':
      return { result: 'conflict', rule: 'invalid-response', cause };
  }
}

/** What a send or a reconciliation left. */
export type DurableOutcome = {
  readonly status: DurableStatus;
  /** The record's id: the logical send. */
  readonly id: string;
  /** The record as this call left it. */
  readonly record: LedgerRecord;
  /**
  The answer this call received and committed: the send's or a replay's, or `{ task }` for the task a scan
  found.
  */
  readonly answer?: SendMessageResponse;
  /** The error this call received, when the send failed or its outcome is unknown. */
  readonly error?: unknown;
};

/**
The outcome a call reports for `record`, with what the call itself received.

@example
```ts
durableOutcome(record, { error }); // { status: 'unknown', id, record, error }
```
*/
export function durableOutcome(
  record: LedgerRecord,
  extra: { readonly answer?: SendMessageResponse; readonly error?: unknown } = {},
): DurableOutcome {
  return {
    status: statusOf(record),
    id: record.id,
    record,
    ...optionalMembers({ answer: extra.answer, error: extra.error }),
  };
}
