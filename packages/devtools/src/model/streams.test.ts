import type { ClientEvent, StreamResponse } from '@surecall/client';
import { describe, expect, it } from 'vitest';
import {
  emptyStreams,
  eventTaskId,
  frameSummary,
  maxStreamsKept,
  reduceStreams,
  type StreamsState,
} from './streams.js';
import { base, chunkEvent, frame, statusEvent, streamRequest, taskEvent } from './test-helpers.js';

function fold(events: readonly ClientEvent[], state: StreamsState = emptyStreams): StreamsState {
  return events.reduce(reduceStreams, state);
}

const opened: ClientEvent = {
  ...base(1, 'SendStreamingMessage', 1010),
  type: 'response',
  stream: true,
  durationMs: 10,
};

describe('reduceStreams', () => {
  it('follows a stream from its request to its end, with gaps, sizes and maxima', () => {
    const state = fold([
      streamRequest(1, 1000),
      opened,
      frame(1, 0, 1030, taskEvent('t-1', 'TASK_STATE_SUBMITTED'), 300),
      frame(1, 1, 1230, statusEvent('t-1', 'TASK_STATE_WORKING', 'working'), 250),
      frame(1, 2, 1250, chunkEvent('t-1', 'alpha ', false, false), 400),
      {
        ...base(1, 'SendStreamingMessage', 1260),
        type: 'stream-end',
        reason: 'complete',
        frames: 3,
        wireBytes: 950,
        durationMs: 260,
      },
    ]);
    expect(state.streams).toHaveLength(1);
    const [stream] = state.streams;
    expect(stream).toMatchObject({
      callId: 1,
      operation: 'SendStreamingMessage',
      startedAt: 1000,
      openedAt: 1010,
      endedAt: 1260,
      status: 'complete',
      taskId: 't-1',
      wireBytes: 950,
      maxFrameBytes: 400,
      maxGapMs: 200,
      lastActivityAt: 1250,
    });
    expect(stream?.frames.map((row) => [row.index, row.kind, row.gapMs, row.wireBytes, row.taskId])).toEqual([
      [0, 'task', 20, 300, 't-1'],
      [1, 'statusUpdate', 200, 250, 't-1'],
      [2, 'artifactUpdate', 20, 400, 't-1'],
    ]);
  });

  it('ignores unary calls and returns the same state', () => {
    const unary: ClientEvent = {
      ...base(7, 'GetTask', 5),
      type: 'request',

      httpMethod: 'POST',
      taskId: 't-1',
    };
    expect(reduceStreams(emptyStreams, unary)).toBe(emptyStreams);
  });

  it('records a failed stream with its public-safe error', () => {
    const error = { name: 'TransportError', kind: 'transport', reason: 'read', dispatched: true };
    const [stream] = fold([
      streamRequest(1, 1000),
      opened,
      { ...base(1, 'SendStreamingMessage', 1500), type: 'error', error, durationMs: 500 },
    ]).streams;
    expect(stream).toMatchObject({ status: 'failed', error, endedAt: 1500 });
  });

  it('starts a fresh stream for a new attempt of the same call', () => {
    const { streams } = fold([
      streamRequest(1, 1000),
      opened,
      frame(1, 0, 1030, taskEvent('t-1', 'TASK_STATE_SUBMITTED')),
      streamRequest(1, 2000),
    ]);
    expect(streams).toHaveLength(1);
    expect(streams[0]).toMatchObject({ attempt: 2, status: 'connecting', startedAt: 2000, frames: [] });
  });

  it('keeps the frames before and after a seam in one log, with the break and its resumption attempts', () => {
    const broke: ClientEvent = {
      ...base(1, 'SendStreamingMessage', 1100),
      type: 'stream-break',
      reason: 'read',
      frames: 1,
      resumable: true,
      taskId: 't-1',
      error: { name: 'TransportError', kind: 'transport', reason: 'read', dispatched: true },
    };
    const resume = (attempt: number, via: 'SubscribeToTask' | 'GetTask', time: number): ClientEvent => ({
      ...base(1, 'SendStreamingMessage', time),
      type: 'stream-resume',
      attempt,
      reason: 'read',
      delayMs: via === 'GetTask' ? 0 : 125,
      taskId: 't-1',
      via,
      error: { name: 'TransportError', kind: 'transport', reason: 'read', dispatched: true },
    });
    const resubscribed: ClientEvent = { ...streamRequest(1, 1225, 't-1') };
    const during = fold([
      streamRequest(1, 1000),
      opened,
      frame(1, 0, 1030, taskEvent('t-1', 'TASK_STATE_SUBMITTED')),
      broke,
      resume(1, 'SubscribeToTask', 1100),
    ]);
    expect(during.streams[0]).toMatchObject({
      status: 'resuming',
      seams: [
        {
          at: 1,
          reason: 'read',
          resumable: true,
          resumes: [{ attempt: 1, via: 'SubscribeToTask', delayMs: 125 }],
        },
      ],
    });
    // The resumption's own request continues the log instead of starting a new attempt.
    const after = fold(
      [
        resubscribed,
        frame(1, 1, 1300, taskEvent('t-1', 'TASK_STATE_WORKING')),
        frame(1, 2, 1400, statusEvent('t-1', 'TASK_STATE_COMPLETED')),
      ],
      during,
    );
    expect(after.streams).toHaveLength(1);
    expect(after.streams[0]).toMatchObject({ attempt: 1, status: 'open', operation: 'SendStreamingMessage' });
    expect(after.streams[0]?.frames.map((row) => row.index)).toEqual([0, 1, 2]);
  });

  it('records a break that is not resumed, then the failure', () => {
    const { streams } = fold([
      streamRequest(1, 1000),
      opened,
      {
        ...base(1, 'SendStreamingMessage', 1100),
        type: 'stream-break',
        reason: 'premature-end',
        frames: 0,
        resumable: false,
        error: {
          name: 'InvalidResponseError',
          kind: 'invalid-response',
          reason: 'lifecycle',
          dispatched: true,
        },
      },
      {
        ...base(1, 'SendStreamingMessage', 1101),
        type: 'error',
        durationMs: 101,
        error: { kind: 'invalid-response' },
      },
    ]);
    expect(streams[0]).toMatchObject({ status: 'failed', seams: [{ at: 0, resumable: false, resumes: [] }] });
  });

  it('takes the task of a subscription from its request', () => {
    const [stream] = fold([streamRequest(2, 10, 't-9')]).streams;
    expect(stream).toMatchObject({ operation: 'SubscribeToTask', taskId: 't-9', status: 'connecting' });
  });

  it('marks a stream released when the caller stopped reading', () => {
    const [stream] = fold([
      streamRequest(3, 10),
      {
        ...base(3, 'SendStreamingMessage', 20),
        type: 'stream-end',
        reason: 'released',
        frames: 0,
        wireBytes: 0,
        durationMs: 10,
      },
    ]).streams;
    expect(stream?.status).toBe('released');
  });

  it('makes a log for a stream it joined late, measuring the first gap from the first event seen', () => {
    const [stream] = fold([frame(4, 5, 2000, statusEvent('t-2', 'TASK_STATE_WORKING'), 80)]).streams;
    expect(stream).toMatchObject({ callId: 4, status: 'open', startedAt: 2000, wireBytes: 80 });
    expect(stream?.frames[0]).toMatchObject({ index: 5, gapMs: 0 });
  });

  it('keeps the newest streams, dropping the oldest finished one first', () => {
    const events: ClientEvent[] = [streamRequest(1, 0)];
    for (let call = 2; call <= maxStreamsKept + 1; call += 1) {
      events.push(streamRequest(call, call), {
        ...base(call, 'SendStreamingMessage', call),
        type: 'stream-end',
        reason: 'complete',
        frames: 0,
        wireBytes: 0,
        durationMs: 0,
      });
    }
    const { streams } = fold(events);
    expect(streams).toHaveLength(maxStreamsKept);
    // Call 1 is still connecting, so the oldest finished one (call 2) went instead.
    expect(streams[0]?.callId).toBe(1);
    expect(streams[1]?.callId).toBe(3);
  });
});

