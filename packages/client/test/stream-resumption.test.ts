/**
Stream resumption against the mock agent (docs/protocol-checks.md#stream-resumption): the fault lab's
`cut-stream` and `premature-eof` at every frame index of a streamed task, over both bindings, end for the
consumer exactly as an unbroken stream does, with the message sent once and one SubscribeToTask per break.
Every wait runs on fake timers.
*/
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientEvent, StreamResumeEvent } from '../src/client/events.js';
import { isClientError } from '../src/core/errors.js';
import type { JsonObject } from '../src/protocol/json-value.js';
import type { StreamResponse } from '../src/protocol/stream.js';
import { assemble } from './support/assembly.js';
import { craft, type Piece } from './support/crafted-stream.js';
import {
  bindings,
  breaks,
  consume,
  drive,
  mountAgent,
  record,
  server,
  userMessage,
} from './support/retry-agents.js';

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(() => vi.useRealTimers());
afterEach(() => {
  vi.useRealTimers();
  server.resetHandlers();
});
afterAll(() => server.close());

/** The streamed task: SUBMITTED, WORKING, three artifact chunks, COMPLETED. */
const words = 'task alpha beta gamma';
const frameCount = 6;
const indices = Array.from({ length: frameCount }, (_, index) => index);

function requests(events: readonly ClientEvent[], operation: string): number {
  return events.filter((event) => event.type === 'request' && event.operation === operation).length;
}

function resumes(events: readonly ClientEvent[]): StreamResumeEvent[] {
  return events.filter((event): event is StreamResumeEvent => event.type === 'stream-resume');
}

function frameIndices(events: readonly ClientEvent[]): number[] {
  return events.flatMap((event) => (event.type === 'stream-frame' ? [event.index] : []));
}

