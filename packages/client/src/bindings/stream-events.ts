/**
@module
The checks of the lifecycle validator (`bindings/stream.ts`, docs/protocol-checks.md#stream-lifecycle) for each event in order: the first Task, a direct Message, a status update, an artifact update, and the Task snapshot a resumed stream starts with (docs/protocol-checks.md#stream-resumption). Each moves the validator's state (`bindings/stream-state.ts`) or throws the `InvalidResponseError` that ends the stream.
*/

import type { StreamResponse } from '../protocol/index.js';
import { compareTimestamps } from '../protocol/timestamp-order.js';
import { checkDirectMessageAt, checkStatusMessage, checkTaskAt, fail, sendExpectation } from './checks.js';
import { holdArtifacts, type StreamState, settledOf } from './stream-state.js';

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

/** The first event after a seam: a Task snapshot of the same task and context. */
function acceptSnapshot(state: StreamState, event: StreamResponse): void {
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
  state.settled = settledOf(task.status.state);
  state.lastStatusTime = task.status.timestamp ?? state.lastStatusTime;
  // A snapshot's artifacts are whole: what was held before the seam is replaced, and appends continue from these.
  state.artifacts.clear();
  holdArtifacts(state, task);
}

/** Checks one event in order and moves the state; returns `false` for a status update a resumed stream repeats. */
export function acceptEvent(state: StreamState, event: StreamResponse): boolean {
  if (state.phase === 'seam') {
    acceptSnapshot(state, event);
    return true;
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
    const { origin } = state;
    const expected = origin.kind === 'send' ? sendExpectation(origin.request) : { id: origin.taskId };
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
    const { origin } = state;
    if (origin.kind !== 'send') {
      // A2A spec §3.1.6: a subscription's first event MUST be the Task.
      fail('stream', 'message-on-subscribe', '$.message');
    }
    checkDirectMessageAt(event.message, origin.request.message, '$.message');
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
    const last = state.lastStatusTime;
    if (state.resumed && time !== undefined && last !== undefined) {
      if (compareTimestamps(time, last) < 0) {
        // Already delivered before the seam, or older than the snapshot: the consumer holds something newer.
        return false;
      }
    }
    state.lastStatusTime = time ?? last;
    state.settled = settledOf(update.status.state);
  } else {
    const update = event.artifactUpdate;
    if (state.phase !== 'task') {
      fail('stream', 'update-before-task', '$.artifactUpdate');
    }
    checkOwner(state, update, '$.artifactUpdate');
    const { artifacts } = state;
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
