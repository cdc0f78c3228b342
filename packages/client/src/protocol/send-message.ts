/**
@module
SendMessage (A2A spec §3.1.1): its request, with the configuration a send may carry, and its answer. They are
the schemas the path of a plain `sendMessage()` needs; every other operation's are in `requests.ts` and
`stream.ts`, which load with the first call of such an operation (ARCHITECTURE.md#decisions, "Code loads with
its first use").
*/
import * as z from 'zod/mini';
import { contractBounds } from './bounds.js';
import { Metadata } from './json-value.js';
import { Message } from './message.js';
import { TaskPushNotificationConfig } from './push.js';
import { Bool, int32, items, oneof, violate, wireObject } from './scalars.js';
import { Task } from './task.js';
import { Id, MediaType } from './text.js';

// Every request carries an optional `tenant` (A2A spec §8.3.2). The bindings fill it from the selected
// interface, never from the caller.

/**
`historyLength`: 0 asks for no history, n for at most the n newest messages (A2A spec §3.2.4); this client
asks for at most 256.
*/
export const HistoryLength = int32(0, contractBounds.historyMessages);

/**
How a send should behave (A2A spec §3.2.2). Every field is optional and keeps its absence, because callers
write this type: a missing `returnImmediately` means false, which is **blocking** (the opposite of v0.3's
missing `blocking`); a missing `historyLength` sets no limit. A `taskPushNotificationConfig` sent here must
not name a task (the proto: "Task id should be empty").

@example
```ts
const configuration: SendMessageConfiguration = { returnImmediately: true, historyLength: 0 };
```
*/
export const SendMessageConfiguration = wireObject(
  {
    acceptedOutputModes: z.optional(items(MediaType, 0, contractBounds.modes)),
    taskPushNotificationConfig: z.optional(TaskPushNotificationConfig),
    historyLength: z.optional(HistoryLength),
    returnImmediately: z.optional(Bool),
  },
  ['historyLength'],
).check((payload) => {
  if (payload.value.taskPushNotificationConfig?.taskId !== undefined) {
    violate(payload, 'push-config-task-id', ['taskPushNotificationConfig', 'taskId']);
  }
});
/** How a send should behave. */
export type SendMessageConfiguration = z.infer<typeof SendMessageConfiguration>;

/**
SendMessage and SendStreamingMessage (A2A spec §3.1.1, §3.2.1). The message goes from client to agent, so its
role is `ROLE_USER`.

@example
```ts
const request: SendMessageRequest = {
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hello' }] },
  configuration: { returnImmediately: true },
};
```
*/
export const SendMessageRequest = wireObject({
  tenant: z.optional(Id),
  message: Message,
  configuration: z.optional(SendMessageConfiguration),
  metadata: z.optional(Metadata),
}).check((payload) => {
  if (payload.value.message.role !== 'ROLE_USER') {
    violate(payload, 'role', ['message', 'role']);
  }
});
/** The request of SendMessage and SendStreamingMessage. */
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

/**
The answer to SendMessage (A2A spec §3.1.1): exactly one of `task` or `message`. Unknown sibling members are
ignored (A2A spec §5.7).

@example
```ts
const response = decodeOrThrow(SendMessageResponse, json, true);
if ('task' in response) { response.task.status.state; } else { response.message.parts; }
```
*/
export const SendMessageResponse = oneof({ task: Task, message: Message }, {});
/** Exactly one of `{ task }` or `{ message }`. */
export type SendMessageResponse = z.infer<typeof SendMessageResponse>;
