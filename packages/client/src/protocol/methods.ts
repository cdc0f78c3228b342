/**
@module
The operations of A2A v1.0 as the client runs them: each one's name, whether it streams, the capability it
needs and whether it is idempotent, keyed by client method. Their HTTP+JSON routes are in `routes.ts`, read
only by that binding, so a page that sends over JSON-RPC never loads them (ARCHITECTURE.md#decisions, "Code
loads with its first use"); `operations.ts` joins the two into the public operation table.
*/

/** The card capability an operation needs (A2A spec §3.3.4): without it the call must not be made. */
export type Capability = 'streaming' | 'pushNotifications' | 'extendedAgentCard';

/** What the client knows of one operation, beside its HTTP+JSON route. */
export type MethodFacts = {
  /**
  The operation's name in the spec (A2A spec §3.1), e.g. `'GetTask'`: also the JSON-RPC `method` and the gRPC
  RPC name (A2A spec §9.1).
  */
  readonly name: string;
  /** True when the answer is an SSE stream of `StreamResponse`. */
  readonly streams: boolean;
  /** The capability the card must declare, if any. */
  readonly capability?: Capability;
  /** True when repeating the call cannot change the outcome, by the operation's nature (A2A spec §3.3.1). */
  readonly idempotent: boolean;
};

/**
The 11 operations of A2A v1.0 (A2A spec §3.1, §5.3), keyed by the client method name: one place for each name
and property. `sendMessage` also needs `pushNotifications` when its configuration carries a push config; that
depends on the request, so the client checks it.

@example
```ts
methods.cancelTask.name; // 'CancelTask'
```
*/
export const methods = Object.freeze({
  sendMessage: {
    name: 'SendMessage',
    streams: false,
    idempotent: false,
  },
  sendStreamingMessage: {
    name: 'SendStreamingMessage',
    streams: true,
    capability: 'streaming',
    idempotent: false,
  },
  getTask: {
    name: 'GetTask',
    streams: false,
    idempotent: true,
  },
  listTasks: {
    name: 'ListTasks',
    streams: false,
    idempotent: true,
  },
  cancelTask: {
    name: 'CancelTask',
    streams: false,
    idempotent: true,
  },
  subscribeToTask: {
    name: 'SubscribeToTask',
    streams: true,
    capability: 'streaming',
    idempotent: true,
  },
  createTaskPushNotificationConfig: {
    name: 'CreateTaskPushNotificationConfig',
    streams: false,
    capability: 'pushNotifications',
    idempotent: false,
  },
  getTaskPushNotificationConfig: {
    name: 'GetTaskPushNotificationConfig',
    streams: false,
    capability: 'pushNotifications',
    idempotent: true,
  },
  listTaskPushNotificationConfigs: {
    name: 'ListTaskPushNotificationConfigs',
    streams: false,
    capability: 'pushNotifications',
    idempotent: true,
  },
  deleteTaskPushNotificationConfig: {
    name: 'DeleteTaskPushNotificationConfig',
    streams: false,
    capability: 'pushNotifications',
    idempotent: true,
  },
  getExtendedAgentCard: {
    name: 'GetExtendedAgentCard',
    streams: false,
    capability: 'extendedAgentCard',
    idempotent: true,
  },
} as const satisfies Record<string, MethodFacts>);

/**
The name of the client method that runs an operation: `'sendMessage'`, `'getTask'`, … (the key of the
operation table).
*/
export type ClientMethod = keyof typeof methods;

/**
An operation's name in the spec (A2A spec §3.1): `'SendMessage'`, `'GetTask'`, … It is also the JSON-RPC
`method`, the name a token provider and the inspector events see, and the name the mock agent's faults target.
*/
export type OperationName = (typeof methods)[ClientMethod]['name'];
