import { type FaultSpec, jsonRpcPath, restPath } from '@surecall/mocks';
import { createMockAgentServer } from '@surecall/mocks/node';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type A2aClient, createClient } from '../src/client/client.js';
import type { ClientEvent } from '../src/client/events.js';
import type { ClientOptions } from '../src/client/options.js';
import type { ProtocolBinding } from '../src/client/security.js';
import { type ClientError, isClientError } from '../src/core/errors.js';
import { cardDigest } from '../src/discovery/digest.js';
import type { AgentCard } from '../src/protocol/agent-card.js';
import { parseAgentCard } from '../src/protocol/decode.js';
import type { JsonObject } from '../src/protocol/json-value.js';
import type { Message } from '../src/protocol/message.js';
import type { ClientMethod } from '../src/protocol/operations.js';
import { operations } from '../src/protocol/operations.js';
import type { StreamResponse } from '../src/protocol/stream.js';
import type { Task } from '../src/protocol/task.js';
import { servedCard } from './support/card.js';

const mock = createMockAgentServer({ stepMs: 0 });
const bindings = ['JSONRPC', 'HTTP+JSON'] as const;
let requests = 0;
let rawCard: JsonObject;
let card: AgentCard;
let digest: string;

beforeAll(async () => {
  mock.listen();
  rawCard = {
    ...(await servedCard(mock.cardUrl)),
    securityRequirements: [{ schemes: {} }, { schemes: { bearer: { list: [] } } }],
  };
  card = parseAgentCard(rawCard);
  digest = await cardDigest(rawCard);
  mock.server.events.on('request:start', () => {
    requests += 1;
  });
});
afterEach(() => {
  requests = 0;
  mock.faults.clear();
  mock.server.resetHandlers();
});
afterAll(() => mock.close());

function makeClient(binding: ProtocolBinding, options: Partial<ClientOptions> = {}): A2aClient {
  return createClient({
    card,
    cardDigest: digest,
    pin: { binding, url: `${mock.origin}${binding === 'JSONRPC' ? jsonRpcPath : restPath}` },
    security: { kind: 'bearer', scheme: 'bearer', token: async () => 'token' },
    ...options,
  });
}

function userMessage(text: string, extra: Partial<Message> = {}): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

/**
Runs `call`, returning the events it delivered before its error (a unary call delivers none) and the error.
*/
async function failure(call: () => Promise<unknown> | AsyncIterable<StreamResponse>): Promise<{
  readonly delivered: StreamResponse[];
  readonly error: ClientError;
}> {
  const delivered: StreamResponse[] = [];
  try {
    const result = call();
    if (Symbol.asyncIterator in result) {
      for await (const event of result) {
        delivered.push(event);
      }
    } else {
      await result;
    }
  } catch (error) {
    if (isClientError(error)) {
      return { delivered, error };
    }
    throw error;
  }
  throw new Error('expected the call to fail');
}

function frame(binding: ProtocolBinding, rpcId: unknown, result: unknown): unknown {
  return binding === 'JSONRPC' ? { jsonrpc: '2.0', id: rpcId, result } : result;
}

