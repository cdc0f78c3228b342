/**
@module
The events the SDK executor publishes (`executor.ts`): a task's first snapshot, its status changes and its
artifact chunks, written as ProtoJSON in our own wire types and handed to the SDK's event bus through its
`fromJSON` codecs, so the SDK's own serialiser decides what goes on the wire.
*/
import { randomUUID } from 'node:crypto';
import {
  Message as SdkMessage,
  Task as SdkTask,
  TaskArtifactUpdateEvent as SdkTaskArtifactUpdateEvent,
  TaskStatus as SdkTaskStatus,
  TaskStatusUpdateEvent as SdkTaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import { AgentEvent, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import type { Message, TaskState, TaskStatus, WireArtifactUpdate, WireTask } from '../agent/wire.js';

/** The ids of the task an execution runs. */
export type Ids = { readonly taskId: string; readonly contextId: string };

/** One text chunk of an artifact. */
export type Chunk = {
  readonly artifactId: string;
  readonly text: string;
  readonly append: boolean;
  readonly lastChunk: boolean;
};

/** The time of an event, as ProtoJSON writes a timestamp. */
export const now = (): string => new Date().toISOString();

/** An agent message of the task, holding `text`. */
export function agentMessage(ids: Ids, text: string): Message {
  // Our identity check wants both ids on every agent message of a task
  // (docs/protocol-checks.md#unary-answers).
  return {
    messageId: randomUUID(),
    contextId: ids.contextId,
    taskId: ids.taskId,
    role: 'ROLE_AGENT',
    parts: [{ text }],
  };
}

/** Publish a status change with its agent message. */
export function publishStatus(bus: ExecutionEventBus, ids: Ids, state: TaskState, text: string): void {
  const event = {
    taskId: ids.taskId,
    contextId: ids.contextId,
    status: { state, message: agentMessage(ids, text), timestamp: now() },
  };
  bus.publish(AgentEvent.statusUpdate(SdkTaskStatusUpdateEvent.fromJSON(event)));
}

/** Publish one artifact chunk. */
export function publishChunk(bus: ExecutionEventBus, ids: Ids, chunk: Chunk): void {
  const event: WireArtifactUpdate = {
    taskId: ids.taskId,
    contextId: ids.contextId,
    artifact: { artifactId: chunk.artifactId, name: chunk.artifactId, parts: [{ text: chunk.text }] },
    // ProtoJSON leaves a false flag out (A2A spec §5.5), as the SDK's own writer does.
    ...(chunk.append ? { append: true } : {}),
    ...(chunk.lastChunk ? { lastChunk: true } : {}),
  };
  publishArtifact(bus, event);
}

/** Publish an artifact update as it is given: a data artifact, or a chunk `publishChunk` wrote. */
export function publishArtifact(bus: ExecutionEventBus, event: WireArtifactUpdate): void {
  bus.publish(AgentEvent.artifactUpdate(SdkTaskArtifactUpdateEvent.fromJSON(event)));
}

/**
Publish the task SUBMITTED, with the user's message as its history: the first event of an execution that runs
a task.
*/
export function publishSubmitted(bus: ExecutionEventBus, ids: Ids, user: SdkMessage): void {
  const task: WireTask = {
    id: ids.taskId,
    contextId: ids.contextId,
    status: { state: 'TASK_STATE_SUBMITTED', timestamp: now() },
    artifacts: [],
  };
  // The SDK requires a Task or Message as the first event of every execution; it keeps the user turn in the
  // history.
  const sdkTask = SdkTask.fromJSON(task);
  sdkTask.history = [{ ...user, taskId: ids.taskId, contextId: ids.contextId }];
  bus.publish(AgentEvent.task(sdkTask));
}

/** Publish a direct Message: the first and only event of an execution that answers without a task. */
export function publishMessage(bus: ExecutionEventBus, reply: Message): void {
  bus.publish(AgentEvent.message(SdkMessage.fromJSON(reply)));
}

/** Publish the task of a follow-up turn as its first event, already WORKING, since the new turn has begun. */
export function publishResumed(
  bus: ExecutionEventBus,
  ids: Ids,
  task: NonNullable<RequestContext['task']>,
): void {
  // A stream starting from a snapshot still in INPUT_REQUIRED would look finished at once.
  const status: TaskStatus = {
    state: 'TASK_STATE_WORKING',
    message: agentMessage(ids, 'working'),
    timestamp: now(),
  };
  bus.publish(AgentEvent.task({ ...task, status: SdkTaskStatus.fromJSON(status) }));
}
