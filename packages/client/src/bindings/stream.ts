/**
@module
The lifecycle validator of one SendStreamingMessage or SubscribeToTask stream (docs/protocol-checks.md#stream-lifecycle): every decoded event goes through `accept`, the end of the body through `end`.

States: awaiting the first event, then either a completed direct-Message stream or a task stream that tracks the task's ids, whether it has settled, and each artifact's chunk state (known ids, sealed or not).

Reasons of the `InvalidResponseError`s it throws (all `dispatched: true`):
- `identity`: an event of another task or context, a status message that is not the agent's for this task, a first event that is not the task or message the request asked for;
- `stream`: events out of order: an update before the first Task, a second Task snapshot, a Message inside a task stream or on a subscription, anything after a Message, an `append` chunk for an artifact that was never started or already sealed by `lastChunk`;
- `lifecycle`: an event after a terminal state, or an end before the task settled (a premature end).

Decisions where the sources differ:
- After a terminal state nothing more is accepted, not even the last Task snapshot that A2A spec §11.7 lets a server send before closing: the stream lifecycle rules reject it (docs/protocol-checks.md#stream-lifecycle), and neither the official `@a2a-js/sdk` 1.3.0 server (its captured streams end with the terminal `statusUpdate`) nor `mocks/` sends one.
- An interrupted state (`INPUT_REQUIRED`, `AUTH_REQUIRED`) lets the stream end, but does not forbid further events of the same task, which recompute completion: A2A spec §7.6.1 says agents SHOULD keep the stream open after `AUTH_REQUIRED`, and the official server does exactly that, so StateKnot's stricter rule would refuse a conformant peer. A later non-settled status makes an end premature again.
- A subscription's first Task passes the whole Task identity check with the subscribed id (status message and history belong to it), not only the id comparison StateKnot makes.
- The first failure is final: any later `accept` or `end` throws that same error again, with one exception: a premature end is a break that `seam` repairs.

Across a resumption seam (docs/protocol-checks.md#stream-resumption): `seam()` marks where a broken stream continues with a SubscribeToTask (or a GetTask snapshot). The next event must be a Task snapshot of the same task and context; it replaces the artifacts held (a snapshot's artifacts are whole, so appends continue from them) and the settled state. From then on a status update older than the last status delivered is a repeat: `accept` returns `false` and the event is not delivered.
*/

import { InvalidResponseError } from '../core/errors.js';
import type { SendMessageRequest } from '../protocol/send-message.js';
import type { StreamResponse } from '../protocol/stream.js';
import { isInterrupted, isTerminal, type TaskState } from '../protocol/task.js';
import { compareTimestamps } from '../protocol/timestamp-order.js';
import { checkDirectMessageAt, checkStatusMessage, checkTaskAt, fail, sendExpectation } from './checks.js';

/** Where a stream comes from: a streaming send (checked against its request) or a subscription to one task. */
export type StreamOrigin =
  | { readonly kind: 'send'; readonly request: SendMessageRequest }
  | { readonly kind: 'subscribe'; readonly taskId: string };

/**
Checks the events of one stream in order. `accept` and `end` throw `InvalidResponseError` with `dispatched: true`; `accept` returns `false` for a status update a resumed stream repeats (not to be delivered again); `complete` says whether the stream may end now (after a direct Message, or once the task is terminal or interrupted); `seam` continues a task stream that broke, `settled` says how far its task has come.
*/
export type StreamValidator = {
  accept(event: StreamResponse): boolean;
  end(): void;
  /** The stream broke and continues from a fresh snapshot: throws the stream's failure unless it is none or a premature end. */
  seam(): void;
  readonly complete: boolean;
  /** `terminal` or `interrupted` once the task has reached such a state (and not left it); `undefined` otherwise. */
  readonly settled: 'terminal' | 'interrupted' | undefined;
};

type Settled = 'terminal' | 'interrupted' | undefined;

