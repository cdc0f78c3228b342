/**
@module
Test fixtures: client events and stream events of the shapes the client emits, for the model tests. Not part
of the app.
*/
import type { ClientEvent, StreamEventKind, StreamResponse, TaskState } from '@surecall/client';

function kindOf(event: StreamResponse): StreamEventKind {
  if ('task' in event) {
    return 'task';
  }
  if ('message' in event) {
    return 'message';
  }
  return 'statusUpdate' in event ? 'statusUpdate' : 'artifactUpdate';
}

/** The first part of every event of one call. */
export function base(callId: number, operation: ClientEvent['operation'], time: number) {
  return { callId, operation, binding: 'JSONRPC' as const, time };
}

/** The request event of a stream call. */
export function streamRequest(callId: number, time: number, taskId?: string): ClientEvent {
  return {
    ...base(callId, taskId === undefined ? 'SendStreamingMessage' : 'SubscribeToTask', time),
    type: 'request',
    httpMethod: 'POST',
    ...(taskId === undefined ? {} : { taskId }),
  };
}

/** A stream frame event carrying `event`. */
export function frame(
  callId: number,
  index: number,
  time: number,
  event: StreamResponse,
  wireBytes = 100,
): ClientEvent {
  return {
    ...base(callId, 'SendStreamingMessage', time),
    type: 'stream-frame',
    index,
    wireBytes,
    kind: kindOf(event),
    event,
  };
}

/** A task snapshot event, as a stream's first frame carries it. */
export function taskEvent(id: string, state: TaskState, timestamp?: string): StreamResponse {
  return {
    task: {
      id,
      contextId: 'ctx-1',
      status: { state, ...(timestamp === undefined ? {} : { timestamp }) },
      history: [],
    },
  };
}

/** A status update of task `taskId`, with an agent message when `text` is given. */
export function statusEvent(
  taskId: string,
  state: TaskState,
  text?: string,
  timestamp?: string,
): StreamResponse {
  return {
    statusUpdate: {
      taskId,
      contextId: 'ctx-1',
      status: {
        state,
        ...(timestamp === undefined ? {} : { timestamp }),
        ...(text === undefined
          ? {}
          : {
              message: {
                messageId: `m-${text}`,
                taskId,
                contextId: 'ctx-1',
                role: 'ROLE_AGENT',
                parts: [{ text }],
              },
            }),
      },
    },
  };
}

/** An artifact chunk of task `taskId`. */
export function chunkEvent(
  taskId: string,
  text: string,
  append: boolean,
  lastChunk: boolean,
): StreamResponse {
  return {
    artifactUpdate: {
      taskId,
      contextId: 'ctx-1',
      artifact: { artifactId: 'text', name: 'text', parts: [{ text }] },
      append,
      lastChunk,
    },
  };
}
