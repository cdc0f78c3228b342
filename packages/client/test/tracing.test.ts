/**
`@surecall/client/otel` (docs/tracing.md) with the OpenTelemetry SDK's in-memory exporter, against the mock
agent on a loopback server and the official `@a2a-js/sdk` server, over both bindings: one CLIENT span per call
under the caller's span, its attributes, its `traceparent` on every request of the call (a resumed stream's
too), and no token or message text anywhere in a span.
*/

import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  agentCardPath,
  createAgent,
  createFaultLab,
  createMockHandle,
  jsonRpcPath,
  restPath,
} from '@surecall/mocks';
import { type LoopbackServer, listenLoopback } from '@surecall/mocks/node';
import { startSdkAgent } from '@surecall/mocks/sdk-agent';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type A2aClient, createClient } from '../src/client/client.js';
import type { ProtocolBinding } from '../src/client/security.js';
import { OptionsError, RemoteError, RequestError } from '../src/core/errors.js';
import { fetchAgentCard } from '../src/discovery/discovery.js';
import { createTracing } from '../src/otel.js';
import type { Message } from '../src/protocol/message.js';
import { rejectionOf } from './support/rejection.js';
import { exporter, installTracing, provider, spanText } from './support/tracing.js';

type Seen = { readonly path: string; readonly traceparent: string | null };

const token = 'tok-9d41c0ffee';
const seen: Seen[] = [];
const agent = createAgent({ stepMs: 0 });
const faults = createFaultLab();
let server: LoopbackServer;
let sdk: Awaited<ReturnType<typeof startSdkAgent>>;

beforeAll(async () => {
  installTracing();
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const handle = createMockHandle({ agent, faults });
  server = await listenLoopback({
    cors: false,
    handle: (request) => {
      const path = new URL(request.url).pathname;
      if (path !== agentCardPath) {
        seen.push({ path, traceparent: request.headers.get('traceparent') });
      }
      return handle(request);
    },
  });
  sdk = await startSdkAgent({ tickMs: 600_000 });
});
afterEach(() => {
  seen.length = 0;
  exporter.reset();
  faults.clear();
});
afterAll(async () => {
  await server.close();
  await sdk.close();
  agent.close();
  vi.restoreAllMocks();
});

const tracer = provider.getTracer('the app');

async function traced(binding: ProtocolBinding, origin = server.origin): Promise<A2aClient> {
  const fetched = await fetchAgentCard({ cardUrl: `${origin}${agentCardPath}`, loopback: true });
  const tracing = createTracing({ tracerProvider: provider });
  const client = createClient({
    card: fetched.card,
    cardDigest: fetched.digest,
    pin: { binding, url: `${origin}${binding === 'JSONRPC' ? jsonRpcPath : restPath}` },
    security: { kind: 'bearer', scheme: 'bearer', token: async () => token },
    interceptors: [tracing.interceptor],
  });
  tracing.observe(client);
  return client;
}

function message(text: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
}

