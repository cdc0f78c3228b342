/**
@module
Reconciliation of an unknown durable send (docs/durable-send.md#reconciling-an-unknown): load the record, make
sure it is still unknown, due, and sent through this very interface, run one bounded probe bound to the
original attempt, report it, and commit what it found as one ledger transition. A probe never starts a new
attempt; only the ledger's `reconcile-commit`, `pending` and `unresolved` follow it.
*/
import type { CallOptions } from '../client/call.js';
import type { A2aClient } from '../client/client.js';
import { LedgerError } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import {
  type AgentIdentity,
  type Attempt,
  attemptMessage,
  type Ledger,
  type LedgerRecord,
  type LedgerTransition,
} from '../ledger/ledger.js';
import type { Message } from '../protocol/message.js';
import type { SendMessageResponse } from '../protocol/send-message.js';
import type { DurableEvent, ProbeKind } from './events.js';
import { assertSentThrough, sentThrough } from './identity.js';
import { type ResolvedRecovery, wholeOption } from './options.js';
import { type DurableOutcome, durableOutcome, statusOf } from './outcome.js';
import {
  type ProbeReport,
  replaySend,
  reportedProbe,
  resultSummary,
  type ScanPage,
  scanContextHistory,
} from './recovery.js';

/**
What one `reconcile()` call may add; how the agent probes is its `RecoveryStrategy`, fixed when it is built.
*/
export type ReconcileOptions = {
  /** Cancels the probe; nothing is written to the ledger, and the error is thrown. */
  readonly signal?: AbortSignal;
};

/** What one `reconcileDue()` pass may add. */
export type ReconcileDueOptions = {
  /**
  Stops claiming and cancels the probes under way (their claims are released, nothing is written); the pass
  then throws the signal's reason.
  */
  readonly signal?: AbortSignal;
  /** Records claimed and probed at a time, 1 to 256. @default 16 */
  readonly batch?: number;
};

/** What one `reconcileDue()` pass did, by the status each probed record was left in. */
export type ReconcileDueReport = {
  /** Records claimed (each probed once at most). */
  readonly claimed: number;
  readonly committed: number;
  readonly pending: number;
  readonly unresolved: number;
  /** Claimed but not probed by this agent (a recovery that cannot probe that record); released. */
  readonly skipped: number;
  /**
  Probed, but another writer moved the record first, or this writer's lease lapsed: what the other wrote
  stands.
  */
  readonly superseded: number;
};

/** What the reconciler needs from its agent. */
export type ReconcilerInput = {
  readonly client: A2aClient;
  readonly ledger: Ledger;
  readonly recovery: ResolvedRecovery;
  /**
  The interface the client is pinned to: a record sent through another is never probed here
  (durable/identity.ts).
  */
  readonly identity: AgentIdentity;
  readonly skill: string | undefined;
  readonly emit: (event: DurableEvent) => void;
  /** Appends a transition to the record's head and announces it. */
  readonly write: (record: LedgerRecord, transition: LedgerTransition) => Promise<LedgerRecord>;
  /** One SendMessage of the given attempt, never retried. */
  readonly sendOnce: (
    record: LedgerRecord,
    attemptId: string,
    message: Message,
    signal?: AbortSignal,
  ) => Promise<SendMessageResponse>;
};

/**
Which probe `recovery` can run for `record`, or `undefined`: keyed replay only for a keyed send, message-id
replay only for a deduplicated one, and a context-history scan only for an attempt that carried a recovery
contextId. A record sent under another configuration is left alone.

@example
```ts
probeKind({ kind: 'keyed', retryAfterMs: 1000, maxProbes: 10 }, record, undefined); // 'keyed' for a keyed record
```
*/
export function probeKind(
  recovery: ResolvedRecovery,
  record: LedgerRecord,
  contextId: string | undefined,
): ProbeKind | undefined {
  switch (recovery.kind) {
    case 'disabled':
      return undefined;
    case 'keyed':
      return record.delivery === 'keyed' ? 'keyed' : undefined;
    case 'message-id-replay':
      return record.delivery === 'message-id-deduplicated' ? 'message-id-replay' : undefined;
    case 'context-history':
      return contextId === undefined ? undefined : 'context-history';
  }
}

