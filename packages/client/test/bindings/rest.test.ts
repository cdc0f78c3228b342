import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRestBinding } from '../../src/bindings/rest.js';
import { isClientError } from '../../src/core/errors.js';
import { resolveLimits } from '../../src/core/limits.js';
import { errorDomain, errorInfoType } from '../../src/protocol/error-codes.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import type { Message } from '../../src/protocol/message.js';
import { drain, failure } from '../support/binding.js';

const origin = 'https://agent.test';
const limits = resolveLimits();
const secret = 'REMOTE-TEXT-c41d';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const task = { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } };
const message: Message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
const statusUpdate = { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } };
const config = { taskId: 'task-1', id: 'cfg-1', url: 'https://hooks.example/a2a' };

function restError(code: number, status: string, reason?: string): JsonValue {
  const details = reason === undefined ? [] : [{ '@type': errorInfoType, reason, domain: errorDomain }];
  return { error: { code, status, message: secret, details } };
}

function bindingOf() {
  return createRestBinding({ url: `${origin}/a2a/`, limits });
}

function answer(
  status: number,
  body: string | null,
  contentType: string | null = 'application/a2a+json',
): void {
  const headers = contentType === null ? {} : { 'content-type': contentType };
  server.use(http.all(`${origin}/*`, () => new HttpResponse(body, { status, headers })));
}

const frame = (data: JsonValue | string, event?: string): string =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

type Answer = { readonly status: number; readonly body: string | null; readonly contentType: string | null };
type Outcome =
  | { readonly value: unknown; readonly raw?: JsonValue }
  | { readonly error: Record<string, unknown> };

const at = (
  status: number,
  body: string | null,
  contentType: string | null = 'application/a2a+json',
): Answer => ({
  status,
  body,
  contentType,
});
const ok = (body: JsonValue, status = 200): Answer => at(status, JSON.stringify(body));
const fails = (
  kind: string,
  reason: string,
  httpStatus: number | undefined,
  remoteCode?: number,
): Outcome => ({
  error: { kind, reason, httpStatus, ...(kind === 'remote' ? { remoteCode } : {}) },
});
const invalid = (reason: string, httpStatus: number): Outcome =>
  fails('invalid-response', reason, httpStatus);
const protocol = (reason: string, httpStatus: number): Outcome => fails('http-protocol', reason, httpStatus);
const remote = (reason: string, httpStatus: number, code?: number): Outcome =>
  fails('remote', reason, httpStatus, code);
const deleted = (raw: JsonValue): Outcome => ({ value: {}, raw });

const get = 'getTask';
const create = 'createTaskPushNotificationConfig';
const del = 'deleteTaskPushNotificationConfig';
type Operation = typeof get | typeof create | typeof del;
const requests = {
  [get]: { id: 'task-1' },
  [create]: { taskId: 'task-1', url: config.url },
  [del]: { taskId: 'task-1', id: 'cfg-1' },
};
const notFound = restError(404, 'NOT_FOUND', 'TASK_NOT_FOUND');

