/**
@module
The durable agent's send path (docs/durable-send.md#the-promise): the message is recorded in the ledger with
its first attempt before it leaves (docs/durable-send.md#execution-order), sent once with
`returnImmediately: true`, and what the attempt ended in is classified and written as committed, failed (not
started, or not applied) or unknown. After dispatch nothing keeps the record `executing`
(docs/durable-send.md#after-dispatch).
*/
import { InvalidResponseError, LedgerError } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import { keyOf, newIdempotencyKey, setKey } from '../idempotency/key.js';
import { attemptMessage, errorSummary, type LedgerRecord, type LedgerTransition } from '../ledger/ledger.js';
import { decode } from '../protocol/decode.js';
import { Message } from '../protocol/message.js';
import type { SendMessageResponse } from '../protocol/send-message.js';
import { type AgentState, announce, write } from './agent-state.js';
import { classifySendFailure, type DurableOutcome, durableOutcome } from './outcome.js';
import { answerEchoes, recoveryContextId, resultSummary, sameMessage } from './recovery.js';

/**
The messageId prefix of an at-most-once attempt: `surecall-attempt-<attemptId>`, fresh for every physical
attempt (docs/durable-send.md#delivery-modes).
*/
export const attemptMessagePrefix = 'surecall-attempt-';

/**
The messageId prefix of a send whose identity survives replays (keyed, message-id-deduplicated):
`surecall-send-<record id>`.
*/
export const sendMessagePrefix = 'surecall-send-';

/**
A message for a durable send: the agent sets `messageId` itself (per attempt for at-most-once, per send
otherwise).
*/
export type DurableMessage = Omit<Message, 'messageId'>;

/** What one send may add. */
export type DurableSendOptions = {
  /**
  The record id. Reusing one returns that record's outcome without sending, when the message is the same;
  otherwise `LedgerError('stale-revision')`. @default crypto.randomUUID()
  */
  readonly id?: string;
  /** Cancels the send: before dispatch it fails as not started, after it the outcome is unknown. */
  readonly signal?: AbortSignal;
};

/**
Records, sends once, classifies (see `DurableAgent.send`): `committed`, `failed` or `unknown`, or for a reused
id that record's status without sending; with the audit on, a commit is followed by one scan that may turn it
`duplicated`.

@example
```ts
const outcome = await send(state, { role: 'ROLE_USER', parts: [{ text: 'book it' }] });
```
*/
export async function send(
  state: AgentState,
  message: DurableMessage,
  sendOptions: DurableSendOptions = {},
): Promise<DurableOutcome> {
  const { client, ledger, delivery, recovery } = state;
  const id = sendOptions.id ?? crypto.randomUUID();
  refuseCallerContext(state, message);
  if (sendOptions.id !== undefined) {
    const existing = await ledger.get(id);
    if (existing !== undefined) {
      return recovered(existing, message);
    }
  }
  const key = keyFor(state, message);
  const intent = {
    id,
    tenant: state.tenant,
    run: state.run,
    agent: state.identity,
    message: intentMessage(message, id, key),
    delivery,
    ...optionalMembers({ idempotencyKey: key }),
  };
  const attemptId = crypto.randomUUID();
  const contextId =
    recovery.kind === 'context-history'
      ? await recoveryContextId({ recordId: id, attemptId, cardDigest: client.cardDigest })
      : undefined;
  // docs/durable-send.md#execution-order: the record and its `executing` attempt are durable, in one write,
  // before the request can leave.
  const record = await ledger.create(intent, {
    attemptId,
    messageId: delivery === 'at-most-once' ? `${attemptMessagePrefix}${attemptId}` : intent.message.messageId,
    ...optionalMembers({ contextId }),
  });
  announce(state, null, { id: record.id, state: { status: 'prepared' }, revision: 0 }, 'create');
  announce(state, 'prepared', record, 'start');
  const sent = attemptMessage(record, attemptId) as Message;
  let answer: SendMessageResponse;
  try {
    answer = await sendOnce(state, record, attemptId, sent, sendOptions.signal);
  } catch (error) {
    const failed = await settle(state, record, attemptId, failureTransition(attemptId, error));
    return failed instanceof LedgerError ? unrecorded(record, failed) : durableOutcome(failed, { error });
  }
  if (!answerEchoes(answer, sent)) {
    // The answer contradicts what was sent: it proves nothing about what the peer stored.
    const error = new InvalidResponseError('identity', {
      dispatched: true,
      violation: { rule: 'history-echo' },
    });
    const contradicted = await settle(state, record, attemptId, {
      type: 'unknown',
      attemptId,
      reason: 'ambiguous-outcome',
      cause: errorSummary(error),
    });
    return contradicted instanceof LedgerError
      ? unrecorded(record, contradicted)
      : durableOutcome(contradicted, { error });
  }
  const committed = await settle(state, record, attemptId, {
    type: 'commit',
    attemptId,
    result: resultSummary(answer),
  });
  if (committed instanceof LedgerError) {
    return unrecorded(record, committed, answer);
  }
  return durableOutcome(state.audit ? await state.auditCommit(committed) : committed, { answer });
}

