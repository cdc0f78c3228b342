import type * as z from 'zod/mini';
import type { operationSchemas } from './operation-schemas.js';

/** The HTTP methods the HTTP+JSON binding uses. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** The card capability an operation needs (A2A spec §3.3.4): without it the call must not be made. */
export type Capability = 'streaming' | 'pushNotifications' | 'extendedAgentCard';

/** One operation of the protocol, as each binding and the client see it. */
export type Operation = {
  /** The operation's name in the spec (A2A spec §3.1), e.g. `'GetTask'`: also the JSON-RPC `method` and the gRPC RPC name (A2A spec §9.1). */
  readonly name: string;
  /**
  The HTTP+JSON route (A2A spec §11.3, §5.3), relative to the interface URL, with `{name}` for one percent-encoded path segment. `fields` says where the request's other fields go: the JSON `body`, the `query` string, or nowhere.
  */
  readonly http: {
    readonly method: HttpMethod;
    readonly path: string;
    readonly fields: 'body' | 'query' | 'none';
  };
  /** True when the answer is an SSE stream of `StreamResponse`. */
  readonly streams: boolean;
  /** The capability the card must declare, if any. */
  readonly capability?: Capability;
  /** True when repeating the call cannot change the outcome, by the operation's nature (A2A spec §3.3.1). */
  readonly idempotent: boolean;
};

/**
The 11 operations of A2A v1.0 (A2A spec §3.1, §5.3), keyed by the client method name. One table for both bindings, so a route or a method name lives in exactly one place.

- `subscribeToTask` is sent as POST without a body, as the official clients do; the proto says GET, the prose POST, and the official servers accept both (A2A spec §5.3, §11.3.2; docs/interop.md#peers-we-test-against).
- `sendMessage` also needs `pushNotifications` when its configuration carries a push config; that depends on the request, so the client checks it.

@example
```ts
const { name, http } = operations.cancelTask; // 'CancelTask', POST /tasks/{id}:cancel
```
*/
export const operations = Object.freeze({
  sendMessage: {
    name: 'SendMessage',
    http: { method: 'POST', path: '/message:send', fields: 'body' },
    streams: false,
    idempotent: false,
  },
  sendStreamingMessage: {
    name: 'SendStreamingMessage',
    http: { method: 'POST', path: '/message:stream', fields: 'body' },
    streams: true,
    capability: 'streaming',
    idempotent: false,
  },
  getTask: {
    name: 'GetTask',
    http: { method: 'GET', path: '/tasks/{id}', fields: 'query' },
    streams: false,
    idempotent: true,
  },
  listTasks: {
    name: 'ListTasks',
    http: { method: 'GET', path: '/tasks', fields: 'query' },
    streams: false,
    idempotent: true,
  },
  cancelTask: {
    name: 'CancelTask',
    http: { method: 'POST', path: '/tasks/{id}:cancel', fields: 'body' },
    streams: false,
    idempotent: true,
  },
  subscribeToTask: {
    name: 'SubscribeToTask',
    http: { method: 'POST', path: '/tasks/{id}:subscribe', fields: 'none' },
    streams: true,
    capability: 'streaming',
    idempotent: true,
  },
  createTaskPushNotificationConfig: {
    name: 'CreateTaskPushNotificationConfig',
    http: { method: 'POST', path: '/tasks/{taskId}/pushNotificationConfigs', fields: 'body' },
    streams: false,
    capability: 'pushNotifications',
    idempotent: false,
  },
  getTaskPushNotificationConfig: {
    name: 'GetTaskPushNotificationConfig',
    http: { method: 'GET', path: '/tasks/{taskId}/pushNotificationConfigs/{id}', fields: 'query' },
    streams: false,
    capability: 'pushNotifications',
    idempotent: true,
  },
  listTaskPushNotificationConfigs: {
    name: 'ListTaskPushNotificationConfigs',
    http: { method: 'GET', path: '/tasks/{taskId}/pushNotificationConfigs', fields: 'query' },
    streams: false,
    capability: 'pushNotifications',
    idempotent: true,
  },
  deleteTaskPushNotificationConfig: {
    name: 'DeleteTaskPushNotificationConfig',
    http: { method: 'DELETE', path: '/tasks/{taskId}/pushNotificationConfigs/{id}', fields: 'query' },
    streams: false,
    capability: 'pushNotifications',
    idempotent: true,
  },
  getExtendedAgentCard: {
    name: 'GetExtendedAgentCard',
    http: { method: 'GET', path: '/extendedAgentCard', fields: 'query' },
    streams: false,
    capability: 'extendedAgentCard',
    idempotent: true,
  },
} as const satisfies Record<string, Operation>);

/** The name of the client method that runs an operation: `'sendMessage'`, `'getTask'`, … (the key of {@link operations}). */
export type ClientMethod = keyof typeof operations;

/** An operation's name in the spec (A2A spec §3.1): `'SendMessage'`, `'GetTask'`, … It is also the JSON-RPC `method`, the name a token provider and the inspector events see, and the name the mock agent's faults target. */
export type OperationName = (typeof operations)[ClientMethod]['name'];

// Marked pure, so that a bundle that never lists the operations leaves the list out.
/** Every operation's name in the spec, in the spec's order. */
export const operationNames: readonly OperationName[] = /* @__PURE__ */ Object.freeze(
  /* @__PURE__ */ Object.values(operations).map((operation) => operation.name),
);

/** The request type of an operation. */
export type OperationRequest<M extends ClientMethod> = z.output<(typeof operationSchemas)[M]['request']>;

/** The answer type of an operation (for a stream, the type of each event). */
export type OperationResponse<M extends ClientMethod> = z.output<(typeof operationSchemas)[M]['response']>;
