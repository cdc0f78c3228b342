/**
The v0.3 HTTP+JSON binding under a client (docs/protocol-checks.md#v03-peers, the `v03.rest-*` rows): answers
a lying or broken v0.3 peer could send, each crafted on the wire (MSW, as v03-jsonrpc.test.ts does for
JSON-RPC), and the closed error the client reports. The binding reads the v0.3 proto's ProtoJSON and hands the
v1.0 checks the v1.0 value, so the HTTP checks, bounds, unions, identity and the stream's lifecycle hold as
for a v1.0 peer; the peers' own answers are in test/v03-rest-interop.test.ts and test/v03-rest-mock.test.ts.
*/
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { v03Binding } from '../../src/bindings/v03/entry.js';
import { type A2aClient, createClient } from '../../src/client/client.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import type { Message } from '../../src/protocol/message.js';
import { failure } from '../support/binding.js';

const url = 'https://agent.test/a2a/rest';
const server = setupServer();
type Seen = {
  readonly method: string;
  readonly path: string;
  readonly version: string | null;
  readonly type: string | null;
  readonly body: unknown;
};
const seen: Seen[] = [];

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  seen.length = 0;
});
afterAll(() => server.close());

const card = parseAgentCard({
  name: 'agent',
  description: 'A v0.3 agent.',
  supportedInterfaces: [{ url, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3.0' }],
  version: '1',
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 's', description: 'A skill.', tags: ['t'] }],
});

function client(limits?: { readonly responseBodyBytes: number }): A2aClient {
  return createClient({
    card,
    cardDigest: `sha256:${'0'.repeat(64)}`,
    pin: { binding: 'HTTP+JSON', url },
    security: { kind: 'anonymous' },
    protocolVersions: ['0.3'],
    v03: v03Binding,
    ...(limits === undefined ? {} : { limits }),
  });
}

const task = { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_COMPLETED' } };
const message: Message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };

async function record(request: Request): Promise<void> {
  const text = await request.text();
  const { pathname, search } = new URL(request.url);
  seen.push({
    method: request.method,
    path: `${pathname.slice(new URL(url).pathname.length)}${search}`,
    version: request.headers.get('a2a-version'),
    type: request.headers.get('content-type'),
    body: text === '' ? undefined : JSON.parse(text),
  });
}

// Every request answered with `response`.
function answer(response: () => Response): void {
  server.use(
    http.all(`${url}/*`, async ({ request }) => {
      await record(request);
      return response();
    }),
  );
}

function stream(events: readonly JsonValue[], type = 'message'): void {
  server.use(
    http.post(`${url}/*`, async ({ request }) => {
      await record(request);
      const text = events.map(
        (event) => `${type === 'message' ? '' : `event: ${type}\n`}data: ${JSON.stringify(event)}\n\n`,
      );
      return new HttpResponse(text.join(''), { headers: { 'content-type': 'text/event-stream' } });
    }),
  );
}

describe('requests', () => {
  it('sends v0.3 routes and proto bodies as application/json, with no A2A-Version', async () => {
    answer(() => HttpResponse.json({ ...task, id: 't/1' }));
    await client().getTask({ id: 't/1', historyLength: 2 });
    answer(() => HttpResponse.json({ task }, { status: 201 }));
    await client().sendMessage({
      message: {
        ...message,
        parts: [{ text: 'hi' }, { url: 'https://f.example/x', mediaType: 'text/plain' }],
      },
      configuration: { returnImmediately: true },
    });
    answer(() =>
      HttpResponse.json(
        { name: 'tasks/t-1/pushNotificationConfigs/p-1', pushNotificationConfig: { id: 'p-1', url } },
        { status: 201 },
      ),
    );
    await client().createTaskPushNotificationConfig({
      taskId: 't-1',
      id: 'p-1',
      url,
      authentication: { scheme: 'Bearer', credentials: 'c' },
    });
    expect(seen).toEqual([
      { method: 'GET', path: '/v1/tasks/t%2F1?historyLength=2', version: null, type: null, body: undefined },
      {
        method: 'POST',
        path: '/v1/message:send',
        version: null,
        type: 'application/json',
        body: {
          message: {
            messageId: 'm-1',
            role: 'ROLE_USER',
            content: [
              { text: 'hi' },
              { file: { fileWithUri: 'https://f.example/x', mimeType: 'text/plain' } },
            ],
          },
          configuration: { blocking: false },
        },
      },
      {
        method: 'POST',
        path: '/v1/tasks/t-1/pushNotificationConfigs',
        version: null,
        type: 'application/json',
        body: {
          name: 'tasks/t-1/pushNotificationConfigs/p-1',
          pushNotificationConfig: {
            id: 'p-1',
            url,
            authentication: { schemes: ['Bearer'], credentials: 'c' },
          },
        },
      },
    ]);
  });
});

const json =
  (body: JsonValue, status = 200) =>
  () =>
    HttpResponse.json(body, { status });

