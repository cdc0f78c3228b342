/**
`ClientOptions.headers` and `ClientOptions.fetch` over a real loopback server
(docs/protocol-checks.md#extra-headers): the mock agent behind `listenLoopback`, with a recorder in front that
keeps each request's method, path and headers.
*/
import {
  agentCardPath,
  createAgent,
  createFaultLab,
  createMockHandle,
  jsonRpcPath,
  restPath,
} from '@surecall/mocks';
import { type LoopbackServer, listenLoopback } from '@surecall/mocks/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FetchFunction } from '../src/bindings/binding.js';
import { type A2aClient, createClient } from '../src/client/client.js';
import type { HeaderContext, HeadersOption } from '../src/client/options.js';
import { OptionsError, RequestError } from '../src/core/errors.js';
import { discover, fetchAgentCard } from '../src/discovery/discovery.js';
import type { Message } from '../src/protocol/message.js';
import { rejectionOf } from './support/rejection.js';

type Seen = { readonly method: string; readonly path: string; readonly headers: Headers };

const seen: Seen[] = [];
/** The next this-many A2A requests are answered 503 before they reach the agent. */
let unavailable = 0;
let server: LoopbackServer;
let cardDigest = '';
const agent = createAgent({ stepMs: 0 });

beforeAll(async () => {
  const handle = createMockHandle({ agent, faults: createFaultLab() });
  server = await listenLoopback({
    cors: false,
    handle: async (request) => {
      const path = new URL(request.url).pathname;
      seen.push({ method: request.method, path, headers: new Headers(request.headers) });
      if (path !== agentCardPath && unavailable > 0) {
        unavailable -= 1;
        return new Response(null, { status: 503 });
      }
      return handle(request);
    },
  });
  ({ digest: cardDigest } = await fetchAgentCard({
    cardUrl: `${server.origin}${agentCardPath}`,
    loopback: true,
  }));
});
afterEach(() => {
  seen.length = 0;
  unavailable = 0;
});
afterAll(async () => {
  await server.close();
  agent.close();
});

const bindings = [
  ['JSONRPC', jsonRpcPath],
  ['HTTP+JSON', restPath],
] as const;

function message(text: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
}

type Extra = {
  readonly headers?: HeadersOption;
  readonly fetch?: FetchFunction;
  readonly retry?: { readonly initialBackoffMs: number; readonly random: () => number };
};

/**
JSON-RPC through `discover()` (the card's preferred interface); HTTP+JSON through `fetchAgentCard()` and
`createClient()`. Either way the card fetch takes the same `fetch`.
*/
async function connect(binding: 'JSONRPC' | 'HTTP+JSON', extra: Extra = {}): Promise<A2aClient> {
  const cardUrl = `${server.origin}${agentCardPath}`;
  const security = { kind: 'anonymous' } as const;
  if (binding === 'JSONRPC') {
    return discover({
      cardUrl,
      pins: [{ binding, url: `${server.origin}${jsonRpcPath}` }],
      trust: { kind: 'digest', digest: cardDigest },
      security,
      loopback: true,
      ...extra,
    });
  }
  const fetched = await fetchAgentCard({
    cardUrl,
    loopback: true,
    ...(extra.fetch === undefined ? {} : { fetch: extra.fetch }),
  });
  return createClient({
    card: fetched.card,
    cardDigest: fetched.digest,
    pin: { binding, url: `${server.origin}${restPath}` },
    security,
    ...extra,
  });
}

function refusal(promise: Promise<unknown>): Promise<RequestError> {
  return rejectionOf(promise, RequestError);
}

const a2aRequests = (): Seen[] => seen.filter((request) => request.path !== agentCardPath);

