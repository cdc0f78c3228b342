/**
@module
The durable agent (docs/durable-send.md#the-promise): every send is recorded in the ledger before it leaves,
sent once with `returnImmediately: true`, and classified as committed, failed (not started, or not applied),
or unknown. An unknown send is never sent again by `send`; `reconcile` resolves it by evidence, within bounds,
or leaves it unknown for a person. This module assembles the agent over its state (`agent-state.ts`) from its
send path (`send.ts`), its reconciler (`reconciliation.ts`) and its listings.
*/
import type { A2aClient } from '../client/client.js';
import { OptionsError } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import { pause } from '../core/pause.js';
import type { DeliveryMode, LedgerRecord } from '../ledger/ledger.js';
import { maxDelayMs } from '../ledger/record.js';
import { type AgentState, agentState, write } from './agent-state.js';
import type { DurableEvents } from './events.js';
import { sentThrough } from './identity.js';
import { type DurableAgentOptions, type ResolvedRecovery, wholeOption } from './options.js';
import { type DurableOutcome, statusOf } from './outcome.js';
import {
  createReconciler,
  type ReconcileDueOptions,
  type ReconcileDueReport,
  type ReconcileOptions,
} from './reconciliation.js';
import { type DurableMessage, type DurableSendOptions, send, sendOnce } from './send.js';

export type {
  DurableDuplicatedEvent,
  DurableEvent,
  DurableEventListener,
  DurableEvents,
  DurableProbeEvent,
  DurableTransitionEvent,
  ProbeKind,
  ProbeResult,
  ProbeRule,
} from './events.js';
export type { DeduplicationAttestation, DurableAgentOptions, RecoveryStrategy } from './options.js';
export type { DurableOutcome, DurableStatus } from './outcome.js';
export type { ReconcileDueOptions, ReconcileDueReport, ReconcileOptions } from './reconciliation.js';
export type { DurableMessage, DurableSendOptions } from './send.js';
export { attemptMessagePrefix, sendMessagePrefix } from './send.js';

/** What the long-running reconciler loop of a worker process takes. */
export type ReconcilerLoopOptions = ReconcileDueOptions & {
  /**
  Stops the loop: it resolves once the pass under way has stopped. Required: the loop never ends on its own.
  */
  readonly signal: AbortSignal;
  /**
  The longest wait between two passes while nothing is due or the ledger fails, 1 ms to 1 h; the wait starts
  at the recovery's `retryAfterMs` and doubles up to it. @default 5000
  */
  readonly maxIdleMs?: number;
  /** Told of each pass that claimed something. */
  readonly onPass?: (report: ReconcileDueReport) => void;
  /** Told of each pass that failed (the ledger unreachable, a lease lost); the loop backs off and goes on. */
  readonly onError?: (error: unknown) => void;
};

/**
Whose records a listing returns: this agent's own (sent through its interface: binding, URL, tenant, whatever
the card digest), or every record in the ledger.
*/
export type RecordScope = {
  /** @default 'own' */
  readonly agents?: 'own' | 'all';
};

/**
A durable agent: sends recorded in a ledger before they leave, and reconciled by evidence.

@example
```ts
const outcome = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'book the 9:40 to Lyon' }] });
if (outcome.status === 'unknown') {
  const reconciled = await agent.reconcile(outcome.id); // committed | pending | unresolved
}
```
*/
export type DurableAgent = {
  /** The client every send and probe goes through: its card, digest and pin are the agent's. */
  readonly client: A2aClient;
  readonly delivery: DeliveryMode;
  readonly recovery: ResolvedRecovery;
  /** Whether each commit is followed by the audit scan (docs/durable-send.md#the-audit). */
  readonly audit: boolean;
  /** Every transition and probe of this agent. */
  readonly events: DurableEvents;
  /**
  Records, sends once, classifies: `committed`, `failed` or `unknown` (or, for a reused id, that record's
  status, without sending); with the audit on, a commit is followed by one scan that may turn it `duplicated`.
  A message the ledger refuses (not a user message, a malformed key, a context or task of the caller's under
  context-history recovery) throws `LedgerError('invalid-input')` before anything leaves; after dispatch
  nothing the peer sends can make the ledger refuse the outcome (docs/durable-send.md#after-dispatch). If the
  store cannot record the outcome (`io`, `fenced`, `closed`, or another writer moved the record), the send
  still ends `unknown`, with the store's `LedgerError` as `error`: the record stays executing, and becomes
  unknown when the ledger is next opened.
  */
  send(message: DurableMessage, options?: DurableSendOptions): Promise<DurableOutcome>;
  /**
  Runs at most one bounded probe for an unknown record and records what it found; any other record comes back
  as it is, without I/O. Concurrent calls for one id share one probe, and the probe runs under the ledger's
  claim on the record, so no other process probes it at the same time (one that holds it leaves it to them). A
  record sent through another interface (binding, URL or tenant) is refused with
  `LedgerError('invalid-input')`, rule `binding-mismatch`, `url-mismatch` or `tenant-mismatch`; a changed card
  digest alone is not another interface.
  */
  reconcile(id: string, options?: ReconcileOptions): Promise<DurableOutcome>;
  /**
  One pass over what is due (docs/durable-send.md#running-a-fleet): claims this agent's due records in batches
  (`ledger.claimDue`: unknown, not given up on, past their not-before time; a shared ledger first turns the
  executing records of a writer whose lease lapsed into unknown) and probes each once, until none is due.
  Counts what it did.
  */
  reconcileDue(options?: ReconcileDueOptions): Promise<ReconcileDueReport>;
  /**
  The reconciler of a worker process: `reconcileDue` passes until `signal` aborts, waiting between passes from
  the recovery's `retryAfterMs`, doubling up to `maxIdleMs` while nothing is due or a pass fails, and back to
  the start once work appears. Resolves when stopped.
  */
  runReconciler(options: ReconcilerLoopOptions): Promise<void>;
  /** The record, or `undefined`. */
  get(id: string): Promise<LedgerRecord | undefined>;
  /**
  This agent's records whose outcome is unknown (pending and unresolved ones included), oldest first;
  `{ agents: 'all' }` for every agent's.
  */
  unknown(scope?: RecordScope): Promise<LedgerRecord[]>;
  /**
  This agent's unknown records with a probe scheduled, soonest first; `{ agents: 'all' }` for every agent's.
  */
  pending(scope?: RecordScope): Promise<LedgerRecord[]>;
};

