/**
@module
The schemas of the durable pending-send ledger (docs/durable-send.md#transitions): its states, its
transitions, its revisions and its records, over the intent (`intent.ts`) and the error summary
(`error-summary.ts`). Every record or revision read back from IndexedDB, PostgreSQL or a journal file is
decoded with them (`decodeLedger`, `decoding.ts`), because storage is an edge too
(CONTRIBUTING.md#schemas-and-types): a value that fails is a corrupt entry, never skipped and never repaired.
The objects are strict, so an unknown member is refused rather than stripped: stripping would change a stored
value silently.
*/
import * as z from 'zod/mini';
import { Id } from '../protocol/text.js';
import { fail, Millis, Sha256Digest, whole } from './decoding.js';
import { ErrorSummary } from './error-summary.js';
import { checkIntent, intentShape, SendIntent } from './intent.js';

// The stores decode what they read through this module (`idb.ts`, `postgres.ts`): the decoder travels with
// the schemas.
export { decodeLedger, type LedgerDecodeFailure } from './decoding.js';

/**
The longest wait a `retryAfterMs` or a pending probe may name: one hour (docs/durable-send.md#recovery-modes,
`retry_after` ≤ 1 h).
*/
export const maxDelayMs = 3_600_000;

/**
What a committed send proved: a task (with its durable handle) or a direct message (A2A spec §3.1.1: the
answer is a Task or a Message).
*/
export const ResultSummary = z
  .strictObject({ kind: z.enum(['task', 'message']), taskId: z.optional(Id), contextId: z.optional(Id) })
  .check((payload) => {
    if (
      payload.value.kind === 'task' &&
      (payload.value.taskId === undefined || payload.value.contextId === undefined)
    ) {
      fail(payload, 'task-handle');
    }
  });
/** What a committed send proved. */
export type ResultSummary = z.infer<typeof ResultSummary>;

/**
What a known failure did to the peer: nothing was sent, or the peer rejected it before applying it
(docs/durable-send.md#classifying-a-failure).
*/
export const FailureEffect = z.enum(['not-started', 'not-applied']);
/** What a known failure did to the peer. */
export type FailureEffect = z.infer<typeof FailureEffect>;

/**
Why probing gave up on a record, which then waits for a person (docs/durable-send.md#reconciling-an-unknown):
no evidence after the allowed probes, evidence that contradicts itself (duplicates, a same-id message with
another payload, an exhausted scan), `direct-message`: the peer answered the send with a 2xx status and its
context holds no task, so its answer was a direct Message, which no probe can ever find (A2A spec §3.1.1), or
`no-list-tasks`: the peer speaks v0.3, which has no ListTasks, so no scan of the send's context can run
(docs/protocol-checks.md#v03-peers).
*/
export const UnresolvedReason = z.enum([
  'no-evidence',
  'conflicting-evidence',
  'direct-message',
  'no-list-tasks',
]);
/** Why probing gave up on a record. */
export type UnresolvedReason = z.infer<typeof UnresolvedReason>;

/**
Why a record is unknown: an ambiguous outcome after dispatch or a crash while executing, both still to be
probed, or one of the {@link UnresolvedReason}s probing gave up with.
*/
export const UnknownReason = z.enum([
  'ambiguous-outcome',
  'crashed-while-executing',
  'no-evidence',
  'conflicting-evidence',
  'direct-message',
  'no-list-tasks',
]);
/** Why a record is unknown. */
export type UnknownReason = z.infer<typeof UnknownReason>;

/**
Whether probing gave up on an unknown record with `reason` (an {@link UnresolvedReason}): it is then
`unresolved`, never due for a probe, and waits for a person.

@example
```ts
givenUp('direct-message'); // true
givenUp('ambiguous-outcome'); // false: still to be probed
```
*/
export function givenUp(reason: UnknownReason): boolean {
  return reason !== 'ambiguous-outcome' && reason !== 'crashed-while-executing';
}

const Delay = whole(1, maxDelayMs);

/**
The most task ids a `duplicated` record names: enough to show every copy a browser's re-send or a person's
retry can make, small enough for a record.
*/
export const maxDuplicateTasks = 16;

/**
The tasks that hold one send's message (docs/durable-send.md#duplicated): 2 to 16 distinct task ids, in the
order the scan found them.
*/
const DuplicateTasks = z.array(Id).check((payload) => {
  const ids = payload.value;
  if (ids.length < 2 || ids.length > maxDuplicateTasks) {
    fail(payload, 'task-count');
  } else if (new Set(ids).size !== ids.length) {
    fail(payload, 'task-repeated');
  }
});

