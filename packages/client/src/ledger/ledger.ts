/**
@module
The durable pending-send ledger (docs/durable-send.md#the-promise; docs/durable-send.md#transitions): one
record per logical send, committed before anything leaves, moved only by appending immutable revisions that
each name the revision they expect. This file holds the shared model: the `Ledger` interface every store
implements, the revision digest and the history verifier; the pure state machine `applyTransition` lives in
`state-machine.ts`.
*/
import { canonicalJson } from '../core/canonical-json.js';
import {
  type ExchangeError,
  InvalidResponseError,
  LedgerError,
  RemoteError,
  RequestError,
} from '../core/errors.js';
import type { JsonValue } from '../core/json-value.js';
import { sha256Hex } from '../core/sha256.js';
import type { Message } from '../protocol/message.js';
import { decodeLedger } from './decoding.js';
import { type ErrorSummary, fitErrorSummary } from './error-summary.js';
import type { AgentIdentity, DeliveryMode, SendIntent } from './intent.js';
import {
  givenUp,
  type LedgerRecord,
  LedgerRevision,
  type LedgerStatus,
  type LedgerTransition,
} from './record.js';
import { applyTransition } from './state-machine.js';

export type { ErrorSummary } from './error-summary.js';
export type { AgentIdentity, DeliveryMode, SendIntent } from './intent.js';
export type {
  Attempt,
  CreateTransition,
  FailureEffect,
  LedgerRecord,
  LedgerRevision,
  LedgerState,
  LedgerStatus,
  LedgerTransition,
  ResultSummary,
  UnknownReason,
} from './record.js';
export { applyTransition } from './state-machine.js';

/**
How to open a ledger. The same type for every store (CONTRIBUTING.md#public-entries): `name` is the IndexedDB
database name for the idb store, the journal's file path for the file store, and only a label for the memory
store.

@example
```ts
const ledger = await openLedger({ name: 'sends' });
```
*/
export type LedgerOptions = {
  readonly name: string;
  /**
  How long a settled record (`committed` or `failed`) is kept after it settled, in milliseconds: the window a
  peer's deduplication lasts, so a reused id within it is still recognised (docs/durable-send.md#retention).
  Past it the store prunes the record (the file store when it compacts, IndexedDB and memory as they write). A
  whole number ≥ 1; default 7 days.
  */
  readonly retentionMs?: number;
  /**
  Opens the ledger only to watch it: reads, `history` and `subscribe` work, and every write and claim is
  refused as `locked` (rule `follower`). For a page that shows sends other tabs or processes make
  (docs/durable-send.md#tabs). @default false
  */
  readonly readOnly?: boolean;
};

/** `readOnly` when valid, else `invalid-input` (`read-only`). */
export function readOnlyOf(options: LedgerOptions): boolean {
  const given = options.readOnly ?? false;
  if (typeof given !== 'boolean') {
    throw new LedgerError('invalid-input', { rule: 'read-only' });
  }
  return given;
}

/**
The default `retentionMs`: 7 days, beyond the 24 h an idempotency key lives by default (docs/idempotency.md).
*/
export const defaultRetentionMs = 7 * 24 * 3_600_000;

/** The retention a store uses: `retentionMs` when valid, else `invalid-input` (`retention`). */
export function retentionOf(options: LedgerOptions): number {
  const given = options.retentionMs;
  if (given === undefined) {
    return defaultRetentionMs;
  }
  if (!Number.isSafeInteger(given) || given < 1) {
    throw new LedgerError('invalid-input', { rule: 'retention' });
  }
  return given;
}

/**
Whether a record has settled: nothing but a retry after explicit advice can move it again, and it is kept only
for the retention window.
*/
export function isSettled(record: LedgerRecord): boolean {
  const status: string = record.state.status;
  return status !== 'prepared' && status !== 'executing' && status !== 'unknown';
}

/**
The first attempt `Ledger.create` may record together with the intent: a `start` transition without its
`type`.
*/
export type AttemptStart = Omit<Extract<LedgerTransition, { type: 'start' }>, 'type'>;

/**
A committed change: the record as that revision left it. `origin` is `remote` for a change another tab made
(idb, through a BroadcastChannel).
*/
export type LedgerChange = {
  readonly record: LedgerRecord;
  readonly revision: LedgerRevision;
  readonly origin: 'local' | 'remote';
};

