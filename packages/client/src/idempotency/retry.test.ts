/**
The retry policy's pure parts and its loop: the client items of docs/idempotency.md#what-the-tests-prove
(53–65), the options, the `Retry-After` header, and what a failed call reports across attempts. Time is fake
throughout.
*/
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ClientOptions, resolveClientOptions } from '../client/options.js';
import {
  AuthorizationError,
  CapabilityError,
  HttpProtocolError,
  InvalidResponseError,
  OptionsError,
  RemoteError,
  RequestError,
  TransportError,
} from '../core/errors.js';
import { parseAgentCard } from '../protocol/decode.js';
import { a2aErrors } from '../protocol/error-codes.js';
import type { ClientMethod } from '../protocol/operations.js';
import { operations } from '../protocol/operations.js';
import { parseRetryAfter } from '../wire/retry-after.js';
import { idempotencyMetadataKey } from './key.js';
import {
  carriesIdempotencyKey,
  defaultRetryPolicy,
  notAppliedCodes,
  type RetryPolicy,
  type RetryPolicyOptions,
  resolveRetryPolicy,
} from './retry.js';
import {
  isFinalError,
  isRetryableError,
  provesNotApplied,
  type RetryNotice,
  retryDelayMs,
  runWithRetry,
  shouldRetry,
} from './retry-loop.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const sent = { dispatched: true } as const;
const KEY = '8f14e45fceea167a5a36dedd4bea2543';

describe('notAppliedCodes', () => {
  it('are the codes of the eight pre-application errors of the table, written out so the path of a send does not load it', () => {
    expect(notAppliedCodes).toEqual(
      new Set(
        [
          a2aErrors.ParseError,
          a2aErrors.InvalidRequest,
          a2aErrors.InvalidParams,
          a2aErrors.MethodNotFound,
          a2aErrors.UnsupportedOperation,
          a2aErrors.ContentTypeNotSupported,
          a2aErrors.ExtensionSupportRequired,
          a2aErrors.VersionNotSupported,
        ].map(({ code }) => code),
      ),
    );
  });
});

describe('resolveRetryPolicy', () => {
  it('takes a2a-rust’s defaults: 3 retries, 500 ms, ×2, 30 s', () => {
    expect(resolveRetryPolicy({})).toEqual({ ...defaultRetryPolicy, random: Math.random });
    expect(defaultRetryPolicy).toEqual({
      maxRetries: 3,
      initialBackoffMs: 500,
      maxBackoffMs: 30_000,
      backoffMultiplier: 2,
    });
  });

  it.each<[string, RetryPolicyOptions, string]>([
    ['a fractional count', { maxRetries: 1.5 }, 'retry.maxRetries: not-a-whole-number'],
    ['a negative count', { maxRetries: -1 }, 'retry.maxRetries: below-minimum'],
    ['a fractional backoff', { initialBackoffMs: 0.5 }, 'retry.initialBackoffMs: not-a-whole-number'],
    ['a negative backoff', { initialBackoffMs: -1 }, 'retry.initialBackoffMs: below-minimum'],
    ['a cap beyond setTimeout', { maxBackoffMs: 2 ** 31 }, 'retry.maxBackoffMs: above-ceiling'],
    [
      'a cap below the start',
      { initialBackoffMs: 1000, maxBackoffMs: 999 },
      'retry.maxBackoffMs: inconsistent',
    ],
    ['a multiplier below 1', { backoffMultiplier: 0.5 }, 'retry.backoffMultiplier: below-minimum'],
    [
      'an infinite multiplier',
      { backoffMultiplier: Number.POSITIVE_INFINITY },
      'retry.backoffMultiplier: malformed',
    ],
    ['a random that is no function', { random: 0.5 as unknown as () => number }, 'retry.random: malformed'],
  ])('refuses %s', (_name, options, expected) => {
    let refusal = 'accepted';
    try {
      resolveRetryPolicy(options);
    } catch (error) {
      refusal = error instanceof OptionsError ? `${error.option}: ${error.reason}` : 'unexpected';
    }
    expect(refusal).toBe(expected);
  });

  it('accepts the edges: no retries, no backoff, a constant backoff', () => {
    expect(
      resolveRetryPolicy({ maxRetries: 0, initialBackoffMs: 0, maxBackoffMs: 0, backoffMultiplier: 1 }),
    ).toMatchObject({
      maxRetries: 0,
      initialBackoffMs: 0,
      maxBackoffMs: 0,
      backoffMultiplier: 1,
    });
  });
});

