import * as z from 'zod/mini';
import { wireObject } from './scalars.js';
import { Id, Label, Secret, Url } from './text.js';

/**
How the agent authenticates to a webhook (A2A spec §4.3.1, §4.3.2): an IANA HTTP auth `scheme` (e.g. `Bearer`,
compared case-insensitively) and its `credentials`.

@example
```ts
const authentication: AuthenticationInfo = { scheme: 'Bearer', credentials: webhookToken };
```
*/
export const AuthenticationInfo = wireObject({
  scheme: Label,
  credentials: z.optional(Secret),
});
/** How the agent authenticates to a webhook. */
export type AuthenticationInfo = z.infer<typeof AuthenticationInfo>;

/**
A webhook registered for a task (A2A spec §4.3.1): v1.0 merged v0.3's two config types into this flat one. It
is both the CreateTaskPushNotificationConfig request and every push-config response. `taskId` is left out when
the config rides in `SendMessageConfiguration`; the agent assigns `id` when the client does not.

@example
```ts
const config: TaskPushNotificationConfig = { taskId: task.id, url: 'https://hooks.example/a2a', token: 'per-task-token' };
```
*/
export const TaskPushNotificationConfig = wireObject({
  tenant: z.optional(Id),
  id: z.optional(Id),
  taskId: z.optional(Id),
  url: Url,
  token: z.optional(Secret),
  authentication: z.optional(AuthenticationInfo),
});
/** A webhook registered for a task. */
export type TaskPushNotificationConfig = z.infer<typeof TaskPushNotificationConfig>;