function events(binding: ProtocolBinding, rpcId: unknown, results: readonly unknown[]): Response {
  const body = results.map((result) => `data: ${JSON.stringify(frame(binding, rpcId, result))}\n\n`).join('');
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/**
Answers one operation of one binding with `respond`, given the JSON-RPC id of the request; everything else
reaches the agent.
*/
function answer(
  binding: ProtocolBinding,
  operation: ClientMethod,
  respond: (rpcId: unknown) => Response,
): void {
  const { name, http: route } = operations[operation];
  const pattern = new RegExp(`^${restPath}${route.path.replace(/\{\w+\}/g, '[^/]+')}$`);
  mock.server.use(
    http.all(`${mock.origin}/a2a/*`, async ({ request }) => {
      const path = new URL(request.url).pathname;
      if (binding === 'JSONRPC') {
        const body: { method?: string; id?: number } =
          path === jsonRpcPath ? ((await request.clone().json()) as { method: string; id: number }) : {};
        return body.method === name ? respond(body.id) : undefined;
      }
      return request.method === route.method && pattern.test(path) ? respond(undefined) : undefined;
    }),
  );
}

const task = (id: string, state: string, extra: JsonObject = {}) => ({
  task: { id, contextId: 'context-1', status: { state }, ...extra },
});

type FaultCase = readonly [
  FaultSpec['kind'],
  'send' | 'stream' | 'get',
  string,
  (typeof bindings)[number] | 'both',
];

// Every fault of the lab that corrupts an answer (mocks/src/faults/faults.ts), and the kind and reason the
// client must report.
const malformed: readonly FaultCase[] = [
  ['premature-eof', 'send', 'invalid-response json', 'both'],
  ['duplicate-keys', 'send', 'invalid-response json', 'both'],
  ['wrong-jsonrpc-id', 'send', 'invalid-response jsonrpc-envelope', 'JSONRPC'],
  ['result-and-error', 'send', 'invalid-response jsonrpc-envelope', 'JSONRPC'],
  ['two-union-members', 'send', 'invalid-response schema', 'both'],
  ['wrong-media-type', 'send', 'http-protocol media-type', 'both'],
  ['html-413', 'send', 'http-protocol error-envelope', 'both'],
  ['redirect', 'send', 'http-protocol redirect', 'both'],
  ['status-after', 'send', 'http-protocol error-envelope', 'both'],
  ['blocking-submitted', 'send', 'invalid-response lifecycle', 'both'],
  ['different-task-id', 'get', 'invalid-response identity', 'both'],
  ['oversized-sse-line', 'stream', 'invalid-response sse', 'both'],
  ['premature-eof', 'stream', 'invalid-response lifecycle', 'both'],
  ['duplicate-keys', 'stream', 'invalid-response json', 'both'],
  ['wrong-jsonrpc-id', 'stream', 'invalid-response jsonrpc-envelope', 'JSONRPC'],
  ['result-and-error', 'stream', 'invalid-response jsonrpc-envelope', 'JSONRPC'],
  ['two-union-members', 'stream', 'invalid-response schema', 'both'],
  ['different-task-id', 'stream', 'invalid-response identity', 'both'],
  ['wrong-media-type', 'stream', 'http-protocol media-type', 'both'],
  ['html-413', 'stream', 'http-protocol error-envelope', 'both'],
  ['redirect', 'stream', 'http-protocol redirect', 'both'],
  ['status-after', 'stream', 'http-protocol error-envelope', 'both'],
];

const frameKinds: ReadonlySet<string> = new Set([
  'duplicate-keys',
  'wrong-jsonrpc-id',
  'result-and-error',
  'two-union-members',
  'different-task-id',
]);

const operationOf = { send: 'SendMessage', stream: 'SendStreamingMessage', get: 'GetTask' } as const;

describe.each(bindings)('the fault lab over %s', (binding) => {
  const cases = malformed.filter(([, , , only]) => only === 'both' || only === binding);

  it.each(cases)('%s on %s gives %s, dispatched', async (kind, call, expected) => {
    const client = makeClient(binding);
    const seen: ClientEvent[] = [];
    client.events.subscribe((event) => seen.push(event));
    let taskId = '';
    if (call === 'get') {
      const sent = await client.sendMessage({ message: userMessage('task a') });
      taskId = 'task' in sent ? sent.task.id : '';
    }
    // A frame fault hits the second event of the stream (the first Task is its identity), a document fault
    // the answer.
    mock.faults.set({
      kind,
      operation: operationOf[call],
      ...(call === 'stream' && frameKinds.has(kind) ? { frame: 1 } : {}),
    } as FaultSpec);
    const { error } = await failure(() =>
      call === 'send'
        ? client.sendMessage({ message: userMessage('task a') })
        : call === 'get'
          ? client.getTask({ id: taskId })
          : // With resumption on, a premature end is a break that heals (test/stream-resumption.test.ts); here the validator's verdict is the subject.
            client.sendStreamingMessage(
              { message: userMessage('task a b') },
              kind === 'premature-eof' ? { resume: false } : {},
            ),
    );
    expect(`${error.kind} ${error.reason}`).toBe(expected);
    expect(error.dispatched).toBe(true);
    expect(seen.at(-1)).toMatchObject({
      type: 'error',
      error: { kind: error.kind, reason: error.reason, dispatched: true },
    });
    expect(mock.faults.list()).toHaveLength(0);
  });

  it('a lost answer is a transport failure after dispatch, and exactly one request reached the agent', async () => {
    const message = userMessage('task a');
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const { error } = await failure(() => makeClient(binding).sendMessage({ message }));
    expect(error).toMatchObject({ kind: 'transport', dispatched: true });
    await new Promise((resolve) => setImmediate(resolve));
    // No hidden retry: one request, one execution.
    expect(requests).toBe(1);
    expect(mock.executions.of(message.messageId)).toBe(1);
  });

  it('a premature task stream (one WORKING task, then the end) fails after delivering the task', async () => {
    answer(binding, 'sendStreamingMessage', (rpcId) =>
      events(binding, rpcId, [task('task-1', 'TASK_STATE_WORKING')]),
    );
    const stream = makeClient(binding).sendStreamingMessage({ message: userMessage('task a') });
    const { delivered, error } = await failure(() => stream);
    expect(delivered).toHaveLength(1);
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'lifecycle', dispatched: true });
    // The first error ends the stream.
    await expect(stream[Symbol.asyncIterator]().next()).resolves.toEqual({ done: true, value: undefined });
  });

  it('a status update of another task in a subscription fails, then ends the stream', async () => {
    answer(binding, 'subscribeToTask', (rpcId) =>
      events(binding, rpcId, [
        task('task-1', 'TASK_STATE_WORKING'),
        {
          statusUpdate: {
            taskId: 'task-2',
            contextId: 'context-1',
            status: { state: 'TASK_STATE_COMPLETED' },
          },
        },
        {
          statusUpdate: {
            taskId: 'task-1',
            contextId: 'context-1',
            status: { state: 'TASK_STATE_COMPLETED' },
          },
        },
      ]),
    );
    const stream = makeClient(binding).subscribeToTask({ id: 'task-1' });
    const { delivered, error } = await failure(() => stream);
    expect(delivered).toHaveLength(1);
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'identity', dispatched: true });
    await expect(stream[Symbol.asyncIterator]().next()).resolves.toEqual({ done: true, value: undefined });
  });

  it('aborting a stream mid-way is a transport failure after dispatch', async () => {
    answer(binding, 'subscribeToTask', (rpcId) => {
      const first = `data: ${JSON.stringify(frame(binding, rpcId, task('task-1', 'TASK_STATE_WORKING')))}\n\n`;
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode(first)),
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const controller = new AbortController();
    const stream = makeClient(binding).subscribeToTask({ id: 'task-1' }, { signal: controller.signal });
    const { delivered, error } = await failure(async function* () {
      for await (const event of stream) {
        yield event;
        controller.abort();
      }
    });
    expect(delivered).toHaveLength(1);
    expect(error).toMatchObject({ kind: 'transport', reason: 'aborted', dispatched: true });
  });

  it('a blocking send is never answered with a task still working, but a returnImmediately send may be', async () => {
    answer(binding, 'sendMessage', (rpcId) =>
      HttpResponse.json(frame(binding, rpcId, task('task-1', 'TASK_STATE_WORKING')) as JsonObject),
    );
    const client = makeClient(binding);
    const { error } = await failure(() => client.sendMessage({ message: userMessage('task a') }));
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'lifecycle', dispatched: true });
    const early = await client.sendMessage({
      message: userMessage('task a'),
      configuration: { returnImmediately: true },
    });
    expect(early).toMatchObject({ task: { id: 'task-1', status: { state: 'TASK_STATE_WORKING' } } });
  });
});