/** Which records `list` returns; without `states`, all of them. */
export type LedgerFilter = { readonly states?: readonly LedgerStatus[] };

/** Which due records `claimDue` leases (docs/durable-send.md#leases). */
export type DueQuery = {
  /** At most this many, 1 to 1024. @default 16 */
  readonly limit?: number;
  /** Only records sent to this agent: a probe through another agent would look in the wrong place. */
  readonly agent?: AgentIdentity;
  /** Never these ids (records this reconciler already probed or found it cannot probe). */
  readonly exclude?: readonly string[];
  /** Only records of these delivery modes (a keyed replay can probe only keyed sends). */
  readonly delivery?: readonly DeliveryMode[];
  /**
  Only records whose current attempt carried a recovery contextId (the only ones a context-history scan can
  find).
  */
  readonly contextual?: boolean;
};

/** Whether `record` is one `query` asks for, due or not: its agent, delivery, context and id. */
export function matchesDue(record: LedgerRecord, query: DueQuery): boolean {
  const { state } = record;
  const attempt =
    state.status === 'prepared'
      ? undefined
      : record.attempts.find((entry) => entry.attemptId === state.attemptId);
  return (
    (query.agent === undefined || sameInterface(record.agent, query.agent)) &&
    (query.delivery === undefined || query.delivery.includes(record.delivery)) &&
    (query.contextual !== true || attempt?.contextId !== undefined) &&
    (query.exclude === undefined || !query.exclude.includes(record.id))
  );
}

/**
Whether a record is due for a probe at `now` (docs/durable-send.md#reconciling-an-unknown): unknown, not given
up on (`givenUp`: `no-evidence`, `conflicting-evidence`, `direct-message`, `no-list-tasks`), and past its
pending not-before time if it has one.

@example
```ts
isDue(record, Date.now()); // true for an unknown record with no probe scheduled
```
*/
export function isDue(record: LedgerRecord, now: number): boolean {
  const { state } = record;
  return (
    state.status === 'unknown' &&
    !givenUp(state.reason) &&
    (state.pending === undefined || state.pending.notBefore <= now)
  );
}

/**
Whether two agent identities name the same interface: binding, URL and tenant. The card digest is evidence,
not identity: a redeploy changes it and must not orphan a record (docs/durable-send.md#whose-record-it-is).
*/
export function sameInterface(left: AgentIdentity, right: AgentIdentity): boolean {
  return left.binding === right.binding && left.url === right.url && left.tenant === right.tenant;
}

