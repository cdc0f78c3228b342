import * as z from 'zod/mini';
import { Metadata } from './json-value.js';
import { Message } from './message.js';
import { Bool, oneof, wireObject } from './scalars.js';
import { Artifact, Task, TaskStatus } from './task.js';
import { Id } from './text.js';

/**
A task's status changed (A2A spec §4.2.1). v1.0 has no `final` flag: the binding closing the stream ends it.

@example
```ts
const event: TaskStatusUpdateEvent = { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } };
```
*/
export const TaskStatusUpdateEvent = wireObject({
  taskId: Id,
  contextId: Id,
  status: TaskStatus,
  metadata: z.optional(Metadata),
});
/** A task's status changed. */
export type TaskStatusUpdateEvent = z.infer<typeof TaskStatusUpdateEvent>;

/**
An artifact was produced or extended (A2A spec §4.2.2). `append` and `lastChunk` are plain proto3 bools
without presence, so ProtoJSON leaves them out when false and a missing one reads `false`
(docs/protocol-checks.md#protojson): the first chunk of an artifact usually carries neither.

@example
```ts
if (event.append) {
  // add event.artifact.parts to the artifact already held
}
```
*/
export const TaskArtifactUpdateEvent = wireObject({
  taskId: Id,
  contextId: Id,
  artifact: Artifact,
  append: z._default(Bool, false),
  lastChunk: z._default(Bool, false),
  metadata: z.optional(Metadata),
});
/** An artifact was produced or extended. */
export type TaskArtifactUpdateEvent = z.infer<typeof TaskArtifactUpdateEvent>;

/**
One event of a stream, and the body of a push notification (A2A spec §3.1.2, §3.2.3, §4.3.3): exactly one of
`task`, `message`, `statusUpdate` or `artifactUpdate`.

@example
```ts
if ('statusUpdate' in event) { event.statusUpdate.status.state; }
```
*/
export const StreamResponse = oneof(
  {
    task: Task,
    message: Message,
    statusUpdate: TaskStatusUpdateEvent,
    artifactUpdate: TaskArtifactUpdateEvent,
  },
  {},
);
/** One event of a stream: exactly one of `task`, `message`, `statusUpdate`, `artifactUpdate`. */
export type StreamResponse = z.infer<typeof StreamResponse>;
