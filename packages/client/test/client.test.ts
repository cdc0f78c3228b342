import { idempotencyExtensionUri, jsonRpcPath, restPath } from '@surecall/mocks';
import { createMockAgentServer } from '@surecall/mocks/node';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { type A2aClient, createClient, type SendMessageResult } from '../src/client/client.js';
import type { ClientEvent } from '../src/client/events.js';
import type { ClientOptions } from '../src/client/options.js';
import type { ProtocolBinding } from '../src/client/security.js';
import { RequestError } from '../src/core/errors.js';
import { cardDigest } from '../src/discovery/digest.js';
import type { AgentCard } from '../src/protocol/agent-card.js';
import { parseAgentCard } from '../src/protocol/decode.js';
import type { JsonObject } from '../src/protocol/json-value.js';
import type { StreamResponse } from '../src/protocol/stream.js';
import type { Task } from '../src/protocol/task.js';
import { servedCard } from './support/card.js';
import { collect, expectAllEleven, runAll, taskOf, userMessage } from './support/eleven-operations.js';

const mock = createMockAgentServer({ stepMs: 0 });
const bindings = ['JSONRPC', 'HTTP+JSON'] as const;
const token = 'token-for-the-wire-test';

type Seen = { method: string; path: string; headers: Headers; body: string };
const seen: Seen[] = [];
const reads: Promise<unknown>[] = [];
let rawCard: JsonObject;
let card: AgentCard;
let digest: string;

async function recorded(): Promise<readonly Seen[]> {
  await Promise.all(reads);
  return seen;
}

beforeAll(async () => {
  mock.listen();
  // The mock card states no requirements; a bearer client needs a single-scheme alternative
  // (docs/protocol-checks.md#security-selection), anonymous use stays allowed.
  rawCard = {
    ...(await servedCard(mock.cardUrl)),
    securityRequirements: [{ schemes: {} }, { schemes: { bearer: { list: ['agent.invoke'] } } }],
  };
  card = parseAgentCard(rawCard);
  digest = await cardDigest(rawCard);
  mock.server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    const entry = {
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: request.headers,
      body: '',
    };
    seen.push(entry);
    reads.push(
      request
        .clone()
        .text()
        .then((body) => Object.assign(entry, { body })),
    );
  });
});
afterEach(() => {
  seen.length = 0;
  reads.length = 0;
  mock.faults.clear();
});
afterAll(() => mock.close());

type Envelope = { jsonrpc: string; id: number; method: string; params: { tenant?: string } };

function envelope(request: Seen | undefined): Envelope {
  return JSON.parse(request?.body ?? '') as Envelope;
}

function urlOf(binding: ProtocolBinding): string {
  return `${mock.origin}${binding === 'JSONRPC' ? jsonRpcPath : restPath}`;
}

function makeClient(binding: ProtocolBinding, options: Partial<ClientOptions> = {}): A2aClient {
  return createClient({
    card,
    cardDigest: digest,
    pin: { binding, url: urlOf(binding) },
    security: { kind: 'bearer', scheme: 'bearer', token: async () => token },
    ...options,
  });
}

describe.each(bindings)('all eleven operations over %s', (binding) => {
  it('succeed, with every answer checked', async () => {
    expectAllEleven(await runAll(makeClient(binding)));
  });
});

