/**
@module
The opt-in retry policy (docs/idempotency.md#retry-policy). Without a policy nothing is ever re-sent. With
one, an attempt that failed is tried again only when the failure is transient **and** a second attempt cannot
duplicate work:

- the operation is idempotent by nature (`operations[op].idempotent`: GetTask, ListTasks, CancelTask,
  SubscribeToTask, GetExtendedAgentCard, and Get/List/Delete push config);
- or the send carries a valid idempotency key and the peer is known to honour keys (its card advertises the
  extension, or the caller asserted it), so the peer answers the retry with the first attempt's task;
- or the failure proves nothing was applied (`provesNotApplied` in `retry-loop.ts`). No HTTP status proves
  that: a proxy answers 503 (and 502, 504) after the upstream already received the request, and a 429 may be
  an application's RESOURCE_EXHAUSTED raised after part of the work ran. So an unkeyed send that may have left
  is never sent again.

A keyed send against a peer not known to honour keys is exactly as non-retryable as an unkeyed one. A
`Retry-After` longer than the policy's `maxBackoffMs` ends the retries: the peer asked for more patience than
the caller gave. A stream retries only its establishment. This module holds the policy and what a call's path
needs of it; the decisions and the loop the client runs around an attempt are in `retry-loop.ts`, which loads
with the first call a policy covers (ARCHITECTURE.md#decisions, "Code loads with its first use").
*/
import { OptionsError } from '../core/errors.js';
import type { ClientMethod } from '../protocol/operations.js';
import { keyOf } from './key.js';

/**
How a client retries. Every field is optional: `retry: {}` is the a2a-rust default policy
(docs/idempotency.md#retry-policy).

@example
```ts
const client = createClient({ card, cardDigest, pin, security, retry: { maxRetries: 5 } });
```
*/
export type RetryPolicyOptions = {
  /** Attempts after the first. @default 3 */
  readonly maxRetries?: number;
  /** The backoff before the first retry, in milliseconds. @default 500 */
  readonly initialBackoffMs?: number;
  /** The longest backoff, and the cap on a peer's `Retry-After`. @default 30000 */
  readonly maxBackoffMs?: number;
  /** Each backoff is the previous one times this. @default 2 */
  readonly backoffMultiplier?: number;
  /**
  A source of numbers in [0, 1) for the jitter; inject one to make the waits deterministic in a test. @default
  Math.random
  */
  readonly random?: () => number;
};

/** {@link RetryPolicyOptions} after validation: nothing is optional. */
export type RetryPolicy = {
  readonly maxRetries: number;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly backoffMultiplier: number;
  readonly random: () => number;
};

/**
The defaults of a retry policy: a2a-rust's `RetryPolicy::default()`, so that comparisons stay fair
(docs/idempotency.md#what-the-tests-prove, client item 7).
*/
export const defaultRetryPolicy = Object.freeze({
  maxRetries: 3,
  initialBackoffMs: 500,
  maxBackoffMs: 30_000,
  backoffMultiplier: 2,
});

// The longest delay `setTimeout` keeps: a longer one fires at once (HTML, timer initialisation steps; Node
// clamps the same way).
const MAX_TIMER_MS = 2 ** 31 - 1;

function wholeMs(option: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new OptionsError(option, 'not-a-whole-number');
  }
  if (value < 0) {
    throw new OptionsError(option, 'below-minimum', 0);
  }
  if (value > MAX_TIMER_MS) {
    throw new OptionsError(option, 'above-ceiling', MAX_TIMER_MS);
  }
  return value;
}

/**
Validates a retry policy and applies its defaults. Throws `OptionsError` naming the field (`retry.maxRetries`,
…): a count or a delay that is not a whole number, negative, or a delay beyond what `setTimeout` can wait
(2³¹−1 ms); `maxBackoffMs` below `initialBackoffMs` (`inconsistent`); a multiplier that is not a finite number
of at least 1; a `random` that is not a function.

@example
```ts
resolveRetryPolicy({}).maxRetries; // 3
```
*/
export function resolveRetryPolicy(options: RetryPolicyOptions): RetryPolicy {
  if (options === null || typeof options !== 'object') {
    throw new OptionsError('retry', 'malformed');
  }
  const maxRetries = options.maxRetries ?? defaultRetryPolicy.maxRetries;
  if (typeof maxRetries !== 'number' || !Number.isSafeInteger(maxRetries)) {
    throw new OptionsError('retry.maxRetries', 'not-a-whole-number');
  }
  if (maxRetries < 0) {
    throw new OptionsError('retry.maxRetries', 'below-minimum', 0);
  }
  const initialBackoffMs = wholeMs(
    'retry.initialBackoffMs',
    options.initialBackoffMs ?? defaultRetryPolicy.initialBackoffMs,
  );
  const maxBackoffMs = wholeMs('retry.maxBackoffMs', options.maxBackoffMs ?? defaultRetryPolicy.maxBackoffMs);
  if (maxBackoffMs < initialBackoffMs) {
    throw new OptionsError('retry.maxBackoffMs', 'inconsistent');
  }
  const backoffMultiplier = options.backoffMultiplier ?? defaultRetryPolicy.backoffMultiplier;
  if (typeof backoffMultiplier !== 'number' || !Number.isFinite(backoffMultiplier)) {
    throw new OptionsError('retry.backoffMultiplier', 'malformed');
  }
  if (backoffMultiplier < 1) {
    throw new OptionsError('retry.backoffMultiplier', 'below-minimum', 1);
  }
  const random = options.random ?? Math.random;
  if (typeof random !== 'function') {
    throw new OptionsError('retry.random', 'malformed');
  }
  return Object.freeze({ maxRetries, initialBackoffMs, maxBackoffMs, backoffMultiplier, random });
}

/**
Whether a request is a keyed send the peer will deduplicate (a2a-rust's `carries_idempotency_key`,
docs/idempotency.md#retry-policy): the peer honours keys, the operation is SendMessage or
SendStreamingMessage, and `request.message` carries a key that passes `validateKey`. `message.extensions` is
not looked at; a malformed key, or a key on any other operation, changes nothing.

@example
```ts
carriesIdempotencyKey('sendMessage', { message }, client.honoursIdempotency);
```
*/
export function carriesIdempotencyKey(
  operation: ClientMethod,
  request: unknown,
  peerHonoursIdempotency: boolean,
): boolean {
  if (!peerHonoursIdempotency || (operation !== 'sendMessage' && operation !== 'sendStreamingMessage')) {
    return false;
  }
  const message =
    typeof request === 'object' && request !== null ? (request as { message?: unknown }).message : undefined;
  if (typeof message !== 'object' || message === null) {
    return false;
  }
  const key = keyOf(message);
  return key.ok && key.value !== undefined;
}

/**
The authoritative remote codes that say the peer refused a request before applying it
(docs/durable-send.md#classifying-a-failure): the request was rejected (-32700, -32600, -32602) or the
operation was (-32601, -32004, -32005, -32008, -32009).

@example
```ts
notAppliedCodes.has(-32004); // true: UnsupportedOperation
```
*/
// The codes of ParseError, InvalidRequest, InvalidParams, MethodNotFound, UnsupportedOperation,
// ContentTypeNotSupported, ExtensionSupportRequired and VersionNotSupported in `a2aErrors`, written out: the
// path of every call reads this set, and the error table loads only with the first refusal
// (ARCHITECTURE.md#decisions, "Code loads with its first use"). retry.test.ts proves they are the table's.
export const notAppliedCodes: ReadonlySet<number> = new Set([
  -32700, -32600, -32602, -32601, -32004, -32005, -32008, -32009,
]);
