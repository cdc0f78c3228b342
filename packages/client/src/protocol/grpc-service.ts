/**
@module
The `A2AService` of the proto (A2A spec §10.3, §10.4) as data: the service's full name and, per client
method, the messages its RPC takes and answers. The RPC's own name is the operation's spec name
(`methods.ts`), so a call's path is `/lf.a2a.v1.A2AService/<name>`. The gRPC binding reads it, and so does
the mock agent's gRPC mount, through `@surecall/client/protocol`.
*/
import type { ClientMethod } from './methods.js';

/** The full name of the service every A2A gRPC server implements (A2A spec §10.1). */
export const grpcServiceName = 'lf.a2a.v1.A2AService';

/** The request and answer messages of one RPC, by their full proto names. */
export type GrpcMessages = { readonly request: string; readonly response: string };

/**
Each operation's messages (A2A spec §10.4). CreateTaskPushNotificationConfig takes the
`TaskPushNotificationConfig` itself, as JSON-RPC's params are, and DeleteTaskPushNotificationConfig answers
`google.protobuf.Empty`.

@example
```ts
grpcMessages.getTask; // { request: 'lf.a2a.v1.GetTaskRequest', response: 'lf.a2a.v1.Task' }
```
*/
export const grpcMessages: Readonly<Record<ClientMethod, GrpcMessages>> = Object.freeze({
  sendMessage: { request: 'lf.a2a.v1.SendMessageRequest', response: 'lf.a2a.v1.SendMessageResponse' },
  sendStreamingMessage: { request: 'lf.a2a.v1.SendMessageRequest', response: 'lf.a2a.v1.StreamResponse' },
  getTask: { request: 'lf.a2a.v1.GetTaskRequest', response: 'lf.a2a.v1.Task' },
  listTasks: { request: 'lf.a2a.v1.ListTasksRequest', response: 'lf.a2a.v1.ListTasksResponse' },
  cancelTask: { request: 'lf.a2a.v1.CancelTaskRequest', response: 'lf.a2a.v1.Task' },
  subscribeToTask: { request: 'lf.a2a.v1.SubscribeToTaskRequest', response: 'lf.a2a.v1.StreamResponse' },
  createTaskPushNotificationConfig: {
    request: 'lf.a2a.v1.TaskPushNotificationConfig',
    response: 'lf.a2a.v1.TaskPushNotificationConfig',
  },
  getTaskPushNotificationConfig: {
    request: 'lf.a2a.v1.GetTaskPushNotificationConfigRequest',
    response: 'lf.a2a.v1.TaskPushNotificationConfig',
  },
  listTaskPushNotificationConfigs: {
    request: 'lf.a2a.v1.ListTaskPushNotificationConfigsRequest',
    response: 'lf.a2a.v1.ListTaskPushNotificationConfigsResponse',
  },
  deleteTaskPushNotificationConfig: {
    request: 'lf.a2a.v1.DeleteTaskPushNotificationConfigRequest',
    response: 'google.protobuf.Empty',
  },
  getExtendedAgentCard: {
    request: 'lf.a2a.v1.GetExtendedAgentCardRequest',
    response: 'lf.a2a.v1.AgentCard',
  },
});
