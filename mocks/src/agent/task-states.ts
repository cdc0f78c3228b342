import { interruptedStates, terminalStates } from '@surecall/client/protocol';
import type { TaskState } from './wire.js';

// The agent's terminal and interrupted states are the client's own sets (A2A spec §3.2, TaskState), so the
// two can never disagree on when a task is over.
export { terminalStates };

/**
True for the states a blocking send waits for and a stream closes on: terminal or interrupted (A2A spec
§3.2.2, §11.7).
*/
export function isSettled(state: TaskState): boolean {
  return terminalStates.has(state) || interruptedStates.has(state);
}
