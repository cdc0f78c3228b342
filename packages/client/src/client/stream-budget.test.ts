import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamFrame } from '../bindings/binding.js';
import { InvalidResponseError, TransportError } from '../core/errors.js';
import type { StreamResponse } from '../protocol/stream.js';
import { type ResumePolicy, resolveResumePolicy } from './resumption.js';
import {
  bounded,
  countFrame,
  createStreamBudget,
  hasRoom,
  progressed,
  spendAttempt,
} from './stream-budget.js';

afterEach(() => {
  vi.useRealTimers();
});

const ids = { taskId: 'task-1', contextId: 'context-1' };
const task = (
  state: 'TASK_STATE_WORKING' | 'TASK_STATE_SUBMITTED',
  artifactIds: string[] = [],
): StreamResponse => ({
  task: {
    id: ids.taskId,
    contextId: ids.contextId,
    status: { state },
    history: [],
    artifacts: artifactIds.map((artifactId) => ({ artifactId, parts: [{ text: 'x' }] })),
  },
});
const status = (state: 'TASK_STATE_WORKING' | 'TASK_STATE_SUBMITTED'): StreamResponse => ({
  statusUpdate: { ...ids, status: { state } },
});
const chunk = (artifactId: string, append: boolean): StreamResponse => ({
  artifactUpdate: { ...ids, artifact: { artifactId, parts: [{ text: 'x' }] }, append, lastChunk: false },
});
const frame = (wireBytes: number, event: StreamResponse = status('TASK_STATE_WORKING')): StreamFrame => ({
  event,
  raw: {},
  wireBytes,
});

function policyOf(options: { totalAttempts?: number; totalTimeMs?: number } = {}): ResumePolicy {
  const policy = resolveResumePolicy(options, 60_000);
  if (policy === undefined) {
    throw new Error('resumption is on');
  }
  return policy;
}

describe('countFrame', () => {
  it('refuses the event beyond sseEvents, over every connection, with the single-connection rule', () => {
    const budget = createStreamBudget({ sseEvents: 3, sseTotalBytes: 1000 });
    for (const _ of [1, 2, 3]) {
      countFrame(budget, frame(10));
    }
    let thrown: unknown;
    try {
      countFrame(budget, frame(10));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidResponseError);
    expect(thrown).toMatchObject({
      reason: 'sse',
      dispatched: true,
      violation: { rule: 'too-many-events', offset: 30 },
    });
  });

  it('refuses the bytes beyond sseTotalBytes at that offset', () => {
    const budget = createStreamBudget({ sseEvents: 100, sseTotalBytes: 100 });
    countFrame(budget, frame(60));
    countFrame(budget, frame(40));
    expect(() => countFrame(budget, frame(1))).toThrow(
      expect.objectContaining({ violation: { rule: 'stream-too-large', offset: 100 } }),
    );
  });
});

describe('progressed', () => {
  it('counts a new state or a new artifact, never a snapshot, a repeated state or a replaced artifact', () => {
    const budget = createStreamBudget({ sseEvents: 100, sseTotalBytes: 1000 });
    expect(progressed(budget, task('TASK_STATE_WORKING', ['a']))).toBe(false);
    expect(progressed(budget, status('TASK_STATE_WORKING'))).toBe(false);
    expect(progressed(budget, chunk('a', false))).toBe(false);
    expect(progressed(budget, chunk('a', true))).toBe(true);
    expect(progressed(budget, chunk('b', false))).toBe(true);
    expect(progressed(budget, chunk('b', false))).toBe(false);
    expect(progressed(budget, status('TASK_STATE_SUBMITTED'))).toBe(true);
    // A snapshot replaces what the consumer holds: its artifacts and state are the new measure.
    expect(progressed(budget, task('TASK_STATE_SUBMITTED'))).toBe(false);
    expect(progressed(budget, chunk('a', false))).toBe(true);
    expect(progressed(budget, status('TASK_STATE_SUBMITTED'))).toBe(false);
  });
});