describe.each(bindings)('extra headers over %s', (binding, path) => {
  it('reach the peer on every request with the context of that request, and never on the card fetch', async () => {
    const contexts: HeaderContext[] = [];
    const client = await connect(binding, {
      headers: (context) => {
        contexts.push(context);
        return {
          traceparent: `00-${'4bf92f3577b34da6a3ce929d0e0e4736'}-${String(contexts.length).padStart(16, '0')}-01`,
          'X-Tenant': 'acme',
        };
      },
    });
    const sent = await client.sendMessage({ message: message('task one') });
    if (!('task' in sent)) {
      throw new Error('expected a task');
    }
    await client.getTask({ id: sent.task.id });
    for await (const _event of client.sendStreamingMessage({ message: message('task two') })) {
      // Drained: the stream's request is what this test reads.
    }
    expect(seen[0]?.path).toBe(agentCardPath);
    expect(seen[0]?.headers.get('x-tenant')).toBeNull();
    const requests = a2aRequests();
    expect(requests).toHaveLength(3);
    expect(requests.map((request) => request.headers.get('x-tenant'))).toEqual(['acme', 'acme', 'acme']);
    expect(requests.map((request) => request.headers.get('traceparent')?.slice(-5))).toEqual([
      '01-01',
      '02-01',
      '03-01',
    ]);
    // The protocol's own headers are still the client's.
    for (const request of requests) {
      expect(request.headers.get('a2a-version')).toBe('1.0');
    }
    expect(contexts.map(({ operation, binding: used, attempt }) => [operation, used, attempt])).toEqual([
      ['SendMessage', binding, 1],
      ['GetTask', binding, 1],
      ['SendStreamingMessage', binding, 1],
    ]);
    expect(contexts.map((context) => context.callId)).toEqual([1, 2, 3]);
    expect(contexts[1]?.taskId).toBe(sent.task.id);
    for (const [index, context] of contexts.entries()) {
      const request = requests[index] as Seen;
      expect(context.method).toBe(request.method);
      expect(new URL(context.url).pathname).toBe(request.path);
      expect(new URL(context.url).pathname.startsWith(path)).toBe(true);
    }
  });

  it('are asked again for each retry, with its attempt number', async () => {
    const attempts: number[] = [];
    const client = await connect(binding, {
      headers: ({ attempt }) => {
        attempts.push(attempt);
        return { 'x-attempt': String(attempt) };
      },
      retry: { initialBackoffMs: 0, random: () => 0 },
    });
    const sent = await client.sendMessage({ message: message('task one') });
    if (!('task' in sent)) {
      throw new Error('expected a task');
    }
    seen.length = 0;
    unavailable = 2;
    await client.getTask({ id: sent.task.id });
    expect(attempts.slice(1)).toEqual([1, 2, 3]);
    expect(a2aRequests().map((request) => request.headers.get('x-attempt'))).toEqual(['1', '2', '3']);
  });

  it.each([
    ['header-reserved', '$headers.a2a-version', { 'A2A-Version': '0.3' }],
    ['header-reserved', '$headers.a2a-extensions', { 'a2a-extensions': 'https://example.com/ext' }],
    ['header-reserved', '$headers.authorization', { Authorization: 'Bearer stolen' }],
    ['header-reserved', '$headers.accept', { accept: 'text/html' }],
    ['header-reserved', '$headers.content-type', { 'Content-Type': 'text/plain' }],
    ['header-reserved', '$headers.idempotency-key', { 'Idempotency-Key': 'k-0123456789abcdef' }],
    ['header-reserved', '$headers.host', { Host: 'elsewhere.example' }],
    ['header-reserved', '$headers.proxy-authorization', { 'Proxy-Authorization': 'Basic x' }],
    ['header-reserved', '$headers.sec-fetch-mode', { 'Sec-Fetch-Mode': 'cors' }],
    ['header-name', '$headers[1]', { 'x-ok': 'fine', 'bad name': 'x' }],
    ['header-value', '$headers.x-split', { 'x-split': 'a\r\nInjected: yes' }],
    ['header-value', '$headers.x-padded', { 'x-padded': ' a' }],
    ['header-value', '$headers.x-latin1', { 'x-latin1': 'café' }],
    ['header-repeated', '$headers.x-tenant', { 'X-Tenant': 'a', 'x-tenant': 'b' }],
    [
      'header-count',
      '$headers',
      Object.fromEntries(Array.from({ length: 65 }, (_, index) => [`x-h${index}`, 'v'])),
    ],
    ['header-bytes', '$headers', { 'x-big': 'v'.repeat(16 * 1024) }],
  ])('refuse rule %s at %s before anything is sent', async (rule, at, headers) => {
    const client = await connect(binding, { headers: () => headers });
    seen.length = 0;
    const error = await refusal(client.sendMessage({ message: message('task one') }));
    expect(error.reason).toBe('invalid-params');
    expect(error.dispatched).toBe(false);
    expect(error.violation).toEqual({ rule, path: at });
    expect(seen).toEqual([]);
  });

  it('refuse the call when the function throws or returns no object', async () => {
    for (const headers of [
      () => {
        throw new Error('no trace context');
      },
      () => 'traceparent' as unknown as Record<string, string>,
    ]) {
      const client = await connect(binding, { headers });
      seen.length = 0;
      const error = await refusal(client.getTask({ id: 'task-1' }));
      expect(error.violation).toEqual({ rule: 'headers', path: '$headers' });
      expect(seen).toEqual([]);
    }
  });

  it('add nothing when the function returns undefined', async () => {
    const client = await connect(binding, { headers: () => undefined });
    await client.sendMessage({ message: message('task one') });
    expect(a2aRequests()).toHaveLength(1);
  });
});

describe.each(bindings)('a fetch of its own over %s', (binding) => {
  it('carries the card fetch and every operation, called as a plain function', async () => {
    const calls: { url: string; self: unknown }[] = [];
    const viaProxy = function (
      this: unknown,
      input: RequestInfo | URL,
      init?: RequestInit,
    ): Promise<Response> {
      // The client calls it as a plain fetch(url, init) is called (wire/http.ts).
      expect(typeof input).toBe('string');
      const url = String(input);
      calls.push({ url, self: this });
      const headers = new Headers(init?.headers);
      headers.set('x-via', 'test-proxy');
      return globalThis.fetch(url, { ...init, headers });
    };
    const client = await connect(binding, { fetch: viaProxy });
    await client.sendMessage({ message: message('task one') });
    expect(calls.map((call) => new URL(call.url).pathname)).toEqual([agentCardPath, seen[1]?.path]);
    expect(calls.every((call) => call.self === undefined)).toBe(true);
    expect(seen.map((request) => request.headers.get('x-via'))).toEqual(['test-proxy', 'test-proxy']);
  });

  it('decides the outcome the same way: a failing fetch after dispatch is a transport error', async () => {
    let live = true;
    const client = await connect(binding, {
      fetch: (input, init) =>
        live ? globalThis.fetch(input, init) : Promise.reject(new TypeError('proxy down')),
    });
    live = false;
    const error = await client.sendMessage({ message: message('task one') }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ kind: 'transport', reason: 'network', dispatched: true });
  });
});

describe('the options resolver', () => {
  it.each([
    ['headers', { headers: { traceparent: 'x' } }],
    ['fetch', { fetch: 'https://proxy.example' }],
  ])('refuses a %s that is not a function', async (option, extra) => {
    const error = await connect('JSONRPC', extra as object).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).toMatchObject({ option, reason: 'malformed' });
  });
});
