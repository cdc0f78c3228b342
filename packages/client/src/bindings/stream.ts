/**
@module
The lifecycle validator of one SendStreamingMessage or SubscribeToTask stream
(docs/protocol-checks.md#stream-lifecycle): every decoded event goes through `accept`, the end of the body
through `end`.

States: awaiting the first event, then either a completed direct-Message stream or a task stream that tracks
the task's ids, whether it has settled, and each artifact's chunk state (known ids, sealed or not).

Reasons of the `InvalidResponseError`s it throws (all `dispatched: true`):
- `identity`: an event of another task or context, a status message that is not the agent's for this task, a
  first event that is not the task or message the request asked for;
- `stream`: events out of order: an update before the first Task, a second Task snapshot, a Message inside a
  task stream or on a subscription, anything after a Message, an `append` chunk for an artifact that was never
  started or already sealed by `lastChunk`;
- `lifecycle`: an event after a terminal state, or an end before the task settled (a premature end).

Decisions where the sources differ:
- After a terminal state nothing more is accepted, not even the last Task snapshot that A2A spec §11.7 lets a
  server send before closing: the stream lifecycle rules reject it (docs/protocol-checks.md#stream-lifecycle),
  and neither the official `@a2a-js/sdk` 1.3.0 server (its captured streams end with the terminal
  `statusUpdate`) nor `mocks/` sends one.
- An interrupted state (`INPUT_REQUIRED`, `AUTH_REQUIRED`) lets the stream end, but does not forbid further
  events of the same task, which recompute completion: A2A spec §7.6.1 says agents SHOULD keep the stream open
  after `AUTH_REQUIRED`, and the official server does exactly that, so the stricter rule of StateKnot's A2A
  client (docs/durable-send.md#the-stateknot-profile) would refuse a conformant peer. A later non-settled
  status makes an end premature again.
- A subscription's first Task passes the whole Task identity check with the subscribed id (status message and
  history belong to it), not only the id comparison StateKnot makes.
- The first failure is final: any later `accept` or `end` throws that same error again, with one exception: a
  premature end is a break that `seam` repairs.

Across a resumption seam (docs/protocol-checks.md#stream-resumption): `seam()` marks where a broken stream
continues with a SubscribeToTask (or a GetTask snapshot). The next event must be a Task snapshot of the same
task and context; it replaces the artifacts held (a snapshot's artifacts are whole, so appends continue from
them) and the settled state, unless its status is older than the last status delivered: then it is a
regression, `accept` returns `false`, and what was held stands. From then on a status update older than the
last status delivered is a repeat: `accept` returns `false` and the event is not delivered.

The validator's state is one explicit record (`StreamState`, `bindings/stream-state.ts`); the checks of each
event are functions of it here, and `createStreamValidator` holds one record for one stream, which its `end`
and `seam` move.
*/

import { InvalidResponseError } from '../core/errors.js';
import type { StreamResponse } from '../protocol/stream.js';
import { isInterrupted, isTerminal, type Task, type TaskState } from '../protocol/task.js';
import { compareTimestamps } from '../protocol/timestamp-order.js';
import { checkDirectMessageAt, checkStatusMessage, checkTaskAt, fail, sendExpectation } from './checks.js';
import type { Settled, StreamOrigin, StreamState } from './stream-state.js';

export type { StreamOrigin } from './stream-state.js';

/** How far a task in `state` has come. */
function settledOf(state: TaskState): Settled {
  return isTerminal(state) ? 'terminal' : isInterrupted(state) ? 'interrupted' : undefined;
}

/** Holds a Task snapshot's artifacts as known and open to appends. */
function holdArtifacts(state: StreamState, task: Task): void {
  for (const artifact of task.artifacts ?? []) {
    state.artifacts.set(artifact.artifactId, false);
  }
}

/** Whether the stream may end now: after a direct Message, or once the task is terminal or interrupted. */
function isComplete(state: StreamState): boolean {
  return state.phase === 'message' || (state.phase === 'task' && state.settled !== undefined);
}