describe('the attempts and the time of every resumption', () => {
  it('spends at most totalAttempts over the stream, progress or not', () => {
    const budget = createStreamBudget({ sseEvents: 100, sseTotalBytes: 1000 });
    const policy = policyOf({ totalAttempts: 2 });
    expect(spendAttempt(budget, policy, 0)).toBe(true);
    expect(progressed(budget, chunk('a', false))).toBe(true);
    expect(spendAttempt(budget, policy, 0)).toBe(true);
    expect(hasRoom(budget, policy)).toBe(false);
    expect(spendAttempt(budget, policy, 0)).toBe(false);
    expect(budget.attempts).toBe(2);
  });

  it('sums the time from each break to progress, and refuses a wait that would use up what is left', () => {
    vi.useFakeTimers();
    const budget = createStreamBudget({ sseEvents: 100, sseTotalBytes: 1000 });
    const policy = policyOf({ totalTimeMs: 1000 });
    expect(spendAttempt(budget, policy, 100)).toBe(true);
    vi.advanceTimersByTime(600);
    progressed(budget, chunk('a', false));
    expect(budget.spentMs).toBe(600);
    vi.advanceTimersByTime(10_000);
    // Time without a break is free; the next break resumes with the 400 ms left.
    expect(hasRoom(budget, policy)).toBe(true);
    expect(spendAttempt(budget, policy, 400)).toBe(false);
    expect(spendAttempt(budget, policy, 399)).toBe(true);
    vi.advanceTimersByTime(400);
    expect(hasRoom(budget, policy)).toBe(false);
  });

  it('has no room once the events or the bytes are spent: a resumed stream starts with an event', () => {
    const policy = policyOf();
    const events = createStreamBudget({ sseEvents: 1, sseTotalBytes: 1000 });
    countFrame(events, frame(10));
    expect(hasRoom(events, policy)).toBe(false);
    const bytes = createStreamBudget({ sseEvents: 10, sseTotalBytes: 10 });
    countFrame(bytes, frame(10));
    expect(hasRoom(bytes, policy)).toBe(false);
  });
});

describe('bounded', () => {
  /** A source whose reads wait for `push`, and whose `return` is watched. */
  function source() {
    const waiting: ((step: IteratorResult<StreamFrame>) => void)[] = [];
    const returned = vi.fn(async () => ({ done: true as const, value: undefined }));
    const iterator: AsyncIterableIterator<StreamFrame> = {
      next: () => new Promise((resolve) => waiting.push(resolve)),
      return: returned,
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    return { iterator, returned, push: (value: StreamFrame) => waiting.shift()?.({ done: false, value }) };
  }

  it('ends a resumed stream without progress when the time is up, with the break, and releases it', async () => {
    vi.useFakeTimers();
    const budget = createStreamBudget({ sseEvents: 100, sseTotalBytes: 1000 });
    const policy = policyOf({ totalTimeMs: 1000 });
    const broken = new TransportError('read', { dispatched: true });
    spendAttempt(budget, policy, 0);
    const peer = source();
    const stream = bounded(budget, policy, peer.iterator, broken);
    const first = stream.next();
    peer.push(frame(10, task('TASK_STATE_WORKING')));
    expect((await first).done).toBe(false);
    const second = stream.next().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(999);
    expect(peer.returned).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await second).toBe(broken);
    expect(peer.returned).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(0);
    // No time left: the next read ends at once.
    const third = stream.next().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    expect(await third).toBe(broken);
  });

  it('lets a resumed stream run on once it has made progress', async () => {
    vi.useFakeTimers();
    const budget = createStreamBudget({ sseEvents: 100, sseTotalBytes: 1000 });
    const policy = policyOf({ totalTimeMs: 1000 });
    spendAttempt(budget, policy, 0);
    const peer = source();
    const stream = bounded(budget, policy, peer.iterator, new Error('break'));
    const first = stream.next();
    peer.push(frame(10, chunk('a', false)));
    const step = await first;
    expect(step.done === false && progressed(budget, step.value.event)).toBe(true);
    const later = stream.next();
    await vi.advanceTimersByTimeAsync(5000);
    expect(vi.getTimerCount()).toBe(0);
    peer.push(frame(10));
    expect((await later).done).toBe(false);
    expect(peer.returned).not.toHaveBeenCalled();
  });
});
