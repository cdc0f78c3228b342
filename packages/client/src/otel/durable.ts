/**
@module
The durable half of `@surecall/client/otel` (docs/tracing.md#durable-sends): a durable agent whose sends and
reconciliations are OpenTelemetry spans. A send is one span over the whole send, with a child per ledger
commit and, from a client traced by `createTracing`, the exchange's CLIENT span; a reconciliation is one span
with a child per probe and, below the probe, one per ListTasks page it scanned.

It reads the agent only through its public surface: its ledger is wrapped (each write a span), its `send`,
`reconcile` and `reconcileDue` run inside their span as the active context, so that the ledger's and the
client's spans are its children, and its event feed (`DurableAgent.events`, durable/events.ts: ids, states and
counts only) gives the probes and pages. A span takes only enumerated members of those: never an id, a
message, a token or a peer's words. Nothing here is loaded unless the application imports this entry.
*/
import {
  type Attributes,
  context,
  isSpanContextValid,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { DurableAgent, DurableAgentOptions, DurableEvent } from '../durable/agent.js';
import { durableAgent } from '../durable/agent.js';
import type { Ledger, LedgerRecord, SendIntent } from '../ledger/ledger.js';

/**
What {@link createDurableTracing} takes.

@example
```ts
const options: DurableTracingOptions = { tracerProvider: provider };
```
*/
export type DurableTracingOptions = {
  /** Where the spans go. @default the global provider (`trace.getTracerProvider()`) */
  readonly tracerProvider?: TracerProvider;
};

/**
The tracing of durable agents: `durableAgent(options)` builds one, as `durableAgent` of the root entry does,
whose work is traced. Trace its client with `createTracing` too, so the exchanges are spans of their own.

@example
```ts
const durable = createDurableTracing();
const agent = durable.durableAgent({ client, ledger });
await agent.send({ role: 'ROLE_USER', parts: [{ text: 'book it' }] }); // a2a.durable.send
```
*/
export type DurableTracing = {
  /** A durable agent over `options` (see `durableAgent`), its sends and reconciliations traced. */
  durableAgent(options: DurableAgentOptions): DurableAgent;
};

/** The instrumentation scope: the client's own (`tracerName` of otel.ts). */
const scope = '@surecall/client';

/** `<kind>.<reason>` of one of our errors, or `unexpected`: our literals only, never a peer's text. */
function errorType(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'kind' in error && 'reason' in error) {
    return `${String(error.kind)}.${String(error.reason)}`;
  }
  return 'unexpected';
}

/** Ends `span` as failed by `error`. */
function fail(span: Span, error: unknown): void {
  const type = errorType(error);
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** W3C Trace Context §3.2: a version, a trace id, a parent id and flags, in lowercase hex. */
const traceparentPattern = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;
/** A `tracestate` the ledger keeps as a label: printable ASCII, no space at either end, at most 512 bytes. */
const tracestatePattern = /^[!-~](?:[ -~]{0,510}[!-~])?$/;

/**
The intent with the trace context of the active span (the send's), as the application's propagator writes it:
its `traceparent` and `tracestate` only, and only in their W3C form, so nothing else of the carrier (a
baggage, a vendor's header) reaches the record (ledger/intent.ts).
*/
function withTrace(intent: SendIntent): SendIntent {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const { traceparent, tracestate } = carrier;
  if (traceparent === undefined || !traceparentPattern.test(traceparent)) {
    return intent;
  }
  return {
    ...intent,
    traceparent,
    ...(tracestate !== undefined && tracestatePattern.test(tracestate) ? { tracestate } : {}),
  };
}

/**
The link to the send that wrote `record`, read back through the application's propagator, which refuses a
context that is not W3C Trace Context; none for a record written without tracing.
*/
function sendLink(record: LedgerRecord): Link | undefined {
  if (record.traceparent === undefined) {
    return undefined;
  }
  const carrier = { traceparent: record.traceparent, tracestate: record.tracestate ?? '' };
  const found = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, carrier));
  return found !== undefined && isSpanContextValid(found)
    ? { context: found, attributes: { 'a2a.link': 'durable.send' } }
    : undefined;
}

