import * as z from 'zod/mini';
import { contractBounds } from './bounds.js';
import { Metadata } from './json-value.js';
import { TaskPushNotificationConfig } from './push.js';
import { Bool, int32, items, protoString, violate, wireObject } from './scalars.js';
import { HistoryLength } from './send-message.js';
import { Task, TaskState } from './task.js';
import { Id, labelRule, PageToken } from './text.js';
import { Timestamp } from './timestamp.js';

/**
A `nextPageToken` in a response: `""` means there is no further page (A2A spec §3.1.4), anything else is a
bounded token. A missing token reads `""`: ProtoJSON drops empty strings although the spec says the field is
always present (A2A spec §3.1.4; docs/protocol-checks.md#protojson).
*/
export const NextPageToken = z._default(
  protoString().check((payload) => {
    const rule = payload.value === '' ? undefined : labelRule(payload.value, contractBounds.pageTokenBytes);
    if (rule !== undefined) {
      violate(payload, rule);
    }
  }),
  '',
);

// Every request carries an optional `tenant` (A2A spec §8.3.2). The bindings fill it from the selected
// interface, never from the caller.

/**
GetTask (A2A spec §3.1.3).

@example
```ts
const request: GetTaskRequest = { id: taskId, historyLength: 10 };
```
*/
export const GetTaskRequest = wireObject(
  {
    tenant: z.optional(Id),
    id: Id,
    historyLength: z.optional(HistoryLength),
  },
  ['historyLength'],
);
/** The request of GetTask. */
export type GetTaskRequest = z.infer<typeof GetTaskRequest>;

/**
ListTasks filters and cursor (A2A spec §3.1.4). `pageSize` is 1..100 (default 50 on the server);
`statusTimestampAfter` is inclusive despite its name; without `includeArtifacts: true` the returned tasks
carry no `artifacts` at all.

@example
```ts
const request: ListTasksRequest = { contextId, pageSize: 100, historyLength: 64 };
```
*/
export const ListTasksRequest = wireObject(
  {
    tenant: z.optional(Id),
    contextId: z.optional(Id),
    status: z.optional(TaskState),
    pageSize: z.optional(int32(1, contractBounds.taskPageSize)),
    pageToken: z.optional(PageToken),
    historyLength: z.optional(HistoryLength),
    statusTimestampAfter: z.optional(Timestamp),
    includeArtifacts: z.optional(Bool),
  },
  ['pageSize', 'historyLength', 'includeArtifacts'],
);
/** The request of ListTasks. */
export type ListTasksRequest = z.infer<typeof ListTasksRequest>;

/**
One page of tasks (A2A spec §3.1.4). Every field is REQUIRED, yet a ProtoJSON serializer drops `[]`, `""` and
`0`, so missing ones read as those defaults (docs/protocol-checks.md#protojson). The page's own rules (echoed
`pageSize` in 1..100, `tasks` ≤ `pageSize` ≤ `totalSize`, unique ids, newest status first) and its relation to
the request are checked by the bindings with the `page` reason; this schema bounds each field.

@example
```ts
const page = decodeOrThrow(ListTasksResponse, json, true);
if (page.nextPageToken !== '') { … }
```
*/
export const ListTasksResponse = wireObject({
  tasks: z._default(items(Task, 0, contractBounds.taskPageSize), () => []),
  nextPageToken: NextPageToken,
  pageSize: z._default(int32(0), 0),
  totalSize: z._default(int32(0), 0),
});
/** One page of tasks. */
export type ListTasksResponse = z.infer<typeof ListTasksResponse>;

/**
CancelTask (A2A spec §3.1.5).

@example
```ts
const request: CancelTaskRequest = { id: taskId };
```
*/
export const CancelTaskRequest = wireObject({
  tenant: z.optional(Id),
  id: Id,
  metadata: z.optional(Metadata),
});
/** The request of CancelTask. */
export type CancelTaskRequest = z.infer<typeof CancelTaskRequest>;

/**
SubscribeToTask (A2A spec §3.1.6): the stream's first event is the task as it stands.

@example
```ts
const request: SubscribeToTaskRequest = { id: taskId };
```
*/
export const SubscribeToTaskRequest = wireObject({
  tenant: z.optional(Id),
  id: Id,
});
/** The request of SubscribeToTask. */
export type SubscribeToTaskRequest = z.infer<typeof SubscribeToTaskRequest>;

/**
GetTaskPushNotificationConfig (A2A spec §3.1.8): `taskId` and the config `id`.

@example
```ts
const request: GetTaskPushNotificationConfigRequest = { taskId, id: configId };
```
*/
export const GetTaskPushNotificationConfigRequest = wireObject({
  tenant: z.optional(Id),
  taskId: Id,
  id: Id,
});
/** The request of GetTaskPushNotificationConfig. */
export type GetTaskPushNotificationConfigRequest = z.infer<typeof GetTaskPushNotificationConfigRequest>;

/**
ListTaskPushNotificationConfigs (A2A spec §3.1.9). The spec sets no page bound; this client asks for at
most 256.

@example
```ts
const request: ListTaskPushNotificationConfigsRequest = { taskId, pageSize: 50 };
```
*/
export const ListTaskPushNotificationConfigsRequest = wireObject({
  tenant: z.optional(Id),
  taskId: Id,
  pageSize: z.optional(int32(1, contractBounds.pushConfigPageSize)),
  pageToken: z.optional(PageToken),
});
/** The request of ListTaskPushNotificationConfigs. */
export type ListTaskPushNotificationConfigsRequest = z.infer<typeof ListTaskPushNotificationConfigsRequest>;

/**
DeleteTaskPushNotificationConfig (A2A spec §3.1.10): idempotent by the spec.

@example
```ts
const request: DeleteTaskPushNotificationConfigRequest = { taskId, id: configId };
```
*/
export const DeleteTaskPushNotificationConfigRequest = wireObject({
  tenant: z.optional(Id),
  taskId: Id,
  id: Id,
});
/** The request of DeleteTaskPushNotificationConfig. */
export type DeleteTaskPushNotificationConfigRequest = z.infer<typeof DeleteTaskPushNotificationConfigRequest>;

/**
GetExtendedAgentCard (A2A spec §3.1.11): only the tenant.

@example
```ts
const request: GetExtendedAgentCardRequest = {};
```
*/
export const GetExtendedAgentCardRequest = wireObject({
  tenant: z.optional(Id),
});
/** The request of GetExtendedAgentCard. */
export type GetExtendedAgentCardRequest = z.infer<typeof GetExtendedAgentCardRequest>;

/**
`google.protobuf.Empty`, the answer to DeleteTaskPushNotificationConfig: `{}` (unknown members ignored).
*/
export const Empty = wireObject({});
/** An empty answer. */
export type Empty = z.infer<typeof Empty>;

/**
One page of a task's webhooks (A2A spec §3.1.9). ProtoJSON drops an empty list, so a missing `configs` reads
`[]`. At most 256 configs; more than the requested `pageSize` is accepted (A2A spec §3.1.9: the server MUST
return all active configs and MAY paginate). The page's relation to the request (every entry on the requested
task with an id, ids unique) is checked by the bindings.
*/
export const ListTaskPushNotificationConfigsResponse = wireObject({
  configs: z._default(items(TaskPushNotificationConfig, 0, contractBounds.pushConfigPageSize), () => []),
  nextPageToken: NextPageToken,
});
/** One page of a task's webhooks. */
export type ListTaskPushNotificationConfigsResponse = z.infer<typeof ListTaskPushNotificationConfigsResponse>;