/**
The durable pending-send ledger. Every write resolves only once it is durable (a completed IndexedDB
transaction, an fdatasync'd journal line); every record and revision it returns is frozen.

@example
```ts
const record = await ledger.create(intent);                      // durable `prepared`
const executing = await ledger.transition(record.id, record.revision, {
  type: 'start', attemptId: crypto.randomUUID(), messageId: intent.message.messageId,
});                                                               // durable before fetch is called
// …send, then classify the outcome:
await ledger.transition(record.id, executing.revision, {
  type: 'commit', attemptId: executing.attempts[0].attemptId, result: { kind: 'task', taskId, contextId },
});
```
*/
export interface Ledger {
  /**
  Commits a new record in state `prepared` (revision 0). An id that already exists is a `stale-revision`. With
  `start`, it also starts the first attempt (revision 1, `executing`) in the same durable write, and returns
  that head; both changes are announced to subscribers, revision 0 first.
  */
  create(intent: SendIntent, start?: AttemptStart): Promise<LedgerRecord>;
  /**
  Appends `transition` if the record's head is still `expectedRevision` (else `stale-revision`) and the state
  machine allows it (else `invalid-transition` or `reused-attempt`).
  */
  transition(id: string, expectedRevision: number, transition: LedgerTransition): Promise<LedgerRecord>;
  /** The record's head, or `undefined` (also once a settled record was pruned past the retention window). */
  get(id: string): Promise<LedgerRecord | undefined>;
  /**
  Records in the order they were created in this ledger (its own sequence, not their clocks' times),
  optionally only those in the given states.
  */
  list(filter?: LedgerFilter): Promise<LedgerRecord[]>;
  /** Every revision of a record, oldest first; empty for an unknown id. */
  history(id: string): Promise<LedgerRevision[]>;
  /**
  Leases up to `query.limit` records due for a probe (see {@link isDue}) to this ledger, soonest due first,
  and returns them (docs/durable-send.md#leases). A shared store (PostgreSQL) first turns the records whose
  writer's lease lapsed while executing into unknown, and hands each due record to one writer only
  (`FOR UPDATE SKIP LOCKED`); a single-writer store keeps the claims in memory. The lease ends with the
  record's next transition, with `release`, or when it expires.
  */
  claimDue(query?: DueQuery): Promise<LedgerRecord[]>;
  /** Leases one record for a probe if it is due and no one else holds it; `undefined` otherwise. */
  claim(id: string): Promise<LedgerRecord | undefined>;
  /**
  Gives up a claim this ledger holds on a record it did not move (a probe that was cancelled or could not
  run).
  */
  release(id: string): Promise<void>;
  /**
  The tab sending or probing record `id` now, where the tabs of an origin share the ledger (IndexedDB with Web
  Locks, docs/durable-send.md#tabs): its tab id, and whether it is this ledger's own tab. `undefined` when no
  tab holds the record, and always on a store that tabs do not share.

  @example
  ```ts
  await ledger.ownerOf(record.id); // { tab: '9c41…', thisTab: false } while another tab sends it
  ```
  */
  ownerOf(id: string): Promise<{ readonly tab: string; readonly thisTab: boolean } | undefined>;
  /**
  Calls `listener` after each committed change, in commit order; returns the unsubscribe function. A throwing
  listener affects neither the write nor other listeners.
  */
  subscribe(listener: (change: LedgerChange) => void): () => void;
  /**
  Waits for writes in flight, then releases the store and its lease. Every later call fails with `closed`.
  Close every ledger you open, in a `finally`, before the process ends: a file ledger dropped open leaves its
  lock file for the next writer to judge (docs/durable-send.md#file-journal) and its file handles to the
  garbage collector, which Node warns about.
  */
  close(): Promise<void>;
}

/** The digest function a store uses: SHA-256 of a string's UTF-8 bytes as `sha256:` and 64 hex digits. */
export type Sha256 = (text: string) => string | Promise<string>;

/**
The platform's SHA-256 (`core/sha256.ts`: synchronous under Node, WebCrypto elsewhere), looked up per call so
a polyfill installed later is used; `unsupported` where there is none.
*/
export function platformSha256(text: string): string | Promise<string> {
  const hex = sha256Hex(text);
  if (hex === undefined) {
    throw new LedgerError('unsupported', { rule: 'webcrypto' });
  }
  return typeof hex === 'string' ? `sha256:${hex}` : hex.then((value) => `sha256:${value}`);
}

// The domain every revision digest is separated by, so it can never collide with another surecall digest.
const REVISION_DIGEST_DOMAIN = 'surecall.ledger.revision.v1';
const DOMAIN_JSON = canonicalJson(REVISION_DIGEST_DOMAIN);

/**
The text a revision's digest covers: the RFC 8785 canonical JSON of the domain
(`surecall.ledger.revision.v1`), the id, the revision number, the time, the previous digest (`null` at
revision 0) and the transition.
*/
export function revisionDigestInput(revision: Omit<LedgerRevision, 'digest'>): string {
  // Exactly `canonicalJson` of the whole envelope: its members written in their sorted order (at, domain, id,
  // previous, revision, transition), each value through `canonicalJson`, so only the transition pays for a
  // general canonicalization.
  const previous = revision.previousDigest === undefined ? 'null' : canonicalJson(revision.previousDigest);
  return `{"at":${canonicalJson(revision.at)},"domain":${DOMAIN_JSON},"id":${canonicalJson(revision.id)},"previous":${previous},"revision":${canonicalJson(revision.revision)},"transition":${canonicalJson(revision.transition as unknown as JsonValue)}}`;
}

/**
The digest of a revision (see {@link revisionDigestInput}), through WebCrypto unless another SHA-256 is given.

@example
```ts
(await revisionDigest(revision)) === revision.digest; // true for an untampered revision
```
*/
export async function revisionDigest(
  revision: Omit<LedgerRevision, 'digest'>,
  sha256: Sha256 = platformSha256,
): Promise<string> {
  return sha256(revisionDigestInput(revision));
}

