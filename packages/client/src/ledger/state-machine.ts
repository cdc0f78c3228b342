/**
@module
The ledger's pure state machine (docs/durable-send.md#transitions): which transition may follow which state,
and the record each revision produces. No I/O, no clock: the time a revision carries is the only time it
knows.
*/
import { LedgerError } from '../core/errors.js';
import type { SendIntent } from './intent.js';
import {
  type Attempt,
  type CreateTransition,
  givenUp,
  type LedgerRecord,
  type LedgerRevision,
  type LedgerState,
  type LedgerTransition,
  maxDelayMs,
} from './record.js';

function refuse(rule: string): never {
  throw new LedgerError('invalid-transition', { rule });
}

function chain(rule: string, position: number): never {
  throw new LedgerError('corrupt', { rule, position });
}

type Next = { state: LedgerState; attempts: Attempt[] };

function requireAttempt(
  state: LedgerState,
  status: 'executing' | 'unknown',
  type: string,
  attemptId: string,
) {
  if (state.status !== status) {
    refuse(`${type}-from-${state.status}`);
  }
  // docs/durable-send.md#transitions: a result or an error is bound to the same attempt; a reconciliation to
  // the original one.
  if (state.attemptId !== attemptId) {
    refuse('attempt-mismatch');
  }
}

function start(record: LedgerRecord, t: Extract<LedgerTransition, { type: 'start' }>, at: number): Next {
  const state = record.state;
  if (state.status === 'failed') {
    // docs/durable-send.md#transitions: a failure is retried only with explicit SafeAfter advice, once its
    // delay has elapsed.
    if (state.retryAfterMs === undefined) {
      refuse('retry-not-authorized');
    }
    if (at < record.updatedAt + state.retryAfterMs) {
      refuse('retry-too-early');
    }
  } else if (state.status !== 'prepared') {
    // docs/durable-send.md#reconciling-an-unknown: an unknown outcome is resolved by evidence, never by a new
    // attempt.
    refuse(`start-from-${state.status}`);
  }
  if (record.attempts.some((attempt) => attempt.attemptId === t.attemptId)) {
    throw new LedgerError('reused-attempt');
  }
  if (record.delivery === 'message-id-deduplicated' && t.messageId !== record.message.messageId) {
    refuse('message-id-mismatch');
  }
  // docs/durable-send.md#delivery-modes: at-most-once gives every physical attempt a fresh messageId.
  if (
    record.delivery === 'at-most-once' &&
    record.attempts.some((attempt) => attempt.messageId === t.messageId)
  ) {
    refuse('message-id-reused');
  }
  // Written out rather than spread: see `recordAt`.
  const attempt: Attempt =
    t.contextId === undefined
      ? { attemptId: t.attemptId, messageId: t.messageId, startedAt: at }
      : { attemptId: t.attemptId, messageId: t.messageId, contextId: t.contextId, startedAt: at };
  const attempts = record.attempts.slice();
  attempts.push(attempt);
  return {
    state:
      t.contextId === undefined
        ? { status: 'executing', attemptId: t.attemptId, messageId: t.messageId }
        : { status: 'executing', attemptId: t.attemptId, messageId: t.messageId, contextId: t.contextId },
    attempts,
  };
}

