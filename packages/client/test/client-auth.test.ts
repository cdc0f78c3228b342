import { inspect } from 'node:util';
import { jsonRpcPath, restPath } from '@surecall/mocks';
import { createMockAgentServer } from '@surecall/mocks/node';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type A2aClient, createClient } from '../src/client/client.js';
import type { ClientEvent } from '../src/client/events.js';
import type { ClientOptions } from '../src/client/options.js';
import type { ProtocolBinding, TokenContext, TokenProvider } from '../src/client/security.js';
import { AuthorizationError, isClientError } from '../src/core/errors.js';
import { cardDigest } from '../src/discovery/digest.js';
import type { AgentCard } from '../src/protocol/agent-card.js';
import { parseAgentCard } from '../src/protocol/decode.js';
import { errorDomain, errorInfoType } from '../src/protocol/error-codes.js';
import type { JsonObject } from '../src/protocol/json-value.js';
import type { Message } from '../src/protocol/message.js';
import type { StreamResponse } from '../src/protocol/stream.js';
import { servedCard } from './support/card.js';

const mock = createMockAgentServer({ stepMs: 0 });
const bindings = ['JSONRPC', 'HTTP+JSON'] as const;
const headers: Headers[] = [];
let rawCard: JsonObject;
let card: AgentCard;
let digest: string;

beforeAll(async () => {
  mock.listen();
  const served = (await servedCard(mock.cardUrl)) as { skills: (JsonObject & { id: string })[] };
  rawCard = {
    ...served,
    securityRequirements: [
      { schemes: {} },
      { schemes: { bearer: { list: ['agent.invoke', 'a2a.read', 'agent.invoke'] } } },
    ],
    // The echo skill asks for its own scope (docs/protocol-checks.md#security-selection, skill-level
    // security).
    skills: served.skills.map((skill) =>
      skill.id === 'echo'
        ? { ...skill, securityRequirements: [{ schemes: { bearer: { list: ['skill.invoke'] } } }] }
        : skill,
    ),
  };
  card = parseAgentCard(rawCard);
  digest = await cardDigest(rawCard);
  mock.server.events.on('request:start', ({ request }) => {
    headers.push(request.headers);
  });
});
afterEach(() => {
  headers.length = 0;
  mock.server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => mock.close());

function urlOf(binding: ProtocolBinding): string {
  return `${mock.origin}${binding === 'JSONRPC' ? jsonRpcPath : restPath}`;
}

function makeClient(
  binding: ProtocolBinding,
  token: TokenProvider,
  options: Partial<ClientOptions> = {},
): A2aClient {
  return createClient({
    card,
    cardDigest: digest,
    pin: { binding, url: urlOf(binding) },
    security: { kind: 'bearer', scheme: 'bearer', token },
    ...options,
  });
}

function userMessage(text: string, extra: Partial<Message> = {}): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

async function drain(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) {
    events.push(event);
  }
  return events;
}

function recorder(token = 'token-1') {
  const contexts: TokenContext[] = [];
  const provider = vi.fn(async (context: TokenContext) => {
    contexts.push(context);
    return token;
  });
  return { contexts, provider };
}

