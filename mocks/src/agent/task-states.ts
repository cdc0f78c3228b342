import type { TaskState } from './wire.js';

/** States after which a task never changes again (A2A spec §3.2, TaskState). */
export const terminalStates: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/** States in which a task waits for something outside it: the client's input, or a credential. */
export const interruptedStates: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

/** True for the states a blocking send waits for and a stream closes on: terminal or interrupted (A2A spec §3.2.2, §11.7). */
export function isSettled(state: TaskState): boolean {
  return terminalStates.has(state) || interruptedStates.has(state);
}