describe('answers, held to the v1.0 checks', () => {
  it.each<[string, () => Response, Record<string, unknown>]>([
    ['another task than the one asked for', json({ ...task, id: 't-2' }), { reason: 'identity' }],
    [
      'v0.3’s unspecified state, which v1.0 has no name for',
      json({ ...task, status: { state: 'TASK_STATE_UNSPECIFIED' } }),
      { reason: 'schema', violation: { path: '$.status.state' } },
    ],
    [
      'v1.0’s spelling of a state, which is no v0.3 name',
      json({ ...task, status: { state: 'TASK_STATE_CANCELED' } }),
      { reason: 'schema', violation: { rule: 'enum', path: '$.status.state' } },
    ],
    [
      'an id over the 512-byte bound',
      json({ ...task, contextId: 'c'.repeat(513) }),
      { reason: 'schema', violation: { path: '$.contextId' } },
    ],
    [
      'a file part with both fileWithUri and fileWithBytes',
      json({
        ...task,
        artifacts: [
          {
            artifactId: 'a',
            parts: [{ file: { fileWithUri: 'https://f.example/x', fileWithBytes: 'AA==' } }],
          },
        ],
      }),
      { reason: 'schema', violation: { rule: 'oneof-many', path: '$.artifacts[0].parts[0].file' } },
    ],
    [
      'a part of no kind (no text, file or data)',
      json({ ...task, artifacts: [{ artifactId: 'a', parts: [{ metadata: {} }] }] }),
      { reason: 'schema', violation: { rule: 'oneof-none', path: '$.artifacts[0].parts[0]' } },
    ],
    [
      'a data part that is no object',
      json({ ...task, artifacts: [{ artifactId: 'a', parts: [{ data: { data: [1] } }] }] }),
      { reason: 'schema', violation: { rule: 'invalid_type', path: '$.artifacts[0].parts[0].data.data' } },
    ],
    [
      'a member named both by its JSON and its proto name',
      json({ ...task, context_id: 'c-1' }),
      { reason: 'schema', violation: { rule: 'duplicate-key', path: '$.contextId' } },
    ],
    [
      'malformed JSON',
      () => new HttpResponse('{"id": ', { headers: { 'content-type': 'application/json' } }),
      { reason: 'json' },
    ],
  ])('refuses %s', async (_, response, expected) => {
    answer(response);
    expect(await failure(client().getTask({ id: 't-1' }))).toMatchObject({
      kind: 'invalid-response',
      dispatched: true,
      ...expected,
    });
  });

  it('reads proto field names, nulls and enum numbers as ProtoJSON allows', async () => {
    answer(json({ id: 't-1', context_id: 'c-1', status: { state: 5, update: null }, history: null }));
    await expect(client().getTask({ id: 't-1' })).resolves.toMatchObject({
      contextId: 'c-1',
      status: { state: 'TASK_STATE_CANCELED' },
    });
  });

  it.each<[string, JsonValue, Record<string, unknown>]>([
    ['neither a task nor a message', {}, { rule: 'oneof-none', path: '$' }],
    [
      'both a task and a message',
      { task, message: { messageId: 'm', role: 'ROLE_AGENT' } },
      { rule: 'oneof-many', path: '$' },
    ],
    ['an unknown member', { statusUpdate: { taskId: 't-1' } }, { rule: 'oneof-unknown', path: '$' }],
  ])('refuses a send answer with %s', async (_, body, violation) => {
    answer(json(body, 201));
    expect(await failure(client().sendMessage({ message }))).toMatchObject({
      kind: 'invalid-response',
      reason: 'schema',
      violation,
    });
  });

  it('reads the proto’s `msg` as the send answer’s message', async () => {
    answer(json({ msg: { messageId: 'm-2', role: 'ROLE_AGENT', content: [{ text: 'hi' }] } }, 201));
    await expect(client().sendMessage({ message })).resolves.toEqual({
      message: { messageId: 'm-2', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] },
    });
  });

  it('refuses a push config named for another config than its own', async () => {
    answer(
      json({ name: 'tasks/t-1/pushNotificationConfigs/p-2', pushNotificationConfig: { id: 'p-1', url } }),
    );
    expect(await failure(client().getTaskPushNotificationConfig({ taskId: 't-1', id: 'p-1' }))).toMatchObject(
      {
        kind: 'invalid-response',
        violation: { rule: 'pattern', path: '$.name' },
      },
    );
  });

  it('refuses a push config of another task than the one asked for', async () => {
    answer(
      json({ name: 'tasks/t-9/pushNotificationConfigs/p-1', pushNotificationConfig: { id: 'p-1', url } }),
    );
    expect(await failure(client().getTaskPushNotificationConfig({ taskId: 't-1', id: 'p-1' }))).toMatchObject(
      {
        kind: 'invalid-response',
        dispatched: true,
      },
    );
  });

  it('refuses a 2xx answer of the wrong content type', async () => {
    answer(() => new HttpResponse(JSON.stringify(task), { headers: { 'content-type': 'text/html' } }));
    expect(await failure(client().getTask({ id: 't-1' }))).toMatchObject({
      kind: 'http-protocol',
      reason: 'media-type',
      dispatched: true,
    });
  });

  it('refuses a 201 for a read, which only a send or a created config may carry', async () => {
    answer(json(task, 201));
    expect(await failure(client().getTask({ id: 't-1' }))).toMatchObject({
      kind: 'http-protocol',
      reason: 'status',
    });
  });

  it('refuses a body over the response bound', async () => {
    answer(json({ ...task, metadata: { pad: 'x'.repeat(4096) } }));
    expect(await failure(client({ responseBodyBytes: 1024 }).getTask({ id: 't-1' }))).toMatchObject({
      kind: 'invalid-response',
      reason: 'body-too-large',
      dispatched: true,
    });
  });

  it('reads a v0.3 error as a RemoteError whose known code is authoritative', async () => {
    answer(json({ code: -32001, message: 'Task not found' }, 404));
    expect(await failure(client().getTask({ id: 't-1' }))).toMatchObject({
      kind: 'remote',
      reason: 'TASK_NOT_FOUND',
      remoteCode: -32001,
      httpStatus: 404,
    });
  });

  it('reads an error of a code the A2A table does not know without naming it', async () => {
    answer(json({ code: 7, message: 'Not here' }, 404));
    const error = await failure(client().getTask({ id: 't-1' }));
    expect(error).toMatchObject({ kind: 'remote', httpStatus: 404 });
    expect((error as { remoteCode?: number }).remoteCode).toBeUndefined();
    expect(error).toMatchObject({ reason: 'unidentified' });
  });

  it('reads a proxy’s page on an error status as no v0.3 error', async () => {
    answer(
      () =>
        new HttpResponse('<h1>Bad gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    expect(await failure(client().getTask({ id: 't-1' }))).toMatchObject({
      kind: 'http-protocol',
      reason: 'error-envelope',
      httpStatus: 502,
    });
  });
});

