/**
@module
Stream resumption (docs/protocol-checks.md#stream-resumption): when a SendStreamingMessage or SubscribeToTask
stream breaks after it has named its task, the client reads the rest of the task with SubscribeToTask on the
same client, never by sending the message again. This module holds the pure part: the per-call option and its
resolution, which failures are breaks, and the wait before each attempt. The loop itself runs in
`streaming.ts`; what one stream spends over all its resumptions, in `stream-budget.ts`.
*/
import { isClientError, OptionsError } from '../core/errors.js';
import { isRetryableError, retryDelayMs } from '../idempotency/retry-loop.js';
import type { StreamBreakReason } from './events.js';

/**
How a stream resumes after a break. Every field is optional: `resume: {}` (or leaving `resume` out) takes the
defaults; `resume: false` turns resumption off, so a break fails the stream as before.

@example
```ts
for await (const event of client.sendStreamingMessage({ message }, { resume: { attempts: 5 } })) render(event);
```
*/
export type ResumeOptions = {
  /**
  SubscribeToTask attempts after one break before the stream fails; a resumed stream that makes progress (an
  update beyond its snapshot with a new state or artifact, docs/protocol-checks.md#stream-resumption) earns a
  fresh count. @default 3
  */
  readonly attempts?: number;
  /**
  SubscribeToTask attempts over the whole stream, progress or not: once spent, the next break fails the
  stream. @default 32
  */
  readonly totalAttempts?: number;
  /**
  The milliseconds the whole stream may spend resuming: from each break until the resumed stream makes
  progress, summed. Once spent, the wait, the subscription or the resumed stream still without progress ends,
  and the stream fails with its break. @default 300000
  */
  readonly totalTimeMs?: number;
  /**
  The wait before the first attempt, in milliseconds; each later wait doubles it, jittered into its upper
  half. @default 250
  */
  readonly initialDelayMs?: number;
  /**
  The longest wait, and the longest `Retry-After` honoured: a peer asking for more ends the resumption. Never
  above the stream's idle timeout (`limits.streamIdleTimeoutMs`). @default 5000
  */
  readonly maxDelayMs?: number;
  /**
  A source of numbers in [0, 1) for the jitter; inject one to make the waits deterministic in a test. @default
  Math.random
  */
  readonly random?: () => number;
};

/**
{@link ResumeOptions} after validation: nothing is optional; `maxDelayMs` is already capped by the idle
timeout.
*/
export type ResumePolicy = {
  readonly attempts: number;
  readonly totalAttempts: number;
  readonly totalTimeMs: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly random: () => number;
};

/** The defaults of {@link ResumeOptions}. */
export const defaultResumePolicy = Object.freeze({
  attempts: 3,
  totalAttempts: 32,
  totalTimeMs: 300_000,
  initialDelayMs: 250,
  maxDelayMs: 5000,
});

/** More attempts than this after one break would only hide a peer that cannot serve the task. */
const MAX_ATTEMPTS = 16;
/**
The ceilings of a stream's whole resumption budget (docs/protocol-checks.md#stream-resumption): beyond them a
stream is only kept going by a peer that never finishes it.
*/
const MAX_TOTAL_ATTEMPTS = 1024;
const MAX_TOTAL_TIME_MS = 3_600_000;

function wholeNumber(option: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new OptionsError(option, 'not-a-whole-number');
  }
  if (value < min) {
    throw new OptionsError(option, 'below-minimum');
  }
  if (value > max) {
    throw new OptionsError(option, 'above-ceiling');
  }
  return value;
}