// docs/protocol-checks.md#unary-answers and docs/interop.md#the-official-js-sdk-server: one raw HTTP answer
// per row and the exact outcome it must give.
const unaryCases: readonly [string, Operation, Answer, Outcome][] = [
  ['a task', get, ok(task), { value: { ...task, history: [] }, raw: task }],
  [
    'a task as application/json with a charset',
    get,
    at(200, JSON.stringify(task), 'application/json; charset=utf-8'),
    { value: { ...task, history: [] } },
  ],
  ['a task in 201', get, ok(task, 201), protocol('status', 201)],
  ['a create answered 201, as the SDK does', create, ok(config, 201), { value: config }],
  ['a create answered 200', create, ok(config), { value: config }],
  ['a create answered 202', create, ok(config, 202), protocol('status', 202)],
  ['a delete answered 204', del, at(204, null, null), deleted(null)],
  ['a delete answered 200 with no body', del, at(200, null, null), deleted(null)],
  ['a delete answered 202 with an empty JSON body', del, at(202, ''), deleted(null)],
  ['a delete answered null', del, ok(null), deleted(null)],
  ['a delete answered {}', del, ok({}), deleted({})],
  ['a delete answered with a member', del, ok({ deleted: true }), invalid('schema', 200)],
  ['an empty 200 without a media type', get, at(200, null, null), protocol('media-type', 200)],
  ['an empty 200 JSON body', get, at(200, ''), invalid('json', 200)],
  ['a text/plain 200', get, at(200, JSON.stringify(task), 'text/plain'), protocol('media-type', 200)],
  ['duplicate keys', get, at(200, '{"id":"task-1","id":"task-1"}'), invalid('json', 200)],
  ['a task breaking the contract', get, ok({ ...task, status: {} }), invalid('schema', 200)],
  ['a task wrapped in a union', get, ok({ task }), invalid('schema', 200)],
  ['TaskNotFound: 404 NOT_FOUND', get, ok(notFound, 404), remote('TASK_NOT_FOUND', 404, -32001)],
  [
    'TaskNotCancelable as the SDK and v1.0.1 send it',
    get,
    ok(restError(400, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE'), 400),
    remote('TASK_NOT_CANCELABLE', 400, -32002),
  ],
  [
    'TaskNotCancelable as v1.0.0 sends it',
    get,
    ok(restError(409, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE'), 409),
    remote('TASK_NOT_CANCELABLE', 409, -32002),
  ],
  [
    'InvalidParams: 400 INVALID_ARGUMENT',
    get,
    ok(restError(400, 'INVALID_ARGUMENT', 'INVALID_PARAMS'), 400),
    remote('INVALID_PARAMS', 400, -32602),
  ],
  [
    'a status string that disagrees',
    get,
    ok(restError(404, 'INVALID_ARGUMENT', 'TASK_NOT_FOUND'), 404),
    remote('TASK_NOT_FOUND', 404),
  ],
  [
    'a 401 without an ErrorInfo',
    get,
    ok(restError(401, 'UNAUTHENTICATED'), 401),
    remote('unidentified', 401),
  ],
  [
    'an envelope code that is not the HTTP status',
    get,
    ok(restError(400, 'NOT_FOUND', 'TASK_NOT_FOUND'), 404),
    protocol('error-envelope', 404),
  ],
  [
    'an envelope with an empty message',
    get,
    ok({ error: { code: 404, status: 'NOT_FOUND', message: '' } }, 404),
    protocol('error-envelope', 404),
  ],
  ['an HTML 413', get, at(413, `<html>${secret}</html>`, 'text/html'), protocol('error-envelope', 413)],
  [
    'problem+json',
    get,
    at(404, JSON.stringify({ title: 'x', status: 404, detail: secret }), 'application/problem+json'),
    protocol('error-envelope', 404),
  ],
  ['an empty 503', get, at(503, null, null), protocol('status', 503)],
  ['a plain-text 500', get, at(500, secret, 'text/plain'), protocol('error-envelope', 500)],
  ['a redirect', get, at(307, null, null), protocol('redirect', 307)],
];

describe('unary answers', () => {
  it.each(unaryCases)('%s', async (_name, operation, { status, body, contentType }, outcome) => {
    answer(status, body, contentType);
    const call = bindingOf().unary(operation, requests[operation] as never, {});
    if ('value' in outcome) {
      const result = await call;
      expect(result.value).toEqual(outcome.value);
      expect(result.httpStatus).toBe(status);
      if (outcome.raw !== undefined) {
        expect(result.raw).toEqual(outcome.raw);
      }
      return;
    }
    const error = await failure(call);
    expect(isClientError(error)).toBe(true);
    expect(error).toMatchObject({ dispatched: true, ...outcome.error });
    expect(`${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`).not.toContain(secret);
  });
});

const working = frame({ task: { ...task, status: { state: 'TASK_STATE_WORKING' } } });
const unsupported = restError(400, 'FAILED_PRECONDITION', 'UNSUPPORTED_OPERATION');
type Failure = {
  kind: string;
  reason: string;
  httpStatus?: number | undefined;
  remoteCode?: number | undefined;
};
const inStream = (kind: string, reason: string, remoteCode?: number): Failure => ({
  kind,
  reason,
  httpStatus: undefined,
  ...(kind === 'remote' ? { remoteCode } : {}),
});

// docs/protocol-checks.md#stream-events: each row is the body of an established event stream, the events it
// must give and the error that must end it.
const frameCases: readonly [string, string, readonly unknown[], Failure | undefined][] = [
  [
    'a task and an update',
    working + frame({ statusUpdate }),
    [{ task: { id: 'task-1' } }, { statusUpdate: {} }],
    undefined,
  ],
  [
    'an error event with an AIP-193 body',
    working + frame(unsupported, 'error'),
    [{ task: {} }],
    inStream('remote', 'UNSUPPORTED_OPERATION', -32004),
  ],
  [
    'an error event with a bare A2A code',
    frame({ code: -32001, message: secret }, 'error'),
    [],
    inStream('remote', 'TASK_NOT_FOUND', -32001),
  ],
  [
    'an error event with a bare HTTP status',
    frame({ code: 500, message: secret }, 'error'),
    [],
    inStream('remote', 'unidentified'),
  ],
  [
    'an error event that is no error',
    frame({ statusUpdate }, 'error'),
    [],
    inStream('invalid-response', 'schema'),
  ],
  ['an error event that is not JSON', frame(secret, 'error'), [], inStream('invalid-response', 'json')],
  [
    'an error envelope as a plain event',
    working + frame(restError(500, 'INTERNAL', 'INTERNAL_ERROR')),
    [{ task: {} }],
    inStream('remote', 'INTERNAL_ERROR', -32603),
  ],
  [
    'an update with an extra member',
    frame({ statusUpdate, extra: 1 }),
    [],
    inStream('invalid-response', 'schema'),
  ],
  ['an empty object', frame({}), [], inStream('invalid-response', 'schema')],
  [
    'a JSON-RPC envelope',
    frame({ jsonrpc: '2.0', id: 1, result: { statusUpdate } }),
    [],
    inStream('invalid-response', 'schema'),
  ],
  ['an unknown event type', frame({ statusUpdate }, 'status'), [], inStream('invalid-response', 'sse')],
];

describe('stream frames', () => {
  it.each(frameCases)('%s', async (_name, body, events, error) => {
    answer(200, body, 'text/event-stream');
    const frames = await bindingOf().stream('sendStreamingMessage', { message }, {});
    const result = await drain(frames);
    expect(result.events).toHaveLength(events.length);
    expect(result.events).toMatchObject(events);
    if (error === undefined) {
      expect(result.error).toBeUndefined();
    } else {
      expect(result.error).toMatchObject({ dispatched: true, ...error });
      expect(JSON.stringify(result.error)).not.toContain(secret);
    }
    await expect(frames.next()).resolves.toEqual({ done: true, value: undefined });
  });
});

// docs/protocol-checks.md#stream-establishment: what refuses a stream before its first frame.
const establishCases: readonly [string, Answer, Failure][] = [
  [
    'TaskNotFound',
    ok(notFound, 404),
    { kind: 'remote', reason: 'TASK_NOT_FOUND', remoteCode: -32001, httpStatus: 404 },
  ],
  [
    'UnsupportedOperation as the SDK sends it',
    ok(unsupported, 400),
    { kind: 'remote', reason: 'UNSUPPORTED_OPERATION', remoteCode: -32004, httpStatus: 400 },
  ],
  ['a 2xx JSON answer', ok({ task }), { kind: 'http-protocol', reason: 'media-type', httpStatus: 200 }],
  [
    'a 2xx JSON error envelope',
    ok(unsupported),
    { kind: 'http-protocol', reason: 'media-type', httpStatus: 200 },
  ],
  [
    'an HTML 413',
    at(413, '<html></html>', 'text/html'),
    { kind: 'http-protocol', reason: 'error-envelope', httpStatus: 413 },
  ],
];

describe('stream establishment', () => {
  it.each(establishCases)('%s', async (_name, { status, body, contentType }, error) => {
    answer(status, body, contentType);
    await expect(bindingOf().stream('subscribeToTask', { id: 'task-1' }, {})).rejects.toMatchObject({
      dispatched: true,
      ...error,
    });
  });

  it('hands each frame its raw JSON and wire size, and calls onDispatch once', async () => {
    answer(200, working, 'text/event-stream');
    const onDispatch = vi.fn();
    const frames = await bindingOf().stream('subscribeToTask', { id: 'task-1' }, { onDispatch });
    await expect(frames.next()).resolves.toMatchObject({
      value: {
        raw: { task: { ...task, status: { state: 'TASK_STATE_WORKING' } } },
        wireBytes: new TextEncoder().encode(working).byteLength,
      },
    });
    await frames.return?.();
    expect(onDispatch).toHaveBeenCalledTimes(1);
  });
});
