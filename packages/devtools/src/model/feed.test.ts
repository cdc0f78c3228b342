import type { ClientEvent } from '@surecall/client';
import { describe, expect, it } from 'vitest';
import { emptyFeed, type FeedAction, reduceFeed } from './feed.js';
import { base, frame, statusEvent, streamRequest } from './test-helpers.js';

describe('reduceFeed', () => {
  it('counts events, calls and failures, and feeds the streams and the tasks', () => {
    const actions: FeedAction[] = [
      { ...base(1, 'GetTask', 1), type: 'request', httpMethod: 'POST', taskId: 't-1' },
      { ...base(1, 'GetTask', 2), type: 'error', error: { kind: 'remote' }, durationMs: 1 },
      streamRequest(2, 3),
      frame(2, 0, 4, statusEvent('t-2', 'TASK_STATE_WORKING')),
    ];
    const state = actions.reduce(reduceFeed, emptyFeed);
    expect(state).toMatchObject({ events: 4, calls: 2, failures: 1 });
    expect(state.streams.streams.map((stream) => stream.callId)).toEqual([2]);
    expect(state.tasks.tasks.map((task) => task.id)).toEqual(['t-2']);
  });

  it('takes a snapshot into the tasks without counting it as a client event', () => {
    const state = reduceFeed(emptyFeed, {
      type: 'task-snapshot',
      at: 5,
      task: { id: 't-9', contextId: 'c', status: { state: 'TASK_STATE_WORKING' }, history: [] },
    });
    expect(state.events).toBe(0);
    expect(state.tasks.tasks[0]?.id).toBe('t-9');
    expect(state.streams).toBe(emptyFeed.streams);
  });

  it('keeps the streams object when a unary event cannot change it', () => {
    const event: ClientEvent = { ...base(1, 'ListTasks', 1), type: 'response', stream: false, durationMs: 1 };
    expect(reduceFeed(emptyFeed, event).streams).toBe(emptyFeed.streams);
  });
});