/**
The ledger transition a probe's report leads to (docs/durable-send.md#probe-failures,
docs/durable-send.md#reconciling-an-unknown):

- `match` → `reconcile-commit`, bound to the original attempt;
- `conflict` → `unresolved('conflicting-evidence')`: the effect is still unknown (the send may have run, even
  twice), so nothing may claim it failed; a person decides;
- `refused` → `unresolved('no-evidence')`: no later probe can do better; `unresolved('no-list-tasks')` when
  what refused it is the client's v0.3 binding, before anything was sent: a v0.3 peer has no ListTasks, so no
  scan of the send's context can ever run (docs/protocol-checks.md#v03-peers);
- `duplicated` → `duplicate` with the task ids: the send ran more than once, a terminal state
  (docs/durable-send.md#duplicated);
- `none` from a scan that found no task at all, for a send the peer answered with a 2xx status (its recorded
  cause has one) → `unresolved('direct-message')` at once: a SendMessage answer is a Task or a direct
  Message (A2A spec §3.1.1), the peer had answered, and the send's own context holds no task, so the answer
  was a direct Message, which created no task for any later probe to find;
- `none` or `transient-error` → `pending` until now + `retryAfterMs`, or, when this was the `maxProbes`-th
  such probe, `unresolved('no-evidence')`: probing is bounded in count too
  (docs/durable-send.md#reconciling-an-unknown: a direct Message whose answer never reached the client
  created no task either, and nothing tells it from a send still on its way).

`reconcile-fail` is never produced: a probe can show that a send was applied, never that it was not.

@example
```ts
probeTransition(record, { kind: 'keyed', retryAfterMs: 1000, maxProbes: 1 }, { result: 'none', pagesScanned: 1, tasksExamined: 0, matches: 0 });
// { type: 'unresolved', attemptId, reason: 'no-evidence' }
```
*/
export function probeTransition(
  record: LedgerRecord,
  recovery: Exclude<ResolvedRecovery, { kind: 'disabled' }>,
  report: ProbeReport,
): LedgerTransition {
  const { state } = record;
  if (state.status !== 'unknown') {
    throw new LedgerError('invalid-transition', { rule: `probe-from-${state.status}` });
  }
  const { attemptId } = state;
  const cause = optionalMembers({ cause: report.cause });
  switch (report.result) {
    case 'match':
      return {
        type: 'reconcile-commit',
        attemptId,
        result: resultSummary(report.answer as SendMessageResponse),
      };
    case 'conflict':
      return { type: 'unresolved', attemptId, reason: 'conflicting-evidence', ...cause };
    case 'refused': {
      // Only the v0.3 binding refuses with this rule, before anything is sent.
      const v03 = report.cause?.violation?.rule === 'no-list-tasks';
      return { type: 'unresolved', attemptId, reason: v03 ? 'no-list-tasks' : 'no-evidence', ...cause };
    }
    case 'duplicated':
      return { type: 'duplicate', attemptId, taskIds: [...(report.taskIds ?? [])] };
    case 'none':
    case 'transient-error': {
      // The send's answer reached the client with a 2xx status (then broke a check, or its body broke off):
      // the peer had answered, and its answer created no task in the send's own context.
      const status = state.cause?.httpStatus ?? 0;
      const direct = report.result === 'none' && report.tasksExamined === 0 && status >= 200 && status < 300;
      if (direct || (state.pending?.probes ?? 0) + 1 >= recovery.maxProbes) {
        return { type: 'unresolved', attemptId, reason: direct ? 'direct-message' : 'no-evidence', ...cause };
      }
      // The ledger's clock never runs backwards, so the delay is measured from the later of now and the
      // record's last write.
      return {
        type: 'pending',
        attemptId,
        notBefore: Math.max(Date.now(), record.updatedAt) + recovery.retryAfterMs,
      };
    }
  }
}

/** The reconciliation half of a durable agent. */
export type Reconciler = {
  /** Reconciles one record (see `DurableAgent.reconcile`). */
  reconcile(id: string, options?: ReconcileOptions): Promise<DurableOutcome>;
  /**
  Claims the due records of this agent in batches and probes each once (see `DurableAgent.reconcileDue`).
  */
  reconcileDue(options?: ReconcileDueOptions): Promise<ReconcileDueReport>;
};

/**
The state of one agent's reconciler: its input, and the probe under way for each id, which concurrent calls
share.
*/
type ReconcilerState = ReconcilerInput & {
  readonly running: Map<string, Promise<DurableOutcome>>;
};