const card = parseAgentCard({
  name: 'Agent',
  description: 'An agent.',
  supportedInterfaces: [
    { url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  version: '1.0',
  capabilities: { extensions: [{ uri: 'https://a2a-rust.com/extensions/idempotency/v1' }] },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 'S', description: 'A skill.', tags: ['t'] }],
});
const bare = parseAgentCard({ ...structuredClone(card), capabilities: {} });
const base: ClientOptions = {
  card,
  cardDigest: `sha256:${'0'.repeat(64)}`,
  pin: { binding: 'JSONRPC', url: 'https://agent.example/a2a' },
  security: { kind: 'anonymous' },
};

describe('the client options', () => {
  it('leave retry off unless a policy is given', () => {
    expect(resolveClientOptions(base).retry).toBeUndefined();
    expect(resolveClientOptions({ ...base, retry: { maxRetries: 5 } }).retry).toMatchObject({
      maxRetries: 5,
    });
  });

  it('read the peer’s honouring off the card, unless asserted either way', () => {
    expect(resolveClientOptions(base).honoursIdempotency).toBe(true);
    expect(resolveClientOptions({ ...base, card: bare }).honoursIdempotency).toBe(false);
    expect(
      resolveClientOptions({ ...base, card: bare, peerHonoursIdempotency: true }).honoursIdempotency,
    ).toBe(true);
    expect(resolveClientOptions({ ...base, peerHonoursIdempotency: false }).honoursIdempotency).toBe(false);
  });

  it('refuse a non-boolean assertion and a bad policy, naming the option', () => {
    expect(() =>
      resolveClientOptions({ ...base, peerHonoursIdempotency: 'yes' as unknown as boolean }),
    ).toThrow(expect.objectContaining({ option: 'peerHonoursIdempotency', reason: 'malformed' }));
    expect(() => resolveClientOptions({ ...base, retry: null as unknown as RetryPolicyOptions })).toThrow(
      expect.objectContaining({ option: 'retry', reason: 'malformed' }),
    );
  });
});

describe('the operations idempotent by nature (docs/idempotency.md#retry-policy; docs/idempotency.md#what-the-tests-prove, item 53)', () => {
  it('are exactly the reads, cancel, subscribe and the push-config reads and delete', () => {
    const idempotent = (Object.keys(operations) as ClientMethod[]).filter(
      (name) => operations[name].idempotent,
    );
    expect(idempotent.sort()).toEqual(
      [
        'cancelTask',
        'deleteTaskPushNotificationConfig',
        'getExtendedAgentCard',
        'getTask',
        'getTaskPushNotificationConfig',
        'listTaskPushNotificationConfigs',
        'listTasks',
        'subscribeToTask',
      ].sort(),
    );
  });
});

const http = (
  status: number,
  reason: 'status' | 'error-envelope' | 'result-on-error-status' | 'redirect' = 'status',
) => new HttpProtocolError(reason, { ...sent, httpStatus: status });

