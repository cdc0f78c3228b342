/**
The official SDK server as `startSdkAgent` wires it, probed with plain `fetch`: each of the eleven operations
over both HTTP bindings, the executor's behaviours, push delivery, the bearer-gated extended card and the
ProtoJSON card. Frames and bodies are read as the SDK writes them, so these tests also pin the SDK behaviours
our client must accept (docs/interop.md#the-official-js-sdk-server): JSON-RPC delete answers `result: null`,
REST delete 204, REST create 201, REST errors 400/404 with an ErrorInfo.
*/
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorInfo } from '../src/agent/remote-errors.js';
import type {
  Message,
  TaskPushNotificationConfig,
  WireAgentCard,
  WireListTasksResponse,
  WireStreamResponse,
  WireTask,
} from '../src/agent/wire.js';
import { type RunningSdkAgent, sdkExtendedDescription, sdkTenant, startSdkAgent } from '../src/sdk/agent.js';

type Binding = 'JSONRPC' | 'HTTP+JSON';
type Answer = { readonly status: number; readonly body: string };
/** The fields the probes send, in either binding's form. */
type Params = {
  readonly message?: Partial<Message>;
  readonly configuration?: object;
  readonly id?: string;
  readonly taskId?: string;
  readonly contextId?: string;
  readonly historyLength?: number;
  readonly url?: string;
  readonly token?: string;
  readonly tenant?: string;
};
type Envelope<T> = { readonly jsonrpc: '2.0'; readonly id: number; readonly result: T };
type ErrorBody = {
  readonly error: {
    readonly code: number;
    readonly data?: readonly ErrorInfo[];
    readonly details?: readonly ErrorInfo[];
  };
};
type SendResult = { readonly task?: WireTask; readonly message?: Message };
type Frame = WireStreamResponse & {
  readonly task?: WireTask;
  readonly statusUpdate?: { readonly status: WireTask['status'] };
  readonly artifactUpdate?: {
    readonly artifact: { readonly parts: readonly { readonly text?: string }[] };
    readonly append?: boolean;
    readonly lastChunk?: boolean;
  };
};

let sdk: RunningSdkAgent;

beforeAll(async () => {
  // The SDK logs expected errors (console.error) and each push delivery (console.info); the assertions below
  // are what matters.
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  // A tick far beyond any test: `slow` tasks stay WORKING until canceled, so nothing depends on timing.
  sdk = await startSdkAgent({ tickMs: 600_000 });
});

afterAll(async () => {
  await sdk.close();
  vi.restoreAllMocks();
});

const version = { 'a2a-version': '1.0' };
let nextId = 0;

function message(text: string, extra: Partial<Message> = {}): { message: Partial<Message> } {
  return { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra } };
}

async function answer(response: Response): Promise<Answer> {
  return { status: response.status, body: await response.text() };
}

