import * as z from 'zod/mini';
import { contractBounds } from './bounds.js';
import { Metadata } from './json-value.js';
import { Message, Parts } from './message.js';
import { checkUnique, items, protoEnum, violate, wireObject } from './scalars.js';
import { Description, Id, Label, Uri } from './text.js';
import { Timestamp } from './timestamp.js';

/**
Where a task is in its lifecycle (A2A spec §4.1.3). `TASK_STATE_UNSPECIFIED`, a missing state and unknown
values are refused.

@example
```ts
if (isTerminal(task.status.state)) { … }
```
*/
export const TaskState = protoEnum([
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
]);
/** A task's lifecycle state. */
export type TaskState = z.infer<typeof TaskState>;

/**
The states after which nothing more happens to a task (A2A spec §4.1.3: COMPLETED, FAILED, CANCELED,
REJECTED).
*/
export const terminalStates: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/**
The states in which a task waits for the client or for out-of-band credentials (INPUT_REQUIRED,
AUTH_REQUIRED).
*/
export const interruptedStates: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

/** True when the task can never change again. */
export function isTerminal(state: TaskState): boolean {
  return terminalStates.has(state);
}

/**
True when the task waits for input or authorization. A blocking send returns at a terminal or an interrupted
state (A2A spec §3.2.2).
*/
export function isInterrupted(state: TaskState): boolean {
  return interruptedStates.has(state);
}

/**
A task's state with an optional message and time (A2A spec §4.1.2). An `AUTH_REQUIRED` status must carry a
message saying what is needed (A2A spec §7.6; docs/protocol-checks.md#unary-answers).

@example
```ts
const status: TaskStatus = { state: 'TASK_STATE_WORKING', timestamp: '2026-03-12T10:00:00.000Z' };
```
*/
export const TaskStatus = wireObject({
  state: TaskState,
  message: z.optional(Message),
  timestamp: z.optional(Timestamp),
}).check((payload) => {
  if (payload.value.state === 'TASK_STATE_AUTH_REQUIRED' && payload.value.message === undefined) {
    violate(payload, 'auth-required-message', ['message']);
  }
});
/** A task's state with an optional message and time. */
export type TaskStatus = z.infer<typeof TaskStatus>;

/**
An output of a task (A2A spec §4.1.7): 1..128 parts under an `artifactId` unique within its task.

@example
```ts
const artifact: Artifact = { artifactId: 'summary', parts: [{ data: { words: 3 }, mediaType: 'application/json' }] };
```
*/
export const Artifact = wireObject({
  artifactId: Id,
  name: z.optional(Label),
  description: z.optional(Description),
  parts: Parts,
  metadata: z.optional(Metadata),
  // Optional like Message.extensions: absence and [] mean the same, and nothing here acts on either.
  extensions: z.optional(items(Uri, 0, contractBounds.extensions)),
});
/** An output of a task. */
export type Artifact = z.infer<typeof Artifact>;

/** A task's artifacts: ≤ 128, `artifactId`s unique (A2A spec §4.1.7, the proto: "unique within a task"). */
const Artifacts = items(Artifact, 0, contractBounds.artifactsPerTask).check((payload) => {
  checkUnique(payload, (artifact) => artifact.artifactId, 'artifactId');
});

/**
The unit of work (A2A spec §4.1.1).

- `contextId` is required here although the proto does not mark it so: the server assigns one to every task
  (A2A spec §3.4.1), and every identity check and the durable scan key on it
  (docs/protocol-checks.md#unary-answers).
- `artifacts` stays optional, never defaulted: ListTasks without `includeArtifacts` must leave the field out
  entirely, and the page check has to see that absence (A2A spec §3.1.4; docs/protocol-checks.md#pages).
- `history` reads a missing list as `[]` (ProtoJSON drops empty lists, and a missing history means none was
  returned: A2A spec §3.2.4); its length is checked against the requested `historyLength` either way.

@example
```ts
const task = parseTask(json);
if (isTerminal(task.status.state)) { … }
```
*/
export const Task = wireObject({
  id: Id,
  contextId: Id,
  status: TaskStatus,
  artifacts: z.optional(Artifacts),
  history: z._default(items(Message, 0, contractBounds.historyMessages), () => []),
  metadata: z.optional(Metadata),
});
/** The unit of work an agent does for a client. */
export type Task = z.infer<typeof Task>;