describe('isRetryableError (docs/idempotency.md#retry-policy)', () => {
  it.each<[string, unknown, boolean]>([
    ['a lost connection', new TransportError('network', sent), true],
    ['a deadline', new TransportError('timeout', sent), true],
    ['a broken read', new TransportError('read', sent), true],
    ['a stalled stream', new TransportError('idle', sent), true],
    ['the caller’s abort', new TransportError('aborted', sent), false],
    ['429', http(429), true],
    ['502', http(502, 'error-envelope'), true],
    ['503', http(503), true],
    ['504', http(504), true],
    ['500', http(500), false],
    ['400', http(400), false],
    ['a redirect', http(302, 'redirect'), false],
    ['a remote error in a 503', new RemoteError({ ...sent, httpStatus: 503 }), true],
    ['-32603 in a 200', new RemoteError({ ...sent, httpStatus: 200, remoteCode: -32603 }), false],
    ['an oversized 503 body', new InvalidResponseError('body-too-large', { ...sent, httpStatus: 503 }), true],
    ['a schema violation', new InvalidResponseError('schema', { ...sent, httpStatus: 200 }), false],
    ['a refused request', new RequestError('invalid-params'), false],
    ['an unavailable token', new AuthorizationError('unavailable'), false],
    ['a missing capability', new CapabilityError('streaming'), false],
    ['anything else', new Error('boom'), false],
  ])('%s: %s', (_name, error, expected) => {
    expect(isRetryableError(error)).toBe(expected);
  });
});

describe('provesNotApplied (docs/idempotency.md#retry-policy; docs/durable-send.md#classifying-a-failure)', () => {
  it.each<[string, unknown, boolean]>([
    ['a refusal before dispatch', new RequestError('invalid-params'), true],
    ['a token provider that failed', new AuthorizationError('unavailable'), true],
    [
      '-32602, authoritative',
      new RemoteError({ ...sent, remoteCode: -32602, reason: 'INVALID_PARAMS' }),
      true,
    ],
    ['-32004, authoritative', new RemoteError({ ...sent, remoteCode: -32004 }), true],
    // A proxy answers 503 after the upstream already received the request.
    ['503, empty', http(503), false],
    ['503, a proxy page', http(503, 'error-envelope'), false],
    ['503, an A2A error', new RemoteError({ ...sent, httpStatus: 503 }), false],
    // RESOURCE_EXHAUSTED maps to 429 and may come after part of the work ran.
    ['429, empty', http(429), false],
    ['429, an A2A error', new RemoteError({ ...sent, httpStatus: 429 }), false],
    ['503 carrying a JSON-RPC result', http(503, 'result-on-error-status'), false],
    ['502', http(502), false],
    ['504', http(504), false],
    ['a timeout', new TransportError('timeout', sent), false],
    ['-32001, authoritative', new RemoteError({ ...sent, remoteCode: -32001 }), false],
    [
      'INVALID_PARAMS named only by its ErrorInfo',
      new RemoteError({ ...sent, reason: 'INVALID_PARAMS' }),
      false,
    ],
    ['anything else', new Error('boom'), false],
  ])('%s: %s', (_name, error, expected) => {
    expect(provesNotApplied(error)).toBe(expected);
  });
});

describe('isFinalError (docs/idempotency.md#what-the-tests-prove, client item 4)', () => {
  it.each<[string, unknown, boolean]>([
    ['-32602, a conflict', new RemoteError({ ...sent, remoteCode: -32602, reason: 'INVALID_PARAMS' }), true],
    [
      '-32004, keys refused',
      new RemoteError({ ...sent, remoteCode: -32004, reason: 'UNSUPPORTED_OPERATION' }),
      true,
    ],
    [
      '-32001, the key outlived its task',
      new RemoteError({ ...sent, remoteCode: -32001, reason: 'TASK_NOT_FOUND' }),
      true,
    ],
    [
      'TASK_NOT_FOUND named only by its ErrorInfo',
      new RemoteError({ ...sent, httpStatus: 503, reason: 'TASK_NOT_FOUND' }),
      true,
    ],
    ['-32603', new RemoteError({ ...sent, remoteCode: -32603, reason: 'INTERNAL_ERROR' }), false],
    ['an unidentified 503', new RemoteError({ ...sent, httpStatus: 503 }), false],
    ['a transport failure', new TransportError('network', sent), false],
  ])('%s: %s', (_name, error, expected) => {
    expect(isFinalError(error)).toBe(expected);
  });
});

