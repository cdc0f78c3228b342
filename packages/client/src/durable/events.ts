/**
@module
The durable agent's event feed (CONTRIBUTING.md#devtools): every ledger transition the agent makes and every
probe it runs, as a union on `type`. The devtools' Recovery panel draws its spans from these and from nothing
else. Like client events, they carry ids, states and counts only: no message content, no remote text.
*/
import type { LedgerStatus, LedgerTransition, UnknownReason } from '../ledger/ledger.js';

/** A record moved: `from` is `null` for its creation. Emitted once the ledger made the change durable. */
export type DurableTransitionEvent = {
  readonly type: 'transition';
  /** The record (the logical send). */
  readonly id: string;
  readonly from: LedgerStatus | null;
  readonly to: LedgerStatus;
  /**
  The ledger transition that moved it: `create`, `start`, `commit`, `fail`, `unknown`, `pending`,
  `unresolved`, `reconcile-commit`, `reconcile-fail` or `duplicate`.
  */
  readonly cause: 'create' | LedgerTransition['type'];
  /** Why the record is unknown, for a move into (or within) `unknown`. */
  readonly reason?: UnknownReason;
  /** The not-before time of the next probe, for a `pending` move. */
  readonly notBefore?: number;
  /** The record's revision after the move. */
  readonly revision: number;
  /** When the agent saw the change, in milliseconds since the epoch. */
  readonly time: number;
};

/** Which recovery a probe used. */
export type ProbeKind = 'keyed' | 'context-history' | 'message-id-replay';

/**
What a probe found (docs/durable-send.md#recovery-modes, docs/durable-send.md#probe-failures):

- `match`: evidence that the send was applied, so the record commits;
- `none`: no evidence yet, so the record waits for its next probe, or stays unknown (`no-evidence`) after the
  last one;
- `transient-error`: the probe itself failed in a way that may pass (a lost connection, an unavailable token,
  a remote error without a definitive code), treated as `none`;
- `conflict`: evidence that contradicts itself, so the record stays unknown (`conflicting-evidence`) for a
  person;
- `refused`: the peer or the token provider refused the probe for good, so the record stays unknown
  (`no-evidence`) for a person;
- `duplicated`: the message, unchanged, in two or more tasks: the send ran more than once (a browser's own
  re-send, docs/interop.md#browsers), so the record ends `duplicated` (docs/durable-send.md#duplicated).
*/
export type ProbeResult = 'match' | 'none' | 'transient-error' | 'conflict' | 'refused' | 'duplicated';

/**
Why a probe failed closed or could not run, named after the probe codes of StateKnot's A2A client
(docs/durable-send.md#the-stateknot-profile, docs/durable-send.md#probe-failures): a task twice in the scan,
the message in two places, the message's id with another payload, a last page with a next token, an answer
that breaks the protocol, a denied token, a definitive rejection, an operation the client would not send; and
for `transient-error`, an unavailable dependency or remote error.
*/
export type ProbeRule =
  | 'duplicate-task'
  | 'ambiguous-match'
  | 'message-mismatch'
  | 'scan-limit'
  | 'invalid-response'
  | 'permission-denied'
  | 'operation-rejected'
  | 'operation-unsupported'
  | 'dependency-unavailable'
  | 'remote-unavailable';

/**
One probe of one unknown record (or the audit scan of a committed one), emitted when it ends, before the
transition it leads to.
*/
export type DurableProbeEvent = {
  readonly type: 'probe';
  readonly id: string;
  /** The original attempt: every probe is bound to it. */
  readonly attemptId: string;
  readonly recovery: ProbeKind;
  /**
  Present on the audit scan after a commit (docs/durable-send.md#the-audit), absent on a reconciliation probe.
  */
  readonly audit?: true;
  /** ListTasks pages read (context-history); 0 for a replay. */
  readonly pagesScanned: number;
  /** Tasks looked at (context-history); 0 for a replay. */
  readonly tasksExamined: number;
  /** Tasks holding the original message (context-history), or 1 for a replay answered with a result. */
  readonly matches: number;
  readonly result: ProbeResult;
  readonly rule?: ProbeRule;
  /** When the probe started, in milliseconds since the epoch. */
  readonly startedAt: number;
  readonly durationMs: number;
};

