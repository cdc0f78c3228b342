import type { ClientEvent, Task } from '@surecall/client';
import { describe, expect, it } from 'vitest';
import { artifactText } from './artifacts.js';
import {
  applyStreamEvent,
  applyTaskSnapshot,
  currentState,
  emptyTaskViews,
  maxTasksKept,
  reduceTaskViews,
  type TaskSnapshot,
  type TaskViews,
} from './task-view.js';
import { base, chunkEvent, frame, statusEvent, taskEvent } from './test-helpers.js';

function fold(actions: readonly (ClientEvent | TaskSnapshot)[]): TaskViews {
  return actions.reduce(reduceTaskViews, emptyTaskViews);
}

const completed: Task = {
  id: 't-1',
  contextId: 'ctx-1',
  status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:03Z' },
  history: [
    {
      messageId: 'u-1',
      taskId: 't-1',
      contextId: 'ctx-1',
      role: 'ROLE_USER',
      parts: [{ text: 'task alpha beta' }],
    },
  ],
  artifacts: [{ artifactId: 'text', name: 'text', parts: [{ text: 'alpha beta' }] }],
};

describe('reduceTaskViews', () => {
  it('builds a streamed task: its status history, its status messages and its artifact from chunks', () => {
    const views = fold([
      frame(1, 0, 100, taskEvent('t-1', 'TASK_STATE_SUBMITTED', '2026-01-01T00:00:00Z')),
      frame(1, 1, 200, statusEvent('t-1', 'TASK_STATE_WORKING', 'working', '2026-01-01T00:00:01Z')),
      frame(1, 2, 300, chunkEvent('t-1', 'alpha ', false, false)),
      frame(1, 3, 400, chunkEvent('t-1', 'beta', true, true)),
      frame(1, 4, 500, statusEvent('t-1', 'TASK_STATE_COMPLETED', 'done', '2026-01-01T00:00:03Z')),
    ]);
    expect(views.tasks).toHaveLength(1);
    const [view] = views.tasks;
    expect(view?.statusHistory).toEqual([
      {
        state: 'TASK_STATE_SUBMITTED',
        timestamp: '2026-01-01T00:00:00Z',
        observedAt: 100,
        text: undefined,
        source: 'stream',
      },
      {
        state: 'TASK_STATE_WORKING',
        timestamp: '2026-01-01T00:00:01Z',
        observedAt: 200,
        text: 'working',
        source: 'stream',
      },
      {
        state: 'TASK_STATE_COMPLETED',
        timestamp: '2026-01-01T00:00:03Z',
        observedAt: 500,
        text: 'done',
        source: 'stream',
      },
    ]);
    expect(view?.messages.map((message) => message.messageId)).toEqual(['m-working', 'm-done']);
    expect(view?.artifacts).toHaveLength(1);
    expect(view?.artifacts[0]).toMatchObject({ chunks: 2, state: 'complete' });
    expect(artifactText(view?.artifacts[0] ?? { parts: [] })).toBe('alpha beta');
    expect(view).toMatchObject({ firstSeenAt: 100, lastSeenAt: 500 });
    expect(currentState(view ?? { statusHistory: [] })).toBe('TASK_STATE_COMPLETED');
  });

  it('does not repeat a status a snapshot confirms, and adds its messages and artifacts', () => {
    const streamed = fold([
      frame(1, 0, 100, statusEvent('t-1', 'TASK_STATE_COMPLETED', undefined, '2026-01-01T00:00:03Z')),
    ]);
    const [view] = applyTaskSnapshot(streamed, completed, 900).tasks;
    expect(view?.statusHistory).toHaveLength(1);
    expect(view?.messages.map((message) => message.messageId)).toEqual(['u-1']);
    expect(view?.artifacts[0]).toMatchObject({ state: 'snapshot', parts: [{ text: 'alpha beta' }] });
    expect(view?.lastSeenAt).toBe(900);
  });

  it('records a snapshot’s status when it is new, marked as a snapshot', () => {
    const working = fold([frame(1, 0, 100, statusEvent('t-1', 'TASK_STATE_WORKING'))]);
    const [view] = applyTaskSnapshot(working, completed, 900).tasks;
    expect(view?.statusHistory.map((entry) => [entry.state, entry.source])).toEqual([
      ['TASK_STATE_WORKING', 'stream'],
      ['TASK_STATE_COMPLETED', 'snapshot'],
    ]);
  });

  // The load failure of e2e/tests/streaming.e2e.ts: a GetTask snapshot taken before `working` arrived after
  // it.
  it('orders a stale snapshot by the agent’s timestamps, and merges a snapshot repeating a held status', () => {
    const at = (seconds: number) => `2026-01-01T00:00:0${seconds}Z`;
    const streamed = fold([
      frame(1, 0, 100, statusEvent('t-1', 'TASK_STATE_SUBMITTED', undefined, at(1))),
      frame(1, 1, 200, statusEvent('t-1', 'TASK_STATE_WORKING', undefined, at(2))),
    ]);
    const stale: Task = { ...completed, status: { state: 'TASK_STATE_SUBMITTED', timestamp: at(1) } };
    const afterStale = applyTaskSnapshot(streamed, stale, 300);
    expect(afterStale.tasks[0]?.statusHistory.map((entry) => entry.state)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
    ]);
    // Stamped between the two, with another text: a status of its own, placed where the agent's clock puts
    // it.
    const between: Task = {
      ...completed,
      status: {
        state: 'TASK_STATE_SUBMITTED',
        timestamp: '2026-01-01T00:00:01.500Z',
        message: { messageId: 's-1', role: 'ROLE_AGENT', parts: [{ text: 'queued' }] },
      },
    };
    const finished = reduceTaskViews(
      afterStale,
      frame(1, 2, 400, statusEvent('t-1', 'TASK_STATE_COMPLETED', undefined, at(3))),
    );
    const views = applyTaskSnapshot(applyTaskSnapshot(finished, between, 500), completed, 600);
    const [view] = views.tasks;
    expect(view?.statusHistory.map((entry) => [entry.state, entry.text, entry.source])).toEqual([
      ['TASK_STATE_SUBMITTED', undefined, 'stream'],
      ['TASK_STATE_SUBMITTED', 'queued', 'snapshot'],
      ['TASK_STATE_WORKING', undefined, 'stream'],
      ['TASK_STATE_COMPLETED', undefined, 'stream'],
    ]);
    expect(currentState(view ?? { statusHistory: [] })).toBe('TASK_STATE_COMPLETED');
  });

  it('treats two spellings of one instant as one status', () => {
    const streamed = fold([
      frame(1, 0, 100, statusEvent('t-1', 'TASK_STATE_COMPLETED', undefined, '2026-01-01T00:00:03.000Z')),
    ]);
    expect(applyTaskSnapshot(streamed, completed, 200).tasks[0]?.statusHistory).toHaveLength(1);
  });

  it('puts a status without a timestamp last, and merges it only into an identical last status', () => {
    const views = fold([
      frame(1, 0, 100, statusEvent('t-1', 'TASK_STATE_WORKING')),
      frame(1, 1, 200, statusEvent('t-1', 'TASK_STATE_INPUT_REQUIRED')),
      frame(1, 2, 300, statusEvent('t-1', 'TASK_STATE_WORKING')),
      frame(1, 3, 400, statusEvent('t-1', 'TASK_STATE_WORKING')),
    ]);
    expect(views.tasks[0]?.statusHistory.map((entry) => entry.state)).toEqual([
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_WORKING',
    ]);
  });

  it('keeps the artifacts held when a snapshot has none (ListTasks without includeArtifacts)', () => {
    const chunked = fold([frame(1, 0, 100, chunkEvent('t-1', 'alpha', false, true))]);
    const { artifacts: _dropped, ...withoutArtifacts } = completed;
    const [view] = applyTaskSnapshot(chunked, withoutArtifacts, 200).tasks;
    expect(view?.artifacts[0]).toMatchObject({ state: 'complete', chunks: 1 });
  });

  it('counts each message once, however often it is seen', () => {
    const once = applyTaskSnapshot(emptyTaskViews, completed, 1);
    const twice = applyTaskSnapshot(once, completed, 2);
    expect(twice.tasks[0]?.messages).toHaveLength(1);
  });

  it('files a stream message under its task, and ignores a direct reply', () => {
    const reply = { message: { messageId: 'r', role: 'ROLE_AGENT' as const, parts: [{ text: 'hi' }] } };
    expect(applyStreamEvent(emptyTaskViews, reply, 1)).toBe(emptyTaskViews);
    const filed = applyStreamEvent(
      emptyTaskViews,
      { message: { ...reply.message, taskId: 't-3', contextId: 'c' } },
      1,
    );
    expect(filed.tasks[0]).toMatchObject({ id: 't-3', contextId: 'c' });
    expect(filed.tasks[0]?.messages).toHaveLength(1);
  });

  it('keeps tasks apart, in first-seen order', () => {
    const views = fold([
      frame(1, 0, 1, statusEvent('a', 'TASK_STATE_WORKING')),
      frame(2, 0, 2, statusEvent('b', 'TASK_STATE_WORKING')),
      frame(1, 1, 3, statusEvent('a', 'TASK_STATE_COMPLETED')),
    ]);
    expect(views.tasks.map((view) => [view.id, currentState(view)])).toEqual([
      ['a', 'TASK_STATE_COMPLETED'],
      ['b', 'TASK_STATE_WORKING'],
    ]);
  });

  it('ignores every client event but stream frames', () => {
    const request: ClientEvent = {
      ...base(1, 'GetTask', 1),
      type: 'request',

      httpMethod: 'POST',
    };
    expect(reduceTaskViews(emptyTaskViews, request)).toBe(emptyTaskViews);
  });

  it('forgets the least recently seen task past the cap', () => {
    let views = emptyTaskViews;
    for (let n = 0; n <= maxTasksKept; n += 1) {
      // Task 0 is seen again late, so task 1 is the stalest when the cap is passed.
      views = applyStreamEvent(
        views,
        statusEvent(`t-${n}`, 'TASK_STATE_WORKING', undefined, String(n)),
        n === 0 ? 0 : n + 10,
      );
      if (n === maxTasksKept - 1) {
        views = applyStreamEvent(views, statusEvent('t-0', 'TASK_STATE_COMPLETED'), 10_000);
      }
    }
    expect(views.tasks).toHaveLength(maxTasksKept);
    expect(views.tasks.some((view) => view.id === 't-0')).toBe(true);
    expect(views.tasks.some((view) => view.id === 't-1')).toBe(false);
  });
});
