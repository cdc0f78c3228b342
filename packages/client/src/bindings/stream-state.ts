/**
@module
The state of one stream's lifecycle validator (`bindings/stream.ts`, docs/protocol-checks.md#stream-lifecycle) and the transitions that are not an event's own check (those are in `bindings/stream-events.ts`): how the stream ends, how it continues across a resumption seam (docs/protocol-checks.md#stream-resumption), and how the first failure stays final.
*/

import { InvalidResponseError } from '../core/errors.js';
import {
  isInterrupted,
  isTerminal,
  type SendMessageRequest,
  type Task,
  type TaskState,
} from '../protocol/index.js';

/** Where a stream comes from: a streaming send (checked against its request) or a subscription to one task. */
export type StreamOrigin =
  | { readonly kind: 'send'; readonly request: SendMessageRequest }
  | { readonly kind: 'subscribe'; readonly taskId: string };

/** `terminal` or `interrupted` once the task has reached such a state (and not left it); `undefined` otherwise. */
export type Settled = 'terminal' | 'interrupted' | undefined;

/** Everything one validator holds between two events. */
export type StreamState = {
  readonly origin: StreamOrigin;
  /** `seam`: a task stream that broke, waiting for the snapshot its resumption starts with. */
  phase: 'awaiting-first' | 'message' | 'task' | 'seam';
  owner: { readonly taskId: string; readonly contextId: string };
  settled?: Settled;
  /** artifactId → sealed (its `lastChunk` was seen). */
  readonly artifacts: Map<string, boolean>;
  failure?: unknown;
  prematureEnd: boolean;
  /** Once a seam was crossed, the timestamp of the last status delivered: older updates are repeats. */
  resumed: boolean;
  lastStatusTime?: string | undefined;
};

/** The state of a stream before its first event. */
export function createStreamState(origin: StreamOrigin): StreamState {
  return {
    origin,
    phase: 'awaiting-first',
    owner: { taskId: '', contextId: '' },
    artifacts: new Map(),
    prematureEnd: false,
    resumed: false,
  };
}

/** How far a task in `state` has come. */
export function settledOf(state: TaskState): Settled {
  return isTerminal(state) ? 'terminal' : isInterrupted(state) ? 'interrupted' : undefined;
}

/** Holds a Task snapshot's artifacts as known and open to appends. */
export function holdArtifacts(state: StreamState, task: Task): void {
  for (const artifact of task.artifacts ?? []) {
    state.artifacts.set(artifact.artifactId, false);
  }
}

/** Whether the stream may end now: after a direct Message, or once the task is terminal or interrupted. */
export function isComplete(state: StreamState): boolean {
  return state.phase === 'message' || (state.phase === 'task' && state.settled !== undefined);
}

/** Runs one check; its failure becomes the stream's, which every later check throws again. */
export function guarded<T>(state: StreamState, run: () => T): T {
  if (state.failure !== undefined) {
    throw state.failure;
  }
  try {
    return run();
  } catch (error) {
    state.failure = error;
    throw error;
  }
}

/** The end of the body: throws on a premature end (marking it, so that a seam may repair it). */
export function checkEnd(state: StreamState): void {
  if (!isComplete(state)) {
    state.prematureEnd = true;
    // A2A spec §3.1.2: a task stream closes once the task is terminal (or interrupted, §11.7); earlier is a cut.
    throw new InvalidResponseError('lifecycle', {
      dispatched: true,
      violation: { rule: 'premature-end' },
    });
  }
}

/** The stream broke and continues from a fresh snapshot: throws the stream's failure unless it is none or a premature end. */
export function crossSeam(state: StreamState): void {
  if (state.failure !== undefined && !state.prematureEnd) {
    throw state.failure;
  }
  state.failure = undefined;
  state.prematureEnd = false;
  // A subscription that broke before its first event simply starts again; a task stream waits for its snapshot.
  if (state.phase === 'task') {
    state.phase = 'seam';
    state.resumed = true;
  }
}
