/**
@module
Delegation: a parent task hands work to a child agent and follows it to the end
(docs/idempotency.md#delegation). The child is started as a streaming send; its message gets a fresh
idempotency key when it has none and the peer honours keys, so a client with a retry policy can re-establish a
lost start without running the child twice. The child's task id is learned from the first event; the child is
canceled when the parent gives up, or when the stream is lost before the child settled (reached a terminal
state, `INPUT_REQUIRED` or `AUTH_REQUIRED`).
*/
import type { A2aClient } from '../client/client.js';
import type { OperationParams } from '../client/outbound.js';
import { type ClientError, InvalidResponseError, isClientError, RequestError } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import { keyOf, newIdempotencyKey, setKey } from '../idempotency/key.js';
import type { Message } from '../protocol/message.js';
import type { StreamResponse } from '../protocol/stream.js';
import { isInterrupted, type Task, type TaskStatus } from '../protocol/task.js';

/** Options of {@link startDelegation}. */
export type DelegationOptions = {
  /**
  The parent's signal: aborting it stops following the child and cancels it (unless it already settled).
  */
  readonly signal?: AbortSignal;
};

/**
How a delegation ended, a union on `kind`:

- `completed`, `failed` (`FAILED` or `REJECTED`), `canceled` (canceled by someone else): the child reached
  that terminal state; `status` is its last status;
- `interrupted`: the child needs something from the parent (`INPUT_REQUIRED` or `AUTH_REQUIRED`); it is
  settled, so it is not canceled;
- `message`: the child answered with a direct message and created no task;
- `lost`: the stream failed before the child settled (`error`); the child was then canceled, and `cancel` says
  whether that request was accepted;
- `cancel-requested`: the parent aborted; CancelTask was accepted and answered with `task`;
- `cancel-failed`: the parent aborted; CancelTask failed with `error`, so the child may still run.
*/
export type DelegationOutcome =
  | { readonly kind: 'completed'; readonly taskId: string; readonly status: TaskStatus }
  | { readonly kind: 'failed'; readonly taskId: string; readonly status: TaskStatus }
  | { readonly kind: 'canceled'; readonly taskId: string; readonly status: TaskStatus }
  | { readonly kind: 'interrupted'; readonly taskId: string; readonly status: TaskStatus }
  | { readonly kind: 'message'; readonly message: Message }
  | {
      readonly kind: 'lost';
      readonly taskId: string;
      readonly error: ClientError;
      readonly cancel: 'requested' | 'failed';
    }
  | { readonly kind: 'cancel-requested'; readonly taskId: string; readonly task: Task }
  | { readonly kind: 'cancel-failed'; readonly taskId: string; readonly error: ClientError };

/** A started delegation. */
export type Delegation = {
  /**
  The key the child's message carries: the caller's own, a fresh one the delegation added, or `undefined` when
  the peer is not known to honour keys and the caller set none.
  */
  readonly idempotencyKey: string | undefined;
  /** The child task's id, from the first event; `undefined` when the child answered with a direct message. */
  readonly taskId: string | undefined;
  /**
  Resolves once, with how the delegation ended. It rejects only with an error that is not a `ClientError`,
  which would be a bug.
  */
  readonly outcome: Promise<DelegationOutcome>;
};

type Iterator = AsyncIterator<StreamResponse, void, undefined>;

/**
The message actually sent: the caller's, or a copy with a fresh key; the caller's object is never changed.
*/
function childMessage(client: A2aClient, message: Message): { message: Message; key: string | undefined } {
  const held = keyOf(message);
  if (!held.ok) {
    // A malformed key would be refused by an honouring peer (docs/idempotency.md#server-semantics) and could
    // never deduplicate anything.
    throw new RequestError('invalid-params', {
      violation: { rule: 'idempotency-key', path: '$.message.metadata' },
    });
  }
  if (held.value !== undefined || !client.honoursIdempotency) {
    // docs/idempotency.md#delegation: a key the caller set is kept; none is added for a peer not known to
    // honour keys, which may refuse it.
    return { message, key: held.value };
  }
  const copy = structuredClone(message);
  const key = newIdempotencyKey();
  setKey(copy, key);
  return { message: copy, key };
}

