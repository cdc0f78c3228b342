import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BindingOptions } from '../../src/bindings/binding.js';
import { createRestBinding } from '../../src/bindings/rest.js';
import { type RestRoute, restRoute } from '../../src/bindings/rest-route.js';
import { OptionsError } from '../../src/core/errors.js';
import { resolveLimits } from '../../src/core/limits.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import type { Message } from '../../src/protocol/message.js';
import { drain, failure } from '../support/binding.js';

const origin = 'https://agent.test';
const limits = resolveLimits();
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const task = { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } };
const message: Message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
const config = { taskId: 'task-1', id: 'cfg-1', url: 'https://hooks.example/a2a' };
const card = {
  name: 'agent',
  description: 'An agent.',
  supportedInterfaces: [{ url: `${origin}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
  version: '1',
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 's', description: 'A skill.', tags: ['t'] }],
};

function bindingOf(extra: Partial<BindingOptions> = {}) {
  return createRestBinding({ url: `${origin}/a2a/`, limits, ...extra });
}

type Seen = {
  readonly method: string;
  readonly target: string;
  readonly headers: Record<string, string>;
  readonly body: string;
};

function record(seen: Seen[], reply: (seen: Seen) => Response): void {
  server.use(
    http.all(`${origin}/*`, async ({ request }) => {
      const { pathname, search } = new URL(request.url);
      const entry = {
        method: request.method,
        target: `${pathname}${search}`,
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
      };
      seen.push(entry);
      return reply(entry);
    }),
  );
}

const frame = (data: JsonValue): string => `data: ${JSON.stringify(data)}\n\n`;

// The request side of the HTTP+JSON binding (docs/protocol-checks.md#requests). A2A spec, §11.3 and §11.5:
// where each field goes; one row per rule, no I/O.
const routeCases: readonly [string, Parameters<typeof restRoute>, RestRoute][] = [
  [
    'every ListTasks filter, percent-encoded',
    [
      'listTasks',
      {
        contextId: 'c 1/é',
        status: 'TASK_STATE_WORKING',
        pageSize: 10,
        pageToken: 'a+b=',
        historyLength: 0,
        statusTimestampAfter: '2026-01-01T00:00:00.5Z',
        includeArtifacts: true,
      },
      undefined,
    ],
    {
      method: 'GET',
      path: '/tasks?contextId=c%201%2F%C3%A9&status=TASK_STATE_WORKING&pageSize=10&pageToken=a%2Bb%3D&historyLength=0&statusTimestampAfter=2026-01-01T00%3A00%3A00.5Z&includeArtifacts=true',
    },
  ],
  [
    'ListTasks: pageSize 50 when not given, includeArtifacts false not sent',
    ['listTasks', { includeArtifacts: false }, undefined],
    { method: 'GET', path: '/tasks?pageSize=50' },
  ],
  [
    'ListTaskPushNotificationConfigs: pageSize 50 when not given',
    ['listTaskPushNotificationConfigs', { taskId: 't', pageToken: 'n' }, undefined],
    { method: 'GET', path: '/tasks/t/pushNotificationConfigs?pageSize=50&pageToken=n' },
  ],
  [
    'GetTask: historyLength 0 is sent',
    ['getTask', { id: 't', historyLength: 0 }, undefined],
    { method: 'GET', path: '/tasks/t?historyLength=0' },
  ],
  [
    'an id holding a slash, a colon and a question mark',
    ['getTask', { id: 'a/b:c?d' }, 'acme'],
    { method: 'GET', path: '/acme/tasks/a%2Fb%3Ac%3Fd' },
  ],
  [
    'a tenant holding a slash and a space',
    ['getExtendedAgentCard', {}, 'a/b c'],
    { method: 'GET', path: '/a%2Fb%20c/extendedAgentCard' },
  ],
  [
    'cancel: `{}` at least',
    ['cancelTask', { id: 't' }, 'acme'],
    { method: 'POST', path: '/acme/tasks/t:cancel', body: '{}' },
  ],
  [
    'cancel: the metadata in the body, the id only in the path',
    ['cancelTask', { id: 't', metadata: { why: 'done' } }, undefined],
    { method: 'POST', path: '/tasks/t:cancel', body: '{"metadata":{"why":"done"}}' },
  ],
  [
    'create: the taskId only in the path',
    ['createTaskPushNotificationConfig', { taskId: 't', id: 'c', url: 'https://h.example' }, undefined],
    {
      method: 'POST',
      path: '/tasks/t/pushNotificationConfigs',
      body: '{"id":"c","url":"https://h.example"}',
    },
  ],
  [
    'get push config: both ids in the path, no query',
    ['getTaskPushNotificationConfig', { taskId: 't', id: 'c' }, undefined],
    { method: 'GET', path: '/tasks/t/pushNotificationConfigs/c' },
  ],
  [
    'delete push config: both ids in the path, no query',
    ['deleteTaskPushNotificationConfig', { taskId: 't', id: 'c' }, undefined],
    { method: 'DELETE', path: '/tasks/t/pushNotificationConfigs/c' },
  ],
  [
    'subscribe: no body',
    ['subscribeToTask', { id: 't' }, undefined],
    { method: 'POST', path: '/tasks/t:subscribe' },
  ],
  [
    'the extended card: nothing but the route',
    ['getExtendedAgentCard', {}, undefined],
    { method: 'GET', path: '/extendedAgentCard' },
  ],
];

describe('restRoute', () => {
  it.each(routeCases)('%s', (_name, args, expected) => {
    expect(restRoute(...args)).toEqual(expected);
  });

  const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 });

  it('keeps any id and any tenant in exactly one path segment each (docs/protocol-checks.md#requests)', () => {
    const segment = text.filter((value) => value !== '.' && value !== '..');
    fc.assert(
      fc.property(segment, segment, (id, tenant) => {
        const { path } = restRoute('getTask', { id }, tenant);
        const [, first, root, last, ...rest] = path.split('/');
        expect([root, rest]).toEqual(['tasks', []]);
        expect([decodeURIComponent(first ?? ''), decodeURIComponent(last ?? '')]).toEqual([tenant, id]);
      }),
    );
  });

  it('sends any query value so that a URL parser reads it back unchanged', () => {
    fc.assert(
      fc.property(text, text, (contextId, pageToken) => {
        const { path } = restRoute('listTasks', { contextId, pageToken }, undefined);
        const query = new URL(`https://agent.test${path}`).searchParams;
        expect([query.get('contextId'), query.get('pageToken'), query.get('pageSize')]).toEqual([
          contextId,
          pageToken,
          '50',
        ]);
      }),
    );
  });
});

describe('requests', () => {
  function serveAll(seen: Seen[]): void {
    record(seen, ({ method, target }) => {
      const sse = { headers: { 'content-type': 'text/event-stream' } };
      if (target.endsWith(':stream') || target.endsWith(':subscribe')) {
        return new HttpResponse(frame({ task: { ...task, status: { state: 'TASK_STATE_WORKING' } } }), sse);
      }
      if (method === 'DELETE') {
        return new HttpResponse(null, { status: 204 });
      }
      const path = target.split('?')[0] ?? '';
      const result: JsonValue = path.endsWith('message:send')
        ? { task }
        : path.endsWith('/tasks')
          ? { tasks: [], nextPageToken: '', pageSize: 1, totalSize: 0 }
          : path.endsWith('/pushNotificationConfigs')
            ? method === 'POST'
              ? config
              : { configs: [config] }
            : path.endsWith('cfg-1')
              ? config
              : path.endsWith('extendedAgentCard')
                ? card
                : task;
      return HttpResponse.json(result, { status: method === 'POST' && path.endsWith('Configs') ? 201 : 200 });
    });
  }

  it('sends the eleven operations to their routes, the tenant as the first segment and never in a body', async () => {
    const seen: Seen[] = [];
    serveAll(seen);
    const binding = bindingOf({ tenant: 'acme' });
    const context = {
      authorize: async () => 'tok-1',
      headers: { 'A2A-Extensions': 'https://ext.example/v1' },
    };
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

    expect(seen.map(({ method, target, body }) => [method, target, body])).toEqual([
      ['POST', '/a2a/acme/message:send', JSON.stringify({ message })],
      ['POST', '/a2a/acme/message:stream', JSON.stringify({ message })],
      ['GET', '/a2a/acme/tasks/task-1?historyLength=1', ''],
      ['GET', '/a2a/acme/tasks?contextId=ctx-1&pageSize=1', ''],
      ['POST', '/a2a/acme/tasks/task-1:cancel', '{}'],
      ['POST', '/a2a/acme/tasks/task-1:subscribe', ''],
      ['POST', '/a2a/acme/tasks/task-1/pushNotificationConfigs', JSON.stringify({ url: config.url })],
      ['GET', '/a2a/acme/tasks/task-1/pushNotificationConfigs/cfg-1', ''],
      ['GET', '/a2a/acme/tasks/task-1/pushNotificationConfigs?pageSize=1', ''],
      ['DELETE', '/a2a/acme/tasks/task-1/pushNotificationConfigs/cfg-1', ''],
      ['GET', '/a2a/acme/extendedAgentCard', ''],
    ]);
    for (const entry of seen) {
      const streaming = entry.target.endsWith(':stream') || entry.target.endsWith(':subscribe');
      expect(entry.headers).toMatchObject({
        'a2a-version': '1.0',
        accept: streaming ? 'text/event-stream' : 'application/a2a+json, application/json',
        authorization: 'Bearer tok-1',
        'a2a-extensions': 'https://ext.example/v1',
      });
      expect(entry.headers['content-type']).toBe(entry.body === '' ? undefined : 'application/a2a+json');
    }
  });

  it.each<[string, () => Promise<unknown>, string, string]>([
    [
      'a tenant holding a slash',
      () => bindingOf({ tenant: 'a/b' }).unary('getExtendedAgentCard', {}, {}),
      'GET',
      '/a2a/a%2Fb/extendedAgentCard',
    ],
    [
      'an interface URL without a trailing slash',
      () => createRestBinding({ url: `${origin}/a2a`, limits }).unary('getTask', { id: 't' }, {}),
      'GET',
      '/a2a/tasks/t',
    ],
    [
      'an interface URL at the origin',
      () => createRestBinding({ url: origin, limits }).unary('getTask', { id: 't' }, {}),
      'GET',
      '/tasks/t',
    ],
    [
      'SubscribeToTask by GET',
      async () =>
        drain(await bindingOf({ subscribeMethod: 'GET' }).stream('subscribeToTask', { id: 't' }, {})),
      'GET',
      '/a2a/tasks/t:subscribe',
    ],
  ])('%s', async (_name, call, method, target) => {
    const seen: Seen[] = [];
    serveAll(seen);
    await call();
    expect(seen.map((entry) => [entry.method, entry.target])).toEqual([[method, target]]);
  });

  it('puts every non-path field in the body: the cancel metadata, the send configuration', async () => {
    const seen: Seen[] = [];
    serveAll(seen);
    await bindingOf({ tenant: 'acme' }).unary('cancelTask', { id: 'task-1', metadata: { why: 'done' } }, {});
    const configuration = { returnImmediately: true, acceptedOutputModes: ['application/json'] };
    await bindingOf({ tenant: 'acme' }).unary('sendMessage', { message, configuration }, {});
    expect(seen.map((entry) => JSON.parse(entry.body))).toEqual([
      { metadata: { why: 'done' } },
      { message, configuration },
    ]);
  });

  it.each<[string, () => Promise<unknown>, string]>([
    ['a dot-dot id', () => bindingOf().unary('getTask', { id: '..' }, {}), 'path-segment'],
    [
      'a push config without its task',
      () => bindingOf().unary('createTaskPushNotificationConfig', { url: config.url }, {}),
      'path-segment',
    ],
  ])('refuses %s before sending anything', async (_name, call, rule) => {
    const seen: Seen[] = [];
    serveAll(seen);
    expect(await failure(call())).toMatchObject({
      kind: 'request',
      reason: 'invalid-params',
      dispatched: false,
      violation: { rule },
    });
    expect(seen).toHaveLength(0);
  });

  it.each([
    'not a url',
    'ftp://agent.test/a2a',
    'https://user:pw@agent.test/a2a',
    'https://agent.test/a2a?x=1',
    'https://agent.test/a2a#f',
  ])('refuses the interface URL %j when built', (url) => {
    expect(() => createRestBinding({ url, limits })).toThrow(OptionsError);
  });
});