describe.each(bindings)('the token provider over %s (docs/protocol-checks.md#token-provider)', (binding) => {
  it('is called once per request, with the operation, the card digest, the task and the scopes', async () => {
    const { contexts, provider } = recorder();
    const client = makeClient(binding, provider);
    const sent = await client.sendMessage({ message: userMessage('input') });
    const first = 'task' in sent ? sent.task.id : '';
    await client.sendMessage({ message: userMessage('Ada', { taskId: first }) });
    const [opened] = await drain(client.sendStreamingMessage({ message: userMessage('input') }));
    const second = opened !== undefined && 'task' in opened ? opened.task.id : '';
    await drain(client.subscribeToTask({ id: second }));
    await client.cancelTask({ id: second });
    await client.getTask({ id: first });
    await client.listTasks({});
    await client.createTaskPushNotificationConfig({
      taskId: first,
      id: 'c-1',
      url: 'https://hooks.example/a2a',
    });
    await client.getTaskPushNotificationConfig({ taskId: first, id: 'c-1' });
    await client.listTaskPushNotificationConfigs({ taskId: first });
    await client.deleteTaskPushNotificationConfig({ taskId: first, id: 'c-1' });
    await client.getExtendedAgentCard();

    const common = { cardDigest: digest, binding, scopes: ['a2a.read', 'agent.invoke'] };
    expect(contexts.map(({ signal: _signal, ...context }) => context)).toEqual([
      { ...common, operation: 'SendMessage' },
      { ...common, operation: 'SendMessage', taskId: first },
      { ...common, operation: 'SendStreamingMessage' },
      { ...common, operation: 'SubscribeToTask', taskId: second },
      { ...common, operation: 'CancelTask', taskId: second },
      { ...common, operation: 'GetTask', taskId: first },
      { ...common, operation: 'ListTasks' },
      { ...common, operation: 'CreateTaskPushNotificationConfig', taskId: first },
      { ...common, operation: 'GetTaskPushNotificationConfig', taskId: first },
      { ...common, operation: 'ListTaskPushNotificationConfigs', taskId: first },
      { ...common, operation: 'DeleteTaskPushNotificationConfig', taskId: first },
      { ...common, operation: 'GetExtendedAgentCard' },
    ]);
    expect(
      contexts.every((context) => Object.isFrozen(context) && context.signal instanceof AbortSignal),
    ).toBe(true);
    expect(headers).toHaveLength(12);
    expect(headers.map((each) => each.get('authorization'))).toEqual(Array(12).fill('Bearer token-1'));
  });

  it('gets the skill’s scopes, the skill, the tenant and the durable attempt when the call names them', async () => {
    const tenanted = parseAgentCard({
      ...rawCard,
      supportedInterfaces: [
        { url: urlOf(binding), protocolBinding: binding, protocolVersion: '1.0', tenant: 'acme' },
      ],
    });
    const { contexts, provider } = recorder();
    const client = makeClient(binding, provider, {
      card: tenanted,
      pin: { binding, url: urlOf(binding), tenant: 'acme' },
    });
    const attempt = { sendId: 'send-1', attemptId: 'attempt-1' };
    await client.sendMessage({ message: userMessage('echo hi') }, { skill: 'echo', attempt });
    const { signal: _signal, ...context } = contexts[0] as TokenContext;
    expect(context).toEqual({
      operation: 'SendMessage',
      cardDigest: digest,
      binding,
      tenant: 'acme',
      skill: 'echo',
      scopes: ['skill.invoke'],
      attempt,
    });
  });

  it.each<[string, TokenProvider, string]>([
    ['rejects', async () => Promise.reject(new Error('provider down')), 'unavailable'],
    [
      'throws synchronously',
      () => {
        throw new Error('provider bug');
      },
      'unavailable',
    ],
    ['answers a token that cannot be a header value', async () => 'two words', 'unavailable'],
    [
      'refuses this caller',
      async () => Promise.reject(new AuthorizationError('permission-denied')),
      'permission-denied',
    ],
  ])('fails the call with nothing sent when it %s', async (_name, provider, reason) => {
    const client = makeClient(binding, provider);
    const events: ClientEvent[] = [];
    client.events.subscribe((event) => events.push(event));
    await expect(client.getTask({ id: 'task-1' })).rejects.toMatchObject({
      kind: 'authorization',
      reason,
      dispatched: false,
    });
    expect(headers).toHaveLength(0);
    expect(events.map((event) => event.type)).toEqual(['error']);
  });

  it('times out inside the request deadline with nothing sent', async () => {
    vi.useFakeTimers();
    let seen: AbortSignal | undefined;
    const client = makeClient(
      binding,
      (context) => {
        seen = context.signal;
        return new Promise<string>(() => undefined);
      },
      { limits: { requestTimeoutMs: 5_000 } },
    );
    let outcome: unknown;
    const pending = client.getTask({ id: 'task-1' }).catch((error: unknown) => {
      outcome = error;
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(outcome).toBeUndefined();
    expect(seen?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(outcome).toMatchObject({ kind: 'authorization', reason: 'unavailable', dispatched: false });
    expect(seen?.aborted).toBe(true);
    expect(headers).toHaveLength(0);
  });

  it('is never asked by an anonymous client, which sends no Authorization header', async () => {
    const client = createClient({
      card,
      cardDigest: digest,
      pin: { binding, url: urlOf(binding) },
      security: { kind: 'anonymous' },
    });
    await client.sendMessage({ message: userMessage('echo hi') });
    expect(headers).toHaveLength(1);
    expect(headers[0]?.has('authorization')).toBe(false);
  });
});

const TOKEN = 'TokenMarker7f3a9c';
const REMOTE = 'remote-text-marker-5d1e';
const BODY = 'body-marker-b64c';

/** Answers every request to the agent with `respond(JSON-RPC id)`. */
function answerAll(binding: ProtocolBinding, respond: (rpcId: number | undefined) => Response): void {
  mock.server.use(
    http.all(`${mock.origin}/a2a/*`, async ({ request }) => {
      const rpcId = binding === 'JSONRPC' ? ((await request.clone().json()) as { id: number }).id : undefined;
      return respond(rpcId);
    }),
  );
}

function sse(binding: ProtocolBinding, rpcId: number | undefined, frames: readonly unknown[]): Response {
  const body = frames
    .map(
      (frame) =>
        `data: ${JSON.stringify(binding === 'JSONRPC' ? { jsonrpc: '2.0', id: rpcId, ...(frame as object) } : frame)}\n\n`,
    )
    .join('');
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

const errorInfo = [
  { '@type': errorInfoType, reason: 'TASK_NOT_FOUND', domain: errorDomain, metadata: { note: REMOTE } },
];
const working = { task: { id: 'task-1', contextId: 'context-1', status: { state: 'TASK_STATE_WORKING' } } };
const foreign = {
  statusUpdate: {
    taskId: 'task-2',
    contextId: 'context-1',
    status: {
      state: 'TASK_STATE_WORKING',
      message: { messageId: 'm', role: 'ROLE_AGENT', taskId: 'task-2', parts: [{ text: BODY }] },
    },
  },
};

type Scenario = readonly [
  string,
  (binding: ProtocolBinding) => void,
  (client: A2aClient) => Promise<unknown>,
];

const getTask = (client: A2aClient) => client.getTask({ id: 'task-1' });
const subscribe = (client: A2aClient) => drain(client.subscribeToTask({ id: 'task-1' }));

const scenarios: readonly Scenario[] = [
  [
    'an A2A error with a message',
    (binding) =>
      answerAll(binding, (rpcId) =>
        binding === 'JSONRPC'
          ? HttpResponse.json({
              jsonrpc: '2.0',
              id: rpcId,
              error: { code: -32001, message: REMOTE, data: errorInfo },
            })
          : HttpResponse.json(
              { error: { code: 404, status: 'NOT_FOUND', message: REMOTE, details: errorInfo } },
              { status: 404 },
            ),
      ),
    getTask,
  ],
  [
    'an error envelope under a 500',
    (binding) =>
      answerAll(binding, (rpcId) =>
        HttpResponse.json(
          binding === 'JSONRPC'
            ? { jsonrpc: '2.0', id: rpcId, error: { code: -32603, message: REMOTE } }
            : { error: { code: 500, status: 'INTERNAL', message: REMOTE } },
          { status: 500 },
        ),
      ),
    getTask,
  ],
  [
    'a plain-text 502',
    (binding) => answerAll(binding, () => new HttpResponse(`${BODY} ${REMOTE}`, { status: 502 })),
    getTask,
  ],
  [
    'a task that breaks the schema',
    (binding) =>
      answerAll(binding, (rpcId) => {
        const result = { id: 'task-1', contextId: BODY, status: { state: BODY } };
        return HttpResponse.json(binding === 'JSONRPC' ? { jsonrpc: '2.0', id: rpcId, result } : result);
      }),
    getTask,
  ],
  [
    'a refused stream event',
    (binding) =>
      answerAll(binding, (rpcId) =>
        sse(
          binding,
          rpcId,
          binding === 'JSONRPC' ? [{ result: working }, { result: foreign }] : [working, foreign],
        ),
      ),
    subscribe,
  ],
  [
    'an error event in a stream',
    (binding) =>
      answerAll(binding, (rpcId) =>
        sse(
          binding,
          rpcId,
          binding === 'JSONRPC'
            ? [{ result: working }, { error: { code: -32001, message: REMOTE, data: errorInfo } }]
            : [working, { error: { message: REMOTE } }],
        ),
      ),
    subscribe,
  ],
  [
    'a token provider failing with the token in its message',
    () => undefined,
    (client) => createClient({ ...optionsOf(client), security: failingSecurity }).getTask({ id: 'task-1' }),
  ],
];

const failingSecurity = {
  kind: 'bearer',
  scheme: 'bearer',
  token: async () => Promise.reject(new Error(`could not refresh ${TOKEN}`)),
} as const;

function optionsOf(client: A2aClient): ClientOptions {
  return {
    card: client.card,
    cardDigest: client.cardDigest,
    pin: { binding: client.binding, url: urlOf(client.binding) },
    security: failingSecurity,
  };
}

describe.each(bindings)('redaction over %s (ARCHITECTURE.md#errors)', (binding) => {
  it.each(scenarios)(
    'keeps the token, remote text and body out of errors and events: %s',
    async (_name, arrange, call) => {
      arrange(binding);
      const client = makeClient(binding, async () => TOKEN);
      const events: ClientEvent[] = [];
      client.events.subscribe((event) => events.push(event));
      let thrown: unknown;
      try {
        await call(client);
      } catch (error) {
        thrown = error;
      }
      expect(isClientError(thrown)).toBe(true);
      const error = thrown as Error;
      // The peer's own words are data beside the error, `remote` (ARCHITECTURE.md#errors): inspecting the
      // error shows them there, escaped, and shows the token nowhere.
      const { remote: _, ...fields } = { ...error, remote: undefined };
      const renderings = [
        error.message,
        error.stack ?? '',
        JSON.stringify(error),
        String(error),
        inspect(fields, { depth: 8 }),
      ];
      const seen = [...renderings, JSON.stringify(events)].join('\n');
      for (const marker of [TOKEN, REMOTE, BODY]) {
        expect(seen).not.toContain(marker);
      }
      expect(inspect(error, { depth: 8 })).not.toContain(TOKEN);
    },
  );
});
