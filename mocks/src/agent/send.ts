/**
@module
The send path (A2A spec §3.1.1, §3.1.2; docs/idempotency.md#server-semantics): SendMessage and
SendStreamingMessage, which start a task or continue one, claim and replay idempotency keys, and answer at
once, once the task settles, or as a stream.
*/
import { keyErrorText, keyOf } from '@surecall/client/idempotency';
import { askAgainSteps, continuationSteps, dataSkillOf, planFor } from './behaviours.js';
import type { CallContext, Outcome } from './call.js';
import { inputModesOf } from './card.js';
import type { ExecutionCounter } from './executions.js';
import type { Params } from './fields.js';
import {
  type IdempotencyMode,
  idempotencyExtensionUri,
  type KeyClaim,
  type KeyIndex,
  type KeyOutcome,
} from './idempotency.js';
import { randomId } from './ids.js';
import type { Lifecycle } from './lifecycle.js';
import type { Push } from './push.js';
import { AgentError } from './remote-errors.js';
import type { Scripts } from './scripts.js';
import type { TaskStore } from './store.js';
import type { TaskRecord } from './task-record.js';
import { terminalStates } from './task-states.js';
import { singleEvent, type TaskStreams } from './task-streams.js';
import { parseSendRequest, type SendRequest } from './validate.js';
import type { Message } from './wire.js';

/** One send: its params, its call, and whether it answers as a stream. */
export type Send = (params: Params, context: CallContext, streaming: boolean) => Promise<Outcome>;

/** What the send path needs from the agent and from the other parts of its operations. */
export type SendOptions = {
  readonly mode: IdempotencyMode;
  readonly store: TaskStore;
  readonly keys: KeyIndex;
  readonly executions: ExecutionCounter;
  readonly lifecycle: Lifecycle;
  readonly scripts: Scripts;
  readonly streams: TaskStreams;
  readonly push: Push;
};

/** The send path's own state besides its options: the follow-ups each `input N` task still waits for. */
type SendState = SendOptions & { readonly inputTurns: WeakMap<TaskRecord, number> };

// A racing retry may claim its key before the winner's task exists: it looks this many times, this far apart
// (docs/idempotency.md#concurrent-retries).
const replayPolls = 10;
const replayPollMs = 25;

function acceptsText(modes: readonly string[] | undefined): boolean {
  if (modes === undefined || modes.length === 0) {
    return true;
  }
  return modes.some((mode) => {
    const essence = (mode.split(';')[0] ?? '').trim().toLowerCase();
    return essence === 'text/plain' || essence === 'text/*' || essence === '*/*';
  });
}