function step(record: LedgerRecord, t: LedgerTransition, at: number): Next {
  const state = record.state;
  const attempts = record.attempts;
  switch (t.type) {
    case 'start':
      return start(record, t, at);
    case 'commit':
      requireAttempt(state, 'executing', t.type, t.attemptId);
      return { state: { status: 'committed', attemptId: t.attemptId, result: t.result }, attempts };
    case 'fail': {
      if (state.status === 'prepared') {
        // Abandoning a prepared send: nothing left, and no attempt exists to name.
        if (t.attemptId !== undefined) {
          refuse('attempt-mismatch');
        }
        if (t.effect !== 'not-started') {
          refuse('effect');
        }
      } else {
        requireAttempt(state, 'executing', t.type, t.attemptId ?? '');
      }
      const { type: _type, ...failure } = t;
      return { state: { status: 'failed', ...failure }, attempts };
    }
    case 'unknown': {
      requireAttempt(state, 'executing', t.type, t.attemptId);
      const { type: _type, ...unknown } = t;
      return { state: { status: 'unknown', ...unknown }, attempts };
    }
    case 'pending': {
      requireAttempt(state, 'unknown', t.type, t.attemptId);
      if (state.status !== 'unknown' || givenUp(state.reason)) {
        // docs/durable-send.md#reconciling-an-unknown: once probing gave up, a person resolves the record.
        refuse('unresolved');
      }
      // docs/durable-send.md#transitions: a pending delay is 1 ms..1 h; and no probe runs before the previous
      // one's not-before time.
      const delay = t.notBefore - at;
      if (delay < 1 || delay > maxDelayMs) {
        refuse('pending-delay');
      }
      if (state.pending !== undefined && at < state.pending.notBefore) {
        refuse('not-before');
      }
      const probes = (state.pending?.probes ?? 0) + 1;
      return { state: { ...state, pending: { notBefore: t.notBefore, probes } }, attempts };
    }
    case 'unresolved': {
      requireAttempt(state, 'unknown', t.type, t.attemptId);
      if (state.status !== 'unknown' || givenUp(state.reason)) {
        refuse('unresolved');
      }
      const cause = t.cause ?? state.cause;
      const { cause: _cause, ...rest } = state;
      return { state: { ...rest, reason: t.reason, ...(cause === undefined ? {} : { cause }) }, attempts };
    }
    case 'reconcile-commit':
      requireAttempt(state, 'unknown', t.type, t.attemptId);
      return { state: { status: 'committed', attemptId: t.attemptId, result: t.result }, attempts };
    case 'reconcile-fail':
      requireAttempt(state, 'unknown', t.type, t.attemptId);
      return {
        state: { status: 'failed', attemptId: t.attemptId, cause: t.cause, effect: t.effect },
        attempts,
      };
    case 'duplicate':
      // docs/durable-send.md#duplicated: a scan found the message in two tasks. From unknown (a
      // reconciliation, unresolved included) or committed (the audit); the original attempt either way, and
      // nothing leaves `duplicated`.
      if (state.status !== 'committed') {
        requireAttempt(state, 'unknown', t.type, t.attemptId);
      } else if (state.attemptId !== t.attemptId) {
        refuse('attempt-mismatch');
      }
      return { state: { status: 'duplicated', attemptId: t.attemptId, taskIds: t.taskIds }, attempts };
  }
}

/**
A record at a new head, written member by member in one order (every member of the intent, then the head).
Spreading a frozen record (`{ ...record }`) takes V8's slow path and leaves an object that is slow to freeze;
a record is built and frozen on every commit.
*/
function recordAt(intent: SendIntent, next: Next, revision: LedgerRevision, createdAt: number): LedgerRecord {
  const record: LedgerRecord = {
    id: intent.id,
    tenant: intent.tenant,
    run: intent.run,
    agent: intent.agent,
    message: intent.message,
    delivery: intent.delivery,
    state: next.state,
    attempts: next.attempts,
    revision: revision.revision,
    digest: revision.digest,
    createdAt,
    updatedAt: revision.at,
  };
  if (intent.idempotencyKey !== undefined) {
    record.idempotencyKey = intent.idempotencyKey;
  }
  if (intent.traceparent !== undefined) {
    record.traceparent = intent.traceparent;
  }
  if (intent.tracestate !== undefined) {
    record.tracestate = intent.tracestate;
  }
  return record;
}

function create(revision: LedgerRevision & { transition: CreateTransition }): LedgerRecord {
  return recordAt(
    revision.transition.intent,
    { state: { status: 'prepared' }, attempts: [] },
    revision,
    revision.at,
  );
}

/**
The pure state machine (docs/durable-send.md#transitions): the record `revision` produces from `record`
(`undefined` before revision 0). It checks the chain, the revision follows its record's head, names its digest
and is not older than it, and throws `LedgerError('corrupt')` when it does not; then the transition's
legality, throwing `invalid-transition` (with the rule) or `reused-attempt`. It never checks the digest
itself: `verifyHistory` does.

Legal moves: `prepared → start | fail(not-started)`; `executing → commit | fail | unknown` (same attempt);
`failed → start` only with `retryAfterMs` elapsed;
`unknown → pending | unresolved | reconcile-commit | reconcile-fail | duplicate` (original attempt; `pending`
and `unresolved` not once unresolved); `committed → duplicate` (same attempt: the audit's finding). Nothing
else leaves `committed`, nothing leaves `duplicated`, and `unknown` can never start an attempt.

@example
```ts
const next = applyTransition(record, revision); // throws LedgerError('invalid-transition', { rule: 'start-from-unknown' })
```
*/
export function applyTransition(record: LedgerRecord | undefined, revision: LedgerRevision): LedgerRecord {
  const { transition } = revision;
  if (transition.type === 'create') {
    if (record !== undefined || revision.revision !== 0) {
      chain('create-first', revision.revision);
    }
    return create({ ...revision, transition });
  }
  if (record === undefined) {
    return chain('missing-create', revision.revision);
  }
  if (record.id !== revision.id) {
    chain('other-record', revision.revision);
  }
  if (revision.revision !== record.revision + 1 || revision.previousDigest !== record.digest) {
    chain('sequence', revision.revision);
  }
  // The ledger's clock never goes backwards within a record: retry and probe delays are measured on it.
  if (revision.at < record.updatedAt) {
    chain('clock', revision.revision);
  }
  return recordAt(record, step(record, transition, revision.at), revision, record.createdAt);
}

/** The outcome of {@link verifyHistory}. */