/**
Validates the `resume` call option against the stream's idle timeout and applies its defaults; `false` gives
`undefined` (no resumption). Throws `OptionsError` naming the field: `resume` when it is neither `false`,
`true` nor an object; `resume.attempts` outside 0..16, `resume.totalAttempts` outside 0..1024,
`resume.totalTimeMs` outside 0..3600000; a delay that is not a whole number of milliseconds from 0 to the idle
timeout; `maxDelayMs` below `initialDelayMs` (`inconsistent`); a `random` that is not a function.

@example
```ts
resolveResumePolicy(undefined, 60_000)?.attempts; // 3
resolveResumePolicy(false, 60_000); // undefined
```
*/
export function resolveResumePolicy(
  option: ResumeOptions | boolean | undefined,
  idleTimeoutMs: number,
): ResumePolicy | undefined {
  if (option === false) {
    return undefined;
  }
  const options: ResumeOptions = option === undefined || option === true ? {} : option;
  if (options === null || typeof options !== 'object') {
    throw new OptionsError('resume', 'malformed');
  }
  const attempts = wholeNumber(
    'resume.attempts',
    options.attempts ?? defaultResumePolicy.attempts,
    0,
    MAX_ATTEMPTS,
  );
  const totalAttempts = wholeNumber(
    'resume.totalAttempts',
    options.totalAttempts ?? defaultResumePolicy.totalAttempts,
    0,
    MAX_TOTAL_ATTEMPTS,
  );
  const totalTimeMs = wholeNumber(
    'resume.totalTimeMs',
    options.totalTimeMs ?? defaultResumePolicy.totalTimeMs,
    0,
    MAX_TOTAL_TIME_MS,
  );
  // Waits stay within the stream's deadlines: no gap longer than the idle time a quiet stream is allowed.
  const ceiling = idleTimeoutMs;
  const initialDelayMs = wholeNumber(
    'resume.initialDelayMs',
    options.initialDelayMs ?? Math.min(defaultResumePolicy.initialDelayMs, ceiling),
    0,
    ceiling,
  );
  const maxDelayMs = wholeNumber(
    'resume.maxDelayMs',
    options.maxDelayMs ?? Math.min(defaultResumePolicy.maxDelayMs, ceiling),
    0,
    ceiling,
  );
  if (maxDelayMs < initialDelayMs) {
    throw new OptionsError('resume.maxDelayMs', 'inconsistent');
  }
  const random = options.random ?? Math.random;
  if (typeof random !== 'function') {
    throw new OptionsError('resume.random', 'malformed');
  }
  return Object.freeze({ attempts, totalAttempts, totalTimeMs, initialDelayMs, maxDelayMs, random });
}

/**
Whether a failure of an established stream is a break that a resumption can repair, and which: a transport
failure other than the caller's abort (`read`, `idle`, `network`, `timeout`), or the lifecycle validator's
`premature-end`. Anything else (a peer breaking the protocol, an A2A error inside the stream, the caller's
signal) fails the stream as it is.

@example
```ts
breakOf(new TransportError('read', { dispatched: true })); // 'read'
breakOf(new TransportError('aborted', { dispatched: true })); // undefined
```
*/
export function breakOf(error: unknown): StreamBreakReason | undefined {
  if (!isClientError(error)) {
    return undefined;
  }
  if (error.kind === 'transport') {
    return error.reason === 'aborted' ? undefined : error.reason;
  }
  return error.kind === 'invalid-response' &&
    error.reason === 'lifecycle' &&
    error.violation?.rule === 'premature-end'
    ? 'premature-end'
    : undefined;
}

/**
Whether a failed resumption attempt may be tried again: the same transient failures the retry policy retries
(`isRetryableError`: transport failures, 429, 502, 503, 504). A refusal (an A2A error such as
`UnsupportedOperation` for a terminal task, A2A spec §3.1.6) is not: the client then asks GetTask once
instead.

@example
```ts
isTransientResumeFailure(new HttpProtocolError('status', { dispatched: true, httpStatus: 503 })); // true
```
*/
export function isTransientResumeFailure(error: unknown): boolean {
  return isRetryableError(error);
}

/**
The wait before resumption attempt `attempt` (1 for the first): `initialDelayMs × 2^(attempt−1)`, capped at
`maxDelayMs`, jittered into its upper half like the retry policy's backoff. A `Retry-After` on the previous
attempt's failure (`retryAfterMs`) is honoured exactly; when it is longer than `maxDelayMs` the result is
`undefined`: the peer asks for more time than the stream may stay quiet, so the resumption ends.

@example
```ts
resumeDelayMs(resolveResumePolicy({ random: () => 0 }, 60_000)!, 1, undefined); // 125
```
*/
export function resumeDelayMs(policy: ResumePolicy, attempt: number, previous: unknown): number | undefined {
  const retryAfterMs = isClientError(previous) ? previous.retryAfterMs : undefined;
  if (retryAfterMs !== undefined) {
    return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : undefined;
  }
  return retryDelayMs(
    {
      maxRetries: policy.attempts,
      initialBackoffMs: policy.initialDelayMs,
      maxBackoffMs: policy.maxDelayMs,
      backoffMultiplier: 2,
      random: policy.random,
    },
    attempt,
    undefined,
  );
}
