/**
@module
The frame inspector's model: every stream a client opens (SendStreamingMessage, SubscribeToTask), built only
from its public inspector events (`request`, `response`, `stream-frame`, `stream-end`, `stream-break`,
`stream-resume`, `error`). Each frame keeps its arrival time, the gap since the previous frame, its size on
the wire and the event itself; each break keeps where it fell among the frames (its seam) and the resumption
attempts that followed it, so the frames before and after a seam stay one log.
*/
import type { ClientEvent, OperationName, Part, StreamEventKind, StreamResponse } from '@surecall/client';
import { formatState } from './format.js';

/** The operations that answer with a stream. */
export type StreamOperation = Extract<OperationName, 'SendStreamingMessage' | 'SubscribeToTask'>;

/** Where a stream is: waiting for its headers, delivering, resuming after a break, or over (and how). */
export type StreamStatus = 'connecting' | 'open' | 'resuming' | 'complete' | 'released' | 'failed';

/** One resumption attempt after a break, as its `stream-resume` event tells it. */
export type ResumeRow = {
  readonly attempt: number;
  readonly via: 'SubscribeToTask' | 'GetTask';
  readonly delayMs: number;
  readonly time: number;
  /** What made the attempt necessary, public-safe. */
  readonly error: Readonly<Record<string, unknown>>;
};

/** One break of the stream: where it fell and how it was resumed. */
export type SeamRow = {
  /** Frames delivered before the break: the index of the first frame after the seam. */
  readonly at: number;
  readonly time: number;
  readonly reason: string;
  /** Whether the client resumed; when not, the stream failed with this break. */
  readonly resumable: boolean;
  readonly error: Readonly<Record<string, unknown>>;
  readonly resumes: readonly ResumeRow[];
};

/** One event of a stream: the inspector's row. */
export type FrameRow = {
  /** 0 for the stream's first event. */
  readonly index: number;
  readonly kind: StreamEventKind;
  /** Arrival, in milliseconds since the epoch. */
  readonly time: number;
  /** Since the previous frame; for the first, since the stream was established. */
  readonly gapMs: number;
  /** The event's bytes on the wire, as the client's SSE decoder counted them. */
  readonly wireBytes: number;
  readonly event: StreamResponse;
  /** The task the event belongs to, when it names one. */
  readonly taskId: string | undefined;
  /** One line for the row. */
  readonly summary: string;
};

/** One stream, as far as its events tell. */
export type StreamLog = {
  readonly callId: number;
  /** 1 for the first attempt; a call retried under a retry policy counts up, each attempt a fresh stream. */
  readonly attempt: number;
  readonly operation: StreamOperation;
  readonly binding: string;
  /** The request event's time, or the first event seen when the devtools joined late. */
  readonly startedAt: number;
  /** When the stream was established (its `response` event). */
  readonly openedAt: number | undefined;
  readonly endedAt: number | undefined;
  readonly status: StreamStatus;
  /** The task the stream is about: the request's target, else the first frame's task. */
  readonly taskId: string | undefined;
  /** The error event's public-safe form, when the stream failed. */
  readonly error: Readonly<Record<string, unknown>> | undefined;
  readonly frames: readonly FrameRow[];
  /** The breaks, oldest first; the frames after a resumable one came through its resumption. */
  readonly seams: readonly SeamRow[];
  /** Sum of the frames' wire bytes. */
  readonly wireBytes: number;
  /** The largest frame's wire bytes. */
  readonly maxFrameBytes: number;
  /** The longest gap between frames (the first measured from the stream's establishment). */
  readonly maxGapMs: number;
  /** The last activity: establishment or the latest frame. Idle time counts from here. */
  readonly lastActivityAt: number;
};

/** Every stream seen, oldest first. */
export type StreamsState = { readonly streams: readonly StreamLog[] };

/**
How many streams are kept; the oldest finished ones go first, since a long session must not grow without
bound.
*/
export const maxStreamsKept = 50;

/** The empty state. */
export const emptyStreams: StreamsState = Object.freeze({ streams: Object.freeze([]) });

/** True for the operations that answer with a stream. */
export function isStreamOperation(operation: OperationName): operation is StreamOperation {
  return operation === 'SendStreamingMessage' || operation === 'SubscribeToTask';
}

/**
The task a stream event belongs to: a task's id, an update's `taskId`, a message's `taskId` when it has one.

@example
```ts
eventTaskId({ statusUpdate: { taskId: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_WORKING' } } }); // 't-1'
```
*/
export function eventTaskId(event: StreamResponse): string | undefined {
  if ('task' in event) {
    return event.task.id;
  }
  if ('statusUpdate' in event) {
    return event.statusUpdate.taskId;
  }
  if ('artifactUpdate' in event) {
    return event.artifactUpdate.taskId;
  }
  return event.message.taskId;
}

function firstText(parts: readonly Part[] | undefined): string | undefined {
  for (const part of parts ?? []) {
    if ('text' in part && typeof part.text === 'string') {
      return part.text.length > 60 ? `“${part.text.slice(0, 60)}…”` : `“${part.text}”`;
    }
  }
  return undefined;
}