describe.each(bindings)(
  'every unary answer is checked over %s (docs/protocol-checks.md#unary-answers)',
  (binding) => {
    const config = { taskId: 'task-1', id: 'config-1', url: 'https://hooks.example/a2a' };

    it.each<[string, ClientMethod, (client: A2aClient) => Promise<unknown>, unknown, string]>([
      [
        'a foreign task to GetTask',
        'getTask',
        (c) => c.getTask({ id: 'task-1' }),
        task('task-2', 'TASK_STATE_WORKING').task,
        'identity',
      ],
      [
        'a foreign task to CancelTask',
        'cancelTask',
        (c) => c.cancelTask({ id: 'task-1' }),
        task('task-2', 'TASK_STATE_CANCELED').task,
        'identity',
      ],
      [
        'a page with a task of another context',
        'listTasks',
        (c) => c.listTasks({ contextId: 'context-2' }),
        { tasks: [task('task-1', 'TASK_STATE_WORKING').task], nextPageToken: '', pageSize: 50, totalSize: 1 },
        'page',
      ],
      [
        'a created config of another task',
        'createTaskPushNotificationConfig',
        (c) => c.createTaskPushNotificationConfig(config),
        { ...config, taskId: 'task-2' },
        'identity',
      ],
      [
        'another config than the one asked for',
        'getTaskPushNotificationConfig',
        (c) => c.getTaskPushNotificationConfig({ taskId: 'task-1', id: 'config-1' }),
        { ...config, id: 'config-2' },
        'identity',
      ],
      [
        'a config page with one id twice',
        'listTaskPushNotificationConfigs',
        (c) => c.listTaskPushNotificationConfigs({ taskId: 'task-1' }),
        { configs: [config, config], nextPageToken: '' },
        'page',
      ],
    ])('refuses %s', async (_name, operation, call, result, reason) => {
      answer(binding, operation, (rpcId) => HttpResponse.json(frame(binding, rpcId, result) as JsonObject));
      const { error } = await failure(() => call(makeClient(binding)));
      expect(error).toMatchObject({ kind: 'invalid-response', reason, dispatched: true, httpStatus: 200 });
    });
  },
);

