import { continuationSteps, planFor, type Step, type TimedStep } from './behaviours.js';
import { buildAgentCard } from './card.js';
import type { ExecutionCounter } from './executions.js';
import {
  type IdempotencyMode,
  idempotencyExtensionUri,
  type KeyClaim,
  type KeyIndex,
  type KeyOutcome,
  keyProblemText,
  readIdempotencyKey,
} from './idempotency.js';
import { AgentError } from './remote-errors.js';
import { isSettled, randomId, type TaskRecord, type TaskStore, terminalStates } from './store.js';
import {
  type Params,
  type PushConfigInput,
  parseCreatePushConfig,
  parseGetTaskRequest,
  parseListPushConfigs,
  parseListTasksRequest,
  parsePushConfigRef,
  parseSendRequest,
  parseTaskRef,
  type SendRequest,
} from './validate.js';
import type { Message, TaskPushNotificationConfig, WireStreamResponse } from './wire.js';

/** The eleven operations of A2A v1.0 (A2A spec §2.1), by their JSON-RPC method names. */
export type OperationName =
  | 'SendMessage'
  | 'SendStreamingMessage'
  | 'GetTask'
  | 'ListTasks'
  | 'CancelTask'
  | 'SubscribeToTask'
  | 'CreateTaskPushNotificationConfig'
  | 'GetTaskPushNotificationConfig'
  | 'ListTaskPushNotificationConfigs'
  | 'DeleteTaskPushNotificationConfig'
  | 'GetExtendedAgentCard';

/** Every operation name, in the order of A2A spec §2.1. */
export const operationNames: readonly OperationName[] = Object.freeze([
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
]);

/** What a binding knows about one call besides its fields. */
export type CallContext = {
  /** The tenant of the request; `''` when it names none. */
  readonly tenant: string;
  /** The `Authorization` header, if any. */
  readonly authorization: string | null;
  /** The request's origin, for the URLs of the extended card. */
  readonly origin: string;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
};

/** What an operation answers: one value, or a stream of events (SendStreamingMessage, SubscribeToTask). */
export type Outcome =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'stream'; readonly events: ReadableStream<WireStreamResponse> };

/** The operations over one task store, independent of any binding. */
export type Operations = {
  /** Run one operation; A2A errors are thrown as `AgentError`. */
  call(operation: OperationName, params: Params, context: CallContext): Promise<Outcome>;
  /** Stop every timer and webhook delivery, end every open stream, and release every waiting send. */
  close(): void;
};

/** What the operations need from the agent. */
export type OperationsOptions = {
  readonly mode: IdempotencyMode;
  readonly tenantRequired: boolean;
  readonly stepMs: number;
  readonly store: TaskStore;
  readonly keys: KeyIndex;
  readonly executions: ExecutionCounter;
};

/** How long one webhook POST may take before it is abandoned. */
export const webhookTimeoutMs = 5000;

// A racing retry may claim its key before the winner's task exists: it looks this many times, this far apart (idempotency digest §2.6).
const replayPolls = 10;
const replayPollMs = 25;

