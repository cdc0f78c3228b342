import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Binding } from '../../src/bindings/binding.js';
import { createJsonRpcBinding } from '../../src/bindings/jsonrpc.js';
import { loadDeferred } from '../../src/client/loader.js';
import { isClientError } from '../../src/core/errors.js';
import { resolveLimits } from '../../src/core/limits.js';
import { errorDomain, errorInfoType } from '../../src/protocol/error-codes.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import type { Message } from '../../src/protocol/message.js';
import { drain, failure } from '../support/binding.js';

const url = 'https://agent.test/a2a/rpc';
const limits = resolveLimits({ responseBodyBytes: 64 * 1024 });
const secret = 'REMOTE-TEXT-5b1e';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const task = { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } };
const message: Message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
const reply = { messageId: 'm-2', contextId: 'ctx-1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] };
const config = { taskId: 'task-1', id: 'cfg-1', url: 'https://hooks.example/a2a' };
const card = {
  name: 'agent',
  description: 'An agent.',
  supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  version: '1',
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 's', description: 'A skill.', tags: ['t'] }],
};
const taskNotFound = {
  code: -32001,
  message: secret,
  data: [{ '@type': errorInfoType, reason: 'TASK_NOT_FOUND', domain: errorDomain }],
};

function bindingOf(extra: { tenant?: string } = {}): Binding {
  let id = 0;
  return createJsonRpcBinding({ url, limits, nextId: () => ++id, load: loadDeferred, ...extra });
}

const envelope = (members: Record<string, JsonValue>, id: JsonValue = 1): string =>
  JSON.stringify({ jsonrpc: '2.0', id, ...members });

function answer(status: number, body: string | null, contentType: string | null = 'application/json'): void {
  server.use(
    http.post(
      url,
      () =>
        new HttpResponse(body, {
          status,
          headers: contentType === null ? {} : { 'content-type': contentType },
        }),
    ),
  );
}

