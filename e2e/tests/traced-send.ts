/**
@module
A Node service's traced durable send, for `cli-devtools.e2e.ts`: the OpenTelemetry SDK set up as a service
sets it up (the AsyncLocalStorage context manager, the W3C propagator, a tracer provider), a client traced by
`createTracing` and a durable agent by `createDurableTracing` (docs/tracing.md#durable-sends) over the file
ledger at argv[3], sending one message to the agent whose card is at argv[2]. It prints one JSON line: the
record's id, the outcome's status and the trace id of the send's span, which the devtools must show.

Run as the `surecall` bin runs the source in a working copy:
`node --conditions=@surecall/source --import tsx e2e/tests/traced-send.ts <card url> <ledger file>`.
*/
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createClient, fetchAgentCard } from '@surecall/client';
import { openLedger } from '@surecall/client/ledger/file';
import { createDurableTracing, createTracing } from '@surecall/client/otel';

const [cardUrl, ledgerPath] = process.argv.slice(2);
if (cardUrl === undefined || ledgerPath === undefined) {
  throw new Error('usage: traced-send.ts <card url> <ledger file>');
}
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const fetched = await fetchAgentCard({ cardUrl, loopback: true });
const tracing = createTracing({ tracerProvider: provider });
const client = createClient({
  card: fetched.card,
  cardDigest: fetched.digest,
  pin: { binding: 'JSONRPC', url: new URL('/a2a/jsonrpc', cardUrl).href },
  security: { kind: 'anonymous' },
  interceptors: [tracing.interceptor],
});
tracing.observe(client);
const ledger = await openLedger({ name: ledgerPath });
try {
  const agent = createDurableTracing({ tracerProvider: provider }).durableAgent({
    client,
    ledger,
    delivery: 'at-most-once',
  });
  const outcome = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'task book the traced 7:15' }] });
  const send = exporter.getFinishedSpans().find((span) => span.name === 'a2a.durable.send');
  process.stdout.write(
    `${JSON.stringify({ id: outcome.id, status: outcome.status, traceId: send?.spanContext().traceId })}\n`,
  );
} finally {
  await ledger.close();
}
