/**
@module
The v0.3 JSON-RPC methods of the mock agent in its v0.3 mode (`AgentOptions.protocol: '0.3'`) and the v1.0
operation each one runs in the agent's one core: the names of A2A v0.3's JSON-RPC binding, as the official
SDKs' v0.3 compatibility serves them. v0.3 has no ListTasks; a v1.0 name is no v0.3 method (-32601).
*/
import type { OperationName } from '@surecall/client/protocol';

/** Each v0.3 JSON-RPC method and the v1.0 operation it runs. */
export const v03Operations: Readonly<Record<string, Exclude<OperationName, 'ListTasks'>>> = Object.freeze({
  'message/send': 'SendMessage',
  'message/stream': 'SendStreamingMessage',
  'tasks/get': 'GetTask',
  'tasks/cancel': 'CancelTask',
  'tasks/resubscribe': 'SubscribeToTask',
  'tasks/pushNotificationConfig/set': 'CreateTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/get': 'GetTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/list': 'ListTaskPushNotificationConfigs',
  'tasks/pushNotificationConfig/delete': 'DeleteTaskPushNotificationConfig',
  'agent/getAuthenticatedExtendedCard': 'GetExtendedAgentCard',
});

/**
The v1.0 operation a v0.3 method runs; `undefined` for any other name, v1.0's own among them.

@example
```ts
v03OperationOf('tasks/resubscribe'); // 'SubscribeToTask'
v03OperationOf('GetTask'); // undefined
```
*/
export function v03OperationOf(method: unknown): Exclude<OperationName, 'ListTasks'> | undefined {
  return typeof method === 'string' && Object.hasOwn(v03Operations, method)
    ? v03Operations[method]
    : undefined;
}