/**
The row's one-line description of a stream event.

@example
```ts
frameSummary({ artifactUpdate: { taskId, contextId, artifact: { artifactId: 'text', parts: [{ text: 'beta ' }] }, append: true, lastChunk: false } });
// 'artifact text: append “beta ”'
```
*/
export function frameSummary(event: StreamResponse): string {
  if ('task' in event) {
    return `task ${formatState(event.task.status.state)}`;
  }
  if ('statusUpdate' in event) {
    const text = firstText(event.statusUpdate.status.message?.parts);
    return `status ${formatState(event.statusUpdate.status.state)}${text === undefined ? '' : ` ${text}`}`;
  }
  if ('artifactUpdate' in event) {
    const { artifact, append, lastChunk } = event.artifactUpdate;
    const text = firstText(artifact.parts);
    return `artifact ${artifact.artifactId}: ${append ? 'append' : 'start'}${lastChunk ? ', last chunk' : ''}${text === undefined ? '' : ` ${text}`}`;
  }
  const text = firstText(event.message.parts);
  return `message from ${event.message.role === 'ROLE_AGENT' ? 'agent' : 'user'}${text === undefined ? '' : ` ${text}`}`;
}

function opened(callId: number, operation: StreamOperation, binding: string, time: number): StreamLog {
  return {
    callId,
    attempt: 1,
    operation,
    binding,
    startedAt: time,
    openedAt: undefined,
    endedAt: undefined,
    status: 'connecting',
    taskId: undefined,
    error: undefined,
    frames: [],
    seams: [],
    wireBytes: 0,
    maxFrameBytes: 0,
    maxGapMs: 0,
    lastActivityAt: time,
  };
}

function cap(streams: readonly StreamLog[]): readonly StreamLog[] {
  if (streams.length <= maxStreamsKept) {
    return streams;
  }
  const finished = streams.findIndex((stream) => stream.status !== 'connecting' && stream.status !== 'open');
  const drop = finished === -1 ? 0 : finished;
  return streams.filter((_, index) => index !== drop);
}

function advance(current: StreamLog, event: ClientEvent): StreamLog {
  switch (event.type) {
    case 'response':
      return { ...current, status: 'open', openedAt: event.time, lastActivityAt: event.time };
    case 'stream-frame': {
      const gapMs = Math.max(0, event.time - current.lastActivityAt);
      const taskId = eventTaskId(event.event);
      const row: FrameRow = {
        index: event.index,
        kind: event.kind,
        time: event.time,
        gapMs,
        wireBytes: event.wireBytes,
        event: event.event,
        taskId,
        summary: frameSummary(event.event),
      };
      return {
        ...current,
        status: 'open',
        taskId: current.taskId ?? taskId,
        frames: [...current.frames, row],
        wireBytes: current.wireBytes + event.wireBytes,
        maxFrameBytes: Math.max(current.maxFrameBytes, event.wireBytes),
        maxGapMs: Math.max(current.maxGapMs, gapMs),
        lastActivityAt: event.time,
      };
    }
    case 'stream-end':
      return { ...current, status: event.reason, endedAt: event.time };
    case 'stream-break': {
      const seam: SeamRow = {
        at: event.frames,
        time: event.time,
        reason: event.reason,
        resumable: event.resumable,
        error: event.error,
        resumes: [],
      };
      return {
        ...current,
        status: event.resumable ? 'resuming' : current.status,
        taskId: current.taskId ?? event.taskId,
        seams: [...current.seams, seam],
      };
    }
    case 'stream-resume': {
      const last = current.seams[current.seams.length - 1];
      if (last === undefined) {
        return current;
      }
      const row: ResumeRow = {
        attempt: event.attempt,
        via: event.via,
        delayMs: event.delayMs,
        time: event.time,
        error: event.error,
      };
      return {
        ...current,
        seams: [...current.seams.slice(0, -1), { ...last, resumes: [...last.resumes, row] }],
      };
    }
    case 'error':
      return { ...current, status: 'failed', error: event.error, endedAt: event.time };
    default:
      // Events this model does not draw (a new attempt's request is handled by the caller) leave the stream
      // as it is.
      return current;
  }
}

/**
Folds one client event into the streams. Events of unary calls leave the state as it is (the same object), so
a caller can skip a render.

@example
```ts
let state = emptyStreams;
const unsubscribe = client.events.subscribe((event) => { state = reduceStreams(state, event); });
```
*/
export function reduceStreams(state: StreamsState, event: ClientEvent): StreamsState {
  if (!isStreamOperation(event.operation)) {
    return state;
  }
  const { operation, callId } = event;
  const index = state.streams.findIndex((stream) => stream.callId === callId);
  const held = state.streams[index];
  if (event.type === 'request' && held?.status === 'resuming') {
    // A resumption's SubscribeToTask continues the same stream: its frames follow the seam in the same log.
    return state;
  }
  if (event.type === 'request') {
    // A call retried under a policy sends its next attempt under the same callId: that attempt is a fresh
    // stream.
    const stream = {
      ...opened(callId, operation, event.binding, event.time),
      taskId: event.taskId,
      attempt: (held?.attempt ?? 0) + 1,
    };
    return {
      streams:
        held === undefined
          ? cap([...state.streams, stream])
          : state.streams.map((other, position) => (position === index ? stream : other)),
    };
  }
  // The devtools may be mounted while a stream runs: its later events still make a (late-joined) log.
  const current = held ?? {
    ...opened(callId, operation, event.binding, event.time),
    status: 'open' as const,
  };
  const next = advance(current, event);
  return {
    streams:
      held === undefined
        ? cap([...state.streams, next])
        : state.streams.map((stream, position) => (position === index ? next : stream)),
  };
}
