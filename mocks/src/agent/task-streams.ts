/**
@module
Watching a task change: waiting until it settles (a blocking send), and streaming its events until it does (a
streaming send, SubscribeToTask).
*/
import type { Lifecycle } from './lifecycle.js';
import type { TaskStore } from './store.js';
import type { TaskRecord } from './task-record.js';
import { isSettled } from './task-states.js';
import type { WireStreamResponse } from './wire.js';

/** The waits and streams over one agent's tasks. */
export type TaskStreams = {
  /** Resolves once the task is terminal or interrupted, the client has gone, or the agent closed. */
  settled(record: TaskRecord, signal: AbortSignal): Promise<void>;
  /**
  The task's events from now on, after `first`, until a terminal or interrupted state (A2A spec §11.7,
  §3.1.6).
  */
  liveStream(
    record: TaskRecord,
    first: WireStreamResponse,
    signal: AbortSignal,
  ): ReadableStream<WireStreamResponse>;
};

/** What the streams need from the agent. */
export type TaskStreamsOptions = {
  readonly store: TaskStore;
  readonly lifecycle: Lifecycle;
};

/** A stream of exactly one event: a message answer, which ends the stream (A2A spec §3.1.2). */
export function singleEvent(event: WireStreamResponse): ReadableStream<WireStreamResponse> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(event);
      controller.close();
    },
  });
}

/**
Creates the waits and streams of one agent.

@example
```ts
const streams = createTaskStreams({ store, lifecycle });
const events = streams.liveStream(record, { task: store.view(record, { artifacts: 'when-present' }) }, signal);
```
*/
export function createTaskStreams(options: TaskStreamsOptions): TaskStreams {
  const { store, lifecycle } = options;
  const { onClose } = lifecycle;

  function settled(record: TaskRecord, signal: AbortSignal): Promise<void> {
    if (isSettled(record.task.status.state) || lifecycle.closed || signal.aborted) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const finish = (): void => {
        unsubscribe();
        onClose.delete(finish);
        signal.removeEventListener('abort', finish);
        resolve();
      };
      const unsubscribe = store.subscribe(record, (event) => {
        if ('statusUpdate' in event && isSettled(event.statusUpdate.status.state)) {
          finish();
        }
      });
      onClose.add(finish);
      signal.addEventListener('abort', finish);
    });
  }

  function liveStream(
    record: TaskRecord,
    first: WireStreamResponse,
    signal: AbortSignal,
  ): ReadableStream<WireStreamResponse> {
    let finish = (): void => {};
    return new ReadableStream<WireStreamResponse>({
      start(controller) {
        controller.enqueue(first);
        // Snapshot and subscription happen in the same turn, so no change can fall between them.
        if (isSettled(record.task.status.state) || lifecycle.closed || signal.aborted) {
          controller.close();
          return;
        }
        let open = true;
        const end = (): void => {
          finish();
          if (open) {
            open = false;
            controller.close();
          }
        };
        const unsubscribe = store.subscribe(record, (event) => {
          if (!open) {
            return;
          }
          controller.enqueue(event);
          if ('statusUpdate' in event && isSettled(event.statusUpdate.status.state)) {
            end();
          }
        });
        finish = () => {
          unsubscribe();
          onClose.delete(end);
          signal.removeEventListener('abort', end);
        };
        onClose.add(end);
        signal.addEventListener('abort', end);
      },
      cancel() {
        finish();
      },
    });
  }

  return { settled, liveStream };
}