describe('docs/durable-send.md#what-the-tests-prove', () => {
  it('JSON-RPC DeleteTaskPushNotificationConfig answered 204 is an invalid response, dispatched', async () => {
    answer('JSONRPC', 'deleteTaskPushNotificationConfig', () => new Response(null, { status: 204 }));
    const { error } = await failure(() =>
      makeClient('JSONRPC').deleteTaskPushNotificationConfig({ taskId: 'task-1', id: 'config-1' }),
    );
    expect(error).toMatchObject({ kind: 'invalid-response', dispatched: true, httpStatus: 204 });
  });

  it.each(bindings)('%s: an anonymous client never asks for the extended card', async (binding) => {
    const client = makeClient(binding, { security: { kind: 'anonymous' } });
    const { error } = await failure(() => client.getExtendedAgentCard());
    expect(error).toMatchObject({ kind: 'authorization', reason: 'unauthenticated', dispatched: false });
    expect(requests).toBe(0);
  });
});

describe.each(bindings)('capability gates over %s send nothing', (binding) => {
  const incapable = (): AgentCard =>
    parseAgentCard({
      ...rawCard,
      capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    });
  const push = { url: 'https://hooks.example/a2a' };

  it.each<[string, string, (client: A2aClient) => Promise<unknown> | AsyncIterable<StreamResponse>]>([
    ['a streaming send', 'streaming', (c) => c.sendStreamingMessage({ message: userMessage('task a') })],
    ['a subscription', 'streaming', (c) => c.subscribeToTask({ id: 'task-1' })],
    [
      'a push-config creation',
      'push-notifications',
      (c) => c.createTaskPushNotificationConfig({ ...push, taskId: 'task-1' }),
    ],
    [
      'a push-config read',
      'push-notifications',
      (c) => c.getTaskPushNotificationConfig({ taskId: 'task-1', id: 'c' }),
    ],
    [
      'a push-config list',
      'push-notifications',
      (c) => c.listTaskPushNotificationConfigs({ taskId: 'task-1' }),
    ],
    [
      'a push-config deletion',
      'push-notifications',
      (c) => c.deleteTaskPushNotificationConfig({ taskId: 'task-1', id: 'c' }),
    ],
    [
      'a send carrying a push config',
      'push-notifications',
      (c) =>
        c.sendMessage({
          message: userMessage('task a'),
          configuration: { taskPushNotificationConfig: push },
        }),
    ],
    ['the extended card', 'extended-agent-card', (c) => c.getExtendedAgentCard()],
  ])('%s needs %s', async (_name, reason, call) => {
    const client = makeClient(binding, { card: incapable() });
    const seen: ClientEvent[] = [];
    client.events.subscribe((event) => seen.push(event));
    const { error } = await failure(() => call(client));
    expect(error).toMatchObject({ kind: 'capability', reason, dispatched: false });
    expect(requests).toBe(0);
    expect(seen.map((event) => event.type)).toEqual(['error']);
  });
});

it('reads a task answered by the agent unchanged (a control for the overrides above)', async () => {
  const client = makeClient('HTTP+JSON');
  const sent = await client.sendMessage({ message: userMessage('task a') });
  const id = 'task' in sent ? sent.task.id : '';
  await expect(client.getTask({ id })).resolves.toMatchObject({ id } satisfies Partial<Task>);
});