function settledOutcome(taskId: string, status: TaskStatus): DelegationOutcome | undefined {
  switch (status.state) {
    case 'TASK_STATE_COMPLETED':
      return { kind: 'completed', taskId, status };
    case 'TASK_STATE_FAILED':
    case 'TASK_STATE_REJECTED':
      return { kind: 'failed', taskId, status };
    case 'TASK_STATE_CANCELED':
      return { kind: 'canceled', taskId, status };
    default:
      return isInterrupted(status.state) ? { kind: 'interrupted', taskId, status } : undefined;
  }
}

function clientError(error: unknown): ClientError {
  if (isClientError(error)) {
    return error;
  }
  throw error;
}

/** Follows the child from its first status until it settles; on a failure, cancels it. */
async function follow(
  client: A2aClient,
  events: Iterator,
  taskId: string,
  first: TaskStatus,
  signal: AbortSignal | undefined,
): Promise<DelegationOutcome> {
  let status = first;
  try {
    for (let settled = settledOutcome(taskId, status); ; settled = settledOutcome(taskId, status)) {
      if (settled !== undefined) {
        // Settled, interrupted included: stop listening (A2A spec §7.6.1 lets an AUTH_REQUIRED stream stay
        // open).
        await events.return?.();
        return settled;
      }
      const next = await events.next();
      if (next.done === true) {
        // The client's stream validator refuses an end before the task settled; this keeps that rule here
        // too.
        throw new InvalidResponseError('lifecycle', {
          dispatched: true,
          violation: { rule: 'premature-end' },
        });
      }
      const event = next.value;
      if ('statusUpdate' in event) {
        status = event.statusUpdate.status;
      }
    }
  } catch (thrown) {
    const error = clientError(thrown);
    const aborted = signal?.aborted === true;
    try {
      // docs/idempotency.md#delegation: the child is canceled when the parent gives up or the stream is lost
      // before it settled. No signal: the parent's has fired.
      const task = await client.cancelTask({ id: taskId });
      return aborted
        ? { kind: 'cancel-requested', taskId, task }
        : { kind: 'lost', taskId, error, cancel: 'requested' };
    } catch (cancelThrown) {
      const cancelError = clientError(cancelThrown);
      return aborted
        ? { kind: 'cancel-failed', taskId, error: cancelError }
        : { kind: 'lost', taskId, error, cancel: 'failed' };
    }
  }
}

/**
Starts a child task as a streaming send and follows it. Before anything is sent, the child's message gets a
fresh idempotency key when it carries none and `client.honoursIdempotency` is true; a key the caller set is
kept (a malformed one is refused with `RequestError('invalid-params')`). Resolves once the first event
arrived, with the handle; rejects, like `sendStreamingMessage`, when the start fails, retries included. A
parent that resends on its own after a failed start must therefore set the key itself (`setKey`) before
calling this: a failed start returns no handle to read it from.

@example
```ts
const message: Message = { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'summarise the incident' }] };
const delegation = await startDelegation(client, { message }, { signal: parent.signal });
const outcome = await delegation.outcome;
switch (outcome.kind) {
  case 'completed': return outcome.status;
  case 'interrupted': return askTheUser(outcome.taskId, outcome.status);
  case 'lost': case 'cancel-failed': return escalate(outcome.taskId, outcome.error);
  default: return outcome;
}
```
*/
export async function startDelegation(
  client: A2aClient,
  params: OperationParams<'sendStreamingMessage'>,
  options: DelegationOptions = {},
): Promise<Delegation> {
  const { signal } = options;
  const { message, key } = childMessage(client, params.message);
  const events = client
    .sendStreamingMessage({ ...params, message }, optionalMembers({ signal }))
    [Symbol.asyncIterator]();
  const first = await events.next();
  const event = first.done === true ? undefined : first.value;
  if (event !== undefined && 'message' in event) {
    // A2A spec §3.1.2: a message-only stream is exactly one Message; nothing is left to follow or cancel.
    await events.return?.();
    return Object.freeze({
      idempotencyKey: key,
      taskId: undefined,
      outcome: Promise.resolve({ kind: 'message', message: event.message } as const),
    });
  }
  // A2A spec §3.1.2: a send's stream starts with its Task or its one Message; the client's validator enforces
  // it, and a client that did not would still not hand this a child to follow.
  const task = event !== undefined && 'task' in event ? event.task : undefined;
  if (task === undefined) {
    await events.return?.();
    throw new InvalidResponseError('stream', { dispatched: true, violation: { rule: 'first-event' } });
  }
  return Object.freeze({
    idempotencyKey: key,
    taskId: task.id,
    outcome: follow(client, events, task.id, task.status, signal),
  });
}
