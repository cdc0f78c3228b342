/**
`createDurableTracing` of `@surecall/client/otel` (docs/tracing.md#durable-sends) with the OpenTelemetry SDK's
in-memory exporter, against the mock agent on a loopback server over both bindings: a durable send whose
answer is lost (the fault lab's `drop-after`) is one span over the ledger's commits and the exchange, its
reconciliation one span over its probe, the probe's scan page and the commit it leads to; no span holds the
token, the message's words or an id.
*/

import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  type ReadableSpan,
  type Sampler,
  SamplingDecision,
} from '@opentelemetry/sdk-trace-base';
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
import { type A2aClient, createClient } from '../src/client/client.js';
import type { ProtocolBinding } from '../src/client/security.js';
import { fetchAgentCard } from '../src/discovery/discovery.js';
import { type DurableAgent, durableAgent } from '../src/durable/agent.js';
import type { Ledger } from '../src/ledger/ledger.js';
import { openLedger } from '../src/ledger/memory.js';
import { createDurableTracing, createTracing } from '../src/otel.js';
import { exporter, installTracing, provider, spanText } from './support/tracing.js';

const token = 'tok-5e1f-durable';
const words = 'the private booking words';
const agent = createAgent({ stepMs: 0 });
const faults = createFaultLab();
const recovery = { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 250 } as const;
let server: LoopbackServer;

beforeAll(async () => {
  installTracing();
  server = await listenLoopback({ cors: false, handle: createMockHandle({ agent, faults }) });
});
afterEach(() => {
  exporter.reset();
  faults.clear();
});
afterAll(async () => {
  await server.close();
  agent.close();
});

const tracer = provider.getTracer('the app');

async function tracedClient(binding: ProtocolBinding): Promise<A2aClient> {
  const fetched = await fetchAgentCard({ cardUrl: `${server.origin}${agentCardPath}`, loopback: true });
  const tracing = createTracing({ tracerProvider: provider });
  const client = createClient({
    card: fetched.card,
    cardDigest: fetched.digest,
    pin: { binding, url: `${server.origin}${binding === 'JSONRPC' ? jsonRpcPath : restPath}` },
    security: { kind: 'bearer', scheme: 'bearer', token: async () => token },
    interceptors: [tracing.interceptor],
  });
  tracing.observe(client);
  return client;
}

async function tracedAgent(binding: ProtocolBinding, given?: Ledger): Promise<DurableAgent> {
  const client = await tracedClient(binding);
  const ledger = given ?? (await openLedger({ name: 'traced' }));
  return createDurableTracing({ tracerProvider: provider }).durableAgent({ client, ledger, recovery });
}

/** Runs `work` inside an app span; returns that span and every span finished meanwhile but it. */
async function underAppSpan<T>(work: () => Promise<T>) {
  exporter.reset();
  const result = await tracer.startActiveSpan('the app', async (span) => {
    try {
      return await work();
    } finally {
      span.end();
    }
  });
  const finished = exporter.getFinishedSpans();
  const app = finished.find((span) => span.name === 'the app') as ReadableSpan;
  return { result, app, spans: finished.filter((span) => span !== app) };
}

const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
/**
The names of the spans whose parent is `parent` (a commit's with its transition), sorted: a probe's span
starts at its event's millisecond, so its order against a span started in the same millisecond is not kept.
*/
const childrenOf = (spans: readonly ReadableSpan[], parent: ReadableSpan) =>
  spans
    .filter((span) => parentOf(span) === idOf(parent))
    .map((span) => [span.name, span.attributes['a2a.ledger.transition'] ?? ''].join(' ').trim())
    .sort();