/** Freezes a JSON-shaped value in place, all the way down, and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) {
    return value;
  }
  Object.freeze(value);
  const members = value as Record<string, unknown>;
  for (const key of Object.keys(members)) {
    const member = members[key];
    // Records reuse the frozen parts of their predecessor, so the walk stops at the first frozen object.
    if (typeof member === 'object' && member !== null) {
      deepFreeze(member);
    }
  }
  return value;
}

export type HistoryVerification =
  | { readonly ok: true; readonly record: LedgerRecord; readonly error?: never }
  | {
      readonly ok: false;
      readonly error: { readonly revision: number; readonly rule: string };
      readonly record?: never;
    };

/**
Replays and verifies a whole history: every revision decodes, follows its predecessor, is a legal transition,
and carries the SHA-256 its content and its predecessor's digest give. A tampered revision, one removed,
reordered or inserted, breaks the chain at that point. Never throws for any input.

@example
```ts
const result = await verifyHistory(await ledger.history(id));
if (!result.ok) { alert(`revision ${result.error.revision}: ${result.error.rule}`); }
```
*/
export async function verifyHistory(
  revisions: readonly unknown[],
  sha256: Sha256 = platformSha256,
): Promise<HistoryVerification> {
  let record: LedgerRecord | undefined;
  for (let index = 0; index < revisions.length; index++) {
    const decoded = decodeLedger(LedgerRevision, revisions[index]);
    if (!decoded.ok) {
      return { ok: false, error: { revision: index, rule: decoded.error.rule } };
    }
    const revision = decoded.value;
    if (revision.revision !== index) {
      return { ok: false, error: { revision: index, rule: 'sequence' } };
    }
    try {
      record = applyTransition(record, revision);
      if ((await revisionDigest(revision, sha256)) !== revision.digest) {
        return { ok: false, error: { revision: index, rule: 'digest' } };
      }
    } catch (error) {
      if (error instanceof LedgerError) {
        return { ok: false, error: { revision: index, rule: error.rule ?? error.reason } };
      }
      // canonicalJson refuses a value JSON cannot hold.
      return { ok: false, error: { revision: index, rule: 'json' } };
    }
  }
  return record === undefined ? { ok: false, error: { revision: 0, rule: 'empty' } } : { ok: true, record };
}

/**
The exact message an attempt sent: the intent's message with the attempt's `messageId` and, when the attempt
set one, its opaque recovery `contextId`. Reconciliation compares against it and replays it. `undefined` when
the record has no such attempt.

@example
```ts
const sent = attemptMessage(record, record.attempts[0].attemptId);
```
*/
export function attemptMessage(record: LedgerRecord, attemptId: string): Message | undefined {
  const attempt = record.attempts.find((candidate) => candidate.attemptId === attemptId);
  if (attempt === undefined) {
    return undefined;
  }
  return {
    ...record.message,
    messageId: attempt.messageId,
    ...(attempt.contextId === undefined ? {} : { contextId: attempt.contextId }),
  };
}

/**
The public-safe summary a record keeps of a client error: the fields of its `toJSON()` (name, kind, reason,
dispatched, and the HTTP status, remote code and violation where the error has one), nothing else, fitted to
the record's bounds (`fitErrorSummary`: a violation path too long for its field is cut to whole segments and
marked `…`).

@example
```ts
await ledger.transition(id, revision, { type: 'unknown', attemptId, cause: errorSummary(error), reason: 'ambiguous-outcome' });
```
*/
export function errorSummary(error: ExchangeError): ErrorSummary {
  const remoteCode = error instanceof RemoteError ? error.remoteCode : undefined;
  const violation =
    error instanceof InvalidResponseError || error instanceof RequestError ? error.violation : undefined;
  // Fitted, so that no answer a peer can send makes the record refuse it
  // (docs/durable-send.md#after-dispatch).
  return fitErrorSummary({
    name: error.name,
    kind: error.kind,
    reason: error.reason,
    dispatched: error.dispatched,
    ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
    ...(remoteCode === undefined ? {} : { remoteCode }),
    ...(violation === undefined
      ? {}
      : {
          violation: {
            rule: violation.rule,
            ...(violation.offset === undefined ? {} : { offset: violation.offset }),
            ...(violation.path === undefined ? {} : { path: violation.path }),
          },
        }),
  });
}
