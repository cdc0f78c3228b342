/**
Stream resumption against the mock agent (docs/protocol-checks.md#stream-resumption): the fault lab's `cut-stream` and `premature-eof` at every frame index of a streamed task, over both bindings, end for the consumer exactly as an unbroken stream does, with the message sent once and one SubscribeToTask per break. Every wait runs on fake timers.
*/
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { isClientError } from '../src/core/errors.js';
import type { ClientEvent, StreamBreakEvent, StreamResumeEvent } from '../src/events.js';
import type { StreamResponse } from '../src/protocol/index.js';
import { assemble } from './support/assembly.js';
import { bindings, drive, mountAgent, record, server, userMessage } from './support/retry-agents.js';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
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

/** Reads a stream under fake time: what it delivered, and the error it ended with, if any. */
async function consume(
  stream: AsyncIterable<StreamResponse>,
): Promise<{ readonly delivered: StreamResponse[]; readonly error: unknown }> {
  const delivered: StreamResponse[] = [];
  let error: unknown;
  await drive(
    (async () => {
      try {
        for await (const event of stream) {
          delivered.push(event);
        }
      } catch (caught) {
        error = caught;
      }
    })(),
  );
  return { delivered, error };
}

function requests(events: readonly ClientEvent[], operation: string): number {
  return events.filter((event) => event.type === 'request' && event.operation === operation).length;
}

function breaks(events: readonly ClientEvent[]): StreamBreakEvent[] {
  return events.filter((event): event is StreamBreakEvent => event.type === 'stream-break');
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
        // Before the first event the task is unknown: the send's outcome is open, and nothing is resubscribed.
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
      expect(resumes(events)).toMatchObject([{ attempt: 1, delayMs: 0 }]);
      // The fault lab notices the cut only when the agent produces the next frame, so a break before the last frame lands on a finished task: the subscription is refused (A2A spec §3.1.6) and one GetTask supplies the final snapshot. Earlier breaks land on a running task.
      const last = afterFrames === frameCount - 1;
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
