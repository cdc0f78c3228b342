// Two imports come first on purpose (CONTRIBUTING.md#packages-and-size): a bundler lays the modules out in
// the order it first meets them, and gzip finds repeats only within 32 KiB. The loader first, so that in a
// one-file bundle the deferred module (ARCHITECTURE.md#decisions, "Code loads with its first use") sits with
// the protocol and JSON code it shares most of its text with, ahead of ky; -0.6 kB gzipped on `discover()`
// whole and on the root entry (`.size-limit.js`).
import { loadDeferred } from './loader.js';

// The call runner second, ahead of the answer checks: on the page's path, ky and zod then come first and the
// client's own code follows in one run; -0.1 kB on the page and on `npm run bench -- client`.

import { type CallOptions, createCaller } from './call.js';

// The rest in biome's order.

import { checkSendResult, checkTask } from '../bindings/checks.js';
import type { JsonValue } from '../core/json-value.js';
import { optionalMembers } from '../core/optional-members.js';
import type { AgentCard } from '../protocol/agent-card.js';
import type { TaskPushNotificationConfig } from '../protocol/push.js';
import type { ListTaskPushNotificationConfigsResponse, ListTasksResponse } from '../protocol/requests.js';
import type { SendMessageResponse } from '../protocol/send-message.js';
import type { StreamResponse } from '../protocol/stream.js';
import type { Task } from '../protocol/task.js';
import { type ClientEvents, createEventHub } from './events.js';
import { type ClientOptions, resolveClientOptions } from './options.js';
import type { OperationParams } from './outbound.js';
import type { InterfacePin } from './pin.js';
import type { ProtocolBinding } from './security.js';

/**
What SendMessage returns: the protocol's answer, plus `replayed: true` when it came from a retry of a keyed
send to an honouring peer. The peer then answered with the task its key holds, which an earlier attempt may
have created, in whatever state it has reached: a blocking send's task may still be `SUBMITTED` or `WORKING`
(docs/idempotency.md#replays), so follow it with `getTask` or `subscribeToTask`. The member is absent
otherwise; it is the client's, never the peer's.

@example
```ts
const result = await client.sendMessage({ message });
if ('task' in result && result.replayed === true && !isTerminal(result.task.status.state)) {
  for await (const event of client.subscribeToTask({ id: result.task.id })) render(event);
}
```
*/
export type SendMessageResult = SendMessageResponse & { readonly replayed?: true };

/**
A strict A2A v1.0 client bound to one interface of one agent (ARCHITECTURE.md#layers-of-the-client, layer
"client"). It is stateless and immutable: it never retries unless given a retry policy (and then only what
`retry.ts` allows), never follows a redirect, never sends what breaks the outbound contract or a capability of
the card, and checks every answer before returning it. Every failure is a `ClientError` whose `dispatched`
says whether the outcome may be unknown.

@example
```ts
const result = await client.sendMessage({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } });
if ('task' in result) {
  for await (const event of client.subscribeToTask({ id: result.task.id })) render(event);
}
```
*/
export type A2aClient = {
  /** The public card the client was built from, frozen. */
  readonly card: AgentCard;
  /** Its digest, `sha256:` and 64 hex digits. */
  readonly cardDigest: string;
  /** The binding of the pinned interface. */
  readonly binding: ProtocolBinding;
  /**
  The interface this client talks to: its binding, WHATWG-serialized URL and tenant. The durable ledger
  records it as the agent's identity.
  */
  readonly pin: InterfacePin;
  /** Redacted inspector events of every call. */
  readonly events: ClientEvents;
  /**
  Whether the peer honours idempotency keys: its card advertises the extension, unless
  `peerHonoursIdempotency` said otherwise. Only then is a keyed send retried
  (docs/idempotency.md#retry-policy).
  */
  readonly honoursIdempotency: boolean;
  /**
  SendMessage (A2A spec §3.1.1): the task (settled, unless `returnImmediately` or `replayed`) or a direct
  message.
  */
  sendMessage(params: OperationParams<'sendMessage'>, options?: CallOptions): Promise<SendMessageResult>;
  /**
  SendStreamingMessage (A2A spec §3.1.2). Nothing is sent until iteration starts; breaking out releases the
  stream.
  */
  sendStreamingMessage(
    params: OperationParams<'sendStreamingMessage'>,
    options?: CallOptions,
  ): AsyncIterable<StreamResponse>;
  /** GetTask (A2A spec §3.1.3). */
  getTask(params: OperationParams<'getTask'>, options?: CallOptions): Promise<Task>;
  /** ListTasks (A2A spec §3.1.4): one page, newest status first. */
  listTasks(params: OperationParams<'listTasks'>, options?: CallOptions): Promise<ListTasksResponse>;
  /** CancelTask (A2A spec §3.1.5). */
  cancelTask(params: OperationParams<'cancelTask'>, options?: CallOptions): Promise<Task>;
  /** SubscribeToTask (A2A spec §3.1.6): the task as it stands, then its updates. */
  subscribeToTask(
    params: OperationParams<'subscribeToTask'>,
    options?: CallOptions,
  ): AsyncIterable<StreamResponse>;
  /** CreateTaskPushNotificationConfig (A2A spec §3.1.7); `taskId` is required. */
  createTaskPushNotificationConfig(
    params: OperationParams<'createTaskPushNotificationConfig'>,
    options?: CallOptions,
  ): Promise<TaskPushNotificationConfig>;
  /** GetTaskPushNotificationConfig (A2A spec §3.1.8). */
  getTaskPushNotificationConfig(
    params: OperationParams<'getTaskPushNotificationConfig'>,
    options?: CallOptions,
  ): Promise<TaskPushNotificationConfig>;
  /** ListTaskPushNotificationConfigs (A2A spec §3.1.9). */
  listTaskPushNotificationConfigs(
    params: OperationParams<'listTaskPushNotificationConfigs'>,
    options?: CallOptions,
  ): Promise<ListTaskPushNotificationConfigsResponse>;
  /** DeleteTaskPushNotificationConfig (A2A spec §3.1.10). */
  deleteTaskPushNotificationConfig(
    params: OperationParams<'deleteTaskPushNotificationConfig'>,
    options?: CallOptions,
  ): Promise<void>;
  /**
  GetExtendedAgentCard (A2A spec §3.1.11): returned as data only; it never changes this client. Needs bearer
  security.
  */
  getExtendedAgentCard(
    params?: OperationParams<'getExtendedAgentCard'>,
    options?: CallOptions,
  ): Promise<AgentCard>;
  /**
  A new client on the agent's extended card (docs/protocol-checks.md#extended-card): GetExtendedAgentCard,
  then the same options as this client's on the card it answered, under the same checks and pins
  (`OptionsError` when the card cannot take them: the pin not among its interfaces, the security not
  satisfying its requirements), its digest in `cardDigest`. Its skills, capabilities and requirements are the
  extended card's; this client is unchanged. Needs bearer security.

  @example
  ```ts
  const full = await client.withExtendedCard();
  const agent = durableAgent({ client: full, ledger }); // remoteSkill(agent, …) sees the extended skills
  ```
  */
  withExtendedCard(options?: CallOptions): Promise<A2aClient>;
};