/**
How one claimed record was left: its outcome, whether it was probed, and whether another writer's change
stands instead.
*/
type ClaimedProbe = { outcome: DurableOutcome; probed: boolean; superseded: boolean };

/**
Creates the `reconcile` and `reconcileDue` of one agent. Concurrent calls for one id share one probe; a record
moved by another writer meanwhile comes back as that writer left it.

@example
```ts
const { reconcile } = createReconciler({ client, ledger, recovery, identity, skill, emit, write, sendOnce });
await reconcile(id); // committed | pending | unresolved, or the record as it stands
```
*/
export function createReconciler(input: ReconcilerInput): Reconciler {
  const state: ReconcilerState = { ...input, running: new Map() };
  return {
    reconcile: (id, options = {}) => reconcile(state, id, options),
    reconcileDue: (options = {}) => reconcileDue(state, options),
  };
}

/**
Runs the probe of `kind` for the record's attempt: a context-history scan, reporting each page, or a replay of
the attempt's send.
*/
function probe(
  state: ReconcilerState,
  kind: ProbeKind,
  record: LedgerRecord,
  attempt: Attempt,
  signal?: AbortSignal,
): Promise<ProbeReport> {
  const { client, recovery, skill, emit, sendOnce } = state;
  const { attemptId } = attempt;
  const sent = attemptMessage(record, attemptId) as Message;
  const callOptions: CallOptions = {
    // docs/durable-send.md#reconciling-an-unknown: every probe carries the original attempt's identity to the
    // token provider.
    attempt: { sendId: record.id, attemptId },
    ...optionalMembers({ signal, skill }),
  };
  if (kind === 'context-history' && recovery.kind === 'context-history') {
    const onPage = (page: ScanPage) => emit({ type: 'probe-page', id: record.id, ...page, time: Date.now() });
    return scanContextHistory({ client, callOptions, sent, onPage }, attempt, recovery);
  }
  return replaySend({ client, callOptions, sent }, (message) => sendOnce(record, attemptId, message, signal));
}

/**
Probes a record this agent holds the claim on, once, and records what it found; the claim is released if
nothing was written.
*/
async function probeClaimed(
  state: ReconcilerState,
  record: LedgerRecord,
  signal: AbortSignal | undefined,
): Promise<ClaimedProbe> {
  const { ledger, recovery, identity, emit, write } = state;
  const id = record.id;
  let written = false;
  try {
    const { state: recordState } = record;
    if (
      recordState.status !== 'unknown' ||
      statusOf(record) === 'unresolved' ||
      recovery.kind === 'disabled'
    ) {
      return { outcome: durableOutcome(record), probed: false, superseded: false };
    }
    const attempt = record.attempts.find((entry) => entry.attemptId === recordState.attemptId);
    const kind = attempt === undefined ? undefined : probeKind(recovery, record, attempt.contextId);
    if (attempt === undefined || kind === undefined || !sentThrough(record, identity)) {
      return { outcome: durableOutcome(record), probed: false, superseded: false };
    }
    const report = await reportedProbe(emit, { id, attemptId: attempt.attemptId, recovery: kind }, () =>
      probe(state, kind, record, attempt, signal),
    );
    try {
      const next = await write(record, probeTransition(record, recovery, report));
      written = true;
      if (next.state.status === 'duplicated') {
        emit({
          type: 'duplicated',
          id,
          attemptId: next.state.attemptId,
          taskIds: next.state.taskIds,
          found: 'reconcile',
          time: Date.now(),
        });
      }
      return {
        outcome: durableOutcome(
          next,
          report.result === 'match' && report.answer !== undefined ? { answer: report.answer } : {},
        ),
        probed: true,
        superseded: false,
      };
    } catch (error) {
      // Another writer moved the record meanwhile, or took it over after this writer's lease lapsed: what it
      // wrote stands.
      if (error instanceof LedgerError && (error.reason === 'stale-revision' || error.reason === 'fenced')) {
        return {
          outcome: durableOutcome((await ledger.get(id)) ?? record),
          probed: true,
          superseded: true,
        };
      }
      throw error;
    }
  } finally {
    if (!written) {
      await ledger.release(id).catch(() => undefined);
    }
  }
}