/** The state of a record (docs/durable-send.md#states-and-revisions). */
export const LedgerState = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('prepared') }),
  z.strictObject({ status: z.literal('executing'), attemptId: Id, messageId: Id, contextId: z.optional(Id) }),
  z.strictObject({ status: z.literal('committed'), attemptId: Id, result: ResultSummary }),
  z.strictObject({
    status: z.literal('failed'),
    attemptId: z.optional(Id),
    cause: ErrorSummary,
    effect: FailureEffect,
    retryAfterMs: z.optional(Delay),
  }),
  z.strictObject({
    status: z.literal('unknown'),
    attemptId: Id,
    cause: z.optional(ErrorSummary),
    reason: UnknownReason,
    pending: z.optional(z.strictObject({ notBefore: Millis, probes: whole(1) })),
  }),
  // docs/durable-send.md#duplicated: the message was found in two or more tasks; terminal, never committed.
  z.strictObject({ status: z.literal('duplicated'), attemptId: Id, taskIds: DuplicateTasks }),
]);
/** The state of a record, discriminated by `status`. */
export type LedgerState = z.infer<typeof LedgerState>;
/** The status names. */
export type LedgerStatus = LedgerState['status'];

/** One physical dispatch of the send. */
export const Attempt = z.strictObject({
  attemptId: Id,
  messageId: Id,
  contextId: z.optional(Id),
  startedAt: Millis,
});
/** One physical dispatch of the send. */
export type Attempt = z.infer<typeof Attempt>;

/**
The transitions a caller appends (docs/durable-send.md#transitions); `create` is revision 0's and comes from
`Ledger.create`.
*/
export const LedgerTransition = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('start'), attemptId: Id, messageId: Id, contextId: z.optional(Id) }),
  z.strictObject({ type: z.literal('commit'), attemptId: Id, result: ResultSummary }),
  z.strictObject({
    type: z.literal('fail'),
    attemptId: z.optional(Id),
    cause: ErrorSummary,
    effect: FailureEffect,
    retryAfterMs: z.optional(Delay),
  }),
  z.strictObject({
    type: z.literal('unknown'),
    attemptId: Id,
    cause: z.optional(ErrorSummary),
    reason: z.enum(['ambiguous-outcome', 'crashed-while-executing']),
  }),
  z.strictObject({ type: z.literal('pending'), attemptId: Id, notBefore: Millis }),
  z.strictObject({
    type: z.literal('unresolved'),
    attemptId: Id,
    cause: z.optional(ErrorSummary),
    reason: UnresolvedReason,
  }),
  z.strictObject({ type: z.literal('reconcile-commit'), attemptId: Id, result: ResultSummary }),
  z.strictObject({
    type: z.literal('reconcile-fail'),
    attemptId: Id,
    cause: ErrorSummary,
    effect: FailureEffect,
  }),
  z.strictObject({ type: z.literal('duplicate'), attemptId: Id, taskIds: DuplicateTasks }),
]);
/** A transition a caller appends, discriminated by `type`. */
export type LedgerTransition = z.infer<typeof LedgerTransition>;

const CreateTransition = z.strictObject({ type: z.literal('create'), intent: SendIntent });
/** Revision 0's transition: the intent itself. */
export type CreateTransition = z.infer<typeof CreateTransition>;

/**
One immutable entry of a record's history. Revision 0 carries the `create` transition and no predecessor;
revision n names the revision it expected (n − 1) and the digest of that revision, and its own `digest` is
SHA-256 over the canonical JSON of the id, the revision, the time, the previous digest and the transition.
*/
export const LedgerRevision = z
  .strictObject({
    id: Id,
    revision: whole(),
    expectedRevision: z.optional(whole()),
    at: Millis,
    previousDigest: z.optional(Sha256Digest),
    transition: z.union([CreateTransition, LedgerTransition]),
    digest: Sha256Digest,
  })
  .check((payload) => {
    const { revision, expectedRevision, previousDigest, transition } = payload.value;
    const first = revision === 0;
    if (first !== (transition.type === 'create')) {
      fail(payload, 'create-first', ['transition']);
    } else if (first !== (expectedRevision === undefined) || (!first && expectedRevision !== revision - 1)) {
      fail(payload, 'expected-revision', ['expectedRevision']);
    } else if (first !== (previousDigest === undefined)) {
      fail(payload, 'previous-digest', ['previousDigest']);
    } else if (transition.type === 'create' && transition.intent.id !== payload.value.id) {
      fail(payload, 'intent-id', ['transition']);
    }
  });
/** One immutable entry of a record's history. */
export type LedgerRevision = z.infer<typeof LedgerRevision>;

/** The statuses whose state names the last attempt. */
function attemptOf(state: LedgerState): string | undefined {
  return state.status === 'prepared' ? undefined : state.attemptId;
}

/**
A record: the intent's fields, the current state, every attempt in order, and the head of its history
(`revision`, `digest`). It is what replaying its revisions gives; stores keep it for fast reads and decode it
on every read.
*/
export const LedgerRecord = z
  .strictObject({
    ...intentShape,
    state: LedgerState,
    attempts: z.array(Attempt),
    revision: whole(),
    digest: Sha256Digest,
    createdAt: Millis,
    updatedAt: Millis,
  })
  .check((payload) => {
    checkIntent(payload);
    const { state, attempts } = payload.value;
    // A state names the latest attempt; prepared, and a failure before any attempt, name none and have none.
    if (attemptOf(state) !== attempts.at(-1)?.attemptId) {
      fail(payload, 'attempt', ['state']);
    }
  });
/** A record of one logical send. */
export type LedgerRecord = z.infer<typeof LedgerRecord>;