const named = (spans: readonly ReadableSpan[], name: string) =>
  spans.find((span) => span.name === name) as ReadableSpan;

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('durable tracing over %s', (binding) => {
  it('a lost answer: the send is one span over its commits and its exchange, the reconciliation one over its probe and page', async () => {
    const ledger = await openLedger({ name: 'traced' });
    const durable = await tracedAgent(binding, ledger);
    faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const sent = await underAppSpan(() => durable.send({ role: 'ROLE_USER', parts: [{ text: words }] }));
    expect(sent.result.status).toBe('unknown');

    const send = named(sent.spans, 'a2a.durable.send');
    expect(parentOf(send)).toBe(idOf(sent.app));
    expect(send.kind).toBe(SpanKind.INTERNAL);
    expect(send.spanContext().traceId).toBe(sent.app.spanContext().traceId);
    expect(send.attributes).toEqual({
      'a2a.binding': binding,
      'a2a.durable.delivery': durable.delivery,
      'a2a.durable.status': 'unknown',
    });
    expect(childrenOf(sent.spans, send)).toEqual([
      'SendMessage',
      'a2a.ledger.commit create-start',
      'a2a.ledger.commit unknown',
    ]);
    const exchange = named(sent.spans, 'SendMessage');
    expect(exchange.kind).toBe(SpanKind.CLIENT);
    expect(exchange.status.code).toBe(SpanStatusCode.ERROR);
    expect(exchange.attributes).toMatchObject({ 'a2a.outcome': 'transport', 'a2a.dispatched': true });
    const commits = sent.spans.filter((span) => span.name === 'a2a.ledger.commit');
    expect(commits.map((span) => span.attributes)).toEqual([
      { 'a2a.ledger.transition': 'create-start', 'a2a.ledger.revision': 1, 'a2a.ledger.status': 'executing' },
      { 'a2a.ledger.transition': 'unknown', 'a2a.ledger.revision': 2, 'a2a.ledger.status': 'unknown' },
    ]);

    // The record keeps the send span's context: its propagator's traceparent, nothing else of the carrier.
    const { traceId, spanId } = send.spanContext();
    expect(sent.result.record).toMatchObject({ traceparent: `00-${traceId}-${spanId}-01` });
    expect(sent.result.record).not.toHaveProperty('tracestate');

    // Later, in another agent over the same ledger (a worker, days after), in a trace of its own.
    const later = await tracedAgent(binding, ledger);
    const reconciled = await underAppSpan(() => later.reconcile(sent.result.id));
    expect(reconciled.app.spanContext().traceId).not.toBe(traceId);
    expect(reconciled.result.status).toBe('committed');
    const reconcile = named(reconciled.spans, 'a2a.durable.reconcile');
    expect(parentOf(reconcile)).toBe(idOf(reconciled.app));
    expect(reconcile.attributes).toEqual({
      'a2a.binding': binding,
      'a2a.durable.recovery': 'context-history',
      'a2a.durable.status': 'committed',
    });
    expect(childrenOf(reconciled.spans, reconcile)).toEqual([
      'ListTasks',
      'a2a.durable.probe',
      'a2a.ledger.commit reconcile-commit',
    ]);
    const toSend = [{ context: { traceId, spanId }, attributes: { 'a2a.link': 'durable.send' } }];
    expect(reconcile.links).toMatchObject(toSend);
    expect(reconcile.links).toHaveLength(1);
    const probe = named(reconciled.spans, 'a2a.durable.probe');
    expect(probe.links).toMatchObject(toSend);
    expect(probe.attributes).toEqual({
      'a2a.probe.recovery': 'context-history',
      'a2a.probe.audit': false,
      'a2a.probe.result': 'match',
      'a2a.probe.pages': 1,
      'a2a.probe.tasks_examined': 1,
      'a2a.probe.matches': 1,
    });
    expect(childrenOf(reconciled.spans, probe)).toEqual(['a2a.durable.scan_page']);
    expect(named(reconciled.spans, 'a2a.durable.scan_page').attributes).toEqual({
      'a2a.scan.page': 1,
      'a2a.scan.tasks_examined': 1,
      'a2a.scan.matches': 1,
      'a2a.scan.next_page': false,
    });

    const text = spanText([...sent.spans, ...reconciled.spans]);
    for (const secret of [token, words, 'booking', sent.result.id]) {
      expect(text).not.toContain(secret);
    }
  });

  it('a send the ledger refuses before anything leaves ends its span with the ledger error', async () => {
    const durable = await tracedAgent(binding);
    const { spans } = await underAppSpan(() =>
      durable
        .send({ role: 'ROLE_USER', parts: [{ text: words }], contextId: 'the-callers' })
        .catch(() => 'refused'),
    );
    const send = named(spans, 'a2a.durable.send');
    expect(send.status).toEqual({ code: SpanStatusCode.ERROR, message: 'ledger.invalid-input' });
    expect(send.attributes['error.type']).toBe('ledger.invalid-input');
    expect(childrenOf(spans, send)).toEqual([]);
  });

  it('a pass over what is due is a span over each record probe and commit', async () => {
    const durable = await tracedAgent(binding);
    faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const sent = await underAppSpan(() => durable.send({ role: 'ROLE_USER', parts: [{ text: words }] }));
    faults.clear();
    const { result, spans } = await underAppSpan(() => durable.reconcileDue());
    expect(result.committed).toBe(1);
    const pass = named(spans, 'a2a.durable.reconcile_due');
    expect(pass.attributes).toMatchObject({ 'a2a.reconcile.claimed': 1, 'a2a.reconcile.committed': 1 });
    expect(childrenOf(spans, pass)).toEqual([
      'ListTasks',
      'a2a.durable.probe',
      'a2a.ledger.commit reconcile-commit',
    ]);
    const send = named(sent.spans, 'a2a.durable.send').spanContext();
    expect(named(spans, 'a2a.durable.probe').links).toMatchObject([
      { context: { traceId: send.traceId, spanId: send.spanId } },
    ]);
  });

  it('a record written without tracing reconciles in a traced agent with no link, as records always did', async () => {
    const ledger = await openLedger({ name: 'traced' });
    const untraced = durableAgent({ client: await tracedClient(binding), ledger, recovery });
    faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const sent = await untraced.send({ role: 'ROLE_USER', parts: [{ text: words }] });
    expect(sent.record).not.toHaveProperty('traceparent');
    faults.clear();
    const later = await tracedAgent(binding, ledger);
    const { result, spans } = await underAppSpan(() => later.reconcile(sent.id));
    expect(result.status).toBe('committed');
    expect(named(spans, 'a2a.durable.reconcile').links).toEqual([]);
    expect(named(spans, 'a2a.durable.probe').links).toEqual([]);
  });
  it('the reconciliation links to its send when it starts, where a sampler decides', async () => {
    const ledger = await openLedger({ name: 'traced' });
    const durable = await tracedAgent(binding, ledger);
    faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const sent = await underAppSpan(() => durable.send({ role: 'ROLE_USER', parts: [{ text: words }] }));
    faults.clear();
    const decided: { name: string; links: unknown[] }[] = [];
    const sampler: Sampler = {
      shouldSample: (_context, _traceId, name, _kind, _attributes, links) => {
        decided.push({ name, links: [...links] });
        return { decision: SamplingDecision.RECORD_AND_SAMPLED };
      },
      toString: () => 'the links each span starts with',
    };
    const sampled = new BasicTracerProvider({ sampler });
    const later = createDurableTracing({ tracerProvider: sampled }).durableAgent({
      client: await tracedClient(binding),
      ledger,
      recovery,
    });
    expect((await later.reconcile(sent.result.id)).status).toBe('committed');
    const { traceId, spanId } = named(sent.spans, 'a2a.durable.send').spanContext();
    const toSend = [{ context: { traceId, spanId }, attributes: { 'a2a.link': 'durable.send' } }];
    expect(decided.find((span) => span.name === 'a2a.durable.reconcile')?.links).toMatchObject(toSend);
    expect(decided.find((span) => span.name === 'a2a.durable.probe')?.links).toMatchObject(toSend);
  });

  it('a reconciliation of an id the ledger does not hold is a span with no link and its typed error', async () => {
    const durable = await tracedAgent(binding);
    const { result, spans } = await underAppSpan(() =>
      durable.reconcile('00000000-0000-4000-8000-000000000000').catch((error: unknown) => error),
    );
    const reconcile = named(spans, 'a2a.durable.reconcile');
    expect(reconcile.links).toEqual([]);
    expect(result).toMatchObject({ kind: expect.any(String) });
    expect(reconcile.status.code).toBe(SpanStatusCode.ERROR);
  });
});