/**
Builds a durable agent over a client and a ledger. Throws `OptionsError` for options that break a rule (see
`resolveDurableAgentOptions`): for instance `keyed` delivery to a peer whose card does not advertise
idempotency keys, or `message-id-deduplicated` delivery without the attested `message-id-replay` recovery.

@example
```ts
import { openLedger } from '@surecall/client/ledger';
const agent = durableAgent({
  client,
  ledger: await openLedger({ name: 'sends' }),
  recovery: { kind: 'context-history', maxPages: 4, historyLength: 64, retryAfterMs: 1000 },
});
const outcome = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'book it' }] });
if (outcome.status === 'unknown') await agent.reconcile(outcome.id);
```
*/
export function durableAgent(options: DurableAgentOptions): DurableAgent {
  const state = agentState(options);
  const { client, ledger, delivery, recovery, audit, identity, skill, hub } = state;
  const { reconcile, reconcileDue } = createReconciler({
    client,
    ledger,
    recovery,
    identity,
    skill,
    emit: hub.emit,
    write: (record, transition) => write(state, record, transition),
    sendOnce: (record, attemptId, message, signal) => sendOnce(state, record, attemptId, message, signal),
  });
  return Object.freeze({
    client,
    delivery,
    recovery,
    audit,
    events: hub.events,
    send: (message: DurableMessage, sendOptions?: DurableSendOptions) => send(state, message, sendOptions),
    reconcile,
    reconcileDue,
    runReconciler: (loop: ReconcilerLoopOptions) => runReconciler(reconcileDue, recovery, loop),
    get: (id: string) => ledger.get(id),
    unknown: (scope?: RecordScope) => unknownRecords(state, scope),
    pending: (scope?: RecordScope) => pendingRecords(state, scope),
  });
}

/** The unknown records of `scope`, oldest first. */
async function unknownRecords(state: AgentState, scope: RecordScope = {}): Promise<LedgerRecord[]> {
  const records = await state.ledger.list({ states: ['unknown'] });
  return scope.agents === 'all' ? records : records.filter((record) => sentThrough(record, state.identity));
}

/** The unknown records of `scope` with a probe scheduled, soonest first. */
async function pendingRecords(state: AgentState, scope?: RecordScope): Promise<LedgerRecord[]> {
  const records = await unknownRecords(state, scope);
  const scheduled = records.filter((record) => statusOf(record) === 'pending');
  const notBefore = (record: LedgerRecord) =>
    record.state.status === 'unknown' ? (record.state.pending?.notBefore ?? 0) : 0;
  return scheduled.sort((left, right) => notBefore(left) - notBefore(right));
}

async function runReconciler(
  reconcileDue: (options: ReconcileDueOptions) => Promise<ReconcileDueReport>,
  recovery: ResolvedRecovery,
  loop: ReconcilerLoopOptions,
): Promise<void> {
  const { signal, batch, onPass, onError } = loop;
  if (!(signal instanceof AbortSignal)) {
    throw new OptionsError('signal', 'malformed');
  }
  const maxIdleMs = wholeOption('maxIdleMs', loop.maxIdleMs ?? 5000, 1, maxDelayMs);
  const first = Math.min(recovery.kind === 'disabled' ? maxIdleMs : recovery.retryAfterMs, maxIdleMs);
  let wait = first;
  while (!signal.aborted) {
    try {
      const report = await reconcileDue({ signal, ...optionalMembers({ batch }) });
      if (report.claimed > report.skipped) {
        onPass?.(report);
        // Work appeared: look again soon, since a pending record comes due `retryAfterMs` after its probe.
        wait = first;
        continue;
      }
    } catch (error) {
      if (signal.aborted) {
        break;
      }
      try {
        onError?.(error);
      } catch {
        // An observer never stops the loop.
      }
    }
    await pause(wait, signal);
    wait = Math.min(wait * 2, maxIdleMs);
  }
}
