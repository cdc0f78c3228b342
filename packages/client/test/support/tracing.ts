/**
@module
Test support for `@surecall/client/otel` (docs/tracing.md): the OpenTelemetry SDK's in-memory exporter behind
a tracer provider, the AsyncLocalStorage context manager and the W3C trace-context propagator installed
globally, as a Node service sets them up, and the whole text of finished spans for the redaction checks.
*/
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** Every span the provider below finished, in the order they ended. */
export const exporter = new InMemorySpanExporter();
export const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

/** Installs the context manager and the propagator for this test file's realm. */
export function installTracing(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

/** Everything a span exporter would ship of `spans`: names, attributes, events, status and links. */
export function spanText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      status: span.status,
      links: span.links,
    })),
  );
}