describe('the wire transcript (docs/durable-send.md#what-the-tests-prove)', () => {
  it('HTTP+JSON: the exact method and path of each of the eleven calls, with the A2A headers', async () => {
    const { first, second } = await runAll(makeClient('HTTP+JSON'));
    const requests = await recorded();
    const tasks = `${restPath}/tasks`;
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST ${restPath}/message:send`,
      `POST ${restPath}/message:stream`,
      `GET ${tasks}/${first.id}?historyLength=1`,
      `GET ${tasks}?contextId=${first.contextId}&pageSize=1`,
      `POST ${tasks}/${second.id}:cancel`,
      `POST ${tasks}/${first.id}:subscribe`,
      `POST ${tasks}/${first.id}/pushNotificationConfigs`,
      `GET ${tasks}/${first.id}/pushNotificationConfigs/config-1`,
      `GET ${tasks}/${first.id}/pushNotificationConfigs?pageSize=1`,
      `DELETE ${tasks}/${first.id}/pushNotificationConfigs/config-1`,
      `GET ${restPath}/extendedAgentCard`,
    ]);
    for (const [index, request] of requests.entries()) {
      expect(request.headers.get('a2a-version')).toBe('1.0');
      expect(request.headers.get('authorization')).toBe(`Bearer ${token}`);
      const streams = index === 1 || index === 5;
      expect(request.headers.get('accept')).toBe(
        streams ? 'text/event-stream' : 'application/a2a+json, application/json',
      );
      if (request.body !== '') {
        expect(request.headers.get('content-type')).toBe('application/a2a+json');
      }
    }
  });

  it('JSON-RPC: every call POSTs one envelope to the interface URL, ids 1..11 in order', async () => {
    await runAll(makeClient('JSONRPC'));
    const requests = await recorded();
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(
      Array(11).fill(`POST ${jsonRpcPath}`),
    );
    const envelopes = requests.map((request) => envelope(request));
    expect(envelopes.map((envelope) => [envelope.jsonrpc, envelope.id, envelope.method])).toEqual(
      [
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
      ].map((method, index) => ['2.0', index + 1, method]),
    );
    for (const request of requests) {
      expect(request.headers.get('content-type')).toBe('application/json');
      expect(request.headers.get('authorization')).toBe(`Bearer ${token}`);
    }
  });

  it('keeps one id counter per client', async () => {
    const one = makeClient('JSONRPC');
    const two = makeClient('JSONRPC');
    await one.getExtendedAgentCard();
    await one.getExtendedAgentCard();
    await two.getExtendedAgentCard();
    const ids = (await recorded()).map((request) => envelope(request).id);
    expect(ids).toEqual([1, 2, 1]);
  });

  it.each(bindings)(
    '%s: puts the pinned tenant in every request and sends the configured extensions',
    async (binding) => {
      const tenanted = parseAgentCard({
        ...rawCard,
        supportedInterfaces: bindings.map((each) => ({
          url: urlOf(each),
          protocolBinding: each,
          protocolVersion: '1.0',
          tenant: 'acme',
        })),
      });
      const client = makeClient(binding, {
        card: tenanted,
        pin: { binding, url: urlOf(binding), tenant: 'acme' },
        extensions: [idempotencyExtensionUri],
      });
      const { task } = (await client.sendMessage({ message: userMessage('task a') })) as { task: Task };
      await client.getTask({ id: task.id });
      const [send, get] = await recorded();
      if (binding === 'JSONRPC') {
        expect(envelope(send).params.tenant).toBe('acme');
      } else {
        expect(send?.path).toBe(`${restPath}/acme/message:send`);
        expect(get?.path).toBe(`${restPath}/acme/tasks/${task.id}`);
      }
      expect(send?.headers.get('a2a-extensions')).toBe(idempotencyExtensionUri);
    },
  );

  it('subscribes with GET when configured, and says so in its events', async () => {
    const client = makeClient('HTTP+JSON', { subscribeMethod: 'GET' });
    const events: ClientEvent[] = [];
    client.events.subscribe((event) => events.push(event));
    const { task } = (await client.sendMessage({ message: userMessage('input') })) as { task: Task };
    await collect(client.subscribeToTask({ id: task.id }));
    await client.getTask({ id: task.id });
    expect((await recorded()).map((request) => request.method)).toEqual(['POST', 'GET', 'GET']);
    const requests = events.filter((event) => event.type === 'request');
    expect(requests.map((event) => [event.operation, event.httpMethod, event.rpcId])).toEqual([
      ['SendMessage', 'POST', undefined],
      ['SubscribeToTask', 'GET', undefined],
      ['GetTask', 'GET', undefined],
    ]);
  });

  it('sends nothing whose body is over the request bound', async () => {
    const client = makeClient('HTTP+JSON', { limits: { requestBodyBytes: 1024 } });
    await expect(client.sendMessage({ message: userMessage('x'.repeat(2048)) })).rejects.toMatchObject({
      kind: 'request',
      reason: 'body-too-large',
      dispatched: false,
    });
    expect(await recorded()).toHaveLength(0);
  });

  it('sends nothing for a call aborted before it starts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      makeClient('JSONRPC').getTask({ id: 't-1' }, { signal: controller.signal }),
    ).rejects.toMatchObject({
      kind: 'request',
      reason: 'aborted',
      dispatched: false,
    });
    expect(await recorded()).toHaveLength(0);
  });
});

describe('inspector events', () => {
  it('follow each call: request (with the wire JSON-RPC id), response, frames, end', async () => {
    const client = makeClient('JSONRPC');
    const events: ClientEvent[] = [];
    client.events.subscribe((event) => events.push(event));
    const sent = await client.sendMessage({ message: userMessage('task a') });
    const streamed = await collect(client.sendStreamingMessage({ message: userMessage('task a b') }));
    const wire = (await recorded()).map((request) => envelope(request).id);

    const [request, response, ...rest] = events;
    expect(request).toMatchObject({
      type: 'request',
      callId: 1,
      operation: 'SendMessage',
      binding: 'JSONRPC',
    });
    expect(request).toMatchObject({ httpMethod: 'POST', rpcId: wire[0] });
    expect(response).toMatchObject({ type: 'response', callId: 1, stream: false, httpStatus: 200 });
    expect(rest[0]).toMatchObject({
      type: 'request',
      callId: 2,
      operation: 'SendStreamingMessage',
      rpcId: wire[1],
    });
    expect(rest[1]).toMatchObject({ type: 'response', callId: 2, stream: true });
    const frames = rest.filter((event) => event.type === 'stream-frame');
    expect(frames.map((frame) => [frame.index, frame.kind])).toEqual(
      streamed.map((event, index) => [index, Object.keys(event)[0]]),
    );
    expect(frames.map((frame) => frame.event)).toEqual(streamed);
    expect(frames.every((frame) => frame.wireBytes > 0 && frame.callId === 2)).toBe(true);
    const end = rest.at(-1);
    expect(end).toMatchObject({ type: 'stream-end', callId: 2, reason: 'complete', frames: streamed.length });
    expect(end?.type === 'stream-end' && end.wireBytes).toBe(
      frames.reduce((sum, frame) => sum + frame.wireBytes, 0),
    );
    const times = events.map((event) => event.time);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // The URL is never in an event.
    expect(JSON.stringify(events)).not.toContain(new URL(mock.origin).host);
    expect(taskOf(sent).id).not.toBe(taskOf(streamed[0]).id);
  });

  it('give a frame a copy: a listener cannot change what the caller receives', async () => {
    const client = makeClient('HTTP+JSON');
    client.events.subscribe((event) => {
      if (event.type === 'stream-frame' && 'task' in event.event) {
        (event.event.task as { id: string }).id = 'changed-by-a-listener';
      }
    });
    const [first] = await collect(client.sendStreamingMessage({ message: userMessage('task a') }));
    expect(taskOf(first).id).not.toBe('changed-by-a-listener');
  });

  it('mark a stream the caller left early as released, and report a refused call without a request', async () => {
    const client = makeClient('HTTP+JSON');
    const events: ClientEvent[] = [];
    client.events.subscribe((event) => events.push(event));
    for await (const event of client.sendStreamingMessage({ message: userMessage('task a b c') })) {
      expect('task' in event).toBe(true);
      break;
    }
    await expect(client.getTask({ id: '' })).rejects.toBeInstanceOf(RequestError);
    expect(events.map((event) => event.type)).toEqual([
      'request',
      'response',
      'stream-frame',
      'stream-end',
      'error',
    ]);
    expect(events[3]).toMatchObject({ reason: 'released', frames: 1 });
    expect(events[4]).toMatchObject({
      callId: 2,
      operation: 'GetTask',
      error: { kind: 'request', reason: 'invalid-params', dispatched: false },
    });
  });

  it('never let a listener break a call', async () => {
    const client = makeClient('JSONRPC');
    client.events.subscribe(() => {
      throw new Error('listener bug');
    });
    await expect(client.getExtendedAgentCard()).resolves.toMatchObject({ name: card.name });
  });
});

describe('the client surface', () => {
  it('exposes its card, digest and binding, frozen', () => {
    const client = makeClient('HTTP+JSON');
    expect(client.cardDigest).toBe(digest);
    expect(client.binding).toBe('HTTP+JSON');
    expect(client.card).toEqual(card);
    expect(Object.isFrozen(client)).toBe(true);
    expect(Object.isFrozen(client.card)).toBe(true);
  });

  it('is typed after the spec', () => {
    const client = makeClient('JSONRPC');
    expectTypeOf(client.getTask).returns.toEqualTypeOf<Promise<Task>>();
    expectTypeOf(client.sendMessage).returns.toEqualTypeOf<Promise<SendMessageResult>>();
    expectTypeOf(client.sendStreamingMessage).returns.toEqualTypeOf<AsyncIterable<StreamResponse>>();
    expectTypeOf(client.subscribeToTask).returns.toEqualTypeOf<AsyncIterable<StreamResponse>>();
    expectTypeOf(client.deleteTaskPushNotificationConfig).returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf(client.getExtendedAgentCard).returns.toEqualTypeOf<Promise<AgentCard>>();
    // Only the pinned interface sets the tenant.
    expectTypeOf<keyof Parameters<A2aClient['getTask']>[0]>().toEqualTypeOf<'id' | 'historyLength'>();
  });
});