/**
True when a webhook URL's host is a literal loopback address, 127.0.0.0/8 or [::1], after WHATWG URL parsing (so `127.1` and `0x7f000001` count). Names such as `localhost` do not: resolving them is outside the agent's control. The mock POSTs to no other host, so a test can never make it call the outside world.

@example
```ts
isLoopbackUrl('http://127.0.0.1:9000/hook'); // true
isLoopbackUrl('http://[::1]/hook'); // true
isLoopbackUrl('http://localhost/hook'); // false
```
*/
export function isLoopbackUrl(url: string): boolean {
  if (!URL.canParse(url)) {
    return false;
  }
  const { hostname } = new URL(url);
  return hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function agentMessage(task: { readonly id: string; readonly contextId: string }, text: string): Message {
  // The client's identity check wants both ids on every agent message of a task (durable-client digest §4).
  return {
    messageId: randomId(),
    contextId: task.contextId,
    taskId: task.id,
    role: 'ROLE_AGENT',
    parts: [{ text }],
  };
}

function acceptsText(modes: readonly string[] | undefined): boolean {
  if (modes === undefined || modes.length === 0) {
    return true;
  }
  return modes.some((mode) => {
    const essence = (mode.split(';')[0] ?? '').trim().toLowerCase();
    return essence === 'text/plain' || essence === 'text/*' || essence === '*/*';
  });
}

function bearerToken(authorization: string | null): string | undefined {
  const match = /^bearer +(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

/**
The operations of the mock agent. Scripts advance on timers (`stepMs` apart); blocking sends wait on the task's own events, never on a clock.

@example
```ts
const store = createTaskStore({ now: Date.now });
const operations = createOperations({ mode: 'honouring', tenantRequired: false, stepMs: 0, store,
  keys: createKeyIndex({ ttlMs: 86_400_000, capPerTenant: 100_000, now: Date.now }), executions: createExecutionCounter() });
const outcome = await operations.call('GetTask', { id: 't-1' }, context); // AgentError TaskNotFound
```
*/
export function createOperations(options: OperationsOptions): Operations {
  const { mode, tenantRequired, stepMs, store, keys, executions } = options;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const scripts = new Map<TaskRecord, () => void>();
  const onClose = new Set<() => void>();
  let closed = false;

  function after(ms: number, run: () => void): () => void {
    if (closed) {
      return () => {};
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
    return () => {
      clearTimeout(timer);
      timers.delete(timer);
    };
  }

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const cancel = after(ms, () => {
        onClose.delete(done);
        resolve();
      });
      const done = (): void => {
        cancel();
        resolve();
      };
      onClose.add(done);
    });

  function apply(record: TaskRecord, step: Step): void {
    const { task } = record;
    switch (step.kind) {
      case 'status':
        store.setStatus(
          record,
          step.state,
          step.text === undefined ? undefined : agentMessage(task, step.text),
        );
        return;
      case 'artifact':
        store.addArtifact(record, {
          artifact: { artifactId: step.artifactId, name: step.name, parts: [{ text: step.text }] },
          append: step.append,
          lastChunk: step.lastChunk,
        });
        return;
      case 'pause':
        return;
    }
  }

  function run(record: TaskRecord, steps: readonly TimedStep[], index = 0): void {
    const next = steps[index];
    if (next === undefined || terminalStates.has(record.task.status.state)) {
      scripts.delete(record);
      return;
    }
    const cancel = after(next.delay === 'step' ? stepMs : next.delay, () => {
      apply(record, next.step);
      run(record, steps, index + 1);
    });
    scripts.set(record, cancel);
  }

  function stop(record: TaskRecord): void {
    scripts.get(record)?.();
    scripts.delete(record);
  }

  /** Resolves once the task is terminal or interrupted, the client has gone, or the agent closed. */
  function settled(record: TaskRecord, signal: AbortSignal): Promise<void> {
    if (isSettled(record.task.status.state) || closed || signal.aborted) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const finish = (): void => {
        unsubscribe();
        onClose.delete(finish);
        signal.removeEventListener('abort', finish);
        resolve();
      };
      const unsubscribe = store.subscribe(record, (event) => {
        if ('statusUpdate' in event && isSettled(event.statusUpdate.status.state)) {
          finish();
        }
      });
      onClose.add(finish);
      signal.addEventListener('abort', finish);
    });
  }

  /** The task's events from now on, after `first`, until a terminal or interrupted state (A2A spec §11.7, §3.1.6). */
  function liveStream(
    record: TaskRecord,
    first: WireStreamResponse,
    signal: AbortSignal,
  ): ReadableStream<WireStreamResponse> {
    let finish = (): void => {};
    return new ReadableStream<WireStreamResponse>({
      start(controller) {
        controller.enqueue(first);
        // Snapshot and subscription happen in the same turn, so no change can fall between them.
        if (isSettled(record.task.status.state) || closed || signal.aborted) {
          controller.close();
          return;
        }
        let open = true;
        const end = (): void => {
          finish();
          if (open) {
            open = false;
            controller.close();
          }
        };
        const unsubscribe = store.subscribe(record, (event) => {
          if (!open) {
            return;
          }
          controller.enqueue(event);
          if ('statusUpdate' in event && isSettled(event.statusUpdate.status.state)) {
            end();
          }
        });
        finish = () => {
          unsubscribe();
          onClose.delete(end);
          signal.removeEventListener('abort', end);
        };
        onClose.add(end);
        signal.addEventListener('abort', end);
      },
      cancel() {
        finish();
      },
    });
  }

  function singleEvent(event: WireStreamResponse): ReadableStream<WireStreamResponse> {
    return new ReadableStream({
      start(controller) {
        controller.enqueue(event);
        controller.close();
      },
    });
  }

  // ---- push notifications (A2A spec §4.3.3) ----

  const chains = new Map<string, Promise<void>>();

  async function post(config: TaskPushNotificationConfig, body: string): Promise<void> {
    if (closed) {
      return;
    }
    const { authentication, token } = config;
    const headers = {
      'content-type': 'application/a2a+json',
      // A2A spec §4.3.3: `Authorization: <scheme> <credentials>`.
      ...(authentication === undefined
        ? {}
        : { authorization: `${authentication.scheme} ${authentication.credentials ?? ''}`.trim() }),
      // v1.0 says nothing about how the token travels; this is the header of v0.3 and of the official JS SDK.
      ...(token === undefined ? {} : { 'x-a2a-notification-token': token }),
    };
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    const cancelTimeout = after(webhookTimeoutMs, abort);
    onClose.add(abort);
    try {
      // Looked up at call time, never captured, so MSW and test spies see every delivery; a redirect is never followed off loopback.
      const response = await globalThis.fetch(config.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: controller.signal,
      });
      await response.body?.cancel();
    } catch {
      // Delivery is at-most-once and best effort: a webhook that fails misses this event, and the task goes on.
    } finally {
      cancelTimeout();
      onClose.delete(abort);
    }
  }

  function deliver(record: TaskRecord, config: TaskPushNotificationConfig): void {
    if (!isLoopbackUrl(config.url)) {
      return;
    }
    // The webhook body is one StreamResponse in its HTTP+JSON form (A2A spec §4.3.3): the whole task as it now stands.
    const body = JSON.stringify({ task: store.view(record, { artifacts: 'when-present' }) });
    const chainKey = JSON.stringify([record.tenant, record.task.id, config.id]);
    // One config's POSTs go out one after another, so the webhook sees the states in order.
    const chain = (chains.get(chainKey) ?? Promise.resolve()).then(() => post(config, body));
    chains.set(chainKey, chain);
    void chain.then(() => {
      if (chains.get(chainKey) === chain) {
        chains.delete(chainKey);
      }
    });
  }

  store.subscribeAll((event, record) => {
    if ('statusUpdate' in event) {
      for (const config of record.pushConfigs.values()) {
        deliver(record, config);
      }
    }
  });

  function addPushConfig(
    record: TaskRecord,
    input: PushConfigInput,
  ): TaskPushNotificationConfig & { id: string } {
    const config = {
      id: input.id ?? randomId(),
      taskId: record.task.id,
      url: input.url,
      ...(input.token === undefined ? {} : { token: input.token }),
      ...(input.authentication === undefined ? {} : { authentication: input.authentication }),
    };
    store.putPushConfig(record, config);
    return config;
  }

  // ---- the send path (A2A spec §3.1.1, §3.1.2; idempotency digest §2.1) ----

  /** Claim the message's key, if it has one and keys are honoured; a conflict or a full index is refused here. */
  function claimKey(
    tenant: string,
    message: Message,
    outcome: KeyOutcome,
  ): Extract<KeyClaim, { kind: 'claimed' | 'replay' }> {
    const reading = mode === 'honouring' ? readIdempotencyKey(message) : undefined;
    if (reading?.kind !== 'key') {
      return { kind: 'claimed', release: () => {} };
    }
    const claim = keys.claim(tenant, reading.key, message.messageId, outcome);
    switch (claim.kind) {
      case 'conflict':
        // idempotency digest §2.4: clients match on "already held".
        throw new AgentError(
          'InvalidParams',
          'idempotency key is already held by another message; a retry resends the identical message, so a different messageId means the key was reused',
        );
      case 'full':
        throw new AgentError(
          'Unavailable',
          'too many idempotency keys are held for this tenant; retry later',
        );
      default:
        return claim;
    }
  }

  /** Run what a claimed send does; if it fails before its outcome exists, the key is released (idempotency digest §2.1). */
  function holding<T>(claim: { readonly release: () => void }, commit: () => T): T {
    try {
      return commit();
    } catch (error) {
      claim.release();
      throw error;
    }
  }

  function checkKey(message: Message): void {
    if (mode === 'foreign') {
      return;
    }
    const reading = readIdempotencyKey(message);
    if (reading.kind === 'invalid') {
      // idempotency digest §2.2: a malformed key is refused before the agent asks whether it can honour keys at all.
      throw new AgentError('InvalidParams', keyProblemText[reading.problem]);
    }
    if (reading.kind === 'key' && mode === 'refusing') {
      throw new AgentError(
        'UnsupportedOperation',
        `this agent cannot honour \`a2a-rust.com/idempotency-key\`, so the send was refused rather than executed without deduplication; its card does not advertise ${idempotencyExtensionUri}`,
      );
    }
  }

  async function findReplayedTask(tenant: string, taskId: string): Promise<TaskRecord> {
    for (let poll = 1; ; poll += 1) {
      const record = store.get(tenant, taskId);
      if (record !== undefined) {
        return record;
      }
      if (poll === replayPolls || closed) {
        // idempotency digest §2.7: the key outlived its task; the send is never run again.
        throw new AgentError('TaskNotFound', `Task not found: ${taskId}`, { taskId });
      }
      await sleep(replayPollMs);
    }
  }

  async function answer(
    record: TaskRecord,
    request: SendRequest,
    streaming: boolean,
    signal: AbortSignal,
  ): Promise<Outcome> {
    const shape = { historyLength: request.historyLength, artifacts: 'when-present' } as const;
    if (streaming) {
      // A2A spec §3.1.2: a task stream starts with the Task itself.
      return { kind: 'stream', events: liveStream(record, { task: store.view(record, shape) }, signal) };
    }
    if (!request.returnImmediately) {
      // A2A spec §3.2.2: a blocking send returns once the task is terminal or interrupted.
      await settled(record, signal);
    }
    return { kind: 'value', value: { task: store.view(record, shape) } };
  }

  async function replay(
    tenant: string,
    outcome: KeyOutcome,
    request: SendRequest,
    streaming: boolean,
    signal: AbortSignal,
  ): Promise<Outcome> {
    if (outcome.kind === 'message') {
      const event = { message: structuredClone(outcome.message) };
      return streaming ? { kind: 'stream', events: singleEvent(event) } : { kind: 'value', value: event };
    }
    // idempotency digest §2.3: the replay answers with the first task. Unlike a2a-rust, a blocking replay waits as the first blocking send did, so it never hands a blocking caller a WORKING task (durable-client digest §4, blocking-send lifecycle).
    return answer(await findReplayedTask(tenant, outcome.taskId), request, streaming, signal);
  }

  async function send(params: Params, context: CallContext, streaming: boolean): Promise<Outcome> {
    const { tenant, signal } = context;
    const request = parseSendRequest(params);
    const { message } = request;
    if (!acceptsText(request.acceptedOutputModes)) {
      throw new AgentError('ContentTypeNotSupported', 'this agent answers only in text/plain');
    }
    checkKey(message);
    const taskId = message.taskId === '' ? undefined : message.taskId;
    const contextId = message.contextId === '' ? undefined : message.contextId;

    if (taskId !== undefined) {
      const record = store.get(tenant, taskId);
      if (record === undefined) {
        throw new AgentError('TaskNotFound', `Task not found: ${taskId}`, { taskId });
      }
      if (contextId !== undefined && contextId !== record.task.contextId) {
        // A2A spec §3.4.1: a message whose contextId and taskId disagree MUST be rejected.
        throw new AgentError('InvalidParams', 'message.contextId is not the context of message.taskId');
      }
      const claim = claimKey(tenant, message, { kind: 'task', taskId });
      if (claim.kind === 'replay') {
        return replay(tenant, claim.outcome, request, streaming, signal);
      }
      holding(claim, () => continueTask(record, request, tenant));
      return answer(record, request, streaming, signal);
    }

    const plan = planFor(message);
    const newContextId = contextId ?? randomId();
    if (plan.kind === 'reply') {
      const reply: Message = {
        messageId: randomId(),
        contextId: newContextId,
        role: 'ROLE_AGENT',
        parts: [{ text: plan.text }],
      };
      const claim = claimKey(tenant, message, { kind: 'message', message: reply });
      if (claim.kind === 'replay') {
        return replay(tenant, claim.outcome, request, streaming, signal);
      }
      executions.record(tenant, message.messageId);
      const event = { message: structuredClone(reply) };
      return streaming ? { kind: 'stream', events: singleEvent(event) } : { kind: 'value', value: event };
    }

    const newTaskId = randomId();
    const claim = claimKey(tenant, message, { kind: 'task', taskId: newTaskId });
    if (claim.kind === 'replay') {
      return replay(tenant, claim.outcome, request, streaming, signal);
    }
    const record = holding(claim, () => {
      // The history keeps the user's message unchanged apart from the ids the server adds (DESIGN.md, context-history recovery).
      const stored: Message = {
        ...message,
        ...(contextId === undefined ? { contextId: newContextId } : {}),
        taskId: newTaskId,
      };
      const created = store.insert(tenant, {
        id: newTaskId,
        contextId: newContextId,
        status: { state: 'TASK_STATE_SUBMITTED' },
        history: [stored],
      });
      if (request.pushConfig !== undefined) {
        deliver(created, addPushConfig(created, request.pushConfig));
      }
      return created;
    });
    executions.record(tenant, message.messageId);
    run(record, plan.steps);
    return answer(record, request, streaming, signal);
  }

  function continueTask(record: TaskRecord, request: SendRequest, tenant: string): void {
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
      addPushConfig(record, request.pushConfig);
    }
    executions.record(tenant, message.messageId);
    // WORKING at once, so the first event of a streaming follow-up is not the interrupted state it answers.
    store.setStatus(record, 'TASK_STATE_WORKING');
    run(record, continuationSteps(message));
  }

  // ---- the other operations ----

  function taskOf(tenant: string, id: string): TaskRecord {
    const record = store.get(tenant, id);
    if (record === undefined) {
      throw new AgentError('TaskNotFound', `Task not found: ${id}`, { taskId: id });
    }
    return record;
  }

  async function dispatch(operation: OperationName, params: Params, context: CallContext): Promise<Outcome> {
    const { tenant } = context;
    const value = (result: unknown): Outcome => ({ kind: 'value', value: result });
    switch (operation) {
      case 'SendMessage':
        return send(params, context, false);
      case 'SendStreamingMessage':
        return send(params, context, true);
      case 'GetTask': {
        const { id, historyLength } = parseGetTaskRequest(params);
        return value(store.view(taskOf(tenant, id), { historyLength, artifacts: 'when-present' }));
      }
      case 'ListTasks':
        return value(store.list(tenant, parseListTasksRequest(params)));
      case 'CancelTask': {
        const record = taskOf(tenant, parseTaskRef(params).id);
        if (terminalStates.has(record.task.status.state)) {
          throw new AgentError('TaskNotCancelable', `Task ${record.task.id} is already in a terminal state`, {
            taskId: record.task.id,
          });
        }
        stop(record);
        store.setStatus(record, 'TASK_STATE_CANCELED', agentMessage(record.task, 'canceled by client'));
        return value(store.view(record, { artifacts: 'when-present' }));
      }
      case 'SubscribeToTask': {
        const record = taskOf(tenant, parseTaskRef(params).id);
        if (terminalStates.has(record.task.status.state)) {
          // A2A spec §3.1.6: subscribing to a terminal task is UnsupportedOperation, not TaskNotFound.
          throw new AgentError('UnsupportedOperation', `Task ${record.task.id} is in a terminal state`, {
            taskId: record.task.id,
          });
        }
        const first = { task: store.view(record, { artifacts: 'when-present' }) };
        return { kind: 'stream', events: liveStream(record, first, context.signal) };
      }
      case 'CreateTaskPushNotificationConfig': {
        const input = parseCreatePushConfig(params);
        return value(structuredClone(addPushConfig(taskOf(tenant, input.taskId), input)));
      }
      case 'GetTaskPushNotificationConfig': {
        const { taskId, id } = parsePushConfigRef(params);
        const config = taskOf(tenant, taskId).pushConfigs.get(id);
        if (config === undefined) {
          // A2A spec §3.1.8: a missing config is reported as TaskNotFound.
          throw new AgentError('TaskNotFound', `Push notification config not found: ${id}`, {
            taskId,
            configId: id,
          });
        }
        return value(structuredClone(config));
      }
      case 'ListTaskPushNotificationConfigs': {
        const query = parseListPushConfigs(params);
        return value(store.listPushConfigs(taskOf(tenant, query.taskId), query));
      }
      case 'DeleteTaskPushNotificationConfig': {
        const { taskId, id } = parsePushConfigRef(params);
        // A2A spec §3.1.10: delete is idempotent, so a config that is already gone is not an error.
        store.deletePushConfig(taskOf(tenant, taskId), id);
        return value({});
      }
      case 'GetExtendedAgentCard':
        if (bearerToken(context.authorization) === undefined) {
          // A2A spec §13.3: the extended card is served to authenticated callers only.
          throw new AgentError(
            'Unauthenticated',
            'GetExtendedAgentCard needs an Authorization: Bearer token',
          );
        }
        return value(buildAgentCard({ origin: context.origin, mode, extended: true }));
    }
  }

  return {
    async call(operation, params, context) {
      if (tenantRequired && context.tenant === '') {
        throw new AgentError(
          'InvalidParams',
          'this agent requires a tenant: a /{tenant} path prefix over HTTP+JSON, params.tenant over JSON-RPC',
        );
      }
      return dispatch(operation, params, context);
    },
    close() {
      closed = true;
      for (const timer of timers) {
        clearTimeout(timer);
      }
      timers.clear();
      scripts.clear();
      for (const done of [...onClose]) {
        done();
      }
      onClose.clear();
    },
  };
}

