/**
@module
The request schema and the answer schema of every operation (A2A spec §3.1), keyed like the operation table
(`operations.ts`). Only what runs an operation other than a plain SendMessage reads it, so it loads with the
first such call (ARCHITECTURE.md#decisions, "Code loads with its first use"); `send-message.ts` holds
SendMessage's own pair for the path of `discover()` and `sendMessage()`. Imported by file, never through
`index.ts`, since a bundler follows every re-export of a barrel.
*/
import type * as z from 'zod/mini';
import { AgentCard } from './agent-card.js';
import type { ClientMethod } from './methods.js';
import { TaskPushNotificationConfig } from './push.js';
import {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  Empty,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SubscribeToTaskRequest,
} from './requests.js';
import { SendMessageRequest, SendMessageResponse } from './send-message.js';
import { StreamResponse } from './stream.js';
import { Task } from './task.js';

/**
The request schema and the answer schema (for a stream, each event's) of every operation, keyed like
{@link operations}. Internal: the zod schemas never leave the package (CONTRIBUTING.md#library-boundaries),
only the types inferred from them.
*/
export const operationSchemas = Object.freeze({
  sendMessage: { request: SendMessageRequest, response: SendMessageResponse },
  sendStreamingMessage: { request: SendMessageRequest, response: StreamResponse },
  getTask: { request: GetTaskRequest, response: Task },
  listTasks: { request: ListTasksRequest, response: ListTasksResponse },
  cancelTask: { request: CancelTaskRequest, response: Task },
  subscribeToTask: { request: SubscribeToTaskRequest, response: StreamResponse },
  createTaskPushNotificationConfig: {
    request: TaskPushNotificationConfig,
    response: TaskPushNotificationConfig,
  },
  getTaskPushNotificationConfig: {
    request: GetTaskPushNotificationConfigRequest,
    response: TaskPushNotificationConfig,
  },
  listTaskPushNotificationConfigs: {
    request: ListTaskPushNotificationConfigsRequest,
    response: ListTaskPushNotificationConfigsResponse,
  },
  deleteTaskPushNotificationConfig: { request: DeleteTaskPushNotificationConfigRequest, response: Empty },
  getExtendedAgentCard: { request: GetExtendedAgentCardRequest, response: AgentCard },
} as const satisfies {
  readonly [M in ClientMethod]: { readonly request: z.ZodMiniType; readonly response: z.ZodMiniType };
});
