/**
@module
The semantic checks of a decoded answer (docs/protocol-checks.md#unary-answers: resource identity,
blocking-send lifecycle; the task pages and push configs are checked in `page-checks.ts`). They run after the
schema decode, are pure, and throw `InvalidResponseError` with `dispatched: true` and a violation that names a
rule and a path into the response, never a value from it.

Reasons: `identity` for a resource that is not the one asked about (or a message inside it that belongs
elsewhere), `lifecycle` for a blocking send answered before the task settled, `page` for a page that breaks
its own contract or the request's filters.
*/

import { InvalidResponseError, type InvalidResponseReason } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import type { Message } from '../protocol/message.js';
import type { SendMessageRequest, SendMessageResponse } from '../protocol/send-message.js';
import { isInterrupted, isTerminal, type Task } from '../protocol/task.js';

/** What a check may add to the error it throws: the HTTP status of the answer, where there was one. */
export type CheckOptions = { readonly httpStatus?: number };

/**
What a task must be: its id, its context and the most history messages it may carry. A missing field is not
checked.
*/
export type TaskExpectation = {
  readonly id?: string | undefined;
  readonly contextId?: string | undefined;
  readonly historyLength?: number | undefined;
};

/** Options of {@link checkSendResult}. */
export type SendCheckOptions = CheckOptions & {
  /**
  The answer replays an earlier keyed send: it may be a task that is still working
  (docs/idempotency.md#replays).
  */
  readonly replay?: boolean;
};

/** Throws the one error every check throws: after dispatch, with a rule and a path, never a value. */
export function fail(
  reason: InvalidResponseReason,
  rule: string,
  path: string,
  options: CheckOptions = {},
): never {
  throw new InvalidResponseError(reason, {
    dispatched: true,
    ...optionalMembers({ httpStatus: options.httpStatus }),
    violation: { rule, path },
  });
}

/**
The task a send may answer with: the message's `taskId` and `contextId` when it set them, and the configured
`historyLength`.
*/
export function sendExpectation(request: SendMessageRequest): TaskExpectation {
  return {
    id: request.message.taskId,
    contextId: request.message.contextId,
    historyLength: request.configuration?.historyLength,
  };
}

/**
Checks a status message (of a task or of a status update event): an agent message, of this task and context
where it names them (docs/protocol-checks.md#unary-answers, resource identity of a Task). A2A proto `Message`:
`context_id` and `task_id` are optional, and a message inside a task belongs to that task, so an absent id
reads as the owner's; naming another is refused.
*/
export function checkStatusMessage(
  message: Message,
  owner: { readonly taskId: string; readonly contextId: string },
  path: string,
  options: CheckOptions = {},
): void {
  if (message.role !== 'ROLE_AGENT') {
    fail('identity', 'status-message-role', `${path}.role`, options);
  }
  if ((message.contextId ?? owner.contextId) !== owner.contextId) {
    fail('identity', 'status-message-context-id', `${path}.contextId`, options);
  }
  if ((message.taskId ?? owner.taskId) !== owner.taskId) {
    fail('identity', 'status-message-task-id', `${path}.taskId`, options);
  }
}

/**
Task identity at `path` (`$` for GetTask, `$.task` for a send, `$.tasks[3]` in a page): the expected id and
context, at most `historyLength` history messages, a status message of this very task, and a history whose
messages belong to it. A2A spec §3.2.4: the server MUST NOT return more history than asked for.
*/
export function checkTaskAt(
  task: Task,
  expected: TaskExpectation,
  path: string,
  options: CheckOptions = {},
): void {
  if (expected.id !== undefined && task.id !== expected.id) {
    fail('identity', 'task-id', `${path}.id`, options);
  }
  if (expected.contextId !== undefined && task.contextId !== expected.contextId) {
    fail('identity', 'context-id', `${path}.contextId`, options);
  }
  if (expected.historyLength !== undefined && task.history.length > expected.historyLength) {
    fail('identity', 'history-length', `${path}.history`, options);
  }
  const owner = { taskId: task.id, contextId: task.contextId };
  if (task.status.message !== undefined) {
    checkStatusMessage(task.status.message, owner, `${path}.status.message`, options);
  }
  task.history.forEach((message, index) => {
    // A2A proto `Message`: as for the status message, an absent id reads as the task's.
    if ((message.contextId ?? owner.contextId) !== owner.contextId) {
      fail('identity', 'history-context-id', `${path}.history[${index}].contextId`, options);
    }
    if ((message.taskId ?? owner.taskId) !== owner.taskId) {
      fail('identity', 'history-task-id', `${path}.history[${index}].taskId`, options);
    }
  });
}

/**
Direct Message identity at `path`: an agent message, in the request's context and of the request's task where
it names them, and naming no task when the request named none. A2A proto `Message`: both ids are optional
("If set, the message will be associated with…"), and A2A spec §3.4.1 lets an agent leave a context
unassigned; an agent that cannot accept the request's context MUST reject the request, so an answer in
another context is refused.
*/
export function checkDirectMessageAt(
  message: Message,
  sent: Message,
  path: string,
  options: CheckOptions = {},
): void {
  if (message.role !== 'ROLE_AGENT') {
    fail('identity', 'message-role', `${path}.role`, options);
  }
  if ((sent.contextId ?? message.contextId) !== (message.contextId ?? sent.contextId)) {
    fail('identity', 'message-context-id', `${path}.contextId`, options);
  }
  if ((message.taskId ?? sent.taskId) !== sent.taskId) {
    fail('identity', 'message-task-id', `${path}.taskId`, options);
  }
}

/**
Checks the answer to SendMessage against its request: the task's or the direct message's identity, then the
blocking lifecycle. Without `configuration.returnImmediately: true` a send is blocking and the task must be
terminal or interrupted (A2A spec §3.2.2); `SUBMITTED` or `WORKING` fails with reason `lifecycle`.

With `replay: true` the lifecycle rule is lifted: a keyed blocking retry is answered with the task's current
snapshot, which does not wait for the task to settle and may legitimately be `SUBMITTED` or `WORKING`
(docs/idempotency.md#replays). Identity is still checked.

@example
```ts
const { value } = await binding.unary('sendMessage', request, context);
checkSendResult(request, value);
if ('task' in value) { … }
```
*/
export function checkSendResult(
  request: SendMessageRequest,
  result: SendMessageResponse,
  options: SendCheckOptions = {},
): void {
  if ('message' in result) {
    checkDirectMessageAt(result.message, request.message, '$.message', options);
    return;
  }
  const { task } = result;
  checkTaskAt(task, sendExpectation(request), '$.task', options);
  const blocking = request.configuration?.returnImmediately !== true;
  const settled = isTerminal(task.status.state) || isInterrupted(task.status.state);
  if (blocking && options.replay !== true && !settled) {
    fail('lifecycle', 'blocking-not-settled', '$.task.status.state', options);
  }
}

/**
Checks a task answered by GetTask or CancelTask (the task is the whole result, so paths start at `$`): `id` is
the requested one, and the rest of Task identity holds (see {@link checkTaskAt}).

@example
```ts
const { value, httpStatus } = await binding.unary('getTask', request, context);
checkTask(value, { id: request.id, historyLength: request.historyLength }, { httpStatus });
```
*/
export function checkTask(task: Task, expected: TaskExpectation, options: CheckOptions = {}): void {
  checkTaskAt(task, expected, '$', options);
}
