import { describe, expect, it } from 'vitest';
import { isSettled } from './task-states.js';
import type { TaskState } from './wire.js';

describe('isSettled', () => {
  it.each<[TaskState, boolean]>([
    ['TASK_STATE_SUBMITTED', false],
    ['TASK_STATE_WORKING', false],
    ['TASK_STATE_COMPLETED', true],
    ['TASK_STATE_FAILED', true],
    ['TASK_STATE_CANCELED', true],
    ['TASK_STATE_REJECTED', true],
    ['TASK_STATE_INPUT_REQUIRED', true],
    ['TASK_STATE_AUTH_REQUIRED', true],
  ])('%s → %s', (state, settled) => {
    expect(isSettled(state)).toBe(settled);
  });
});