/**
Builds a client for one pinned interface of an agent whose card is already validated (`discover()` calls this
once it has fetched and digested the card). Throws `OptionsError` when the options break a rule (see
`resolveClientOptions`).

@example
```ts
const client = createClient({
  card,
  cardDigest,
  pin: { binding: 'HTTP+JSON', url: 'https://partner.example/a2a' },
  security: { kind: 'bearer', scheme: 'oidc', token: async (context) => mint(context) },
});
const task = await client.getTask({ id: 'task-1', historyLength: 10 });
```
*/
export function createClient(options: ClientOptions): A2aClient {
  const resolved = resolveClientOptions(options);
  const given = { ...options };
  const hub = createEventHub();
  const { unary, stream } = createCaller(resolved, hub);
  const extendedCard = (params: object, callOptions: CallOptions | undefined) =>
    unary('getExtendedAgentCard', params, callOptions, ignoreCheck);
  return Object.freeze({
    card: resolved.card,
    cardDigest: resolved.cardDigest,
    binding: resolved.pin.binding,
    pin: Object.freeze({
      binding: resolved.pin.binding,
      url: resolved.pin.url,
      ...optionalMembers({ tenant: resolved.pin.tenant }),
    }),
    events: hub.events,
    honoursIdempotency: resolved.honoursIdempotency,
    sendMessage: (params, callOptions) =>
      unary('sendMessage', params, callOptions, (request, value, httpStatus, replay) =>
        checkSendResult(request, value, { httpStatus, replay }),
      ),
    sendStreamingMessage: (params, callOptions) => stream('sendStreamingMessage', params, callOptions),
    getTask: (params, callOptions) =>
      unary('getTask', params, callOptions, (request, value, httpStatus) =>
        checkTask(value, { id: request.id, historyLength: request.historyLength }, { httpStatus }),
      ),
    listTasks: (params, callOptions) =>
      unary('listTasks', params, callOptions, async (request, value, httpStatus) =>
        (await loadDeferred(true)).checkTaskPage(request, value, { httpStatus }),
      ),
    cancelTask: (params, callOptions) =>
      unary('cancelTask', params, callOptions, (request, value, httpStatus) =>
        checkTask(value, { id: request.id }, { httpStatus }),
      ),
    subscribeToTask: (params, callOptions) => stream('subscribeToTask', params, callOptions),
    createTaskPushNotificationConfig: (params, callOptions) =>
      unary('createTaskPushNotificationConfig', params, callOptions, async (request, value, httpStatus) =>
        (await loadDeferred(true)).checkPushConfig({ taskId: request.taskId ?? '', id: request.id }, value, {
          httpStatus,
        }),
      ),
    getTaskPushNotificationConfig: (params, callOptions) =>
      unary('getTaskPushNotificationConfig', params, callOptions, async (request, value, httpStatus) =>
        (await loadDeferred(true)).checkPushConfig(request, value, { httpStatus }),
      ),
    listTaskPushNotificationConfigs: (params, callOptions) =>
      unary('listTaskPushNotificationConfigs', params, callOptions, async (request, value, httpStatus) =>
        (await loadDeferred(true)).checkPushConfigPage(request, value, { httpStatus }),
      ),
    deleteTaskPushNotificationConfig: async (params, callOptions) => {
      await unary('deleteTaskPushNotificationConfig', params, callOptions, ignoreCheck);
    },
    getExtendedAgentCard: (params, callOptions) => extendedCard(params ?? {}, callOptions),
    // docs/protocol-checks.md#extended-card: the same options on the card the pinned interface answered, so
    // the same checks and pins; its digest (of the decoded card: the raw answer stays in the binding) is
    // evidence, never compared with a pin. The digest loads with its first use, once the card has arrived.
    withExtendedCard: async (callOptions) => {
      const card = await extendedCard({}, callOptions);
      const digest = await (await loadDeferred(true)).cardDigest(card as unknown as JsonValue);
      return createClient({ ...given, card, cardDigest: digest });
    },
  });
}

// Delete has no resource to check (its answer variants are the binding's), and the extended card is
// revalidated by the binding's card decode.
function ignoreCheck(): void {}