const keyed = { message: { messageId: 'm', metadata: { [idempotencyMetadataKey]: KEY } } };

describe('carriesIdempotencyKey (docs/idempotency.md#retry-policy; docs/idempotency.md#what-the-tests-prove, items 59–61)', () => {
  it.each<[string, ClientMethod, unknown, boolean, boolean]>([
    ['a keyed send to an honouring peer', 'sendMessage', keyed, true, true],
    ['a keyed streaming send to an honouring peer', 'sendStreamingMessage', keyed, true, true],
    ['a keyed send to a peer not known to honour', 'sendMessage', keyed, false, false],
    ['an unkeyed send to an honouring peer', 'sendMessage', { message: { messageId: 'm' } }, true, false],
    ['a key on GetTask', 'getTask', { id: 't', message: keyed.message }, true, false],
    [
      'the key "short"',
      'sendMessage',
      { message: { metadata: { [idempotencyMetadataKey]: 'short' } } },
      true,
      false,
    ],
    ['the key ""', 'sendMessage', { message: { metadata: { [idempotencyMetadataKey]: '' } } }, true, false],
    [
      'a key with a space',
      'sendMessage',
      { message: { metadata: { [idempotencyMetadataKey]: `${KEY} x` } } },
      true,
      false,
    ],
    ['the key 42', 'sendMessage', { message: { metadata: { [idempotencyMetadataKey]: 42 } } }, true, false],
    ['no message at all', 'sendMessage', {}, true, false],
  ])('%s', (_name, operation, request, honours, expected) => {
    expect(carriesIdempotencyKey(operation, request, honours)).toBe(expected);
  });
});

describe('shouldRetry (docs/idempotency.md#retry-policy; docs/idempotency.md#what-the-tests-prove, items 54–62)', () => {
  const timeout = new TransportError('timeout', sent);
  it.each<[string, ClientMethod, boolean, unknown, boolean]>([
    ['an unkeyed send after a timeout', 'sendMessage', false, timeout, false],
    ['an unkeyed send after a reset', 'sendMessage', false, new TransportError('network', sent), false],
    ['an unkeyed send after a 502', 'sendMessage', false, http(502), false],
    ['an unkeyed send after a 504', 'sendMessage', false, http(504), false],
    ['an unkeyed send after a 429', 'sendMessage', false, http(429), false],
    ['an unkeyed send after a 503', 'sendMessage', false, http(503), false],
    ['an unkeyed send after a 503 proxy page', 'sendMessage', false, http(503, 'error-envelope'), false],
    ['a keyed send to an honouring peer after a 503', 'sendMessage', true, http(503), true],
    ['GetTask after a 503', 'getTask', false, http(503), true],
    ['a keyed send to an honouring peer after a timeout', 'sendMessage', true, timeout, true],
    ['a keyed streaming send after a 504', 'sendStreamingMessage', true, http(504), true],
    ['a new push config after a 503', 'createTaskPushNotificationConfig', false, http(503), false],
    ['a new push config after a 502', 'createTaskPushNotificationConfig', false, http(502), false],
    ['GetTask after a timeout', 'getTask', false, timeout, true],
    ['GetTask after a 500', 'getTask', false, http(500), false],
    [
      'GetTask after a 503 that names TaskNotFound',
      'getTask',
      false,
      new RemoteError({ ...sent, httpStatus: 503, reason: 'TASK_NOT_FOUND' }),
      false,
    ],
    [
      'a keyed send after a 503 that names UnsupportedOperation',
      'sendMessage',
      true,
      new RemoteError({ ...sent, httpStatus: 503, reason: 'UNSUPPORTED_OPERATION' }),
      false,
    ],
  ])('%s: %s', (_name, operation, isKeyed, error, expected) => {
    expect(shouldRetry(operation, isKeyed, error)).toBe(expected);
  });
});

