import { describe, expect, it } from 'vitest';
import { seenNewestFirst, shownTaskId, type TaskChoice } from './task-choice.js';
import type { TaskView } from './task-view.js';

function seenAt(id: string, lastSeenAt: number): TaskView {
  return {
    id,
    contextId: 'ctx',
    statusHistory: [],
    messages: [],
    artifacts: [],
    firstSeenAt: 0,
    lastSeenAt,
  };
}

describe('seenNewestFirst', () => {
  it('orders the tasks by when they were last seen, newest first, leaving the views as they are', () => {
    const tasks = [seenAt('t-1', 10), seenAt('t-2', 30), seenAt('t-3', 20)];
    expect(seenNewestFirst({ tasks }).map((task) => task.id)).toEqual(['t-2', 't-3', 't-1']);
    expect(tasks.map((task) => task.id)).toEqual(['t-1', 't-2', 't-3']);
  });
});

describe('shownTaskId', () => {
  const seen = [seenAt('t-seen', 1)];
  it.each<[string, TaskChoice | undefined, string | undefined, string | undefined]>([
    ['a choice made under the current focus', { id: 't-1', focus: 't-2' }, 't-2', 't-1'],
    ['a choice made without a focus, still without one', { id: 't-1', focus: undefined }, undefined, 't-1'],
    ['the focus once a new one took over the choice', { id: 't-1', focus: 't-2' }, 't-3', 't-3'],
    ['the focus without a choice', undefined, 't-3', 't-3'],
    ['the task seen last without either', undefined, undefined, 't-seen'],
  ])('shows %s', (_case, choice, focus, shown) => {
    expect(shownTaskId(choice, focus, seen)).toBe(shown);
  });

  it('shows nothing before any task', () => {
    expect(shownTaskId(undefined, undefined, [])).toBeUndefined();
  });
});
