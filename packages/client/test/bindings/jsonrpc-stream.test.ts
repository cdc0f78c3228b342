import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJsonRpcBinding } from '../../src/bindings/jsonrpc.js';
import { loadDeferred } from '../../src/client/loader.js';
import { resolveLimits } from '../../src/core/limits.js';
import { errorDomain, errorInfoType } from '../../src/protocol/error-codes.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import type { Message } from '../../src/protocol/message.js';
import { drain } from '../support/binding.js';

// The JSON-RPC stream checks (establishment: docs/protocol-checks.md#stream-establishment; per-event parsing:
// docs/protocol-checks.md#stream-events): one raw answer per row.
const url = 'https://agent.test/a2a/rpc';
const limits = resolveLimits();
const secret = 'REMOTE-TEXT-0e9d';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const working = { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_WORKING' } };
const message: Message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
const statusUpdate = { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } };
const unsupported = { code: -32004, message: secret };
const taskNotFound = {
  code: -32001,
  message: secret,
  data: [{ '@type': errorInfoType, reason: 'TASK_NOT_FOUND', domain: errorDomain }],
};

function bindingOf() {
  let id = 0;
  return createJsonRpcBinding({ url, limits, nextId: () => ++id, load: loadDeferred });
}

const envelope = (members: Record<string, JsonValue>, id: JsonValue = 1): string =>
  JSON.stringify({ jsonrpc: '2.0', id, ...members });