/**
Reconciles one record (see `DurableAgent.reconcile`): checks it may be probed here and now, claims it, and
probes it once.
*/
async function reconcileOnce(
  state: ReconcilerState,
  id: string,
  options: ReconcileOptions,
): Promise<DurableOutcome> {
  const { ledger, recovery, identity } = state;
  const record = await ledger.get(id);
  if (record === undefined) {
    throw new LedgerError('not-found');
  }
  const { state: recordState } = record;
  if (recordState.status !== 'unknown' || statusOf(record) === 'unresolved' || recovery.kind === 'disabled') {
    return durableOutcome(record);
  }
  // docs/durable-send.md#whose-record-it-is: the interface decides, not the card digest, so a redeploy leaves
  // the record reconcilable.
  assertSentThrough(record, identity);
  const attempt = record.attempts.find((entry) => entry.attemptId === recordState.attemptId);
  const kind = attempt === undefined ? undefined : probeKind(recovery, record, attempt.contextId);
  const early = recordState.pending !== undefined && Date.now() < recordState.pending.notBefore;
  if (attempt === undefined || kind === undefined || early) {
    return durableOutcome(record);
  }
  // docs/durable-send.md#leases: the probe runs under this ledger's claim, so no other writer probes the
  // record at the same time; one that holds it now leaves it to them.
  const claimed = await ledger.claim(id);
  if (claimed === undefined) {
    return durableOutcome((await ledger.get(id)) ?? record);
  }
  return (await probeClaimed(state, claimed, options.signal)).outcome;
}

/** One reconciliation per id at a time: a call while one runs gets that one's promise. */
function reconcile(state: ReconcilerState, id: string, options: ReconcileOptions): Promise<DurableOutcome> {
  const { running } = state;
  const current = running.get(id);
  if (current !== undefined) {
    return current;
  }
  const promise = reconcileOnce(state, id, options).finally(() => running.delete(id));
  running.set(id, promise);
  return promise;
}

/**
One pass over what is due (see `DurableAgent.reconcileDue`): claims batches until none is due, probes each
record once, and counts how each was left.
*/
async function reconcileDue(
  state: ReconcilerState,
  options: ReconcileDueOptions,
): Promise<ReconcileDueReport> {
  const { ledger, recovery } = state;
  const batch = wholeOption('batch', options.batch ?? 16, 1, 256);
  const { signal } = options;
  const counts = { claimed: 0, committed: 0, pending: 0, unresolved: 0, skipped: 0, superseded: 0 };
  // Records this pass already claimed: each is probed once per pass, even when its next probe comes due
  // before the pass ends.
  const seen = new Set<string>();
  if (recovery.kind === 'disabled') {
    return counts;
  }
  const dueQuery = dueQueryOf(state.identity, recovery);
  for (;;) {
    signal?.throwIfAborted();
    const records = await ledger.claimDue({ limit: batch, ...dueQuery, exclude: [...seen] });
    if (records.length === 0) {
      return counts;
    }
    for (const record of records) {
      seen.add(record.id);
    }
    counts.claimed += records.length;
    const results = await Promise.allSettled(records.map((record) => probeClaimed(state, record, signal)));
    let failure: unknown;
    for (const result of results) {
      if (result.status === 'rejected') {
        failure ??= result.reason;
        continue;
      }
      tally(counts, result.value);
    }
    if (failure !== undefined) {
      throw failure;
    }
  }
}

/**
Only what this agent can probe: its own agent's records, of the delivery its recovery replays, or sent with a
recovery contextId for a scan.
*/
function dueQueryOf(identity: AgentIdentity, recovery: Exclude<ResolvedRecovery, { kind: 'disabled' }>) {
  return {
    agent: identity,
    ...(recovery.kind === 'keyed' ? { delivery: ['keyed' as const] } : {}),
    ...(recovery.kind === 'message-id-replay' ? { delivery: ['message-id-deduplicated' as const] } : {}),
    ...(recovery.kind === 'context-history' ? { contextual: true } : {}),
  };
}

/** Counts one probed record of a pass by how it was left. */
function tally(counts: { -readonly [K in keyof ReconcileDueReport]: number }, probed: ClaimedProbe): void {
  const { outcome, superseded } = probed;
  if (!probed.probed) {
    counts.skipped += 1;
  } else if (superseded) {
    counts.superseded += 1;
  } else if (outcome.status === 'committed') {
    counts.committed += 1;
  } else if (outcome.status === 'pending') {
    counts.pending += 1;
  } else if (outcome.status === 'unresolved') {
    counts.unresolved += 1;
  }
}