// ---- what both bindings check on every request ----

/** The one protocol version this agent speaks. */
export const protocolVersion = '1.0';

/**
Refuse a request that does not ask for A2A 1.0. The version comes from the `A2A-Version` header, or from the `A2A-Version` query parameter a client MAY use instead (A2A spec §3.6.1); a missing or empty value means 0.3 (§3.6.2), and only `1.0` itself is served: patch versions MUST NOT take part in negotiation (§3.6).

@example
```ts
checkVersion(new Request(url, { headers: { 'A2A-Version': '1.0' } })); // ok
checkVersion(new Request(url)); // AgentError VersionNotSupported
```
*/
export function checkVersion(request: Request): void {
  const version = (
    request.headers.get('a2a-version') ??
    new URL(request.url).searchParams.get('A2A-Version') ??
    ''
  ).trim();
  if (version !== protocolVersion) {
    throw new AgentError(
      'VersionNotSupported',
      `The requested A2A protocol version is not supported. Supported versions: ${protocolVersion}`,
    );
  }
}

/**
The extensions a request turns on: those it lists in `A2A-Extensions` (comma-separated, A2A spec §5) that this agent supports. Unsupported ones are ignored (§4.6.3). The answer echoes the result in its own `A2A-Extensions` header.

@example
```ts
activatedExtensions(request, 'honouring'); // ['https://a2a-rust.com/extensions/idempotency/v1'] when requested
```
*/
export function activatedExtensions(request: Request, mode: IdempotencyMode): readonly string[] {
  const requested = (request.headers.get('a2a-extensions') ?? '').split(',').map((uri) => uri.trim());
  return mode === 'honouring' && requested.includes(idempotencyExtensionUri) ? [idempotencyExtensionUri] : [];
}

/** True when a request body's `Content-Type` is JSON: `application/json` (A2A spec §9.1) or `application/a2a+json` (§11.1). */
export function isJsonContentType(request: Request): boolean {
  const essence = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  return essence === 'application/json' || essence === 'application/a2a+json';
}

/** The `A2A-Extensions` answer header: the extensions the request turned on, if any (A2A extensions topic page). */
export function extensionHeaders(extensions: readonly string[]): Record<string, string> {
  return extensions.length === 0 ? {} : { 'a2a-extensions': extensions.join(', ') };
}