describe.each(bindings)('resuming a broken stream over %s', (binding) => {
  it('an unbroken stream of the task: the reference the broken ones must match', async () => {
    const mock = await mountAgent({ stepMs: 50 });
    const client = mock.client(binding);
    vi.useFakeTimers();
    const { delivered, error } = await consume(client.sendStreamingMessage({ message: userMessage(words) }));
    expect(error).toBeUndefined();
    expect(delivered).toHaveLength(frameCount);
    expect(assemble(delivered)).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: { text: 'alpha beta gamma' },
    });
  });

  describe.each(['cut-stream', 'premature-eof'] as const)('%s', (kind) => {
    it.each(indices)('after %i frames of a streaming send', async (afterFrames) => {
      const mock = await mountAgent({ stepMs: 50 });
      const client = mock.client(binding);
      const events = record(client);
      vi.useFakeTimers();
      mock.faults.set({ kind, operation: 'SendStreamingMessage', afterFrames });
      const message = userMessage(words);

      const { delivered, error } = await consume(
        client.sendStreamingMessage({ message }, { resume: { initialDelayMs: 0 } }),
      );

      // The agent ran the message once, whatever happened to the stream.
      expect(mock.agent.executions.of(message.messageId)).toBe(1);
      expect(requests(events, 'SendStreamingMessage')).toBe(1);
      if (afterFrames === 0) {
        // Before the first event the task is unknown: the send's outcome is open, and nothing is
        // resubscribed.
        expect(isClientError(error)).toBe(true);
        expect(error).toMatchObject(
          kind === 'cut-stream'
            ? { kind: 'transport', reason: 'read', dispatched: true }
            : { kind: 'invalid-response', reason: 'lifecycle', dispatched: true },
        );
        expect(requests(events, 'SubscribeToTask')).toBe(0);
        expect(breaks(events)).toMatchObject([{ resumable: false, frames: 0 }]);
        expect(events.at(-1)).toMatchObject({ type: 'error' });
        return;
      }
      expect(error).toBeUndefined();
      expect(assemble(delivered)).toMatchObject({
        status: { state: 'TASK_STATE_COMPLETED' },
        artifacts: { text: 'alpha beta gamma' },
      });
      expect(breaks(events)).toMatchObject([
        { reason: kind === 'cut-stream' ? 'read' : 'premature-end', frames: afterFrames, resumable: true },
      ]);
      expect(requests(events, 'SubscribeToTask')).toBe(breaks(events).length);
      const last = afterFrames === frameCount - 1;
      expect(resumes(events)).toMatchObject([
        { attempt: 1, delayMs: 0, via: 'SubscribeToTask' },
        ...(last
          ? [{ attempt: 1, via: 'GetTask', error: { kind: 'remote', reason: 'UNSUPPORTED_OPERATION' } }]
          : []),
      ]);
      // The fault lab notices the cut only when the agent produces the next frame, so a break before the last
      // frame lands on a finished task: the subscription is refused (A2A spec §3.1.6) and one GetTask
      // supplies the final snapshot. Earlier breaks land on a running task.
      expect(requests(events, 'GetTask')).toBe(last ? 1 : 0);
      if (last) {
        expect(delivered.at(-1)).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' } } });
      }
      // The frames before and after the seam are one sequence.
      expect(frameIndices(events)).toEqual(delivered.map((_, index) => index));
      expect(events.at(-1)).toMatchObject({
        type: 'stream-end',
        reason: 'complete',
        frames: delivered.length,
      });
    });

    it.each(indices)('after %i frames of a subscription', async (afterFrames) => {
      const mock = await mountAgent({ stepMs: 50 });
      const client = mock.client(binding);
      const message = userMessage(words);
      // Fake time from before the send: every step of the agent's script then waits for it.
      vi.useFakeTimers();
      const sent = await drive(client.sendMessage({ message, configuration: { returnImmediately: true } }));
      const taskId = 'task' in sent ? sent.task.id : '';
      const events = record(client);
      mock.faults.set({ kind, operation: 'SubscribeToTask', afterFrames });

      const { delivered, error } = await consume(
        client.subscribeToTask({ id: taskId }, { resume: { initialDelayMs: 0 } }),
      );

      expect(error).toBeUndefined();
      expect(mock.agent.executions.of(message.messageId)).toBe(1);
      expect(assemble(delivered)).toMatchObject({
        taskId,
        status: { state: 'TASK_STATE_COMPLETED' },
        artifacts: { text: 'alpha beta gamma' },
      });
      // A subscription names its task from the start, so even a break before its first event is resumed.
      expect(breaks(events)).toHaveLength(1);
      expect(requests(events, 'SubscribeToTask')).toBe(1 + breaks(events).length);
      expect(frameIndices(events)).toEqual(delivered.map((_, index) => index));
    });
  });

  it('two breaks, the second on the resumed subscription: two SubscribeToTask calls, one execution', async () => {
    const mock = await mountAgent({ stepMs: 50 });
    const client = mock.client(binding);
    const events = record(client);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });
    mock.faults.set({ kind: 'cut-stream', operation: 'SubscribeToTask', afterFrames: 2 });
    const message = userMessage(words);

    const { delivered, error } = await consume(
      client.sendStreamingMessage({ message }, { resume: { initialDelayMs: 0 } }),
    );

    expect(error).toBeUndefined();
    expect(assemble(delivered)).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: { text: 'alpha beta gamma' },
    });
    expect(breaks(events)).toHaveLength(2);
    expect(requests(events, 'SubscribeToTask')).toBe(2);
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
    // Progress after the first seam earned a fresh count: the second resumption is attempt 1 again.
    expect(resumes(events).map(({ attempt }) => attempt)).toEqual([1, 1]);
  });
});

