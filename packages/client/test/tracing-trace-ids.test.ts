/**
`ClientTracing.traceIdOf` (docs/tracing.md#devtools) with the OpenTelemetry SDK's in-memory exporter, against
the mock agent on a loopback server: the trace id it gives for a call's `callId` is exactly the one its
exported span carries, for a stream and a unary call; an unknown call has none; and only the newest
`tracedCallsKept` calls are kept.
*/

import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { agentCardPath, createAgent, createFaultLab, createMockHandle, jsonRpcPath } from '@surecall/mocks';
import { type LoopbackServer, listenLoopback } from '@surecall/mocks/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type A2aClient, createClient } from '../src/client/client.js';
import { fetchAgentCard } from '../src/discovery/discovery.js';
import { type ClientTracing, createTracing, tracedCallsKept } from '../src/otel.js';
import type { Message } from '../src/protocol/message.js';
import { exporter, installTracing, provider } from './support/tracing.js';

const agent = createAgent({ stepMs: 0 });
let server: LoopbackServer;

beforeAll(async () => {
  installTracing();
  server = await listenLoopback({
    cors: false,
    handle: createMockHandle({ agent, faults: createFaultLab() }),
  });
});
afterEach(() => exporter.reset());
afterAll(async () => {
  await server.close();
  agent.close();
});

async function traced(): Promise<{ client: A2aClient; tracing: ClientTracing; callIds: number[] }> {
  const fetched = await fetchAgentCard({ cardUrl: `${server.origin}${agentCardPath}`, loopback: true });
  const tracing = createTracing({ tracerProvider: provider });
  const client = createClient({
    card: fetched.card,
    cardDigest: fetched.digest,
    pin: { binding: 'JSONRPC', url: `${server.origin}${jsonRpcPath}` },
    security: { kind: 'anonymous' },
    interceptors: [tracing.interceptor],
  });
  tracing.observe(client);
  const callIds: number[] = [];
  client.events.subscribe((event) => {
    if (event.type === 'request' && !callIds.includes(event.callId)) {
      callIds.push(event.callId);
    }
  });
  return { client, tracing, callIds };
}

function message(text: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
}

const spanNamed = (name: string): ReadableSpan => {
  const found = exporter.getFinishedSpans().filter((span) => span.name === name);
  expect(found).toHaveLength(1);
  return found[0] as ReadableSpan;
};

describe('ClientTracing.traceIdOf', () => {
  it('gives the exported span’s trace id for a stream and a unary call, during and after the call', async () => {
    const { client, tracing, callIds } = await traced();
    let during: string | undefined;
    for await (const _event of client.sendStreamingMessage({ message: message('task alpha beta') })) {
      during ??= tracing.traceIdOf(callIds[0] ?? -1);
    }
    await client.sendMessage({ message: message('hello') });
    expect(callIds).toHaveLength(2);
    const [streamCall, unaryCall] = callIds as [number, number];
    const stream = spanNamed('SendStreamingMessage').spanContext().traceId;
    const unary = spanNamed('SendMessage').spanContext().traceId;
    expect(stream).toMatch(/^[0-9a-f]{32}$/);
    expect(during).toBe(stream);
    expect(tracing.traceIdOf(streamCall)).toBe(stream);
    expect(tracing.traceIdOf(unaryCall)).toBe(unary);
    expect(unary).not.toBe(stream);
    expect(tracing.traceIdOf(unaryCall + 1)).toBeUndefined();
  });

  it(`keeps the newest ${tracedCallsKept} calls and drops the oldest`, async () => {
    const { client, tracing, callIds } = await traced();
    const { task } = await client.sendMessage({ message: message('task one') }).then((answer) => ({
      task: 'task' in answer ? answer.task : undefined,
    }));
    const id = task?.id ?? '';
    expect(id).not.toBe('');
    for (let call = 1; call <= tracedCallsKept; call += 1) {
      await client.getTask({ id });
    }
    expect(callIds).toHaveLength(tracedCallsKept + 1);
    const [first, second] = callIds as [number, number];
    const last = callIds[callIds.length - 1] as number;
    expect(tracing.traceIdOf(first)).toBeUndefined();
    expect(tracing.traceIdOf(second)).toMatch(/^[0-9a-f]{32}$/);
    expect(tracing.traceIdOf(last)).toBe(exporter.getFinishedSpans().at(-1)?.spanContext().traceId);
  });
});
