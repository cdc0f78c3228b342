import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  HttpProtocolError,
  InvalidResponseError,
  OptionsError,
  RemoteError,
  TransportError,
} from '../core/errors.js';
import {
  breakOf,
  defaultResumePolicy,
  isTransientResumeFailure,
  type ResumePolicy,
  resolveResumePolicy,
  resumeDelayMs,
} from './resumption.js';

const idle = 60_000;

describe('resolveResumePolicy', () => {
  it('is on by default, with the documented defaults', () => {
    expect(resolveResumePolicy(undefined, idle)).toMatchObject(defaultResumePolicy);
    expect(resolveResumePolicy(true, idle)).toMatchObject(defaultResumePolicy);
    expect(resolveResumePolicy({}, idle)).toMatchObject({
      attempts: 3,
      totalAttempts: 32,
      totalTimeMs: 300_000,
      initialDelayMs: 250,
      maxDelayMs: 5000,
    });
    expectTypeOf(resolveResumePolicy).returns.toEqualTypeOf<ResumePolicy | undefined>();
  });

  it('is off with false', () => {
    expect(resolveResumePolicy(false, idle)).toBeUndefined();
  });

  it('keeps the default waits within a short idle timeout', () => {
    expect(resolveResumePolicy({}, 100)).toMatchObject({ initialDelayMs: 100, maxDelayMs: 100 });
  });

  it.each([
    ['a string', 'yes', 'resume', 'malformed'],
    ['null', null, 'resume', 'malformed'],
    ['fractional attempts', { attempts: 1.5 }, 'resume.attempts', 'not-a-whole-number'],
    ['negative attempts', { attempts: -1 }, 'resume.attempts', 'below-minimum'],
    ['too many attempts', { attempts: 17 }, 'resume.attempts', 'above-ceiling'],
    ['fractional total attempts', { totalAttempts: 2.5 }, 'resume.totalAttempts', 'not-a-whole-number'],
    ['negative total attempts', { totalAttempts: -1 }, 'resume.totalAttempts', 'below-minimum'],
    ['too many total attempts', { totalAttempts: 1025 }, 'resume.totalAttempts', 'above-ceiling'],
    ['a total time that is no number', { totalTimeMs: '5s' }, 'resume.totalTimeMs', 'not-a-whole-number'],
    ['a negative total time', { totalTimeMs: -1 }, 'resume.totalTimeMs', 'below-minimum'],
    ['a total time beyond an hour', { totalTimeMs: 3_600_001 }, 'resume.totalTimeMs', 'above-ceiling'],
    ['a negative delay', { initialDelayMs: -1 }, 'resume.initialDelayMs', 'below-minimum'],
    ['a delay beyond the idle timeout', { maxDelayMs: idle + 1 }, 'resume.maxDelayMs', 'above-ceiling'],
    [
      'a maximum below the first wait',
      { initialDelayMs: 500, maxDelayMs: 400 },
      'resume.maxDelayMs',
      'inconsistent',
    ],
    ['a random that is no function', { random: 0.5 }, 'resume.random', 'malformed'],
  ] as const)('refuses %s', (_name, option, name, reason) => {
    let thrown: unknown;
    try {
      // @ts-expect-error: the bad values are the subject
      resolveResumePolicy(option, idle);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OptionsError);
    expect(thrown).toMatchObject({ option: name, reason });
  });
});

describe('breakOf', () => {
  it.each([
    [new TransportError('read', { dispatched: true }), 'read'],
    [new TransportError('idle', { dispatched: true }), 'idle'],
    [new TransportError('network', { dispatched: true }), 'network'],
    [new TransportError('timeout', { dispatched: true }), 'timeout'],
    [
      new InvalidResponseError('lifecycle', { dispatched: true, violation: { rule: 'premature-end' } }),
      'premature-end',
    ],
    [new TransportError('aborted', { dispatched: true }), undefined],
    [
      new InvalidResponseError('lifecycle', {
        dispatched: true,
        violation: { rule: 'event-after-terminal' },
      }),
      undefined,
    ],
    [new InvalidResponseError('json', { dispatched: true }), undefined],
    [new RemoteError({ dispatched: true, reason: 'TASK_NOT_FOUND', remoteCode: -32001 }), undefined],
    [new Error('boom'), undefined],
  ])('%s → %s', (error, reason) => {
    expect(breakOf(error)).toBe(reason);
  });
});

describe('isTransientResumeFailure', () => {
  it.each([
    [new TransportError('network', { dispatched: true }), true],
    [new HttpProtocolError('status', { dispatched: true, httpStatus: 503 }), true],
    [new HttpProtocolError('status', { dispatched: true, httpStatus: 500 }), false],
    [new RemoteError({ dispatched: true, reason: 'UNSUPPORTED_OPERATION', remoteCode: -32004 }), false],
    [new TransportError('aborted', { dispatched: true }), false],
  ])('%s → %s', (error, transient) => {
    expect(isTransientResumeFailure(error)).toBe(transient);
  });
});

describe('resumeDelayMs', () => {
  const policy = (random: () => number): ResumePolicy =>
    resolveResumePolicy({ random }, idle) ?? {
      attempts: 0,
      totalAttempts: 0,
      totalTimeMs: 0,
      initialDelayMs: 0,
      maxDelayMs: 0,
      random,
    };

  it('doubles from the first wait, jittered into the upper half, capped at the maximum', () => {
    const low = policy(() => 0);
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => resumeDelayMs(low, attempt, undefined))).toEqual([
      125, 250, 500, 1000, 2000, 2500, 2500,
    ]);
  });

  it('honours a Retry-After exactly, and ends the resumption when it asks for more than the maximum', () => {
    const within = new HttpProtocolError('status', { dispatched: true, httpStatus: 503, retryAfterMs: 2000 });
    const beyond = new HttpProtocolError('status', { dispatched: true, httpStatus: 503, retryAfterMs: 5001 });
    expect(resumeDelayMs(policy(Math.random), 1, within)).toBe(2000);
    expect(resumeDelayMs(policy(Math.random), 1, beyond)).toBeUndefined();
  });

  it('stays within [backoff/2, backoff] and never above the maximum (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 16 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (attempt, draw) => {
          const delay =
            resumeDelayMs(
              policy(() => draw),
              attempt,
              undefined,
            ) ?? -1;
          const backoff = Math.min(5000, 250 * 2 ** (attempt - 1));
          return delay >= Math.ceil(backoff / 2) && delay <= backoff;
        },
      ),
    );
  });
});