/** Runs one check; its failure becomes the stream's, which every later check throws again. */
function guarded<T>(state: StreamState, run: () => T): T {
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

function checkOwner(
  state: StreamState,
  update: { readonly taskId: string; readonly contextId: string },
  path: string,
): void {
  // A2A spec §3.1.2: a task stream carries the events of its one task.
  if (update.taskId !== state.owner.taskId) {
    fail('identity', 'task-id', `${path}.taskId`);
  }
  if (update.contextId !== state.owner.contextId) {
    fail('identity', 'context-id', `${path}.contextId`);
  }
}

/**
The first event after a seam: a Task snapshot of the same task and context; `false` when it is older than the
status delivered.
*/
function acceptSnapshot(state: StreamState, event: StreamResponse): boolean {
  if (!('task' in event)) {
    // A2A spec §3.1.6: a subscription starts with the Task, so a resumed stream does too.
    fail('stream', 'resume-without-task', '$');
  }
  const { task } = event;
  checkTaskAt(task, { id: state.owner.taskId }, '$.task');
  if (task.contextId !== state.owner.contextId) {
    fail('identity', 'context-id', '$.task.contextId');
  }
  state.phase = 'task';
  const time = task.status.timestamp;
  if (isOlder(time, state.lastStatusTime)) {
    // A regression, like an older update: the consumer keeps the newer state and the artifacts it assembled.
    return false;
  }
  state.settled = settledOf(task.status.state);
  state.lastStatusTime = time ?? state.lastStatusTime;
  // A snapshot's artifacts are whole: what was held before the seam is replaced, and appends continue from
  // these.
  state.artifacts.clear();
  holdArtifacts(state, task);
  return true;
}

/**
Whether a status `time` is older than the `last` one delivered; without both there is nothing to compare.
*/
function isOlder(time: string | undefined, last: string | undefined): boolean {
  return time !== undefined && last !== undefined && compareTimestamps(time, last) < 0;
}

/**
Checks one event in order and moves the state; returns `false` for a status update a resumed stream repeats.
*/
function acceptEvent(state: StreamState, event: StreamResponse): boolean {
  if (state.phase === 'seam') {
    return acceptSnapshot(state, event);
  }
  if (state.phase === 'message') {
    // A2A spec §3.1.2: a message-only stream is exactly one Message.
    fail('stream', 'event-after-message', '$');
  }
  if (state.settled === 'terminal') {
    fail('lifecycle', 'event-after-terminal', '$');
  }
  if ('task' in event) {
    const { task } = event;
    if (state.phase === 'task') {
      fail('stream', 'second-task', '$.task');
    }
    const expected =
      state.origin.kind === 'send' ? sendExpectation(state.origin.request) : { id: state.origin.taskId };
    checkTaskAt(task, expected, '$.task');
    state.phase = 'task';
    state.owner = { taskId: task.id, contextId: task.contextId };
    state.settled = settledOf(task.status.state);
    state.lastStatusTime = task.status.timestamp;
    // Artifacts of the snapshot may still be streaming: they are known and open to appends.
    holdArtifacts(state, task);
  } else if ('message' in event) {
    if (state.phase === 'task') {
      fail('stream', 'message-in-task-stream', '$.message');
    }
    if (state.origin.kind !== 'send') {
      // A2A spec §3.1.6: a subscription's first event MUST be the Task.
      fail('stream', 'message-on-subscribe', '$.message');
    }
    checkDirectMessageAt(event.message, state.origin.request.message, '$.message');
    state.phase = 'message';
  } else if ('statusUpdate' in event) {
    const update = event.statusUpdate;
    if (state.phase !== 'task') {
      fail('stream', 'update-before-task', '$.statusUpdate');
    }
    checkOwner(state, update, '$.statusUpdate');
    if (update.status.message !== undefined) {
      checkStatusMessage(update.status.message, state.owner, '$.statusUpdate.status.message');
    }
    const time = update.status.timestamp;
    if (state.resumed && isOlder(time, state.lastStatusTime)) {
      // Already delivered before the seam, or older than the snapshot: the consumer holds something newer.
      return false;
    }
    state.lastStatusTime = time ?? state.lastStatusTime;
    state.settled = settledOf(update.status.state);
  } else {
    const update = event.artifactUpdate;
    if (state.phase !== 'task') {
      fail('stream', 'update-before-task', '$.artifactUpdate');
    }
    checkOwner(state, update, '$.artifactUpdate');
    const { artifactId } = update.artifact;
    if (update.append) {
      // A2A spec §4.2.2: `append` adds parts to an artifact sent earlier; after `lastChunk` there is nothing
      // to add to.
      const sealed = state.artifacts.get(artifactId);
      if (sealed === undefined) {
        fail('stream', 'append-unknown-artifact', '$.artifactUpdate.artifact.artifactId');
      }
      if (sealed) {
        fail('stream', 'append-sealed-artifact', '$.artifactUpdate.artifact.artifactId');
      }
    }
    // `append: false` starts or replaces the artifact (docs/protocol-checks.md#stream-lifecycle), which
    // reopens it.
    state.artifacts.set(artifactId, update.lastChunk);
  }
  return true;
}

/**
Checks the events of one stream in order. `accept` and `end` throw `InvalidResponseError` with
`dispatched: true`; `accept` returns `false` for a status update a resumed stream repeats (not to be delivered
again); `complete` says whether the stream may end now (after a direct Message, or once the task is terminal
or interrupted); `seam` continues a task stream that broke, `settled` says how far its task has come.
*/
export type StreamValidator = {
  accept(event: StreamResponse): boolean;
  end(): void;
  /**
  The stream broke and continues from a fresh snapshot: throws the stream's failure unless it is none or a
  premature end.
  */
  seam(): void;
  readonly complete: boolean;
  /**
  `terminal` or `interrupted` once the task has reached such a state (and not left it); `undefined` otherwise.
  */
  readonly settled: 'terminal' | 'interrupted' | undefined;
};

/**
Creates the validator of one stream (docs/protocol-checks.md#stream-lifecycle).

@example
```ts
const validator = createStreamValidator({ kind: 'subscribe', taskId });
for await (const frame of frames) {
  validator.accept(frame.event);
  yield frame.event;
}
validator.end(); // throws on a premature end
```
*/
export function createStreamValidator(origin: StreamOrigin): StreamValidator {
  const state: StreamState = {
    origin,
    phase: 'awaiting-first',
    owner: { taskId: '', contextId: '' },
    artifacts: new Map(),
  };
  return {
    accept(event) {
      return guarded(state, () => acceptEvent(state, event));
    },
    end() {
      guarded(state, () => {
        if (!isComplete(state)) {
          state.prematureEnd = true;
          // A2A spec §3.1.2: a task stream closes once the task is terminal (or interrupted, §11.7); earlier
          // is a cut.
          throw new InvalidResponseError('lifecycle', {
            dispatched: true,
            violation: { rule: 'premature-end' },
          });
        }
      });
    },
    seam() {
      if (state.failure !== undefined && !state.prematureEnd) {
        throw state.failure;
      }
      state.failure = undefined;
      state.prematureEnd = false;
      // A subscription that broke before its first event simply starts again; a task stream waits for its
      // snapshot.
      if (state.phase === 'task') {
        state.phase = 'seam';
        state.resumed = true;
      }
    },
    get complete() {
      return state.failure === undefined && isComplete(state);
    },
    get settled() {
      return state.phase === 'task' ? state.settled : undefined;
    },
  };
}