describe('eventTaskId', () => {
  it.each<[StreamResponse, string | undefined]>([
    [taskEvent('a', 'TASK_STATE_WORKING'), 'a'],
    [statusEvent('b', 'TASK_STATE_WORKING'), 'b'],
    [chunkEvent('c', 'x', false, false), 'c'],
    [{ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } }, undefined],
    [{ message: { messageId: 'm', taskId: 'd', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } }, 'd'],
  ])('%j belongs to %j', (event, taskId) => {
    expect(eventTaskId(event)).toBe(taskId);
  });
});

describe('frameSummary', () => {
  it.each<[StreamResponse, string]>([
    [taskEvent('t', 'TASK_STATE_SUBMITTED'), 'task submitted'],
    [statusEvent('t', 'TASK_STATE_INPUT_REQUIRED', 'your name?'), 'status input required “your name?”'],
    [statusEvent('t', 'TASK_STATE_COMPLETED'), 'status completed'],
    [chunkEvent('t', 'alpha ', false, false), 'artifact text: start “alpha ”'],
    [chunkEvent('t', 'gamma', true, true), 'artifact text: append, last chunk “gamma”'],
    [
      { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'echo hi' }] } },
      'message from agent “echo hi”',
    ],
    [{ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ data: 1 }] } }, 'message from agent'],
    [
      { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x'.repeat(70) }] } },
      `message from user “${'x'.repeat(60)}…”`,
    ],
  ])('%j reads %j', (event, summary) => {
    expect(frameSummary(event)).toBe(summary);
  });
});