describe('streams, through the lifecycle validator', () => {
  const status = (taskId: string, state: string, final = false): JsonValue => ({
    statusUpdate: { taskId, contextId: 'c-1', status: { state }, ...(final ? { final } : {}) },
  });
  const working = { task: { ...task, status: { state: 'TASK_STATE_WORKING' } } };

  async function events(client: A2aClient): Promise<{ readonly count: number; readonly error: unknown }> {
    let count = 0;
    try {
      for await (const _ of client.sendStreamingMessage({ message })) {
        count += 1;
      }
    } catch (error) {
      return { count, error };
    }
    return { count, error: undefined };
  }

  it('delivers a v0.3 stream as v1.0 events, its final flag read and dropped', async () => {
    stream([working, status('t-1', 'TASK_STATE_COMPLETED', true)]);
    expect(await events(client())).toEqual({ count: 2, error: undefined });
    expect(seen.map((request) => request.path)).toEqual(['/v1/message:stream']);
  });

  it('refuses an update for another task than the stream’s', async () => {
    stream([working, status('t-2', 'TASK_STATE_COMPLETED', true)]);
    const { count, error } = await events(client());
    expect(count).toBe(1);
    expect(error).toMatchObject({ kind: 'invalid-response', dispatched: true });
  });

  it('refuses an event after the task reached a terminal state', async () => {
    stream([working, status('t-1', 'TASK_STATE_COMPLETED', true), status('t-1', 'TASK_STATE_WORKING')]);
    const { error } = await events(client());
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'lifecycle' });
  });

  it('refuses an event of no StreamResponse member', async () => {
    stream([{ progress: { taskId: 't-1' } }]);
    const { error } = await events(client());
    expect(error).toMatchObject({ reason: 'schema', violation: { rule: 'oneof-unknown', path: '$' } });
  });

  it('refuses a final flag that is no boolean', async () => {
    stream([
      working,
      {
        statusUpdate: {
          taskId: 't-1',
          contextId: 'c-1',
          status: { state: 'TASK_STATE_COMPLETED' },
          final: 'yes',
        },
      },
    ]);
    const { error } = await events(client());
    expect(error).toMatchObject({
      reason: 'schema',
      violation: { rule: 'invalid_type', path: '$.statusUpdate.final' },
    });
  });

  it('reads an error event as the peer’s v0.3 error', async () => {
    stream([{ code: -32001, message: 'Task not found' }], 'error');
    const { error } = await events(client());
    expect(error).toMatchObject({ kind: 'remote', reason: 'TASK_NOT_FOUND', remoteCode: -32001 });
  });

  it('refuses a stream answered with JSON instead of events', async () => {
    answer(json(working));
    const { error } = await events(client());
    expect(error).toMatchObject({ kind: 'http-protocol', reason: 'media-type', dispatched: true });
  });
});
