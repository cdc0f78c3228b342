/**
Tracing and interceptors over the gRPC binding (`@surecall/client/grpc`) against the official `@a2a-js/sdk`
server's gRPC service (mocks/src/sdk/agent.ts, `grpc: true`, which records each call's metadata): an
interceptor's header and `createTracing`'s `traceparent` arrive as metadata on a unary call, a stream and a
refusal, the span ends with the gRPC binding's attributes, and `after` sees each answer's head (status 200 and
the initial metadata), but for a trailers-only refusal, which has none (docs/tracing.md,
docs/protocol-checks.md#interceptors, docs/protocol-checks.md#grpc).
*/
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { type RunningSdkAgent, startSdkAgent } from '@surecall/mocks/sdk-agent';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { grpcBinding } from '../src/bindings/grpc/entry.js';
import { type A2aClient, createClient } from '../src/client/client.js';
import type { InterceptorAnswer } from '../src/client/options.js';
import { cardDigest } from '../src/discovery/digest.js';
import { createTracing } from '../src/otel.js';
import { parseAgentCard } from '../src/protocol/decode.js';
import type { JsonValue } from '../src/protocol/json-value.js';
import type { Message } from '../src/protocol/message.js';
import { exporter, installTracing, provider, spanText } from './support/tracing.js';

const token = 'tok-grpc-5eed';
let sdk: RunningSdkAgent;

beforeAll(async () => {
  installTracing();
  // The SDK logs expected errors and its deliveries; the assertions are what matters.
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  sdk = await startSdkAgent({ tickMs: 600_000, grpc: true });
});
afterEach(() => {
  exporter.reset();
});
afterAll(async () => {
  await sdk.close();
  vi.restoreAllMocks();
});

const tracer = provider.getTracer('the app');

/** A traced gRPC client of the SDK's service with a `before` and an `after` of the caller's own. */
async function traced(answers: InterceptorAnswer[]): Promise<A2aClient> {
  const raw = (await (await fetch(sdk.cardUrl)).json()) as JsonValue;
  const tracing = createTracing({ tracerProvider: provider });
  const client = createClient({
    card: parseAgentCard(raw),
    cardDigest: await cardDigest(raw),
    grpc: grpcBinding,
    pin: { binding: 'GRPC', url: sdk.grpcUrl ?? '' },
    security: { kind: 'bearer', scheme: 'bearer', token: async () => token },
    interceptors: [
      { before: ({ callId, binding }) => ({ 'x-request-id': `${binding}-${callId}` }) },
      tracing.interceptor,
      { after: (answer) => void answers.push(answer) },
    ],
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
      await work();
    } finally {
      span.end();
    }
  });
  const spans = exporter.getFinishedSpans().filter((span) => span.name !== 'the app');
  return { traceId, spanId, spans };
}

const traceparentOf = (span: ReadableSpan) =>
  `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

describe('tracing and interceptors over gRPC against the official SDK', () => {
  it('a unary send carries the interceptor header and the traceparent as metadata, and its span ends', async () => {
    const answers: InterceptorAnswer[] = [];
    const client = await traced(answers);
    const from = sdk.received.length;
    const { traceId, spanId, spans } = await underAppSpan(() =>
      client.sendMessage({ message: message('echo hello') }),
    );
    expect(spans).toHaveLength(1);
    const [span] = spans as [ReadableSpan];
    expect(span.name).toBe('SendMessage');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext?.spanId).toBe(spanId);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toEqual({
      'rpc.system': 'a2a',
      'rpc.method': 'SendMessage',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(sdk.grpcUrl ?? '').port),
      'a2a.binding': 'GRPC',
      'a2a.dispatched': true,
      'a2a.outcome': 'answered',
      'http.response.status_code': 200,
    });
    const received = sdk.received.slice(from);
    expect(received.map(({ method, path, headers }) => [method, path, headers['x-request-id']])).toEqual([
      ['POST', '/lf.a2a.v1.A2AService/SendMessage', 'GRPC-1'],
    ]);
    expect(received[0]?.headers['traceparent']).toBe(traceparentOf(span));
    expect(received[0]?.headers['authorization']).toBe(`Bearer ${token}`);
    // The answer's head: the HTTP/2 status every gRPC answer travels with and the peer's initial metadata.
    expect(
      answers.map(({ operation, binding, callId, httpStatus }) => [operation, binding, callId, httpStatus]),
    ).toEqual([['SendMessage', 'GRPC', 1, 200]]);
    expect(answers[0]?.headers['content-type']).toBe('application/grpc+proto');
    expect(JSON.stringify(answers)).not.toContain(token);
    expect(spanText(spans)).not.toContain(token);
    expect(spanText(spans)).not.toContain('echo hello');
  });

  it('a stream carries them too, and its span ends complete with the frames it delivered', async () => {
    const answers: InterceptorAnswer[] = [];
    const client = await traced(answers);
    const from = sdk.received.length;
    let frames = 0;
    const { spans } = await underAppSpan(async () => {
      for await (const _event of client.sendStreamingMessage({ message: message('echo streamed') })) {
        frames += 1;
      }
    });
    const [span] = spans as [ReadableSpan];
    expect(spans).toHaveLength(1);
    expect(span.name).toBe('SendStreamingMessage');
    expect(span.attributes).toMatchObject({
      'a2a.binding': 'GRPC',
      'a2a.outcome': 'answered',
      'a2a.dispatched': true,
      'a2a.stream.end': 'complete',
      'a2a.stream.frames': frames,
    });
    expect(frames).toBeGreaterThan(0);
    const received = sdk.received.slice(from);
    expect(
      received.map(({ path, headers }) => [path, headers['x-request-id'], headers['traceparent']]),
    ).toEqual([['/lf.a2a.v1.A2AService/SendStreamingMessage', 'GRPC-1', traceparentOf(span)]]);
    // A stream's head comes before its first message, as an SSE answer's head does.
    expect(answers.map(({ operation, httpStatus }) => [operation, httpStatus])).toEqual([
      ['SendStreamingMessage', 200],
    ]);
    expect(answers[0]?.headers['content-type']).toBe('application/grpc+proto');
  });

  it('a refusal answered by its status alone ends the span as remote, and no after runs: it had no head', async () => {
    const answers: InterceptorAnswer[] = [];
    const client = await traced(answers);
    const from = sdk.received.length;
    const { spans } = await underAppSpan(() =>
      client.getTask({ id: 'no-such-task' }).catch((error: unknown) => error),
    );
    const [span] = spans as [ReadableSpan];
    expect(span.name).toBe('GetTask');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'remote.TASK_NOT_FOUND' });
    expect(span.attributes).toMatchObject({
      'a2a.binding': 'GRPC',
      'a2a.outcome': 'remote',
      'a2a.dispatched': true,
      'error.type': 'remote.TASK_NOT_FOUND',
    });
    const received = sdk.received.slice(from);
    expect(received.map(({ headers }) => [headers['x-request-id'], headers['traceparent']])).toEqual([
      ['GRPC-1', traceparentOf(span)],
    ]);
    expect(answers).toEqual([]);
  });
});