/** A probe began: emitted before its first request, so the devtools can open its span while it runs. */
export type DurableProbeStartEvent = {
  readonly type: 'probe-start';
  readonly id: string;
  /** The original attempt the probe is bound to. */
  readonly attemptId: string;
  readonly recovery: ProbeKind;
  /** Present on the audit scan after a commit. */
  readonly audit?: true;
  /** In milliseconds since the epoch; the closing `probe` event's `startedAt` is the same instant. */
  readonly time: number;
};

/**
One ListTasks page a context-history probe examined (docs/durable-send.md#recovery-modes, the scan algorithm),
emitted as the scan goes: counts only.
*/
export type DurableProbePageEvent = {
  readonly type: 'probe-page';
  readonly id: string;
  /** 1-based page number within the probe. */
  readonly page: number;
  /** Tasks looked at on this page; fewer than it held when a conflict stopped the scan on it. */
  readonly tasksExamined: number;
  /** Tasks on this page holding the original message. */
  readonly matches: number;
  /** Whether the page carried a next-page token. */
  readonly nextPageToken: boolean;
  readonly time: number;
};

/**
A scan found the send's message in two or more tasks and the record is now `duplicated`
(docs/durable-send.md#duplicated): emitted after that transition, so a count of these events is a count of
sends that ran more than once.
*/
export type DurableDuplicatedEvent = {
  readonly type: 'duplicated';
  readonly id: string;
  /** The original attempt. */
  readonly attemptId: string;
  /** The tasks holding the message, 2 to 16, in the order the scan found them. */
  readonly taskIds: readonly string[];
  /** What found it: a reconciliation probe of an unknown send, or the audit after a commit. */
  readonly found: 'reconcile' | 'audit';
  readonly time: number;
};

/**
An event of a durable agent, a union on `type`.

@example
```ts
const unsubscribe = agent.events.subscribe((event) => {
  switch (event.type) {
    case 'transition': inbox.move(event.id, event.from, event.to, event.reason); break;
    case 'probe-start': spans.open(event.id, event.time); break;
    case 'probe-page': spans.step(event.id, event.page, event.tasksExamined, event.matches); break;
    case 'probe': spans.close(event.id, event.durationMs, event.result); break;
    case 'duplicated': alerts.raise(event.id, event.taskIds); break;
  }
});
```
*/
export type DurableEvent =
  | DurableTransitionEvent
  | DurableProbeStartEvent
  | DurableProbePageEvent
  | DurableProbeEvent
  | DurableDuplicatedEvent;

/**
Receives every event; whatever it throws or rejects with is ignored, so an observer can never break a send.
*/
export type DurableEventListener = (event: DurableEvent) => unknown;

/** The feed of one durable agent. */
export type DurableEvents = {
  /** Registers `listener` for every later event; the returned function removes it. */
  subscribe(listener: DurableEventListener): () => void;
};

/** The agent's side of the feed. */
export type DurableEventHub = {
  readonly events: DurableEvents;
  /** Delivers `event`, frozen, to every listener registered now. */
  emit(event: DurableEvent): void;
};

function ignore(): void {}

/**
Creates one agent's event feed.

@example
```ts
const hub = createDurableEventHub();
hub.emit({ type: 'transition', id, from: null, to: 'prepared', cause: 'create', revision: 0, time: Date.now() });
```
*/
export function createDurableEventHub(): DurableEventHub {
  // One entry per subscription, so the same function subscribed twice is two subscriptions.
  const entries = new Set<{ readonly listener: DurableEventListener }>();
  return {
    events: Object.freeze({
      subscribe(listener: DurableEventListener): () => void {
        const entry = { listener };
        entries.add(entry);
        return () => {
          entries.delete(entry);
        };
      },
    }),
    emit(event) {
      if (entries.size === 0) {
        return;
      }
      const frozen = Object.freeze(event);
      for (const entry of [...entries]) {
        try {
          const result = entry.listener(frozen);
          if (typeof result === 'object' && result !== null && 'then' in result) {
            Promise.resolve(result).catch(ignore);
          }
        } catch {
          // An observer never changes the outcome of a send.
        }
      }
    },
  };
}