function settledOf(state: TaskState): Settled {
  return isTerminal(state) ? 'terminal' : isInterrupted(state) ? 'interrupted' : undefined;
}

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
  // `seam`: a task stream that broke, waiting for the snapshot its resumption starts with.
  let phase: 'awaiting-first' | 'message' | 'task' | 'seam' = 'awaiting-first';
  let owner = { taskId: '', contextId: '' };
  let settled: Settled;
  /** artifactId → sealed (its `lastChunk` was seen). */
  const artifacts = new Map<string, boolean>();
  let failure: unknown;
  let prematureEnd = false;
  /** Once a seam was crossed, the timestamp of the last status delivered: older updates are repeats. */
  let resumed = false;
  let lastStatusTime: string | undefined;

  function checkOwner(update: { readonly taskId: string; readonly contextId: string }, path: string): void {
    // A2A spec §3.1.2: a task stream carries the events of its one task.
    if (update.taskId !== owner.taskId) {
      fail('identity', 'task-id', `${path}.taskId`);
    }
    if (update.contextId !== owner.contextId) {
      fail('identity', 'context-id', `${path}.contextId`);
    }
  }

  function snapshot(event: StreamResponse): void {
    if (!('task' in event)) {
      // A2A spec §3.1.6: a subscription starts with the Task, so a resumed stream does too.
      fail('stream', 'resume-without-task', '$');
    }
    const { task } = event;
    checkTaskAt(task, { id: owner.taskId }, '$.task');
    if (task.contextId !== owner.contextId) {
      fail('identity', 'context-id', '$.task.contextId');
    }
    phase = 'task';
    settled = settledOf(task.status.state);
    lastStatusTime = task.status.timestamp ?? lastStatusTime;
    // A snapshot's artifacts are whole: what was held before the seam is replaced, and appends continue from these.
    artifacts.clear();
    for (const artifact of task.artifacts ?? []) {
      artifacts.set(artifact.artifactId, false);
    }
  }

  function step(event: StreamResponse): boolean {
    if (phase === 'seam') {
      snapshot(event);
      return true;
    }
    if (phase === 'message') {
      // A2A spec §3.1.2: a message-only stream is exactly one Message.
      fail('stream', 'event-after-message', '$');
    }
    if (settled === 'terminal') {
      fail('lifecycle', 'event-after-terminal', '$');
    }
    if ('task' in event) {
      const { task } = event;
      if (phase === 'task') {
        fail('stream', 'second-task', '$.task');
      }
      const expected = origin.kind === 'send' ? sendExpectation(origin.request) : { id: origin.taskId };
      checkTaskAt(task, expected, '$.task');
      phase = 'task';
      owner = { taskId: task.id, contextId: task.contextId };
      settled = settledOf(task.status.state);
      lastStatusTime = task.status.timestamp;
      // Artifacts of the snapshot may still be streaming: they are known and open to appends.
      for (const artifact of task.artifacts ?? []) {
        artifacts.set(artifact.artifactId, false);
      }
    } else if ('message' in event) {
      if (phase === 'task') {
        fail('stream', 'message-in-task-stream', '$.message');
      }
      if (origin.kind !== 'send') {
        // A2A spec §3.1.6: a subscription's first event MUST be the Task.
        fail('stream', 'message-on-subscribe', '$.message');
      }
      checkDirectMessageAt(event.message, origin.request.message, '$.message');
      phase = 'message';
    } else if ('statusUpdate' in event) {
      const update = event.statusUpdate;
      if (phase !== 'task') {
        fail('stream', 'update-before-task', '$.statusUpdate');
      }
      checkOwner(update, '$.statusUpdate');
      if (update.status.message !== undefined) {
        checkStatusMessage(update.status.message, owner, '$.statusUpdate.status.message');
      }
      const time = update.status.timestamp;
      if (resumed && time !== undefined && lastStatusTime !== undefined) {
        if (compareTimestamps(time, lastStatusTime) < 0) {
          // Already delivered before the seam, or older than the snapshot: the consumer holds something newer.
          return false;
        }
      }
      lastStatusTime = time ?? lastStatusTime;
      settled = settledOf(update.status.state);
    } else {
      const update = event.artifactUpdate;
      if (phase !== 'task') {
        fail('stream', 'update-before-task', '$.artifactUpdate');
      }
      checkOwner(update, '$.artifactUpdate');
      const { artifactId } = update.artifact;
      if (update.append) {
        // A2A spec §4.2.2: `append` adds parts to an artifact sent earlier; after `lastChunk` there is nothing to add to.
        const sealed = artifacts.get(artifactId);
        if (sealed === undefined) {
          fail('stream', 'append-unknown-artifact', '$.artifactUpdate.artifact.artifactId');
        }
        if (sealed) {
          fail('stream', 'append-sealed-artifact', '$.artifactUpdate.artifact.artifactId');
        }
      }
      // `append: false` starts or replaces the artifact (docs/protocol-checks.md#stream-lifecycle), which reopens it.
      artifacts.set(artifactId, update.lastChunk);
    }
    return true;
  }

  function guarded<T>(run: () => T): T {
    if (failure !== undefined) {
      throw failure;
    }
    try {
      return run();
    } catch (error) {
      failure = error;
      throw error;
    }
  }

  const isComplete = (): boolean => phase === 'message' || (phase === 'task' && settled !== undefined);

  return {
    accept(event) {
      return guarded(() => step(event));
    },
    end() {
      guarded(() => {
        if (!isComplete()) {
          prematureEnd = true;
          // A2A spec §3.1.2: a task stream closes once the task is terminal (or interrupted, §11.7); earlier is a cut.
          throw new InvalidResponseError('lifecycle', {
            dispatched: true,
            violation: { rule: 'premature-end' },
          });
        }
      });
    },
    seam() {
      if (failure !== undefined && !prematureEnd) {
        throw failure;
      }
      failure = undefined;
      prematureEnd = false;
      // A subscription that broke before its first event simply starts again; a task stream waits for its snapshot.
      if (phase === 'task') {
        phase = 'seam';
        resumed = true;
      }
    },
    get complete() {
      return failure === undefined && isComplete();
    },
    get settled() {
      return phase === 'task' ? settled : undefined;
    },
  };
}
