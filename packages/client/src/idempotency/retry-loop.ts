/**
@module
The retry decisions and the loop the client runs around an attempt under its opt-in retry policy (`retry.ts`;
docs/idempotency.md#retry-policy). Every decision here is pure; {@link runWithRetry} is the loop. It loads
with the first call a policy covers (ARCHITECTURE.md#decisions, "Code loads with its first use"), so a client
without a policy never downloads it.
*/
import { isClientError, RequestError, TransportError } from '../core/errors.js';
import { pause } from '../core/pause.js';
import { a2aErrors } from '../protocol/error-codes.js';
import { methods } from '../protocol/methods.js';
import type { ClientMethod } from '../protocol/operations.js';
import { notAppliedCodes, type RetryPolicy } from './retry.js';

/**
The statuses a2a-rust treats as transient (docs/idempotency.md#retry-policy): throttled, bad gateway,
unavailable, gateway timeout.
*/
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
Whether a failure is transient (docs/idempotency.md#retry-policy): a transport failure (`network`, `timeout`,
`read`, `idle`; never the caller's own `aborted`), or an answer with HTTP status 429, 502, 503 or 504.
Everything else is surfaced at once: a refusal before dispatch, any other status (500 included), any A2A error
in a 2xx answer, any answer that broke the protocol.

@example
```ts
isRetryableError(new TransportError('timeout', { dispatched: true })); // true
isRetryableError(new HttpProtocolError('status', { dispatched: true, httpStatus: 500 })); // false
```
*/
export function isRetryableError(error: unknown): boolean {
  if (!isClientError(error)) {
    return false;
  }
  if (error.kind === 'transport') {
    return error.reason !== 'aborted';
  }
  return (
    (error.kind === 'remote' || error.kind === 'http-protocol' || error.kind === 'invalid-response') &&
    error.httpStatus !== undefined &&
    TRANSIENT_STATUSES.has(error.httpStatus)
  );
}

/**
Whether a failure proves the request applied nothing, so that even a send that creates state may be sent
again: it never left (`dispatched: false`), or the peer refused it with an authoritative pre-application code
({@link notAppliedCodes}, the set the durable agent classifies as `not-applied`;
docs/durable-send.md#classifying-a-failure).

Nothing else proves it, an HTTP status least of all: an intermediary answers 503 after the upstream already
received the request (Envoy's `upstream connect error or disconnect/reset before headers`), 502 and 504
likewise, and a 429 may be an application's RESOURCE_EXHAUSTED (google.rpc.Code, which AIP-193 maps to 429)
raised after part of the work ran. A 429 or 503 is still transient (an idempotent or keyed call retries it);
it is no longer a reason to send an unkeyed send twice (docs/idempotency.md#retry-policy).

@example
```ts
provesNotApplied(new HttpProtocolError('status', { dispatched: true, httpStatus: 503 })); // false
provesNotApplied(new RemoteError({ dispatched: true, remoteCode: -32602 })); // true
```
*/
export function provesNotApplied(error: unknown): boolean {
  return (
    isClientError(error) &&
    (!error.dispatched ||
      (error.kind === 'remote' && error.remoteCode !== undefined && notAppliedCodes.has(error.remoteCode)))
  );
}

const FINAL_CODES: ReadonlySet<number> = new Set([
  a2aErrors.InvalidParams.code,
  a2aErrors.UnsupportedOperation.code,
  a2aErrors.TaskNotFound.code,
]);
const FINAL_REASONS: ReadonlySet<string> = new Set([
  a2aErrors.InvalidParams.reason,
  a2aErrors.UnsupportedOperation.reason,
  a2aErrors.TaskNotFound.reason,
]);

/**
Whether a remote error ends a keyed send for good, whatever its status
(docs/idempotency.md#what-the-tests-prove, client item 4): -32602 InvalidParams (the key is malformed, or held
by another message), -32004 UnsupportedOperation (the peer cannot honour keys) and -32001 TaskNotFound (the
key outlived its task: resending would run it twice). Named by an authoritative code or by the error's
ErrorInfo reason.

@example
```ts
isFinalError(new RemoteError({ dispatched: true, remoteCode: -32004, reason: 'UNSUPPORTED_OPERATION' })); // true
```
*/
export function isFinalError(error: unknown): boolean {
  return (
    isClientError(error) &&
    error.kind === 'remote' &&
    ((error.remoteCode !== undefined && FINAL_CODES.has(error.remoteCode)) || FINAL_REASONS.has(error.reason))
  );
}

/**
The retry decision for one failed attempt (docs/idempotency.md#retry-policy): the failure is transient and not
final, and the operation is idempotent, or the request is a keyed send to an honouring peer (`keyed`, from
`carriesIdempotencyKey` in `retry.ts`), or the failure proves nothing was applied.

@example
```ts
shouldRetry('sendMessage', false, new TransportError('timeout', { dispatched: true })); // false: ambiguous
shouldRetry('sendMessage', true, new TransportError('timeout', { dispatched: true })); // true: the peer deduplicates
shouldRetry('sendMessage', false, new HttpProtocolError('status', { dispatched: true, httpStatus: 503 })); // false: a proxy may have forwarded it
```
*/
export function shouldRetry(operation: ClientMethod, keyed: boolean, error: unknown): boolean {
  if (!isRetryableError(error) || isFinalError(error)) {
    return false;
  }
  return methods[operation].idempotent || keyed || provesNotApplied(error);
}

/**
How long to wait before retry number `retry` (1 for the first): the backoff
`initialBackoffMs × backoffMultiplier^(retry−1)`, capped at `maxBackoffMs`, with full jitter into [backoff/2,
backoff) in whole milliseconds (a backoff under 2 ms is taken as it is). A `retryAfterMs` on the error takes
precedence; one beyond `maxBackoffMs` gives `undefined`: give up, since retrying sooner than the peer asked is
what it just refused, and waiting longer is more than the caller allowed (docs/idempotency.md#retry-policy).

@example
```ts
retryDelayMs(resolveRetryPolicy({ random: () => 0 }), 2, error); // 500: the 1000 ms backoff, jittered to its lower half
retryDelayMs(resolveRetryPolicy({}), 1, errorWithRetryAfter(60_000)); // undefined: past the 30 s cap
```
*/
export function retryDelayMs(policy: RetryPolicy, retry: number, error: unknown): number | undefined {
  const retryAfterMs = isClientError(error) ? error.retryAfterMs : undefined;
  if (retryAfterMs !== undefined) {
    return retryAfterMs <= policy.maxBackoffMs ? retryAfterMs : undefined;
  }
  const backoff = Math.min(
    policy.maxBackoffMs,
    Math.floor(policy.initialBackoffMs * policy.backoffMultiplier ** (retry - 1)),
  );
  const low = Math.ceil(backoff / 2);
  const span = backoff - low;
  // A random source that strays outside [0, 1) cannot push the wait outside its range.
  const draw = Math.min(Math.max(policy.random(), 0), 1);
  return span === 0 ? backoff : low + Math.min(span - 1, Math.floor(draw * span));
}

/** One retry about to happen, as the client reports it. */
export type RetryNotice = {
  /** The attempt that failed, from 1; the next one is `attempt + 1`. */
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: unknown;
};

/** What {@link runWithRetry} needs besides the attempt itself. */
export type RetryRun = {
  /** `undefined`: a single attempt, nothing is ever re-sent. */
  readonly policy: RetryPolicy | undefined;
  readonly operation: ClientMethod;
  /** From `carriesIdempotencyKey` in `retry.ts`. */
  readonly keyed: boolean;
  /** The caller's signal: it also ends a backoff. */
  readonly signal: AbortSignal | undefined;
  /** Told before each backoff starts. */
  readonly onRetry: (notice: RetryNotice) => void;
};

/**
Runs `attempt` (given its number, from 1) until it succeeds, the policy says stop, or the caller aborts.

Stops at the first failure the policy does not retry, after `maxRetries` retries, or when the peer's
`Retry-After` is beyond `maxBackoffMs`. What a failed call throws never claims less than the attempts proved:
when the last attempt proves it applied nothing (it was never sent, or was refused with a pre-application code
such as -32004) but an earlier attempt left the outcome open, that earlier error is thrown, since the request
may have been applied then; otherwise the last error is. A caller's abort during a backoff throws
`TransportError('aborted', dispatched: true)` when an earlier attempt left the outcome open, and
`RequestError('aborted')` when none did; the last attempt's error is its `cause`.

@example
```ts
const task = await runWithRetry(
  { policy, operation: 'getTask', keyed: false, signal, onRetry: (notice) => log(notice) },
  () => binding.unary('getTask', request, context),
);
```
*/
export async function runWithRetry<T>(run: RetryRun, attempt: (attempt: number) => Promise<T>): Promise<T> {
  const { policy, operation, keyed, signal, onRetry } = run;
  let open: unknown;
  for (let number = 1; ; number += 1) {
    try {
      return await attempt(number);
    } catch (error) {
      if (isClientError(error) && !provesNotApplied(error)) {
        open = error;
      }
      const settled = open !== undefined && provesNotApplied(error) ? open : error;
      if (policy === undefined || number > policy.maxRetries || !shouldRetry(operation, keyed, error)) {
        throw settled;
      }
      const delayMs = retryDelayMs(policy, number, error);
      if (delayMs === undefined) {
        throw settled;
      }
      onRetry({ attempt: number, delayMs, error });
      if (!(await pause(delayMs, signal))) {
        throw open === undefined
          ? new RequestError('aborted', { cause: error })
          : new TransportError('aborted', { dispatched: true, cause: error });
      }
    }
  }
}
