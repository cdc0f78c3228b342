/**
@module
`@surecall/client/otel`: each call of one client as an OpenTelemetry CLIENT span, its trace context sent on
every request, and the calls of clients as metrics (docs/tracing.md). It is its own entry, the only module
that imports `@opentelemetry/api` (an optional peer), so an app without OpenTelemetry loads none of it and the
root entry does not grow (CONTRIBUTING.md#packages-and-size).

It reads the client only through its public surface: an interceptor starts a call's span at its first request
and injects the span's context into every request of the call (`before`,
docs/protocol-checks.md#interceptors), and the client's inspector events (`A2aClient.events`) end it, with the
outcome, and add its retries, stream breaks and resumptions as span events. Those events are redacted
(ARCHITECTURE.md#events-and-redaction), and a span takes only their enumerated members: never a token, a
header, a message's text or a peer's words.
*/
import {
  type Attributes,
  type Context,
  context,
  type MeterProvider,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { A2aClient } from './client/client.js';
import type { ClientEvent, ClientEventBase } from './client/events.js';
import type { HeaderContext, Interceptor } from './client/options.js';
import { OptionsError } from './core/errors.js';

export type { DurableTracing, DurableTracingOptions } from './otel/durable.js';
export { createDurableTracing } from './otel/durable.js';

/**
What {@link createTracing} takes.

@example
```ts
const options: TracingOptions = { tracerProvider: provider };
```
*/
export type TracingOptions = {
  /** Where the spans go. @default the global provider (`trace.getTracerProvider()`) */
  readonly tracerProvider?: TracerProvider;
};

/**
The tracing of one client: pass `interceptor` in its `ClientOptions.interceptors`, then `observe` the client
before its first call. A call made before `observe` is refused (`RequestError('invalid-params')`, nothing
sent), since its span could never end.

@example
```ts
const tracing = createTracing();
const client = createClient({ ...options, interceptors: [tracing.interceptor] });
const stop = tracing.observe(client);
```
*/
export type ClientTracing = {
  readonly interceptor: Interceptor;
  /** Starts reading `client`'s events; returns what stops it. A tracing observes one client, once. */
  observe(client: A2aClient): () => void;
  /**
  The trace id of the span of the call `callId` (the id every inspector event carries), known from the call's
  first request on and kept after it ends for the newest {@link tracedCallsKept} calls; `undefined` for a call
  this tracing did not trace or has dropped. The devtools show it beside the call (docs/tracing.md#devtools).
  */
  traceIdOf(callId: number): string | undefined;
};

/**
How many calls' trace ids a {@link ClientTracing} keeps: the oldest is dropped past it, so a long-lived
client's tracing stays bounded.
*/
export const tracedCallsKept = 1000;

/**
The instrumentation scope's name: the package the spans come from.

@example
```ts
const ours = exporter.getFinishedSpans().filter((span) => span.instrumentationScope.name === tracerName);
```
*/
export const tracerName = '@surecall/client';

/** What every answered call's span ends with: an answer implies the request left. */
const answered: Attributes = Object.freeze({ 'a2a.outcome': 'answered', 'a2a.dispatched': true });

/** One call's span and the context its requests carry. */
type Traced = { readonly span: Span; readonly carried: Context };

function errorType(error: Readonly<Record<string, unknown>>): string {
  // Only the closed union's own members: `kind` and `reason` are literals of ours, never the peer's text.
  return `${String(error['kind'])}.${String(error['reason'])}`;
}

function outcomeAttributes(error: Readonly<Record<string, unknown>>): Attributes {
  return {
    'a2a.outcome': String(error['kind']),
    'a2a.dispatched': error['dispatched'] === true,
    'error.type': errorType(error),
  };
}

function serverAttributes(url: string): Attributes {
  const parsed = new URL(url);
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  return { 'server.address': parsed.hostname, 'server.port': port };
}

/** The span event an inspector event adds, if it adds one: its enumerated members only. */
function spanEvent(event: ClientEvent): readonly [string, Attributes] | undefined {
  switch (event.type) {
    case 'retry':
      return [
        'a2a.retry',
        { 'a2a.attempt': event.attempt, 'a2a.delay_ms': event.delayMs, 'error.type': errorType(event.error) },
      ];
    case 'stream-break':
      return [
        'a2a.stream.break',
        {
          'a2a.break.reason': event.reason,
          'a2a.stream.frames': event.frames,
          'a2a.resumable': event.resumable,
        },
      ];
    case 'stream-resume':
      return [
        'a2a.stream.resume',
        {
          'a2a.attempt': event.attempt,
          'a2a.break.reason': event.reason,
          'a2a.delay_ms': event.delayMs,
          'a2a.resume.via': event.via,
        },
      ];
    default:
      return undefined;
  }
}

/**
Creates the tracing of one client (docs/tracing.md): a CLIENT span per call, named by its operation
(`SendMessage`), with `rpc.system` `a2a`, `rpc.method`, `server.address`, `server.port`, `a2a.binding`, then
`a2a.outcome` (`answered` or the error's kind), `a2a.dispatched` and, on failure, `error.type`
(`kind.reason`) and an error status; the active context's trace context (the global propagator's
`traceparent`, `tracestate`) goes on every request of the call, as the call's span's.

@example
```ts
const tracing = createTracing({ tracerProvider: provider });
const client = await discover({ ...options, interceptors: [tracing.interceptor] });
tracing.observe(client);
await client.sendMessage({ message }); // one span, SendMessage
```
*/
export function createTracing(options: TracingOptions = {}): ClientTracing {
  const provider = options.tracerProvider ?? trace.getTracerProvider();
  const tracer = provider.getTracer(tracerName);
  const calls = new Map<number, Traced>();
  // Insertion-ordered, so the first key is the oldest call: bounded by tracedCallsKept.
  const traceIds = new Map<number, string>();
  let observed: A2aClient | undefined;
  let base: Attributes = {};

  const start = (
    call: Pick<ClientEventBase, 'callId' | 'operation' | 'binding'>,
    startTime?: number,
  ): Traced => {
    const parent = context.active();
    const span = tracer.startSpan(
      call.operation,
      {
        kind: SpanKind.CLIENT,
        attributes: { ...base, 'rpc.method': call.operation, 'a2a.binding': call.binding },
        ...(startTime === undefined ? {} : { startTime }),
      },
      parent,
    );
    traceIds.set(call.callId, span.spanContext().traceId);
    if (traceIds.size > tracedCallsKept) {
      traceIds.delete(traceIds.keys().next().value as number);
    }
    return { span, carried: trace.setSpan(parent, span) };
  };

  const before = (asked: HeaderContext): Record<string, string> => {
    if (observed === undefined) {
      // Refused before anything is sent (the interceptor's refusal): a span started now could never end.
      throw new OptionsError('tracing.observe', 'not-satisfied');
    }
    let traced = calls.get(asked.callId);
    if (traced === undefined) {
      traced = start(asked);
      calls.set(asked.callId, traced);
    }
    const carrier: Record<string, string> = {};
    propagation.inject(traced.carried, carrier);
    return carrier;
  };

  const end = (event: ClientEvent, traced: Traced, attributes: Attributes, failed: boolean): void => {
    traced.span.setAttributes(attributes);
    if (failed) {
      traced.span.setStatus({ code: SpanStatusCode.ERROR, message: String(attributes['error.type']) });
    }
    traced.span.end();
    calls.delete(event.callId);
  };

  const read = (event: ClientEvent): void => {
    let traced = calls.get(event.callId);
    if (event.type === 'error' && traced === undefined) {
      // Refused before its first request (the outbound contract, an option): a span of its own, never sent.
      traced = start(event, event.time - event.durationMs);
    }
    if (traced === undefined) {
      return;
    }
    if (event.type === 'request') {
      traced.span.setAttributes({
        'a2a.dispatched': true,
        ...(event.rpcId === undefined ? {} : { 'rpc.jsonrpc.request_id': String(event.rpcId) }),
      });
    } else if (event.type === 'response') {
      traced.span.setAttributes(
        event.httpStatus === undefined ? {} : { 'http.response.status_code': event.httpStatus },
      );
      if (!event.stream) {
        end(event, traced, answered, false);
      }
    } else if (event.type === 'stream-end') {
      end(
        event,
        traced,
        { ...answered, 'a2a.stream.end': event.reason, 'a2a.stream.frames': event.frames },
        false,
      );
    } else if (event.type === 'error') {
      end(event, traced, outcomeAttributes(event.error), true);
    } else {
      const added = spanEvent(event);
      if (added !== undefined) {
        traced.span.addEvent(added[0], added[1]);
      }
    }
  };

  return {
    interceptor: Object.freeze({ before }),
    observe(client) {
      if (observed !== undefined) {
        throw new OptionsError('tracing.observe', 'inconsistent');
      }
      observed = client;
      base = { 'rpc.system': 'a2a', ...serverAttributes(client.pin.url) };
      return client.events.subscribe(read);
    },
    traceIdOf: (callId) => traceIds.get(callId),
  };
}

/**
What {@link createMetrics} takes.

@example
```ts
const options: MetricsOptions = { meterProvider: provider };
```
*/
export type MetricsOptions = {
  /** Where the measurements go. @default the global provider (`metrics.getMeterProvider()`) */
  readonly meterProvider?: MeterProvider;
};

/**
The metrics of clients: `observe` each one; its calls are then counted and timed (docs/tracing.md#metrics).

@example
```ts
const stop = createMetrics().observe(client);
```
*/
export type ClientMetrics = {
  /** Starts reading `client`'s events; returns what stops it. */
  observe(client: A2aClient): () => void;
};

/**
The duration histogram's bucket boundaries in seconds: the ones OpenTelemetry's semantic conventions advise
for `rpc.client.call.duration`.
*/
const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
Creates the metrics of clients from their inspector events (docs/tracing.md#metrics): `a2a.client.calls`
(a counter of finished calls) and `rpc.client.call.duration` (a histogram, seconds), both by `rpc.method`,
`a2a.binding`, `a2a.outcome`, `a2a.dispatched` and, on failure, `error.type`; `a2a.client.stream.resumptions`
(a counter) by `rpc.method`, `a2a.binding`, `a2a.resume.via` and `a2a.break.reason`. Every attribute is an
enumerated member of an event, as a span's are: never a token, an id or a text.

@example
```ts
const clientMetrics = createMetrics({ meterProvider: provider });
clientMetrics.observe(client);
await client.sendMessage({ message }); // a2a.client.calls +1, one duration
```
*/
export function createMetrics(options: MetricsOptions = {}): ClientMetrics {
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(tracerName);
  const calls = meter.createCounter('a2a.client.calls', {
    unit: '{call}',
    description: 'A2A calls finished, by operation and outcome.',
  });
  const duration = meter.createHistogram('rpc.client.call.duration', {
    unit: 's',
    description: 'From the start of an A2A call to its answer, its stream end or its error.',
    advice: { explicitBucketBoundaries: durationBuckets },
  });
  const resumptions = meter.createCounter('a2a.client.stream.resumptions', {
    unit: '{resumption}',
    description: 'Stream resumptions after a break.',
  });
  return {
    observe(client) {
      const base = { 'rpc.system': 'a2a', ...serverAttributes(client.pin.url) };
      const finished = (event: ClientEvent, durationMs: number, outcome: Attributes): void => {
        const attributes = {
          ...base,
          'rpc.method': event.operation,
          'a2a.binding': event.binding,
          ...outcome,
        };
        calls.add(1, attributes);
        duration.record(durationMs / 1000, attributes);
      };
      return client.events.subscribe((event) => {
        if (event.type === 'response' && !event.stream) {
          finished(event, event.durationMs, answered);
        } else if (event.type === 'stream-end') {
          finished(event, event.durationMs, answered);
        } else if (event.type === 'error') {
          finished(event, event.durationMs, outcomeAttributes(event.error));
        } else if (event.type === 'stream-resume') {
          resumptions.add(1, {
            ...base,
            'rpc.method': event.operation,
            'a2a.binding': event.binding,
            'a2a.resume.via': event.via,
            'a2a.break.reason': event.reason,
          });
        }
      });
    },
  };
}
