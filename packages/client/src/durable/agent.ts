/**
@module
The durable agent (docs/durable-send.md#the-promise): every send is recorded in the ledger before it leaves, sent once with `returnImmediately: true`, and classified as committed, failed (not started, or not applied), or unknown. An unknown send is never sent again by `send`; `reconcile` resolves it by evidence, within bounds, or leaves it unknown for a person.
*/
import type { A2aClient } from '../client.js';
import { InvalidResponseError, LedgerError, OptionsError } from '../core/errors.js';
import { pause } from '../core/pause.js';
import { keyOf, newIdempotencyKey, setKey } from '../idempotency/key.js';
import {
  attemptMessage,
  type DeliveryMode,
  errorSummary,
  type LedgerRecord,
  type LedgerTransition,
} from '../ledger/ledger.js';
import { maxDelayMs } from '../ledger/record.js';
import { decode, Message, type SendMessageResponse } from '../protocol/index.js';
import { createAuditor } from './audit.js';
import { createDurableEventHub, type DurableEvents } from './events.js';
import { agentIdentity, sentThrough } from './identity.js';
import {
  type DurableAgentOptions,
  type ResolvedRecovery,
  resolveDurableAgentOptions,
  wholeOption,
} from './options.js';
import { classifySendFailure, type DurableOutcome, durableOutcome, statusOf } from './outcome.js';
import {
  createReconciler,
  type ReconcileDueOptions,
  type ReconcileDueReport,
  type ReconcileOptions,
} from './reconciliation.js';
import { answerEchoes, recoveryContextId, resultSummary, sameMessage } from './recovery.js';

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

/** What the long-running reconciler loop of a worker process takes. */
export type ReconcilerLoopOptions = ReconcileDueOptions & {
  /** Stops the loop: it resolves once the pass under way has stopped. Required: the loop never ends on its own. */
  readonly signal: AbortSignal;
  /** The longest wait between two passes while nothing is due or the ledger fails, 1 ms to 1 h; the wait starts at the recovery's `retryAfterMs` and doubles up to it. @default 5000 */
  readonly maxIdleMs?: number;
  /** Told of each pass that claimed something. */
  readonly onPass?: (report: ReconcileDueReport) => void;
  /** Told of each pass that failed (the ledger unreachable, a lease lost); the loop backs off and goes on. */
  readonly onError?: (error: unknown) => void;
};

/** The messageId prefix of an at-most-once attempt: `surecall-attempt-<attemptId>`, fresh for every physical attempt (docs/durable-send.md#delivery-modes). */
export const attemptMessagePrefix = 'surecall-attempt-';

/** The messageId prefix of a send whose identity survives replays (keyed, message-id-deduplicated): `surecall-send-<record id>`. */
export const sendMessagePrefix = 'surecall-send-';

/** A message for a durable send: the agent sets `messageId` itself (per attempt for at-most-once, per send otherwise). */
export type DurableMessage = Omit<Message, 'messageId'>;

/** What one send may add. */
export type DurableSendOptions = {
  /** The record id. Reusing one returns that record's outcome without sending, when the message is the same; otherwise `LedgerError('stale-revision')`. @default crypto.randomUUID() */
  readonly id?: string;
  /** Cancels the send: before dispatch it fails as not started, after it the outcome is unknown. */
  readonly signal?: AbortSignal;
};

/** Whose records a listing returns: this agent's own (sent through its interface: binding, URL, tenant, whatever the card digest), or every record in the ledger. */
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
  /** Records, sends once, classifies: `committed`, `failed` or `unknown` (or, for a reused id, that record's status, without sending); with the audit on, a commit is followed by one scan that may turn it `duplicated`. A message the ledger refuses (not a user message, a malformed key, a context or task of the caller's under context-history recovery) throws `LedgerError('invalid-input')` before anything leaves; after dispatch nothing the peer sends can make the ledger refuse the outcome (docs/durable-send.md#after-dispatch). If the store cannot record the outcome (`io`, `fenced`, `closed`), its `LedgerError` is thrown: the record stays executing, and becomes unknown when the ledger is next opened. */
  send(message: DurableMessage, options?: DurableSendOptions): Promise<DurableOutcome>;
  /** Runs at most one bounded probe for an unknown record and records what it found; any other record comes back as it is, without I/O. Concurrent calls for one id share one probe, and the probe runs under the ledger's claim on the record, so no other process probes it at the same time (one that holds it leaves it to them). A record sent through another interface (binding, URL or tenant) is refused with `LedgerError('invalid-input')`, rule `binding-mismatch`, `url-mismatch` or `tenant-mismatch`; a changed card digest alone is not another interface. */
  reconcile(id: string, options?: ReconcileOptions): Promise<DurableOutcome>;
  /** One pass over what is due (docs/durable-send.md#running-a-fleet): claims this agent's due records in batches (`ledger.claimDue`: unknown, not given up on, past their not-before time; a shared ledger first turns the executing records of a writer whose lease lapsed into unknown) and probes each once, until none is due. Counts what it did. */
  reconcileDue(options?: ReconcileDueOptions): Promise<ReconcileDueReport>;
  /** The reconciler of a worker process: `reconcileDue` passes until `signal` aborts, waiting between passes from the recovery's `retryAfterMs`, doubling up to `maxIdleMs` while nothing is due or a pass fails, and back to the start once work appears. Resolves when stopped. */
  runReconciler(options: ReconcilerLoopOptions): Promise<void>;
  /** The record, or `undefined`. */
  get(id: string): Promise<LedgerRecord | undefined>;
  /** This agent's records whose outcome is unknown (pending and unresolved ones included), oldest first; `{ agents: 'all' }` for every agent's. */
  unknown(scope?: RecordScope): Promise<LedgerRecord[]>;
  /** This agent's unknown records with a probe scheduled, soonest first; `{ agents: 'all' }` for every agent's. */
  pending(scope?: RecordScope): Promise<LedgerRecord[]>;
};