describe.each(bindings)('resumption scenarios over %s', (binding) => {
  it('a task that finishes during the gap: the subscription is refused and one GetTask ends the stream with the final snapshot', async () => {
    const mock = await mountAgent({ stepMs: 50 });
    const client = mock.client(binding);
    const observer = mock.client(binding);
    const events = record(client);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });
    const message = userMessage(words);
    const iterator = client.sendStreamingMessage({ message })[Symbol.asyncIterator]();
    const delivered: StreamResponse[] = [];
    for (const _ of [1, 2]) {
      const next = await drive(iterator.next());
      delivered.push(next.value as StreamResponse);
    }
    const taskId = assemble(delivered).taskId ?? '';
    // The consumer holds still while the agent finishes the task; the break is read only afterwards.
    for (let state = ''; state !== 'TASK_STATE_COMPLETED'; ) {
      state = (await drive(observer.getTask({ id: taskId }))).status.state;
    }
    for (let next = await drive(iterator.next()); next.done !== true; next = await drive(iterator.next())) {
      delivered.push(next.value);
    }

    expect(delivered.at(-1)).toMatchObject({
      task: { id: taskId, status: { state: 'TASK_STATE_COMPLETED' } },
    });
    expect(assemble(delivered).artifacts).toEqual({ text: 'alpha beta gamma' });
    expect(requests(events, 'SubscribeToTask')).toBe(1);
    expect(requests(events, 'GetTask')).toBe(1);
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
    expect(events.at(-1)).toMatchObject({ type: 'stream-end', reason: 'complete', frames: 3 });
  });

  it('a peer that refuses SubscribeToTask while the task runs: the stream fails with its break, after one GetTask', async () => {
    const mock = await mountAgent({ stepMs: 50 });
    const client = mock.client(binding);
    const events = record(client);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });
    craft(binding, mock.origin, 'SubscribeToTask', 'refuse');
    const message = userMessage('slow 5');

    const { delivered, error } = await consume(client.sendStreamingMessage({ message }));

    expect(delivered).toHaveLength(2);
    expect(error).toMatchObject({ kind: 'transport', reason: 'read', dispatched: true });
    expect(requests(events, 'SubscribeToTask')).toBe(1);
    expect(requests(events, 'GetTask')).toBe(1);
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'transport', reason: 'read' } });
  });

  it("a refused attempt's Retry-After is waited exactly before the next attempt", async () => {
    const mock = await mountAgent({ stepMs: 50 });
    const client = mock.client(binding);
    const events = record(client);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });
    mock.faults.set({
      kind: 'status-after',
      operation: 'SubscribeToTask',
      status: 503,
      retryAfterSeconds: 2,
    });
    const message = userMessage('slow 5');

    const { delivered, error } = await consume(
      client.sendStreamingMessage({ message }, { resume: { random: () => 0 } }),
    );

    expect(error).toBeUndefined();
    expect(assemble(delivered).status?.state).toBe('TASK_STATE_COMPLETED');
    // The fault lab answers 503 only once the subscription's stream is over, so the second attempt finds the
    // task finished: refused (A2A spec §3.1.6), then read by GetTask.
    expect(resumes(events)).toMatchObject([
      { attempt: 1, delayMs: 125, reason: 'read', via: 'SubscribeToTask', error: { reason: 'read' } },
      {
        attempt: 2,
        delayMs: 2000,
        reason: 'read',
        via: 'SubscribeToTask',
        error: { httpStatus: 503, retryAfterMs: 2000 },
      },
      { attempt: 2, delayMs: 0, via: 'GetTask', error: { reason: 'UNSUPPORTED_OPERATION' } },
    ]);
    const sent = events.filter((event) => event.type === 'request' && event.operation === 'SubscribeToTask');
    expect((sent[1]?.time ?? 0) - (sent[0]?.time ?? 0)).toBeGreaterThanOrEqual(2000);
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
  });

  it('the attempts run out: three failed subscriptions, then the break', async () => {
    const mock = await mountAgent({ stepMs: 50 });
    const client = mock.client(binding);
    const events = record(client);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });
    mock.faults.set({ kind: 'drop-before', operation: 'SubscribeToTask', count: 3 });

    const { error } = await consume(client.sendStreamingMessage({ message: userMessage('slow 5') }));

    expect(error).toMatchObject({ kind: 'transport', reason: 'read' });
    expect(resumes(events).map(({ attempt }) => attempt)).toEqual([1, 2, 3]);
    expect(requests(events, 'SubscribeToTask')).toBe(3);
    expect(requests(events, 'GetTask')).toBe(0);
  });

  it('resume: false keeps the break an error, and nothing is subscribed', async () => {
    const mock = await mountAgent({ stepMs: 50 });
    const client = mock.client(binding);
    const events = record(client);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });

    const { error } = await consume(
      client.sendStreamingMessage({ message: userMessage(words) }, { resume: false }),
    );

    expect(error).toMatchObject({ kind: 'transport', reason: 'read' });
    expect(breaks(events)).toMatchObject([{ resumable: false, frames: 2 }]);
    expect(requests(events, 'SubscribeToTask')).toBe(0);
  });

  it("the caller's abort during the wait ends the stream as aborted, before any subscription", async () => {
    const mock = await mountAgent({ stepMs: 50 });
    const client = mock.client(binding);
    const events = record(client);
    const controller = new AbortController();
    client.events.subscribe((event) => {
      if (event.type === 'stream-resume') {
        controller.abort();
      }
    });
    vi.useFakeTimers();
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });

    const { error } = await consume(
      client.sendStreamingMessage({ message: userMessage(words) }, { signal: controller.signal }),
    );

    expect(error).toMatchObject({ kind: 'transport', reason: 'aborted', dispatched: true });
    expect(requests(events, 'SubscribeToTask')).toBe(0);
  });
});