/** A media type's essence (RFC 9110 §8.3.1: type/subtype, parameters dropped), in lower case. */
function essence(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
A2A spec §3.1.1: a part whose `mediaType` the agent cannot read is refused with ContentTypeNotSupported before
anything runs. The modes are the named data skill's, else the card's defaults (A2A spec §4.4.5); a part that
declares no media type is read by its kind (text, data) and is not refused.
*/
function checkInputModes(message: Message): void {
  const modes = inputModesOf(dataSkillOf(message)).map(essence);
  for (const part of message.parts) {
    if (part.mediaType !== undefined && part.mediaType !== '' && !modes.includes(essence(part.mediaType))) {
      throw new AgentError(
        'ContentTypeNotSupported',
        `this agent reads only ${modes.join(', ')}; a part of the message is ${essence(part.mediaType)}`,
      );
    }
  }
}

/**
Claim the message's key, if it has one and keys are honoured; a conflict or a full index is refused here.
*/
function claimKey(
  options: SendState,
  tenant: string,
  message: Message,
  outcome: KeyOutcome,
): Extract<KeyClaim, { kind: 'claimed' | 'replay' }> {
  const reading = options.mode === 'honouring' ? keyOf(message) : undefined;
  if (reading?.value === undefined) {
    return { kind: 'claimed', release: () => {} };
  }
  const claim = options.keys.claim(tenant, reading.value, message.messageId, outcome);
  switch (claim.kind) {
    case 'conflict':
      // docs/idempotency.md#errors-on-the-wire: clients match on "already held".
      throw new AgentError(
        'InvalidParams',
        'idempotency key is already held by another message; a retry resends the identical message, so a different messageId means the key was reused',
      );
    case 'full':
      throw new AgentError('Unavailable', 'too many idempotency keys are held for this tenant; retry later');
    default:
      return claim;
  }
}

/**
Run what a claimed send does; if it fails before its outcome exists, the key is released
(docs/idempotency.md#server-semantics).
*/
function holding<T>(claim: { readonly release: () => void }, commit: () => T): T {
  try {
    return commit();
  } catch (error) {
    claim.release();
    throw error;
  }
}

function checkKey(options: SendState, message: Message): void {
  const { mode } = options;
  if (mode === 'foreign') {
    return;
  }
  const reading = keyOf(message);
  if (!reading.ok) {
    // docs/idempotency.md#server-semantics: a malformed key is refused before the agent asks whether it can
    // honour keys at all.
    throw new AgentError('InvalidParams', keyErrorText[reading.error]);
  }
  if (reading.value !== undefined && mode === 'refusing') {
    throw new AgentError(
      'UnsupportedOperation',
      `this agent cannot honour \`a2a-rust.com/idempotency-key\`, so the send was refused rather than executed without deduplication; its card does not advertise ${idempotencyExtensionUri}`,
    );
  }
}

async function findReplayedTask(options: SendState, tenant: string, taskId: string): Promise<TaskRecord> {
  const { store, lifecycle } = options;
  for (let poll = 1; ; poll += 1) {
    const record = store.get(tenant, taskId);
    if (record !== undefined) {
      return record;
    }
    if (poll === replayPolls || lifecycle.closed) {
      // docs/idempotency.md#key-lifetime: the key outlived its task; the send is never run again.
      throw new AgentError('TaskNotFound', `Task not found: ${taskId}`, { taskId });
    }
    await lifecycle.sleep(replayPollMs);
  }
}

async function answer(
  options: SendState,
  record: TaskRecord,
  request: SendRequest,
  streaming: boolean,
  signal: AbortSignal,
): Promise<Outcome> {
  const { store, streams } = options;
  const shape = { historyLength: request.historyLength, artifacts: 'when-present' } as const;
  if (streaming) {
    // A2A spec §3.1.2: a task stream starts with the Task itself.
    return {
      kind: 'stream',
      events: streams.liveStream(record, { task: store.view(record, shape) }, signal),
    };
  }
  if (!request.returnImmediately) {
    // A2A spec §3.2.2: a blocking send returns once the task is terminal or interrupted.
    await streams.settled(record, signal);
  }
  return { kind: 'value', value: { task: store.view(record, shape) } };
}

/** A direct Message as the answer: one value, or a stream of that one event. */
function messageAnswer(message: Message, streaming: boolean): Outcome {
  const event = { message: structuredClone(message) };
  return streaming ? { kind: 'stream', events: singleEvent(event) } : { kind: 'value', value: event };
}

async function replay(
  options: SendState,
  tenant: string,
  outcome: KeyOutcome,
  request: SendRequest,
  streaming: boolean,
  signal: AbortSignal,
): Promise<Outcome> {
  if (outcome.kind === 'message') {
    return messageAnswer(outcome.message, streaming);
  }
  // docs/idempotency.md#replays: the replay answers with the first task. Unlike a2a-rust, a blocking replay
  // waits as the first blocking send did, so it never hands a blocking caller a WORKING task
  // (docs/protocol-checks.md#unary-answers, blocking-send lifecycle).
  return answer(options, await findReplayedTask(options, tenant, outcome.taskId), request, streaming, signal);
}

/** What one send is about once its request is read: the request, the call, and the ids its message names. */
type SendCall = {
  readonly request: SendRequest;
  readonly context: CallContext;
  readonly streaming: boolean;
  readonly contextId: string | undefined;
};

async function send(
  options: SendState,
  params: Params,
  context: CallContext,
  streaming: boolean,
): Promise<Outcome> {
  const request = parseSendRequest(params);
  const { message } = request;
  if (!acceptsText(request.acceptedOutputModes)) {
    throw new AgentError('ContentTypeNotSupported', 'this agent answers only in text/plain');
  }
  checkInputModes(message);
  checkKey(options, message);
  const taskId = message.taskId === '' ? undefined : message.taskId;
  const contextId = message.contextId === '' ? undefined : message.contextId;
  const call: SendCall = { request, context, streaming, contextId };
  return taskId === undefined ? start(options, call) : sendToTask(options, call, taskId);
}

// `sendToTask` and `start` run inside `send`, which is async, so what they throw is its rejection; they
// return a plain Outcome where one is ready, so a direct answer waits on no promise of its own.

/** A message naming its task: a follow-up to a task waiting for input (A2A spec §3.1.1). */
function sendToTask(options: SendState, call: SendCall, taskId: string): Promise<Outcome> {
  const { request, context, streaming, contextId } = call;
  const { tenant, signal } = context;
  const record = options.store.get(tenant, taskId);
  if (record === undefined) {
    throw new AgentError('TaskNotFound', `Task not found: ${taskId}`, { taskId });
  }
  if (contextId !== undefined && contextId !== record.task.contextId) {
    // A2A spec §3.4.1: a message whose contextId and taskId disagree MUST be rejected.
    throw new AgentError('InvalidParams', 'message.contextId is not the context of message.taskId');
  }
  const claim = claimKey(options, tenant, request.message, { kind: 'task', taskId });
  if (claim.kind === 'replay') {
    return replay(options, tenant, claim.outcome, request, streaming, signal);
  }
  holding(claim, () => continueTask(options, record, request, tenant));
  return answer(options, record, request, streaming, signal);
}

/** A message naming no task: the plan of its words answers directly or starts a task. */
function start(options: SendState, call: SendCall): Outcome | Promise<Outcome> {
  const { request, context, streaming, contextId } = call;
  const { tenant, signal } = context;
  const { message } = request;
  const plan = planFor(message);
  const newContextId = contextId ?? randomId();
  if (plan.kind === 'reply') {
    const reply: Message = {
      messageId: randomId(),
      contextId: newContextId,
      role: 'ROLE_AGENT',
      parts: [
        plan.data === undefined ? { text: plan.text } : { data: plan.data, mediaType: 'application/json' },
      ],
    };
    const claim = claimKey(options, tenant, message, { kind: 'message', message: reply });
    if (claim.kind === 'replay') {
      return replay(options, tenant, claim.outcome, request, streaming, signal);
    }
    options.executions.record(tenant, message.messageId);
    return messageAnswer(reply, streaming);
  }

  const newTaskId = randomId();
  const claim = claimKey(options, tenant, message, { kind: 'task', taskId: newTaskId });
  if (claim.kind === 'replay') {
    return replay(options, tenant, claim.outcome, request, streaming, signal);
  }
  const record = holding(claim, () =>
    createTask(options, call, { taskId: newTaskId, contextId: newContextId }),
  );
  if (plan.inputTurns !== undefined) {
    options.inputTurns.set(record, plan.inputTurns);
  }
  options.executions.record(tenant, message.messageId);
  options.scripts.run(record, plan.steps);
  return answer(options, record, request, streaming, signal);
}

/**
Keep the new task, SUBMITTED, with the user's message as its history, and its push config if the send gave
one.
*/
function createTask(
  options: SendState,
  call: SendCall,
  ids: { readonly taskId: string; readonly contextId: string },
): TaskRecord {
  const { store, push } = options;
  const { request, context, contextId } = call;
  const { message } = request;
  // The history keeps the user's message unchanged apart from the ids the server adds
  // (docs/durable-send.md#recovery-modes, context-history recovery).
  const stored: Message = {
    ...message,
    ...(contextId === undefined ? { contextId: ids.contextId } : {}),
    taskId: ids.taskId,
  };
  const created = store.insert(context.tenant, {
    id: ids.taskId,
    contextId: ids.contextId,
    status: { state: 'TASK_STATE_SUBMITTED' },
    history: [stored],
  });
  if (request.pushConfig !== undefined) {
    push.deliver(created, push.addPushConfig(created, request.pushConfig));
  }
  return created;
}

function continueTask(options: SendState, record: TaskRecord, request: SendRequest, tenant: string): void {
  const { store, push, executions, scripts } = options;
  const { task } = record;
  const state = task.status.state;
  if (terminalStates.has(state)) {
    // A2A spec §3.1.1: a message to a terminal task is UnsupportedOperation; follow-ups go to a new task.
    throw new AgentError(
      'UnsupportedOperation',
      `Task ${task.id} is in a terminal state and accepts no messages`,
      {
        taskId: task.id,
      },
    );
  }
  if (state !== 'TASK_STATE_INPUT_REQUIRED') {
    throw new AgentError('UnsupportedOperation', `Task ${task.id} is not waiting for input`, {
      taskId: task.id,
    });
  }
  const { message } = request;
  store.appendHistory(record, { ...message, ...(message.contextId ? {} : { contextId: task.contextId }) });
  if (request.pushConfig !== undefined) {
    push.addPushConfig(record, request.pushConfig);
  }
  executions.record(tenant, message.messageId);
  // WORKING at once, so the first event of a streaming follow-up is not the interrupted state it answers.
  store.setStatus(record, 'TASK_STATE_WORKING');
  // `input N`: every follow-up but the last is asked for another answer.
  const left = (options.inputTurns.get(record) ?? 1) - 1;
  options.inputTurns.set(record, left);
  scripts.run(record, left > 0 ? askAgainSteps(message, left) : continuationSteps(message));
}

/**
Creates the send path of one agent: every send runs over the same options, which hold all the state it needs.

@example
```ts
const send = createSend({ mode: 'honouring', store, keys, executions, lifecycle, scripts, streams, push });
const outcome = await send({ message }, context, false); // { kind: 'value', value: { task } }
```
*/
export function createSend(options: SendOptions): Send {
  const state: SendState = { ...options, inputTurns: new WeakMap() };
  return (params, context, streaming) => send(state, params, context, streaming);
}