/**
Builds a durable agent over a client and a ledger. Throws `OptionsError` for options that break a rule (see `resolveDurableAgentOptions`): for instance `keyed` delivery to a peer whose card does not advertise idempotency keys, or `message-id-deduplicated` delivery without the attested `message-id-replay` recovery.

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
  const { client, ledger, delivery, recovery, audit, tenant, run, skill } =
    resolveDurableAgentOptions(options);
  const identity = agentIdentity(client);
  const hub = createDurableEventHub();

  function announce(
    from: LedgerRecord['state']['status'] | null,
    to: Pick<LedgerRecord, 'id' | 'state' | 'revision'>,
    cause: 'create' | LedgerTransition['type'],
  ) {
    const { state } = to;
    hub.emit({
      type: 'transition',
      id: to.id,
      from,
      to: state.status,
      cause,
      ...(state.status === 'unknown' ? { reason: state.reason } : {}),
      ...(cause === 'pending' && state.status === 'unknown' && state.pending !== undefined
        ? { notBefore: state.pending.notBefore }
        : {}),
      revision: to.revision,
      time: Date.now(),
    });
  }

  async function write(record: LedgerRecord, transition: LedgerTransition): Promise<LedgerRecord> {
    const next = await ledger.transition(record.id, record.revision, transition);
    announce(record.state.status, next, transition.type);
    return next;
  }

  /**
  Records what a dispatched attempt ended in. After dispatch nothing may keep the record in `executing` (docs/durable-send.md#after-dispatch): should the ledger refuse the transition's content (`invalid-input`: something the peer sent that still breaks a record's bound), the attempt is recorded `unknown` without a cause instead. Storage failures still throw, as documented on `send`.
  */
  async function settle(record: LedgerRecord, attemptId: string, transition: LedgerTransition) {
    try {
      return await write(record, transition);
    } catch (error) {
      if (!(error instanceof LedgerError && error.reason === 'invalid-input')) {
        throw error;
      }
      return write(record, { type: 'unknown', attemptId, reason: 'ambiguous-outcome' });
    }
  }

  /** The one SendMessage of an attempt or a replay: `returnImmediately`, the attempt's identity for the token provider, and never a retry. */
  function sendOnce(record: LedgerRecord, attemptId: string, message: Message, signal?: AbortSignal) {
    // The `attempt` option also keeps the client's retry policy out of it: the ledger records every attempt.
    return client.sendMessage(
      { message, configuration: { returnImmediately: true } },
      {
        attempt: { sendId: record.id, attemptId },
        ...(signal === undefined ? {} : { signal }),
        ...(skill === undefined ? {} : { skill }),
      },
    );
  }

  /** The intent's message: the send's own messageId and, for keyed delivery, the idempotency key; in the canonical ProtoJSON shape (docs/protocol-checks.md#protojson), so that the ledger holds the message as a peer's echo of it decodes. */
  function intentMessage(message: DurableMessage, id: string, key: string | undefined): Message {
    let copy: Message;
    try {
      copy = { ...structuredClone(message), messageId: `${sendMessagePrefix}${id}` };
    } catch (error) {
      throw new LedgerError('invalid-input', { rule: 'message-json', cause: error });
    }
    // A message that does not decode is kept as given: the send refuses it before dispatch (`RequestError`).
    const canonical = decode(Message, copy);
    if (canonical.ok) {
      copy = canonical.value;
    }
    if (key !== undefined) {
      setKey(copy, key);
    }
    return copy;
  }

  function keyFor(message: DurableMessage): string | undefined {
    if (delivery !== 'keyed') {
      return undefined;
    }
    const given = keyOf(message);
    if (!given.ok) {
      throw new LedgerError('invalid-input', { rule: 'idempotency-key' });
    }
    return given.value ?? newIdempotencyKey();
  }

  /** A reused id: the same message gives that record back; another message is refused, as `create` would. */
  function recovered(existing: LedgerRecord, message: DurableMessage): DurableOutcome {
    const again = intentMessage(message, existing.id, existing.idempotencyKey);
    if (!sameMessage(again, existing.message)) {
      throw new LedgerError('stale-revision', { rule: 'exists' });
    }
    return durableOutcome(existing);
  }

  async function send(
    message: DurableMessage,
    sendOptions: DurableSendOptions = {},
  ): Promise<DurableOutcome> {
    const id = sendOptions.id ?? crypto.randomUUID();
    if (
      recovery.kind === 'context-history' &&
      (message.contextId !== undefined || message.taskId !== undefined)
    ) {
      // The recovery context is the agent's: a caller's context, or a task (whose context is its own), would leave the scan nothing to find.
      throw new LedgerError('invalid-input', {
        rule: message.contextId === undefined ? 'task-id' : 'context-id',
      });
    }
    if (sendOptions.id !== undefined) {
      const existing = await ledger.get(id);
      if (existing !== undefined) {
        return recovered(existing, message);
      }
    }
    const key = keyFor(message);
    const intent = {
      id,
      tenant,
      run,
      agent: identity,
      message: intentMessage(message, id, key),
      delivery,
      ...(key === undefined ? {} : { idempotencyKey: key }),
    };
    const attemptId = crypto.randomUUID();
    const contextId =
      recovery.kind === 'context-history'
        ? await recoveryContextId({ recordId: id, attemptId, cardDigest: client.cardDigest })
        : undefined;
    // docs/durable-send.md#execution-order: the record and its `executing` attempt are durable, in one write, before the request can leave.
    let record = await ledger.create(intent, {
      attemptId,
      messageId:
        delivery === 'at-most-once' ? `${attemptMessagePrefix}${attemptId}` : intent.message.messageId,
      ...(contextId === undefined ? {} : { contextId }),
    });
    announce(null, { id: record.id, state: { status: 'prepared' }, revision: 0 }, 'create');
    announce('prepared', record, 'start');
    const sent = attemptMessage(record, attemptId) as Message;
    let answer: SendMessageResponse;
    try {
      answer = await sendOnce(record, attemptId, sent, sendOptions.signal);
    } catch (error) {
      const failure = classifySendFailure(error);
      if (failure.outcome === 'unknown') {
        record = await settle(record, attemptId, {
          type: 'unknown',
          attemptId,
          reason: 'ambiguous-outcome',
          ...(failure.cause === undefined ? {} : { cause: failure.cause }),
        });
      } else {
        record = await settle(record, attemptId, {
          type: 'fail',
          attemptId,
          cause: failure.cause,
          effect: failure.outcome,
        });
      }
      return durableOutcome(record, { error });
    }
    if (!answerEchoes(answer, sent)) {
      // The answer contradicts what was sent: it proves nothing about what the peer stored.
      const error = new InvalidResponseError('identity', {
        dispatched: true,
        violation: { rule: 'history-echo' },
      });
      record = await settle(record, attemptId, {
        type: 'unknown',
        attemptId,
        reason: 'ambiguous-outcome',
        cause: errorSummary(error),
      });
      return durableOutcome(record, { error });
    }
    record = await settle(record, attemptId, { type: 'commit', attemptId, result: resultSummary(answer) });
    if (audit) {
      record = await auditCommit(record);
    }
    return durableOutcome(record, { answer });
  }

  const auditCommit = createAuditor({
    client,
    recovery,
    skill,
    emit: hub.emit,
    write,
    reread: (id) => ledger.get(id),
  });

  /** The unknown records of `scope`, oldest first. */
  async function unknownRecords(scope: RecordScope = {}): Promise<LedgerRecord[]> {
    const records = await ledger.list({ states: ['unknown'] });
    return scope.agents === 'all' ? records : records.filter((record) => sentThrough(record, identity));
  }

  const { reconcile, reconcileDue } = createReconciler({
    client,
    ledger,
    recovery,
    identity,
    skill,
    emit: hub.emit,
    write,
    sendOnce,
  });

  return Object.freeze({
    client,
    delivery,
    recovery,
    audit,
    events: hub.events,
    send,
    reconcile,
    reconcileDue,
    runReconciler: (loop: ReconcilerLoopOptions) => runReconciler(reconcileDue, recovery, loop),
    get: (id: string) => ledger.get(id),
    unknown: unknownRecords,
    async pending(scope?: RecordScope) {
      const records = await unknownRecords(scope);
      const scheduled = records.filter((record) => statusOf(record) === 'pending');
      const notBefore = (record: LedgerRecord) =>
        record.state.status === 'unknown' ? (record.state.pending?.notBefore ?? 0) : 0;
      return scheduled.sort((left, right) => notBefore(left) - notBefore(right));
    },
  });
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
      const report = await reconcileDue({ signal, ...(batch === undefined ? {} : { batch }) });
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