/**
The one SendMessage of an attempt or a replay: `returnImmediately`, the attempt's identity for the token
provider, and never a retry.
*/
export function sendOnce(
  state: AgentState,
  record: LedgerRecord,
  attemptId: string,
  message: Message,
  signal?: AbortSignal,
): Promise<SendMessageResponse> {
  const { skill } = state;
  // The `attempt` option also keeps the client's retry policy out of it: the ledger records every attempt.
  return state.client.sendMessage(
    { message, configuration: { returnImmediately: true } },
    {
      attempt: { sendId: record.id, attemptId },
      ...optionalMembers({ signal, skill }),
    },
  );
}

/** Under context-history recovery, refuses a message that names a context or a task of the caller's. */
function refuseCallerContext(state: AgentState, message: DurableMessage): void {
  if (
    state.recovery.kind === 'context-history' &&
    (message.contextId !== undefined || message.taskId !== undefined)
  ) {
    // The recovery context is the agent's: a caller's context, or a task (whose context is its own), would
    // leave the scan nothing to find.
    throw new LedgerError('invalid-input', {
      rule: message.contextId === undefined ? 'task-id' : 'context-id',
    });
  }
}

/**
The intent's message: the send's own messageId and, for keyed delivery, the idempotency key; in the canonical
ProtoJSON shape (docs/protocol-checks.md#protojson), so that the ledger holds the message as a peer's echo of
it decodes.
*/
function intentMessage(message: DurableMessage, id: string, key: string | undefined): Message {
  let copy: Message;
  try {
    copy = { ...structuredClone(message), messageId: `${sendMessagePrefix}${id}` };
  } catch (error) {
    throw new LedgerError('invalid-input', { rule: 'message-json', cause: error });
  }
  // A message that does not decode is kept as given: the send refuses it before dispatch (`RequestError`).
  const canonical = decode(Message, copy);
  if (canonical.ok) {
    copy = canonical.value;
  }
  if (key !== undefined) {
    setKey(copy, key);
  }
  return copy;
}

/**
The idempotency key of a keyed send: the caller's, when the message carries a valid one, else a fresh one.
*/
function keyFor(state: AgentState, message: DurableMessage): string | undefined {
  if (state.delivery !== 'keyed') {
    return undefined;
  }
  const given = keyOf(message);
  if (!given.ok) {
    throw new LedgerError('invalid-input', { rule: 'idempotency-key' });
  }
  return given.value ?? newIdempotencyKey();
}

/** A reused id: the same message gives that record back; another message is refused, as `create` would. */
function recovered(existing: LedgerRecord, message: DurableMessage): DurableOutcome {
  const again = intentMessage(message, existing.id, existing.idempotencyKey);
  if (!sameMessage(again, existing.message)) {
    throw new LedgerError('stale-revision', { rule: 'exists' });
  }
  return durableOutcome(existing);
}

/**
What a dispatch that threw leads to (docs/durable-send.md#classifying-a-failure): `unknown` when the request
may have been applied, else `fail` with the effect proven.
*/
function failureTransition(attemptId: string, error: unknown): LedgerTransition {
  const failure = classifySendFailure(error);
  if (failure.outcome === 'unknown') {
    return {
      type: 'unknown',
      attemptId,
      reason: 'ambiguous-outcome',
      ...optionalMembers({ cause: failure.cause }),
    };
  }
  return { type: 'fail', attemptId, cause: failure.cause, effect: failure.outcome };
}

/**
Records what a dispatched attempt ended in. After dispatch nothing may keep the record in `executing`
(docs/durable-send.md#after-dispatch): should the ledger refuse the transition's content (`invalid-input`:
something the peer sent that still breaks a record's bound), the attempt is recorded `unknown` without a cause
instead. Any other refusal of the store (`io`, `fenced`, `closed`, a `stale-revision` from another writer) is
handed back, not thrown: the call then ends `unknown` ({@link unrecorded}).
*/
async function settle(
  state: AgentState,
  record: LedgerRecord,
  attemptId: string,
  transition: LedgerTransition,
): Promise<LedgerRecord | LedgerError> {
  try {
    return await write(state, record, transition);
  } catch (error) {
    if (!(error instanceof LedgerError)) {
      throw error;
    }
    if (error.reason !== 'invalid-input') {
      return error;
    }
  }
  try {
    return await write(state, record, { type: 'unknown', attemptId, reason: 'ambiguous-outcome' });
  } catch (error) {
    if (error instanceof LedgerError) {
      return error;
    }
    throw error;
  }
}

/**
The outcome of a dispatched attempt whose ending the store refused to record
(docs/durable-send.md#after-dispatch): `unknown`, since a request that may have left must never read as one
that did not, with the store's `LedgerError` as `error` and, when the peer answered, its `answer`. `record` is
the last revision this call wrote, still `executing`: the next writable open turns it `unknown`
(`crashed-while-executing`), and a reconcile pass resolves it by evidence.
*/
function unrecorded(record: LedgerRecord, error: LedgerError, answer?: SendMessageResponse): DurableOutcome {
  return { status: 'unknown', id: record.id, record, error, ...optionalMembers({ answer }) };
}