function rest(method: string, path: string, body?: Params, headers: Record<string, string> = {}) {
  return fetch(`${sdk.restUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/a2a+json', ...version, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/**
The operation's result: JSON-RPC `result` (checked to be the only member besides the envelope's), or the REST
body.
*/
function resultOf<T>(binding: Binding, { status, body }: Answer): T {
  expect(status).toBeLessThan(300);
  if (binding === 'HTTP+JSON') {
    return JSON.parse(body) as T;
  }
  const envelope = JSON.parse(body) as Envelope<T>;
  expect(Object.keys(envelope).sort()).toEqual(['id', 'jsonrpc', 'result']);
  return envelope.result;
}

/** The StreamResponse of every SSE frame, unwrapped from its JSON-RPC envelope where there is one. */
function frames(binding: Binding, body: string): Frame[] {
  return body
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => {
      const data = frame.slice('data: '.length);
      return binding === 'JSONRPC'
        ? (JSON.parse(data) as Envelope<Frame>).result
        : (JSON.parse(data) as Frame);
    });
}

/** One call per operation, in each binding's form (docs/interop.md#the-official-js-sdk-server). */
function call(binding: Binding, operation: string, params: Params, headers: Record<string, string> = {}) {
  if (binding === 'JSONRPC') {
    return fetch(sdk.jsonRpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...version, ...headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++nextId,
        method: operation.charAt(0).toUpperCase() + operation.slice(1),
        params,
      }),
    });
  }
  const { id = '', taskId = '' } = params;
  switch (operation) {
    case 'sendMessage':
      return rest('POST', '/message:send', params, headers);
    case 'sendStreamingMessage':
      return rest('POST', '/message:stream', params, headers);
    case 'getTask':
      return rest('GET', `/tasks/${id}?historyLength=${params.historyLength ?? 0}`, undefined, headers);
    case 'listTasks':
      return rest('GET', `/tasks?contextId=${params.contextId ?? ''}&pageSize=10`, undefined, headers);
    case 'cancelTask':
      return rest('POST', `/tasks/${id}:cancel`, {}, headers);
    case 'subscribeToTask':
      return rest('POST', `/tasks/${id}:subscribe`, undefined, headers);
    case 'createTaskPushNotificationConfig':
      return rest('POST', `/tasks/${taskId}/pushNotificationConfigs`, params, headers);
    case 'getTaskPushNotificationConfig':
      return rest('GET', `/tasks/${taskId}/pushNotificationConfigs/${id}`, undefined, headers);
    case 'listTaskPushNotificationConfigs':
      return rest('GET', `/tasks/${taskId}/pushNotificationConfigs`, undefined, headers);
    case 'deleteTaskPushNotificationConfig':
      return rest('DELETE', `/tasks/${taskId}/pushNotificationConfigs/${id}`, undefined, headers);
    default:
      return rest('GET', '/extendedAgentCard', undefined, headers);
  }
}

async function send(binding: Binding, params: Params): Promise<SendResult> {
  return resultOf<SendResult>(binding, await answer(await call(binding, 'sendMessage', params)));
}

async function sendTask(binding: Binding, params: Params): Promise<WireTask> {
  const { task, ...others } = await send(binding, params);
  expect(others).toEqual({});
  if (task === undefined) {
    throw new Error('expected a task');
  }
  return task;
}

it('serves the public card as ProtoJSON, without the ts-proto `$case` form', async () => {
  const response = await fetch(sdk.cardUrl);
  const text = await response.text();
  expect(response.headers.get('content-type')).toContain('application/json');
  expect(JSON.parse(text)).toEqual(sdk.card);
  expect(text).not.toContain('$case');
  expect(sdk.card.supportedInterfaces.map(({ url, tenant }) => [url, tenant])).toEqual([
    [sdk.jsonRpcUrl, undefined],
    [sdk.restUrl, undefined],
    [sdk.jsonRpcUrl, sdkTenant],
    [sdk.restUrl, sdkTenant],
  ]);
});

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('the SDK server over %s', (binding) => {
  it('SendMessage: echo answers a direct agent Message with no taskId', async () => {
    const { message: reply, ...others } = await send(binding, message('echo hello there'));
    expect(others).toEqual({});
    expect(reply).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: 'echo hello there' }] });
    expect(reply?.taskId).toBeUndefined();
    expect(reply?.contextId).toEqual(expect.any(String));
  });

  it('SendMessage: task completes with one artifact whose parts are the words', async () => {
    const task = await sendTask(binding, message('task a b c'));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts).toEqual([
      { artifactId: 'text', name: 'text', parts: [{ text: 'a ' }, { text: 'b ' }, { text: 'c' }] },
    ]);
  });

  it('SendStreamingMessage: SUBMITTED, WORKING, one chunk per word with append and lastChunk, COMPLETED', async () => {
    const response = await call(binding, 'sendStreamingMessage', message('task x y z'));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = frames(binding, await response.text());
    expect(events.map((event) => Object.keys(event))).toEqual([
      ['task'],
      ['statusUpdate'],
      ['artifactUpdate'],
      ['artifactUpdate'],
      ['artifactUpdate'],
      ['statusUpdate'],
    ]);
    const chunks = events.slice(2, 5).map(({ artifactUpdate }) => artifactUpdate);
    expect(chunks.map((chunk) => [chunk?.artifact.parts[0]?.text, chunk?.append, chunk?.lastChunk])).toEqual([
      ['x ', undefined, undefined],
      ['y ', true, undefined],
      ['z', true, true],
    ]);
    expect(events[5]?.statusUpdate?.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('input: INPUT_REQUIRED, then a follow-up with the taskId completes the same task', async () => {
    const asked = await sendTask(binding, message('input'));
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = await sendTask(binding, message('Ada', { taskId: asked.id }));
    expect(done.id).toBe(asked.id);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts).toEqual([
      { artifactId: 'answer', name: 'answer', parts: [{ text: 'Hello, Ada!' }] },
    ]);
  });

  it('input, streamed follow-up: the resumed Task comes first and already WORKING, then the answer', async () => {
    const asked = await sendTask(binding, message('input'));
    const response = await call(binding, 'sendStreamingMessage', message('Grace', { taskId: asked.id }));
    const events = frames(binding, await response.text());
    expect(events.map((event) => Object.keys(event))).toEqual([
      ['task'],
      ['artifactUpdate'],
      ['statusUpdate'],
    ]);
    expect(events[0]?.task).toMatchObject({ id: asked.id, status: { state: 'TASK_STATE_WORKING' } });
    expect(events[1]?.artifactUpdate?.artifact.parts).toEqual([{ text: 'Hello, Grace!' }]);
    expect(events[2]?.statusUpdate?.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('GetTask and ListTasks find the task', async () => {
    const task = await sendTask(binding, message('task g'));
    const got = resultOf<WireTask>(binding, await answer(await call(binding, 'getTask', { id: task.id })));
    expect(got).toMatchObject({ id: task.id, contextId: task.contextId });
    const page = resultOf<WireListTasksResponse>(
      binding,
      await answer(await call(binding, 'listTasks', { contextId: task.contextId })),
    );
    expect(page.tasks.map(({ id }) => id)).toEqual([task.id]);
  });

  it('SubscribeToTask then CancelTask: the snapshot, then CANCELED, then the stream closes', async () => {
    const task = await sendTask(binding, {
      ...message('slow 30'),
      configuration: { returnImmediately: true },
    });
    const subscription = await call(binding, 'subscribeToTask', { id: task.id });
    expect(subscription.headers.get('content-type')).toBe('text/event-stream');
    const reader = subscription.body?.pipeThrough(new TextDecoderStream()).getReader();
    const first = await reader?.read();
    expect(frames(binding, first?.value ?? '')[0]?.task?.id).toBe(task.id);
    const canceled = resultOf<WireTask>(
      binding,
      await answer(await call(binding, 'cancelTask', { id: task.id })),
    );
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    let tail = '';
    for (let chunk = await reader?.read(); chunk !== undefined && !chunk.done; chunk = await reader?.read()) {
      tail += chunk.value;
    }
    expect(frames(binding, tail).map((event) => event.statusUpdate?.status.state)).toEqual([
      'TASK_STATE_CANCELED',
    ]);
  });

  it('push configs: create, get, list, delete, as the SDK answers them', async () => {
    const task = await sendTask(binding, message('task p'));
    const config = { taskId: task.id, url: sdk.webhookUrl, token: 'tok' };
    const created = await answer(await call(binding, 'createTaskPushNotificationConfig', config));
    // docs/interop.md#the-official-js-sdk-server: REST create answers 201.
    expect(created.status).toBe(binding === 'HTTP+JSON' ? 201 : 200);
    const { id } = resultOf<TaskPushNotificationConfig>(binding, created);
    expect(id).toEqual(expect.any(String));
    const ids = { taskId: task.id, ...(id === undefined ? {} : { id }) };
    const got = await answer(await call(binding, 'getTaskPushNotificationConfig', ids));
    expect(resultOf(binding, got)).toEqual({ ...config, id });
    const list = await answer(await call(binding, 'listTaskPushNotificationConfigs', ids));
    expect(resultOf(binding, list)).toEqual({ configs: [{ ...config, id }] });
    const deleted = await answer(await call(binding, 'deleteTaskPushNotificationConfig', ids));
    // docs/interop.md#the-official-js-sdk-server: JSON-RPC delete answers `result: null`, REST a 204 with no
    // body.
    if (binding === 'JSONRPC') {
      expect(resultOf(binding, deleted)).toBeNull();
    } else {
      expect(deleted).toEqual({ status: 204, body: '' });
    }
  });

  it('GetExtendedAgentCard: the extended card with the bearer token, the public card without', async () => {
    const token = { authorization: `Bearer ${sdk.bearerToken}` };
    const extended = await answer(await call(binding, 'getExtendedAgentCard', {}, token));
    expect(resultOf<WireAgentCard>(binding, extended).description).toBe(sdkExtendedDescription);
    const wrong = { authorization: 'Bearer not-the-token' };
    const anonymous = await answer(await call(binding, 'getExtendedAgentCard', {}, wrong));
    // The SDK's own model: an unauthenticated caller gets the public card, not an error
    // (docs/interop.md#the-official-js-sdk-server).
    expect(resultOf<WireAgentCard>(binding, anonymous).description).toBe(sdk.card.description);
  });

  it.each([
    ['GetTask of an unknown task', 'getTask', 'unknown', -32001, 404, 'TASK_NOT_FOUND'],
    ['CancelTask of a completed task', 'cancelTask', 'completed', -32002, 400, 'TASK_NOT_CANCELABLE'],
    [
      'SubscribeToTask of a completed task',
      'subscribeToTask',
      'completed',
      -32004,
      400,
      'UNSUPPORTED_OPERATION',
    ],
  ] as const)(
    '%s: code %i (JSON-RPC, HTTP 200) or HTTP %i (REST), one ErrorInfo',
    async (_name, operation, target, code, httpStatus, reason) => {
      const id = target === 'unknown' ? 'no-such-task' : (await sendTask(binding, message('task e'))).id;
      const response = await call(binding, operation, { id });
      const { error } = JSON.parse(await response.text()) as ErrorBody;
      const expected = binding === 'JSONRPC' ? [200, code] : [httpStatus, httpStatus];
      expect([response.status, error.code]).toEqual(expected);
      const details = binding === 'JSONRPC' ? error.data : error.details;
      expect(details?.map((detail) => detail.reason)).toEqual([reason]);
    },
  );
});

it('a tenant scopes the task store: REST path segment and JSON-RPC params.tenant', async () => {
  const sent = await rest('POST', `/${sdkTenant}/message:send`, message('task t'));
  const { task } = JSON.parse(await sent.text()) as { task: WireTask };
  expect((await rest('GET', `/${sdkTenant}/tasks/${task.id}`)).status).toBe(200);
  expect((await rest('GET', `/tasks/${task.id}`)).status).toBe(404);
  const viaRpc = await answer(await call('JSONRPC', 'getTask', { id: task.id, tenant: sdkTenant }));
  expect(resultOf<WireTask>('JSONRPC', viaRpc).id).toBe(task.id);
});

it('delivers push notifications with the config token to the webhook', async () => {
  const before = sdk.pushes.length;
  const task = await sendTask('JSONRPC', {
    ...message('task w'),
    configuration: { taskPushNotificationConfig: { url: sdk.webhookUrl, token: 'hook-token' } },
  });
  await expect.poll(() => sdk.pushes.length - before, { interval: 5 }).toBeGreaterThanOrEqual(1);
  const delivered = sdk.pushes.slice(before);
  expect(delivered.every(({ token }) => token === 'hook-token')).toBe(true);
  expect(delivered[0]?.body).toMatchObject({ task: { id: task.id } });
});

it('slow N sends N progress chunks, one per tick, then completes', async () => {
  const quick = await startSdkAgent({ tickMs: 1 });
  try {
    const response = await fetch(`${quick.restUrl}/message:stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...version },
      body: JSON.stringify(message('slow 3')),
    });
    const events = frames('HTTP+JSON', await response.text());
    const ticks = events.flatMap(
      ({ artifactUpdate }) => artifactUpdate?.artifact.parts.map(({ text }) => text) ?? [],
    );
    expect(ticks).toEqual(['tick 1/3\n', 'tick 2/3\n', 'tick 3/3\n']);
    expect(events.at(-1)?.statusUpdate?.status.state).toBe('TASK_STATE_COMPLETED');
  } finally {
    await quick.close();
  }
});

it('close() ends an open stream and frees the port', async () => {
  const doomed = await startSdkAgent({ tickMs: 600_000 });
  const sent = await fetch(`${doomed.restUrl}/message:send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...version },
    body: JSON.stringify({ ...message('slow 5'), configuration: { returnImmediately: true } }),
  });
  const { task } = (await sent.json()) as { task: WireTask };
  const stream = await fetch(`${doomed.restUrl}/tasks/${task.id}:subscribe`, {
    method: 'POST',
    headers: version,
  });
  const reading = stream.text().then(
    () => 'ended',
    () => 'cut',
  );
  await doomed.close();
  expect(['ended', 'cut']).toContain(await reading);
  await expect(fetch(doomed.cardUrl)).rejects.toThrow();
});