const frame = (data: string, event?: string): string =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${data}\n\n`;
const first = frame(envelope({ result: { task: working } }));
const update = frame(envelope({ result: { statusUpdate } }));

function answer(status: number, body: string | ReadableStream<Uint8Array>, contentType: string): void {
  server.use(
    http.post(url, () => new HttpResponse(body, { status, headers: { 'content-type': contentType } })),
  );
}

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
const sse = 'text/event-stream';
const json = 'application/json';

// Each row: the body of an established 200 event stream, the events that must come out, and the error that
// must end it.
const frameCases: readonly [string, string, readonly unknown[], Failure | undefined][] = [
  ['a task and an update', first + update, [{ task: { id: 'task-1' } }, { statusUpdate: {} }], undefined],
  [
    'comments, ids and event: message',
    `: ping\n\nid: 7\n${first}event: message\n${update}`,
    [{ task: {} }, { statusUpdate: {} }],
    undefined,
  ],
  [
    'an error event: authoritative',
    first + frame(envelope({ error: unsupported }), 'error'),
    [{ task: {} }],
    inStream('remote', 'UNSUPPORTED_OPERATION', -32004),
  ],
  [
    'an error in a plain event',
    frame(envelope({ error: taskNotFound })),
    [],
    inStream('remote', 'TASK_NOT_FOUND', -32001),
  ],
  [
    'an error event carrying a result',
    frame(envelope({ result: { statusUpdate } }), 'error'),
    [],
    inStream('invalid-response', 'jsonrpc-envelope'),
  ],
  [
    'an error object without message',
    frame(envelope({ error: { code: -32004 } })),
    [],
    inStream('invalid-response', 'jsonrpc-envelope'),
  ],
  [
    'an unknown event type',
    first + frame(envelope({ result: { statusUpdate } }), 'update'),
    [{ task: {} }],
    inStream('invalid-response', 'sse'),
  ],
  [
    'a frame with another id',
    first + frame(envelope({ result: { statusUpdate } }, 2)),
    [{ task: {} }],
    inStream('invalid-response', 'jsonrpc-envelope'),
  ],
  [
    'a frame with the id as a string',
    frame(envelope({ result: { task: working } }, '1')),
    [],
    inStream('invalid-response', 'jsonrpc-envelope'),
  ],
  [
    'a frame without jsonrpc',
    frame(JSON.stringify({ id: 1, result: { task: working } })),
    [],
    inStream('invalid-response', 'jsonrpc-envelope'),
  ],
  [
    'a bare StreamResponse',
    frame(JSON.stringify({ task: working })),
    [],
    inStream('invalid-response', 'jsonrpc-envelope'),
  ],
  ['a frame that is not JSON', frame('{"jsonrpc":'), [], inStream('invalid-response', 'json')],
  [
    'a frame with duplicate keys',
    frame('{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"result":{}}'),
    [],
    inStream('invalid-response', 'json'),
  ],
  [
    'two union members',
    frame(envelope({ result: { task: working, statusUpdate } })),
    [],
    inStream('invalid-response', 'schema'),
  ],
  ['a null result', frame(envelope({ result: null })), [], inStream('invalid-response', 'schema')],
  [
    'an update breaking the contract',
    frame(envelope({ result: { statusUpdate: { ...statusUpdate, taskId: '' } } })),
    [],
    inStream('invalid-response', 'schema'),
  ],
];

describe('stream frames', () => {
  it.each(frameCases)('%s', async (_name, body, events, error) => {
    answer(200, body, sse);
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
    // The first error ends the stream: nothing follows it.
    await expect(frames.next()).resolves.toEqual({ done: true, value: undefined });
  });
});

// Each row: an answer that is no event stream, and the error that must refuse it before any frame.
const establishCases: readonly [string, number, string, string, Failure][] = [
  [
    'a 2xx JSON error: authoritative',
    200,
    json,
    envelope({ error: unsupported }),
    { kind: 'remote', reason: 'UNSUPPORTED_OPERATION', remoteCode: -32004, httpStatus: 200 },
  ],
  [
    'a 2xx JSON result',
    200,
    json,
    envelope({ result: { task: working } }),
    { kind: 'http-protocol', reason: 'media-type', httpStatus: 200 },
  ],
  [
    'a 2xx JSON error for another id',
    200,
    json,
    envelope({ error: unsupported }, 9),
    { kind: 'http-protocol', reason: 'media-type', httpStatus: 200 },
  ],
  [
    'a 2xx JSON error that is no error object',
    200,
    json,
    envelope({ error: 'no' }),
    { kind: 'http-protocol', reason: 'media-type', httpStatus: 200 },
  ],
  [
    'a 2xx JSON body that does not parse',
    200,
    json,
    '{"a":',
    { kind: 'http-protocol', reason: 'media-type', httpStatus: 200 },
  ],
  [
    'a text/plain answer',
    200,
    'text/plain',
    first,
    { kind: 'http-protocol', reason: 'media-type', httpStatus: 200 },
  ],
  [
    'an error envelope in HTTP 404',
    404,
    json,
    envelope({ error: taskNotFound }),
    { kind: 'remote', reason: 'TASK_NOT_FOUND', remoteCode: undefined, httpStatus: 404 },
  ],
  [
    'a result in HTTP 500',
    500,
    json,
    envelope({ result: { task: working } }),
    { kind: 'http-protocol', reason: 'result-on-error-status', httpStatus: 500 },
  ],
  [
    'a plain-text 400',
    400,
    'text/plain',
    'Bad Request',
    { kind: 'http-protocol', reason: 'error-envelope', httpStatus: 400 },
  ],
];

describe('stream establishment', () => {
  it.each(establishCases)('%s', async (_name, status, contentType, body, error) => {
    answer(status, body, contentType);
    await expect(bindingOf().stream('subscribeToTask', { id: 'task-1' }, {})).rejects.toMatchObject({
      dispatched: true,
      ...error,
    });
  });

  it('ends with a dispatched transport error when the caller aborts mid-stream', async () => {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode(first)),
    });
    answer(200, body, sse);
    const controller = new AbortController();
    const frames = await bindingOf().stream(
      'subscribeToTask',
      { id: 'task-1' },
      { signal: controller.signal },
    );
    await expect(frames.next()).resolves.toMatchObject({ done: false, value: { event: { task: {} } } });
    const pending = frames.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'transport', reason: 'aborted', dispatched: true });
  });

  it('hands each frame the raw result and its wire size', async () => {
    answer(200, first, sse);
    const frames = await bindingOf().stream('subscribeToTask', { id: 'task-1' }, {});
    await expect(frames.next()).resolves.toMatchObject({
      value: { raw: { task: working }, wireBytes: new TextEncoder().encode(first).byteLength },
    });
    await frames.return?.();
  });
});
