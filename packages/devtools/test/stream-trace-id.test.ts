/**
The Streams panel shows a traced stream's trace id (docs/tracing.md#devtools): a real client, traced by
`@surecall/client/otel` into the OpenTelemetry SDK's in-memory exporter, streams from the mock agent (its MSW
handlers, on a loopback origin); the panel, rendered from the streams model those events build, shows exactly
the trace id of the span the exporter recorded, and nothing for a stream it does not know.
*/
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createClient, defaultLimits, fetchAgentCard } from '@surecall/client';
import { createTracing } from '@surecall/client/otel';
import { agentCardPath, jsonRpcPath } from '@surecall/mocks';
import { createMockAgentServer } from '@surecall/mocks/node';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamsPanel } from '../src/components/streams-panel.js';
import { emptyStreams, reduceStreams, type StreamsState } from '../src/model/streams.js';

const origin = 'http://127.0.0.1:4593';
const mock = createMockAgentServer({ stepMs: 0, origin });
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  mock.listen();
});
afterAll(() => mock.close());

const shownTraceIds = (html: string): string[] =>
  [...html.matchAll(/data-testid="stream-trace-id">([^<]*)</g)].map((match) => match[1] ?? '');

describe('the Streams panel with a traced client', () => {
  it('shows the trace id the exporter recorded for the stream, and none without one', async () => {
    const fetched = await fetchAgentCard({ cardUrl: `${origin}${agentCardPath}`, loopback: true });
    const tracing = createTracing({ tracerProvider: provider });
    const client = createClient({
      card: fetched.card,
      cardDigest: fetched.digest,
      pin: { binding: 'JSONRPC', url: `${origin}${jsonRpcPath}` },
      security: { kind: 'anonymous' },
      interceptors: [tracing.interceptor],
    });
    tracing.observe(client);
    let streams: StreamsState = emptyStreams;
    client.events.subscribe((event) => {
      streams = reduceStreams(streams, event);
    });
    const message = {
      messageId: crypto.randomUUID(),
      role: 'ROLE_USER' as const,
      parts: [{ text: 'task a b' }],
    };
    for await (const _event of client.sendStreamingMessage({ message })) {
      // Drained to its end.
    }
    const spans = exporter.getFinishedSpans().filter((span) => span.name === 'SendStreamingMessage');
    expect(spans).toHaveLength(1);
    const traceId = spans[0]?.spanContext().traceId;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(streams.streams).toHaveLength(1);

    const traced = renderToStaticMarkup(
      createElement(StreamsPanel, { streams, limits: defaultLimits, traceIdOf: tracing.traceIdOf }),
    );
    expect(shownTraceIds(traced)).toEqual([traceId]);
    const untraced = renderToStaticMarkup(createElement(StreamsPanel, { streams, limits: defaultLimits }));
    expect(shownTraceIds(untraced)).toEqual([]);
    const unknown = renderToStaticMarkup(
      createElement(StreamsPanel, { streams, limits: defaultLimits, traceIdOf: () => undefined }),
    );
    expect(shownTraceIds(unknown)).toEqual([]);
  });
});