function policyOf(options: RetryPolicyOptions = {}): RetryPolicy {
  return resolveRetryPolicy(options);
}

describe('retryDelayMs (docs/idempotency.md#retry-policy)', () => {
  it('jitters each backoff into [b/2, b), b = initial × multiplier^(n−1) capped', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.double({ min: 1, max: 4, noNaN: true }),
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (initial, extra, multiplier, retry, draw) => {
          const policy = policyOf({
            initialBackoffMs: initial,
            maxBackoffMs: initial + extra,
            backoffMultiplier: multiplier,
            random: () => draw,
          });
          const backoff = Math.min(initial + extra, Math.floor(initial * multiplier ** (retry - 1)));
          const delay = retryDelayMs(policy, retry, new TransportError('timeout', sent)) ?? Number.NaN;
          return (
            Number.isInteger(delay) &&
            (backoff < 2 ? delay === backoff : delay >= backoff / 2 && delay < backoff)
          );
        },
      ),
    );
  });

  it('doubles from 500 ms at the defaults: the floor and the top of each range', () => {
    const error = new TransportError('network', sent);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(policyOf({ random: () => 0 }), n, error))).toEqual([
      250, 500, 1000, 2000,
    ]);
    expect([1, 2, 3].map((n) => retryDelayMs(policyOf({ random: () => 0.999_999 }), n, error))).toEqual([
      499, 999, 1999,
    ]);
    expect(retryDelayMs(policyOf({ random: () => 0 }), 20, error)).toBe(15_000);
  });

  it('keeps a stray random source inside the range', () => {
    const error = new TransportError('network', sent);
    expect(retryDelayMs(policyOf({ random: () => 7 }), 1, error)).toBe(499);
    expect(retryDelayMs(policyOf({ random: () => -3 }), 1, error)).toBe(250);
  });

  it('lets a Retry-After take precedence up to the cap, and gives up beyond it (item 63)', () => {
    const policy = policyOf({ random: () => 0, maxBackoffMs: 10_000 });
    const asked = (ms: number) =>
      new HttpProtocolError('status', { ...sent, httpStatus: 503, retryAfterMs: ms });
    expect(retryDelayMs(policy, 1, asked(2000))).toBe(2000);
    expect(retryDelayMs(policy, 3, asked(0))).toBe(0);
    expect(retryDelayMs(policy, 1, asked(10_000))).toBe(10_000);
    expect(retryDelayMs(policy, 1, asked(10_001))).toBeUndefined();
    expect(retryDelayMs(policy, 1, asked(60_000))).toBeUndefined();
  });

  it('three jittered 500 ms gaps total 750–1500 ms (item 64)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
          minLength: 3,
          maxLength: 3,
        }),
        (draws) => {
          const queue = [...draws];
          const policy = policyOf({ backoffMultiplier: 1, random: () => queue.shift() ?? 0 });
          const total = [1, 2, 3].reduce(
            (sum, n) => sum + (retryDelayMs(policy, n, new TransportError('timeout', sent)) ?? Number.NaN),
            0,
          );
          return total >= 750 && total < 1500;
        },
      ),
    );
  });
});