/**
SSE answers written by hand, for what the mock agent never does: keep-alive comments, silence, a break after
an interrupted state.
*/
describe.each(bindings)('hand-written streams over %s', (binding) => {
  const ids = { id: 'task-h', contextId: 'context-h' };
  const taskAt = (state: string, artifactText?: string): JsonObject => ({
    task: {
      ...ids,
      status: { state },
      ...(artifactText === undefined
        ? {}
        : { artifacts: [{ artifactId: 'text', parts: [{ text: artifactText }] }] }),
    },
  });
  const statusAt = (state: string): JsonObject => ({
    statusUpdate: { taskId: ids.id, contextId: ids.contextId, status: { state } },
  });
  const chunkOf = (text: string, append: boolean, lastChunk: boolean): JsonObject => ({
    artifactUpdate: {
      taskId: ids.id,
      contextId: ids.contextId,
      artifact: { artifactId: 'text', parts: [{ text }] },
      append,
      lastChunk,
    },
  });

  it('an idle stream that only sends comments for three minutes breaks on the idle bound a minute after its last event: resumed, and the snapshot repairs the artifact', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding);
    const events = record(client);
    vi.useFakeTimers();
    const keepAlive = Array.from({ length: 9 }, (): Piece[] => [
      { waitMs: 20_000 },
      { comment: true },
    ]).flat();
    craft(binding, mock.origin, 'SendStreamingMessage', [
      { event: taskAt('TASK_STATE_WORKING') },
      { event: chunkOf('alpha ', false, false) },
      ...keepAlive,
      { fail: true },
    ]);
    craft(binding, mock.origin, 'SubscribeToTask', [
      { event: taskAt('TASK_STATE_WORKING', 'alpha beta ') },
      { event: chunkOf('gamma', true, true) },
      { event: statusAt('TASK_STATE_COMPLETED') },
    ]);

    const started = Date.now();
    const { delivered, error } = await consume(client.sendStreamingMessage({ message: userMessage(words) }));

    expect(error).toBeUndefined();
    // docs/protocol-checks.md#sse-decoding: the 60 s idle bound is the wait between events, and comments do
    // not restart it; the break comes a minute in, long before the reset.
    expect(breaks(events)).toMatchObject([{ reason: 'idle', frames: 2, resumable: true, taskId: ids.id }]);
    expect((breaks(events)[0]?.time ?? 0) - started).toBeGreaterThanOrEqual(60_000);
    expect((breaks(events)[0]?.time ?? 0) - started).toBeLessThan(61_000);
    expect(assemble(delivered)).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: { text: 'alpha beta gamma' },
    });
    expect(frameIndices(events)).toEqual([0, 1, 2, 3, 4]);
  });

  it('a silent stream breaks on the idle bound and is resumed', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding, { limits: { streamIdleTimeoutMs: 1000 } });
    const events = record(client);
    vi.useFakeTimers();
    craft(binding, mock.origin, 'SendStreamingMessage', [
      { event: taskAt('TASK_STATE_WORKING') },
      { waitMs: 5000 },
    ]);
    craft(binding, mock.origin, 'SubscribeToTask', [
      { event: taskAt('TASK_STATE_WORKING') },
      { event: statusAt('TASK_STATE_COMPLETED') },
    ]);

    const { delivered, error } = await consume(client.sendStreamingMessage({ message: userMessage(words) }));

    expect(error).toBeUndefined();
    expect(breaks(events)).toMatchObject([{ reason: 'idle', resumable: true }]);
    // The waits stay within the stream's idle bound.
    expect(resumes(events)[0]?.delayMs).toBeLessThanOrEqual(1000);
    expect(assemble(delivered).status?.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a break after an interrupted state is not resumed', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding);
    const events = record(client);
    vi.useFakeTimers();
    craft(binding, mock.origin, 'SendStreamingMessage', [
      { event: taskAt('TASK_STATE_WORKING') },
      {
        event: {
          statusUpdate: {
            taskId: ids.id,
            contextId: ids.contextId,
            status: {
              state: 'TASK_STATE_AUTH_REQUIRED',
              message: {
                messageId: 'm-auth',
                ...{ taskId: ids.id, contextId: ids.contextId },
                role: 'ROLE_AGENT',
                parts: [{ text: 'sign in' }],
              },
            },
          },
        },
      },
      { fail: true },
    ]);

    const { delivered, error } = await consume(client.sendStreamingMessage({ message: userMessage(words) }));

    expect(error).toMatchObject({ kind: 'transport', reason: 'read' });
    expect(delivered).toHaveLength(2);
    expect(breaks(events)).toMatchObject([{ resumable: false, frames: 2 }]);
    expect(requests(events, 'SubscribeToTask')).toBe(0);
  });

  it('a resumed stream that repeats status updates older than the last one delivered: they are not delivered again', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding);
    const events = record(client);
    vi.useFakeTimers();
    const stamped = (state: string, timestamp: string): JsonObject => ({
      statusUpdate: { taskId: ids.id, contextId: ids.contextId, status: { state, timestamp } },
    });
    craft(binding, mock.origin, 'SendStreamingMessage', [
      { event: taskAt('TASK_STATE_SUBMITTED') },
      { event: stamped('TASK_STATE_WORKING', '2026-01-01T00:00:02Z') },
      { fail: true },
    ]);
    craft(binding, mock.origin, 'SubscribeToTask', [
      {
        event: {
          task: { ...ids, status: { state: 'TASK_STATE_WORKING', timestamp: '2026-01-01T00:00:02Z' } },
        },
      },
      { event: stamped('TASK_STATE_SUBMITTED', '2026-01-01T00:00:01Z') },
      { event: stamped('TASK_STATE_COMPLETED', '2026-01-01T00:00:03Z') },
    ]);

    const { delivered, error } = await consume(client.sendStreamingMessage({ message: userMessage(words) }));

    expect(error).toBeUndefined();
    expect(delivered.map((event) => Object.keys(event)[0])).toEqual([
      'task',
      'statusUpdate',
      'task',
      'statusUpdate',
    ]);
    expect(assemble(delivered).status?.state).toBe('TASK_STATE_COMPLETED');
    expect(frameIndices(events)).toEqual([0, 1, 2, 3]);
  });

  it('a break before the task id is known is an error, and nothing is subscribed', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding);
    const events = record(client);
    vi.useFakeTimers();
    craft(binding, mock.origin, 'SendStreamingMessage', [{ comment: true }, { fail: true }]);

    const { delivered, error } = await consume(client.sendStreamingMessage({ message: userMessage(words) }));

    expect(delivered).toHaveLength(0);
    expect(error).toMatchObject({ kind: 'transport', reason: 'read', dispatched: true });
    expect(breaks(events)).toMatchObject([{ resumable: false, frames: 0 }]);
    expect(breaks(events)[0]).not.toHaveProperty('taskId');
    expect(requests(events, 'SubscribeToTask')).toBe(0);
  });
});
