/**
@module
The HTTP+JSON route of each operation (A2A spec §11.3, §5.3), keyed by client method. Only the HTTP+JSON
binding reads it (and the public operation table, `operations.ts`), so it loads with that binding
(ARCHITECTURE.md#decisions, "Code loads with its first use").

`subscribeToTask` is sent as POST without a body, as the official clients do; the proto says GET, the prose
POST, and the official servers accept both (A2A spec §5.3, §11.3.2; docs/interop.md#peers-we-test-against).
*/
import type { ClientMethod } from './methods.js';

/** The HTTP methods the HTTP+JSON binding uses. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/**
An HTTP+JSON route, relative to the interface URL, with `{name}` for one percent-encoded path segment.
`fields` says where the request's other fields go: the JSON `body`, the `query` string, or nowhere.
*/
export type Route = {
  readonly method: HttpMethod;
  readonly path: string;
  readonly fields: 'body' | 'query' | 'none';
};

/**
Every operation's route.

@example
```ts
routes.cancelTask; // { method: 'POST', path: '/tasks/{id}:cancel', fields: 'body' }
```
*/
export const routes = Object.freeze({
  sendMessage: { method: 'POST', path: '/message:send', fields: 'body' },
  sendStreamingMessage: { method: 'POST', path: '/message:stream', fields: 'body' },
  getTask: { method: 'GET', path: '/tasks/{id}', fields: 'query' },
  listTasks: { method: 'GET', path: '/tasks', fields: 'query' },
  cancelTask: { method: 'POST', path: '/tasks/{id}:cancel', fields: 'body' },
  subscribeToTask: { method: 'POST', path: '/tasks/{id}:subscribe', fields: 'none' },
  createTaskPushNotificationConfig: {
    method: 'POST',
    path: '/tasks/{taskId}/pushNotificationConfigs',
    fields: 'body',
  },
  getTaskPushNotificationConfig: {
    method: 'GET',
    path: '/tasks/{taskId}/pushNotificationConfigs/{id}',
    fields: 'query',
  },
  listTaskPushNotificationConfigs: {
    method: 'GET',
    path: '/tasks/{taskId}/pushNotificationConfigs',
    fields: 'query',
  },
  deleteTaskPushNotificationConfig: {
    method: 'DELETE',
    path: '/tasks/{taskId}/pushNotificationConfigs/{id}',
    fields: 'query',
  },
  getExtendedAgentCard: { method: 'GET', path: '/extendedAgentCard', fields: 'query' },
} as const satisfies Record<ClientMethod, Route>);