describe('parseRetryAfter (RFC 9110, §10.2.3)', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:27:00 GMT');
  it.each<[string, string | null, number | undefined]>([
    ['delay-seconds', '120', 120_000],
    ['zero', '0', 0],
    ['surrounding spaces', ' 3 ', 3000],
    ['an IMF-fixdate a minute ahead', 'Wed, 21 Oct 2015 07:28:00 GMT', 60_000],
    ['an IMF-fixdate in the past', 'Wed, 21 Oct 2015 07:00:00 GMT', 0],
    ['no header', null, undefined],
    ['a negative number', '-5', undefined],
    ['a fraction', '1.5', undefined],
    ['two values', '1, 2', undefined],
    ['an obsolete RFC 850 date', 'Wednesday, 21-Oct-15 07:28:00 GMT', undefined],
    ['an impossible date', 'Wed, 39 Oct 2015 07:28:00 GMT', undefined],
    ['too many seconds to count', '9'.repeat(20), undefined],
    ['text', 'soon', undefined],
  ])('%s', (_name, value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

/** An attempt function that fails with each of `errors` in turn, then succeeds with `'done'`. */
function script(...errors: unknown[]) {
  const started: number[] = [];
  const attempt = vi.fn(async (number: number) => {
    started.push(Date.now());
    const error = errors[number - 1];
    if (error !== undefined) {
      throw error;
    }
    return 'done';
  });
  return { attempt, started };
}

async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await vi.runAllTimersAsync();
  return outcome;
}

describe('runWithRetry', () => {
  const timeout = () => new TransportError('timeout', sent);
  const run = (overrides: Partial<Parameters<typeof runWithRetry>[0]> = {}) => ({
    policy: policyOf({ random: () => 0 }),
    operation: 'sendMessage' as ClientMethod,
    keyed: true,
    signal: undefined,
    onRetry: () => undefined,
    ...overrides,
  });

  it('makes the first attempt at once, with no sleep before it (item 65)', async () => {
    const { attempt } = script();
    const pending = runWithRetry(run(), attempt);
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(await pending).toBe('done');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an unkeyed send after a timeout: exactly one attempt (items 55, 57)', async () => {
    const { attempt } = script(timeout());
    const { error } = await settle(runWithRetry(run({ keyed: false }), attempt));
    expect(error).toBeInstanceOf(TransportError);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('a keyed send to an honouring peer: two timeouts, then success, three attempts (item 56)', async () => {
    const { attempt, started } = script(timeout(), timeout());
    const notices: RetryNotice[] = [];
    const { value } = await settle(runWithRetry(run({ onRetry: (notice) => notices.push(notice) }), attempt));
    expect(value).toBe('done');
    expect(attempt).toHaveBeenCalledTimes(3);
    expect(notices.map(({ attempt: number, delayMs }) => [number, delayMs])).toEqual([
      [1, 250],
      [2, 500],
    ]);
    expect(started.slice(1).map((time, index) => time - (started[index] ?? 0))).toEqual([250, 500]);
  });

  it('no policy: one attempt, whatever the failure', async () => {
    const { attempt } = script(timeout());
    await settle(runWithRetry(run({ policy: undefined }), attempt));
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('stops after maxRetries and throws the last error', async () => {
    const last = http(503);
    const { attempt } = script(http(503), http(503), last);
    const { error } = await settle(runWithRetry(run({ policy: policyOf({ maxRetries: 2 }) }), attempt));
    expect(error).toBe(last);
    expect(attempt).toHaveBeenCalledTimes(3);
  });

  it('when a later attempt fails before dispatch, throws the earlier one that left the outcome open', async () => {
    const lost = new TransportError('network', sent);
    const { attempt } = script(lost, new AuthorizationError('unavailable'));
    const { error } = await settle(runWithRetry(run(), attempt));
    expect(error).toBe(lost);
  });

  it.each<[string, unknown]>([
    [
      'keys refused (-32004)',
      new RemoteError({ ...sent, remoteCode: -32004, reason: 'UNSUPPORTED_OPERATION' }),
    ],
    ['a key conflict (-32602)', new RemoteError({ ...sent, remoteCode: -32602, reason: 'INVALID_PARAMS' })],
  ])(
    'after an open outcome, a last error that proves nothing was applied yields to it: %s',
    async (_name, last) => {
      const lost = new TransportError('timeout', sent);
      const { attempt } = script(lost, last);
      const { error } = await settle(runWithRetry(run(), attempt));
      expect(attempt).toHaveBeenCalledTimes(2);
      expect(error).toBe(lost);
    },
  );

  it('after an open outcome, TaskNotFound (-32001) is thrown as it is: the task is gone, do not resend', async () => {
    const gone = new RemoteError({ ...sent, remoteCode: -32001, reason: 'TASK_NOT_FOUND' });
    const { attempt } = script(new TransportError('network', sent), gone);
    const { error } = await settle(runWithRetry(run(), attempt));
    expect(error).toBe(gone);
  });

  it('after open outcomes, a last 503 is itself open and is thrown as it is', async () => {
    const last = http(503);
    const { attempt } = script(new TransportError('timeout', sent), http(503), http(503), last);
    const { error } = await settle(runWithRetry(run(), attempt));
    expect(attempt).toHaveBeenCalledTimes(4);
    expect(error).toBe(last);
  });

  it.each<[string, unknown]>([
    ['503', http(503)],
    ['503 with a proxy page', http(503, 'error-envelope')],
    ['429', http(429)],
    ['503 with an A2A error', new RemoteError({ ...sent, httpStatus: 503, retryAfterMs: 1000 })],
  ])('an unkeyed send answered %s: one attempt, and its open outcome is thrown', async (_name, answered) => {
    const notices: RetryNotice[] = [];
    const { attempt } = script(answered);
    const { error } = await settle(
      runWithRetry(run({ keyed: false, onRetry: (notice) => notices.push(notice) }), attempt),
    );
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(notices).toEqual([]);
    expect(error).toBe(answered);
    expect(error).toMatchObject({ dispatched: true });
  });

  it('a Retry-After beyond the cap ends the retries at once; one at the cap is waited out exactly', async () => {
    const asked = (ms: number) =>
      new HttpProtocolError('status', { ...sent, httpStatus: 503, retryAfterMs: ms });
    const policy = policyOf({ random: () => 0, maxBackoffMs: 30_000 });
    const beyond = asked(30_001);
    const first = script(beyond);
    const notices: RetryNotice[] = [];
    const { error } = await settle(
      runWithRetry(
        run({ policy, operation: 'getTask', onRetry: (notice) => notices.push(notice) }),
        first.attempt,
      ),
    );
    expect(error).toBe(beyond);
    expect(first.attempt).toHaveBeenCalledTimes(1);
    expect(notices).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    const second = script(asked(30_000));
    const { value } = await settle(runWithRetry(run({ policy, operation: 'getTask' }), second.attempt));
    expect(value).toBe('done');
    expect((second.started[1] ?? 0) - (second.started[0] ?? 0)).toBe(30_000);
  });

  it('an abort during a backoff clears its timer and ends the wait at once', async () => {
    const controller = new AbortController();
    const start = Date.now();
    const { attempt } = script(timeout());
    const onRetry = () => {
      setTimeout(() => controller.abort(), 100);
    };
    const { error } = await settle(runWithRetry(run({ signal: controller.signal, onRetry }), attempt));
    expect(Date.now() - start).toBe(100);
    expect(error).toMatchObject({ kind: 'transport', reason: 'aborted', dispatched: true });
    expect((error as Error).cause).toBeInstanceOf(TransportError);
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an already aborted signal never starts a backoff', async () => {
    const controller = new AbortController();
    controller.abort();
    const { attempt } = script(http(503));
    const { error } = await settle(
      runWithRetry(run({ operation: 'getTask', signal: controller.signal }), attempt),
    );
    // The 503 may have been applied (a proxy may have forwarded it): the abort reports an open outcome.
    expect(error).toMatchObject({ kind: 'transport', reason: 'aborted', dispatched: true });
    expect(attempt).toHaveBeenCalledTimes(1);
  });
});
