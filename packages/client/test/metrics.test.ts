/**
`createMetrics` of `@surecall/client/otel` (docs/tracing.md#metrics) with the OpenTelemetry SDK's in-memory
metric exporter, against the mock agent on a loopback server over both bindings: calls counted by operation
and outcome, their durations in seconds, stream resumptions, and no token or message text in any attribute.
*/

import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  agentCardPath,
  createAgent,
  createFaultLab,
  createMockHandle,
  jsonRpcPath,
  restPath,
} from '@surecall/mocks';
import { type LoopbackServer, listenLoopback } from '@surecall/mocks/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type A2aClient, createClient } from '../src/client/client.js';
import type { ProtocolBinding } from '../src/client/security.js';
import { RemoteError, RequestError } from '../src/core/errors.js';
import { fetchAgentCard } from '../src/discovery/discovery.js';
import { createMetrics } from '../src/otel.js';
import type { Message } from '../src/protocol/message.js';
import { rejectionOf } from './support/rejection.js';

const token = 'tok-51b7c0ffee';
const agent = createAgent({ stepMs: 0 });
const faults = createFaultLab();
const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
// The interval never elapses in a test: `collect()` below exports on demand.
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
const provider = new MeterProvider({ readers: [reader] });
let server: LoopbackServer;

beforeAll(async () => {
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  server = await listenLoopback({ cors: false, handle: createMockHandle({ agent, faults }) });
});
afterEach(() => {
  faults.clear();
});
afterAll(async () => {
  await provider.shutdown();
  await server.close();
  agent.close();
  vi.restoreAllMocks();
});

async function measured(binding: ProtocolBinding): Promise<{ client: A2aClient; stop: () => void }> {
  const fetched = await fetchAgentCard({ cardUrl: `${server.origin}${agentCardPath}`, loopback: true });
  const client = createClient({
    card: fetched.card,
    cardDigest: fetched.digest,
    pin: { binding, url: `${server.origin}${binding === 'JSONRPC' ? jsonRpcPath : restPath}` },
    security: { kind: 'bearer', scheme: 'bearer', token: async () => token },
  });
  // A fresh provider per client would hide a leak between calls; the one provider accumulates, so each test
  // reads only the points of its own binding and operation.
  return { client, stop: createMetrics({ meterProvider: provider }).observe(client) };
}

/** Every exported metric's points, by metric name, after a collection. */
async function collect() {
  exporter.reset();
  await reader.forceFlush();
  const points = new Map<string, { unit: string; points: DataPoint<unknown>[] }>();
  for (const resource of exporter.getMetrics()) {
    for (const scope of resource.scopeMetrics) {
      expect(scope.scope.name).toBe('@surecall/client');
      for (const metric of scope.metrics) {
        points.set(metric.descriptor.name, {
          unit: metric.descriptor.unit,
          points: metric.dataPoints as DataPoint<unknown>[],
        });
      }
    }
  }
  return points;
}

function pointsOf(
  all: Awaited<ReturnType<typeof collect>>,
  name: string,
  where: Readonly<Record<string, unknown>>,
): DataPoint<unknown>[] {
  return (all.get(name)?.points ?? []).filter((point) =>
    Object.entries(where).every(([key, value]) => point.attributes[key] === value),
  );
}

function message(text: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
}

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('metrics over %s', (binding) => {
  it('counts answered, refused and undispatched calls by operation and outcome, with their durations', async () => {
    const { client, stop } = await measured(binding);
    const started = performance.now();
    await client.sendMessage({ message: message('the private words') });
    await client.sendMessage({ message: message('the private words') });
    const elapsedSeconds = (performance.now() - started) / 1000;
    await rejectionOf(client.getTask({ id: 'no-such-task' }), RemoteError);
    await rejectionOf(client.sendMessage({ message: { ...message('x'), parts: [] } }), RequestError);
    stop();
    await client.sendMessage({ message: message('after stop') });
    const all = await collect();
    expect(all.get('a2a.client.calls')?.unit).toBe('{call}');
    expect(all.get('rpc.client.call.duration')?.unit).toBe('s');
    const port = Number(new URL(server.origin).port);
    const answered = pointsOf(all, 'a2a.client.calls', {
      'a2a.binding': binding,
      'rpc.method': 'SendMessage',
      'a2a.outcome': 'answered',
    });
    expect(answered.map((point) => [point.attributes, point.value])).toEqual([
      [
        {
          'rpc.system': 'a2a',
          'server.address': '127.0.0.1',
          'server.port': port,
          'rpc.method': 'SendMessage',
          'a2a.binding': binding,
          'a2a.outcome': 'answered',
          'a2a.dispatched': true,
        },
        2,
      ],
    ]);
    const refused = pointsOf(all, 'a2a.client.calls', { 'a2a.binding': binding, 'rpc.method': 'GetTask' });
    expect(
      refused.map((point) => [
        point.attributes['error.type'],
        point.attributes['a2a.dispatched'],
        point.value,
      ]),
    ).toEqual([['remote.TASK_NOT_FOUND', true, 1]]);
    const undispatched = pointsOf(all, 'a2a.client.calls', {
      'a2a.binding': binding,
      'a2a.outcome': 'request',
    });
    expect(undispatched.map((point) => [point.attributes['a2a.dispatched'], point.value])).toEqual([
      [false, 1],
    ]);
    const [durations] = pointsOf(all, 'rpc.client.call.duration', {
      'a2a.binding': binding,
      'rpc.method': 'SendMessage',
      'a2a.outcome': 'answered',
    }) as [DataPoint<Histogram>];
    expect(durations.value.count).toBe(2);
    // Seconds, not milliseconds: the two durations fit in the wall time around both sends.
    expect(durations.value.sum).toBeGreaterThan(0);
    expect(durations.value.sum).toBeLessThanOrEqual(elapsedSeconds + 0.001);
    const text = JSON.stringify([...all.values()]);
    expect(text).not.toContain(token);
    expect(text).not.toContain('the private words');
    expect(text).not.toContain('no-such-task');
  });

  it('counts a stream resumption by how it resumed, and the stream as one answered call', async () => {
    const { client, stop } = await measured(binding);
    faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });
    const stream = client.sendStreamingMessage(
      { message: message('task alpha beta gamma') },
      { resume: { initialDelayMs: 0 } },
    );
    for await (const _event of stream) {
      // Drained to its end.
    }
    stop();
    const all = await collect();
    const resumed = pointsOf(all, 'a2a.client.stream.resumptions', {
      'a2a.binding': binding,
      'a2a.resume.via': 'SubscribeToTask',
    });
    expect(resumed.map((point) => [point.attributes['a2a.break.reason'], point.value])).toEqual([
      ['read', 1],
    ]);
    expect(all.get('a2a.client.stream.resumptions')?.unit).toBe('{resumption}');
    const streams = pointsOf(all, 'a2a.client.calls', {
      'a2a.binding': binding,
      'rpc.method': 'SendStreamingMessage',
    });
    expect(streams.map((point) => [point.attributes['a2a.outcome'], point.value])).toEqual([['answered', 1]]);
    expect(JSON.stringify([...all.values()])).not.toContain('alpha');
  });
});