/**
Runs `work` inside an active span of the app's own, and returns that span's ids with the client's spans.
*/
async function underAppSpan(work: () => Promise<unknown>) {
  let traceId = '';
  let spanId = '';
  await tracer.startActiveSpan('the app', async (span) => {
    ({ traceId, spanId } = span.spanContext());
    try {
      await work().catch(() => undefined);
    } finally {
      span.end();
    }
  });
  const spans = exporter.getFinishedSpans().filter((span) => span.name !== 'the app');
  return { traceId, spanId, spans };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('tracing over %s', (binding) => {
  it('a plain send is one CLIENT span under the caller, with its traceparent on the request', async () => {
    const client = await traced(binding);
    const { traceId, spanId, spans } = await underAppSpan(() =>
      client.sendMessage({ message: message('the private words') }),
    );
    expect(spans).toHaveLength(1);
    const [span] = spans as [ReadableSpan];
    expect(span.name).toBe('SendMessage');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.spanContext().traceId).toBe(traceId);
    expect(parentOf(span)).toBe(spanId);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toEqual({
      'rpc.system': 'a2a',
      'rpc.method': 'SendMessage',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(server.origin).port),
      'a2a.binding': binding,
      'a2a.dispatched': true,
      'a2a.outcome': 'answered',
      'http.response.status_code': 200,
      ...(binding === 'JSONRPC' ? { 'rpc.jsonrpc.request_id': '1' } : {}),
    });
    expect(seen.map((request) => request.traceparent)).toEqual([
      `00-${traceId}-${span.spanContext().spanId}-01`,
    ]);
    expect(spanText(spans)).not.toContain(token);
    expect(spanText(spans)).not.toContain('the private words');
  });

  it('a refusal ends the span with its kind, reason and dispatched, and no text of the peer', async () => {
    const client = await traced(binding);
    const { spans } = await underAppSpan(() =>
      rejectionOf(client.getTask({ id: 'no-such-task' }), RemoteError),
    );
    const [span] = spans as [ReadableSpan];
    expect(span.name).toBe('GetTask');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes).toMatchObject({
      'a2a.outcome': 'remote',
      'a2a.dispatched': true,
      'error.type': 'remote.TASK_NOT_FOUND',
    });
    expect(spanText(spans)).not.toContain('no-such-task');
  });

  it('a call refused before dispatch has a span that says so, and nothing was sent', async () => {
    const client = await traced(binding);
    const { spans } = await underAppSpan(() =>
      rejectionOf(client.sendMessage({ message: { ...message('x'), parts: [] } }), RequestError),
    );
    const [span] = spans as [ReadableSpan];
    expect(span.attributes).toMatchObject({ 'a2a.outcome': 'request', 'a2a.dispatched': false });
    expect(seen).toEqual([]);
  });

  it('a resumed stream is one span: the break and the resumption are its events, both requests carry it', async () => {
    const client = await traced(binding);
    faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });
    const { traceId, spans } = await underAppSpan(async () => {
      const stream = client.sendStreamingMessage(
        { message: message('task alpha beta gamma') },
        { resume: { initialDelayMs: 0 } },
      );
      for await (const _event of stream) {
        // Drained to its end.
      }
    });
    expect(spans).toHaveLength(1);
    const [span] = spans as [ReadableSpan];
    expect(span.name).toBe('SendStreamingMessage');
    // The resumption subscribes; when the task has already ended there (the agent runs at once), the
    // subscription is refused and one GetTask follows as a second resume event (A2A spec §3.1.6).
    const names = span.events.map((event) => event.name);
    expect(names.slice(0, 2)).toEqual(['a2a.stream.break', 'a2a.stream.resume']);
    expect(names.slice(2).every((name) => name === 'a2a.stream.resume')).toBe(true);
    expect(span.events[1]?.attributes).toMatchObject({
      'a2a.attempt': 1,
      'a2a.break.reason': 'read',
      'a2a.resume.via': 'SubscribeToTask',
    });
    expect(span.attributes).toMatchObject({ 'a2a.outcome': 'answered', 'a2a.stream.end': 'complete' });
    const carried = `00-${traceId}-${span.spanContext().spanId}-01`;
    expect(seen).toHaveLength(names.length);
    expect(seen.every((request) => request.traceparent === carried)).toBe(true);
    expect(spanText(spans)).not.toContain('alpha');
  });

  it('the official SDK server receives the traceparent of the call', async () => {
    const client = await traced(binding, sdk.origin);
    const from = sdk.received.length;
    const { traceId, spans } = await underAppSpan(() =>
      client.sendMessage({ message: message('echo hello') }),
    );
    const [span] = spans as [ReadableSpan];
    expect(span.attributes['a2a.outcome']).toBe('answered');
    const sent = sdk.received.slice(from).filter((request) => request.path !== agentCardPath);
    expect(sent.map((request) => request.headers['traceparent'])).toEqual([
      `00-${traceId}-${span.spanContext().spanId}-01`,
    ]);
  });
});

describe('a tracing', () => {
  it('refuses a call made before it observes its client, and a second client', async () => {
    const fetched = await fetchAgentCard({ cardUrl: `${server.origin}${agentCardPath}`, loopback: true });
    const tracing = createTracing({ tracerProvider: provider });
    const options = {
      card: fetched.card,
      cardDigest: fetched.digest,
      pin: { binding: 'JSONRPC', url: `${server.origin}${jsonRpcPath}` },
      security: { kind: 'anonymous' },
      interceptors: [tracing.interceptor],
    } as const;
    const client = createClient(options);
    const error = await rejectionOf(client.getTask({ id: 'task-1' }), RequestError);
    expect(error.violation).toEqual({ rule: 'headers', path: '$interceptors[0]' });
    expect(seen).toEqual([]);
    tracing.observe(client);
    expect(() => tracing.observe(createClient(options))).toThrow(OptionsError);
  });
});