/**
What the ledger wrapper and the feed share: the link of each record claimed for a probe, until its probe ends.
*/
type Links = Map<string, Link>;

/** Notes the links of records claimed for a probe. */
function noteLinks(links: Links, records: readonly (LedgerRecord | undefined)[]): void {
  for (const record of records) {
    const link = record === undefined ? undefined : sendLink(record);
    if (record !== undefined && link !== undefined) {
      links.set(record.id, link);
    }
  }
}

/** A probe's span while it runs, with the time its last page ended. */
type Probing = { readonly span: Span; lastMark: number };

/** Runs `work` inside a new INTERNAL span, ending it with what `settle` reads of the result. */
async function within<T>(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  work: () => Promise<T>,
  settle: (result: T) => Attributes,
  links: Link[] = [],
): Promise<T> {
  const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes, links });
  try {
    const result = await context.with(trace.setSpan(context.active(), span), work);
    span.setAttributes(settle(result));
    return result;
  } catch (error) {
    fail(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** A ledger whose writes are `a2a.ledger.commit` spans; reads and everything else pass through. */
function tracedLedger(tracer: Tracer, ledger: Ledger, links: Links): Ledger {
  const committed = (record: LedgerRecord): Attributes => ({
    'a2a.ledger.revision': record.revision,
    'a2a.ledger.status': record.state.status,
  });
  return Object.freeze({
    create: (intent, start) => {
      // The send's context, taken before the commit's own span becomes the active one.
      const traced = withTrace(intent);
      return within(
        tracer,
        'a2a.ledger.commit',
        { 'a2a.ledger.transition': start === undefined ? 'create' : 'create-start' },
        () => ledger.create(traced, start),
        committed,
      );
    },
    transition: (id, expectedRevision, transition) =>
      within(
        tracer,
        'a2a.ledger.commit',
        { 'a2a.ledger.transition': transition.type },
        () => ledger.transition(id, expectedRevision, transition),
        committed,
      ),
    get: (id) => ledger.get(id),
    list: (filter) => ledger.list(filter),
    history: (id) => ledger.history(id),
    claimDue: async (query) => {
      const records = await ledger.claimDue(query);
      noteLinks(links, records);
      return records;
    },
    claim: async (id) => {
      const record = await ledger.claim(id);
      noteLinks(links, [record]);
      return record;
    },
    release: (id) => {
      links.delete(id);
      return ledger.release(id);
    },
    ownerOf: (id) => ledger.ownerOf(id),
    subscribe: (listener) => ledger.subscribe(listener),
    close: () => ledger.close(),
  } satisfies Ledger);
}

/** Opens, grows and closes the spans of probes and pages from the agent's feed. */
function probesOf(tracer: Tracer, links: Links): (event: DurableEvent) => void {
  const probing = new Map<string, Probing>();
  return (event: DurableEvent): void => {
    if (event.type === 'probe-start') {
      const link = links.get(event.id);
      // Emitted synchronously from inside the reconciliation (or the send, for the audit): the active span
      // is that one's, so the probe is its child.
      const span = tracer.startSpan(
        'a2a.durable.probe',
        {
          kind: SpanKind.INTERNAL,
          startTime: event.time,
          attributes: { 'a2a.probe.recovery': event.recovery, 'a2a.probe.audit': event.audit === true },
          links: link === undefined ? [] : [link],
        },
        context.active(),
      );
      probing.set(event.id, { span, lastMark: event.time });
    } else if (event.type === 'probe-page') {
      const open = probing.get(event.id);
      if (open !== undefined) {
        tracer
          .startSpan(
            'a2a.durable.scan_page',
            {
              kind: SpanKind.INTERNAL,
              startTime: open.lastMark,
              attributes: {
                'a2a.scan.page': event.page,
                'a2a.scan.tasks_examined': event.tasksExamined,
                'a2a.scan.matches': event.matches,
                'a2a.scan.next_page': event.nextPageToken,
              },
            },
            trace.setSpan(context.active(), open.span),
          )
          .end(event.time);
        open.lastMark = event.time;
      }
    } else if (event.type === 'probe') {
      const open = probing.get(event.id);
      if (open !== undefined) {
        probing.delete(event.id);
        links.delete(event.id);
        open.span.setAttributes({
          'a2a.probe.result': event.result,
          'a2a.probe.pages': event.pagesScanned,
          'a2a.probe.tasks_examined': event.tasksExamined,
          'a2a.probe.matches': event.matches,
          ...(event.rule === undefined ? {} : { 'a2a.probe.rule': event.rule }),
        });
        open.span.end(event.startedAt + event.durationMs);
      }
    }
  };
}

/**
Creates the tracing of durable agents (docs/tracing.md#durable-sends): `a2a.durable.send` over a whole send,
`a2a.ledger.commit` per durable write, `a2a.durable.reconcile` and `a2a.durable.reconcile_due` over a
reconciliation, `a2a.durable.probe` per probe and `a2a.durable.scan_page` per ListTasks page a probe read. In
Node, the parent and child shape takes a context manager (the SDK's AsyncLocalStorage one), as every
OpenTelemetry instrumentation does.

@example
```ts
const tracing = createTracing({ tracerProvider: provider });
const client = createClient({ ...options, interceptors: [tracing.interceptor] });
tracing.observe(client);
const agent = createDurableTracing({ tracerProvider: provider }).durableAgent({ client, ledger });
```
*/
export function createDurableTracing(options: DurableTracingOptions = {}): DurableTracing {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(scope);
  return {
    durableAgent(agentOptions) {
      const links: Links = new Map();
      const ledger = tracedLedger(tracer, agentOptions.ledger, links);
      const agent = durableAgent({ ...agentOptions, ledger });
      agent.events.subscribe(probesOf(tracer, links));
      const base: Attributes = { 'a2a.binding': agent.client.pin.binding };
      const outcome = (result: { readonly status: string }): Attributes => ({
        'a2a.durable.status': result.status,
      });
      return Object.freeze({
        ...agent,
        send: (message, sendOptions) =>
          within(
            tracer,
            'a2a.durable.send',
            { ...base, 'a2a.durable.delivery': agent.delivery },
            () => agent.send(message, sendOptions),
            outcome,
          ),
        reconcile: async (id, reconcileOptions) => {
          // The record is read before the span starts, so that its link to the send is there at the start,
          // where a sampler decides (OpenTelemetry trace API, "Link": links added later are not seen by
          // sampling). A read that fails only leaves the link out: the reconciliation's own read then fails,
          // typed, inside its span.
          const record = await Promise.resolve(id)
            .then((given) => agentOptions.ledger.get(given))
            .catch(() => undefined);
          const link = record === undefined ? undefined : sendLink(record);
          return within(
            tracer,
            'a2a.durable.reconcile',
            { ...base, 'a2a.durable.recovery': agent.recovery.kind },
            () => agent.reconcile(id, reconcileOptions),
            outcome,
            link === undefined ? [] : [link],
          );
        },
        reconcileDue: (dueOptions) =>
          within(
            tracer,
            'a2a.durable.reconcile_due',
            { ...base, 'a2a.durable.recovery': agent.recovery.kind },
            () => agent.reconcileDue(dueOptions),
            (report) => ({
              'a2a.reconcile.claimed': report.claimed,
              'a2a.reconcile.committed': report.committed,
              'a2a.reconcile.pending': report.pending,
              'a2a.reconcile.unresolved': report.unresolved,
              'a2a.reconcile.skipped': report.skipped,
              'a2a.reconcile.superseded': report.superseded,
            }),
          ),
      } satisfies DurableAgent);
    },
  };
}