const frame = (data: string, event?: string): string =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${data}\n\n`;

type Seen = { readonly method: string; readonly headers: Record<string, string>; readonly body: unknown };

describe('requests', () => {
  function serveAll(seen: Seen[]): void {
    const results: Record<string, JsonValue> = {
      SendMessage: { task },
      GetTask: task,
      ListTasks: { tasks: [], nextPageToken: '', pageSize: 1, totalSize: 0 },
      CancelTask: task,
      CreateTaskPushNotificationConfig: config,
      GetTaskPushNotificationConfig: config,
      ListTaskPushNotificationConfigs: { configs: [config] },
      DeleteTaskPushNotificationConfig: null,
      GetExtendedAgentCard: card,
    };
    server.use(
      http.post(url, async ({ request }) => {
        const body = (await request.json()) as { id: number; method: string };
        seen.push({ method: request.method, headers: Object.fromEntries(request.headers), body });
        const result = results[body.method];
        if (result === undefined) {
          const data = envelope(
            { result: { task: { ...task, status: { state: 'TASK_STATE_WORKING' } } } },
            body.id,
          );
          return new HttpResponse(frame(data), { headers: { 'content-type': 'text/event-stream' } });
        }
        return HttpResponse.json({ jsonrpc: '2.0', id: body.id, result });
      }),
    );
  }

  it('sends the eleven operations as POSTed envelopes with ids 1..11, the interface tenant in params', async () => {
    const seen: Seen[] = [];
    serveAll(seen);
    const binding = bindingOf({ tenant: 'acme' });
    const auth = vi.fn(async () => 'tok-1');
    const onDispatch = vi.fn();
    const context = { authorize: auth, onDispatch, headers: { 'A2A-Extensions': 'https://ext.example/v1' } };
    await binding.unary('sendMessage', { message }, context);
    await drain(await binding.stream('sendStreamingMessage', { message }, context));
    await binding.unary('getTask', { id: 'task-1', historyLength: 1 }, context);
    await binding.unary('listTasks', { contextId: 'ctx-1', pageSize: 1 }, context);
    await binding.unary('cancelTask', { id: 'task-1' }, context);
    await drain(await binding.stream('subscribeToTask', { id: 'task-1' }, context));
    await binding.unary('createTaskPushNotificationConfig', { taskId: 'task-1', url: config.url }, context);
    await binding.unary('getTaskPushNotificationConfig', { taskId: 'task-1', id: 'cfg-1' }, context);
    await binding.unary('listTaskPushNotificationConfigs', { taskId: 'task-1', pageSize: 1 }, context);
    await binding.unary('deleteTaskPushNotificationConfig', { taskId: 'task-1', id: 'cfg-1' }, context);
    await binding.unary('getExtendedAgentCard', {}, context);

    const tenant = 'acme';
    const sent = (method: string, params: Record<string, unknown>) => ({
      method,
      params: { ...params, tenant },
    });
    expect(seen.map((entry) => entry.body)).toEqual(
      [
        sent('SendMessage', { message }),
        sent('SendStreamingMessage', { message }),
        sent('GetTask', { id: 'task-1', historyLength: 1 }),
        sent('ListTasks', { contextId: 'ctx-1', pageSize: 1 }),
        sent('CancelTask', { id: 'task-1' }),
        sent('SubscribeToTask', { id: 'task-1' }),
        sent('CreateTaskPushNotificationConfig', { taskId: 'task-1', url: config.url }),
        sent('GetTaskPushNotificationConfig', { taskId: 'task-1', id: 'cfg-1' }),
        sent('ListTaskPushNotificationConfigs', { taskId: 'task-1', pageSize: 1 }),
        sent('DeleteTaskPushNotificationConfig', { taskId: 'task-1', id: 'cfg-1' }),
        sent('GetExtendedAgentCard', {}),
      ].map((body, index) => ({ jsonrpc: '2.0', id: index + 1, ...body })),
    );
    for (const [index, entry] of seen.entries()) {
      const streaming = index === 1 || index === 5;
      expect(entry.method).toBe('POST');
      expect(entry.headers).toMatchObject({
        'a2a-version': '1.0',
        'content-type': 'application/json',
        accept: streaming ? 'text/event-stream' : 'application/a2a+json, application/json',
        authorization: 'Bearer tok-1',
        'a2a-extensions': 'https://ext.example/v1',
      });
    }
    expect(auth).toHaveBeenCalledTimes(11);
    expect(onDispatch).toHaveBeenCalledTimes(11);
  });

  it('sends `{}` as the params of GetExtendedAgentCard without a tenant', async () => {
    const seen: Seen[] = [];
    serveAll(seen);
    await bindingOf().unary('getExtendedAgentCard', {}, {});
    expect(seen[0]?.body).toEqual({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard', params: {} });
  });
});

type Answer = { readonly status: number; readonly body: string | null; readonly contentType: string | null };
type Outcome = { readonly value: unknown } | { readonly error: Record<string, unknown> };

const at = (
  status: number,
  body: string | null,
  contentType: string | null = 'application/json',
): Answer => ({
  status,
  body,
  contentType,
});
const ok = (body: string): Answer => at(200, body);
const value = (decoded: unknown): Outcome => ({ value: decoded });
const fails = (
  kind: string,
  reason: string,
  httpStatus: number | undefined,
  remoteCode?: number,
): Outcome => ({
  error: { kind, reason, httpStatus, ...(kind === 'remote' ? { remoteCode } : {}) },
});

const get = 'getTask';
const send = 'sendMessage';
const del = 'deleteTaskPushNotificationConfig';
type Operation = typeof get | typeof send | typeof del;
const requests = { [get]: { id: 'task-1' }, [send]: { message }, [del]: { taskId: 'task-1', id: 'cfg-1' } };
const invalid = (reason: string, httpStatus: number): Outcome =>
  fails('invalid-response', reason, httpStatus);
const protocol = (reason: string, httpStatus: number): Outcome => fails('http-protocol', reason, httpStatus);
const remote = (reason: string, httpStatus: number, code?: number): Outcome =>
  fails('remote', reason, httpStatus, code);
const schema200 = invalid('schema', 200);
const envelope200 = invalid('jsonrpc-envelope', 200);
const big = { ...task, metadata: { pad: 'x'.repeat(65_536) } };

// docs/protocol-checks.md#unary-answers: every row is one raw HTTP answer and the exact outcome it must give.
const unaryCases: readonly [string, Operation, Answer, Outcome][] = [
  ['a task result', get, ok(envelope({ result: task })), value(task)],
  [
    'an a2a+json answer',
    get,
    at(200, envelope({ result: task }), 'application/a2a+json; charset=utf-8'),
    value(task),
  ],
  ['a SendMessage task', send, ok(envelope({ result: { task } })), value({ task })],
  ['a delete answered null', del, ok(envelope({ result: null })), value({})],
  ['a delete answered {}', del, ok(envelope({ result: {} })), value({})],
  ['a delete answered with a member', del, ok(envelope({ result: { ok: true } })), schema200],
  ['a delete answered 204, empty', del, at(204, null, null), invalid('json', 204)],
  ['a GetTask result null', get, ok(envelope({ result: null })), schema200],
  ['a SendMessage result null', send, ok(envelope({ result: null })), schema200],
  ['a SendMessage result {}', send, ok(envelope({ result: {} })), schema200],
  ['task and message', send, ok(envelope({ result: { task, message: reply } })), schema200],
  ['a task and an extra member', send, ok(envelope({ result: { task, extra: 1 } })), schema200],
  ['an unknown member only', send, ok(envelope({ result: { job: task } })), schema200],
  ['a SendMessage array', send, ok(envelope({ result: [{ task }] })), schema200],
  ['a task breaking the contract', get, ok(envelope({ result: { ...task, status: {} } })), schema200],
  ['jsonrpc "1.0"', get, ok(JSON.stringify({ jsonrpc: '1.0', id: 1, result: task })), envelope200],
  ['no jsonrpc member', get, ok(JSON.stringify({ id: 1, result: task })), envelope200],
  ['the id "1" as a string', get, ok(envelope({ result: task }, '1')), envelope200],
  ['another id', get, ok(envelope({ result: task }, 2)), envelope200],
  ['a null id', get, ok(envelope({ error: taskNotFound }, null)), envelope200],
  ['neither result nor error', get, ok(envelope({})), envelope200],
  ['both result and error', get, ok(envelope({ result: task, error: taskNotFound })), envelope200],
  ['result null beside an error', get, ok(envelope({ result: null, error: taskNotFound })), envelope200],
  ['an array body', get, ok(JSON.stringify([{ jsonrpc: '2.0', id: 1, result: task }])), envelope200],
  ['duplicate keys', get, ok('{"jsonrpc":"2.0","id":1,"id":1,"result":{}}'), invalid('json', 200)],
  ['trailing data', get, ok(`${envelope({ result: task })} {}`), invalid('json', 200)],
  ['a body over the bound', get, ok(envelope({ result: big })), invalid('body-too-large', 200)],
  [
    'a 2xx error: authoritative',
    get,
    ok(envelope({ error: taskNotFound })),
    remote('TASK_NOT_FOUND', 200, -32001),
  ],
  [
    'a 2xx error without data',
    get,
    ok(envelope({ error: { code: -32602, message: secret } })),
    remote('INVALID_PARAMS', 200, -32602),
  ],
  [
    'an error with an empty message',
    get,
    ok(envelope({ error: { code: -32001, message: '' } })),
    envelope200,
  ],
  ['an error that is a string', get, ok(envelope({ error: secret })), envelope200],
  [
    'an error in HTTP 500: no code',
    get,
    at(500, envelope({ error: { ...taskNotFound, code: -32603 } })),
    remote('TASK_NOT_FOUND', 500),
  ],
  [
    'an error envelope in HTTP 401',
    get,
    at(401, envelope({ error: { code: -32000, message: secret } })),
    remote('unidentified', 401),
  ],
  ['a plain-text 401', get, at(401, 'Unauthorized', 'text/plain'), protocol('error-envelope', 401)],
  ['an empty 403', get, at(403, null, null), protocol('status', 403)],
  ['a result in HTTP 500', get, at(500, envelope({ result: task })), protocol('result-on-error-status', 500)],
  ['an HTML 502', get, at(502, `<html>${secret}</html>`, 'text/html'), protocol('error-envelope', 502)],
  [
    'another id in HTTP 500',
    get,
    at(500, envelope({ error: taskNotFound }, 7)),
    protocol('error-envelope', 500),
  ],
  [
    'result and error in HTTP 500',
    get,
    at(500, envelope({ result: task, error: taskNotFound })),
    protocol('error-envelope', 500),
  ],
  ['a text/plain 200', get, at(200, envelope({ result: task }), 'text/plain'), protocol('media-type', 200)],
  ['a 200 without a media type', get, at(200, envelope({ result: task }), null), protocol('media-type', 200)],
];

describe('unary answers', () => {
  it.each(unaryCases)('%s', async (_name, operation, { status, body, contentType }, outcome) => {
    answer(status, body, contentType);
    const call = bindingOf().unary(operation, requests[operation] as never, {});
    if ('value' in outcome) {
      const result = await call;
      expect(result.value).toMatchObject(outcome.value as object);
      expect(result.httpStatus).toBe(status);
      return;
    }
    const error = await failure(call);
    expect(isClientError(error)).toBe(true);
    expect(error).toMatchObject({ dispatched: true, ...outcome.error });
    expect(`${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`).not.toContain(secret);
  });

  it('keeps the raw result beside the decoded value', async () => {
    answer(200, envelope({ result: { ...task, unknown: 1 } }));
    const result = await bindingOf().unary('getTask', { id: 'task-1' }, {});
    expect(result.raw).toEqual({ ...task, unknown: 1 });
    expect(result.value).not.toHaveProperty('unknown');
  });
});
