/**
@module
The v1.0 requests the client builds, written as a v0.3 peer's JSON-RPC methods and params (for the v0.3
binding, `bindings/v03/`). The client checks every request against the v1.0 contract first
(docs/protocol-checks.md#requests); what is left here is what v0.3 cannot say: ListTasks (no v0.3 method), a
data part that is not an object (v0.3's DataPart holds an object), and a tenant (v0.3 has none). Each is a
violation naming a path and a rule, for a `RequestError('invalid-params')` before anything is sent.
*/
import type { Violation } from '../../core/violation-text.js';
import { isJsonObject, type JsonObject } from '../json-value.js';
import type { ClientMethod } from '../operations.js';
import { pick, Refusal, violationOf } from './refusal.js';

/**
Each v1.0 operation's v0.3 JSON-RPC method; ListTasks has none, and is refused before dispatch
(docs/protocol-checks.md#v03-peers).
*/
export const v03Methods: Readonly<Record<Exclude<ClientMethod, 'listTasks'>, string>> = Object.freeze({
  sendMessage: 'message/send',
  sendStreamingMessage: 'message/stream',
  getTask: 'tasks/get',
  cancelTask: 'tasks/cancel',
  subscribeToTask: 'tasks/resubscribe',
  createTaskPushNotificationConfig: 'tasks/pushNotificationConfig/set',
  getTaskPushNotificationConfig: 'tasks/pushNotificationConfig/get',
  listTaskPushNotificationConfigs: 'tasks/pushNotificationConfig/list',
  deleteTaskPushNotificationConfig: 'tasks/pushNotificationConfig/delete',
  getExtendedAgentCard: 'agent/getAuthenticatedExtendedCard',
});

/** A v1.0 request as its v0.3 method and params, or where and why v0.3 cannot say it. */
export type V03Request =
  | {
      readonly ok: true;
      readonly method: string;
      readonly params: JsonObject | undefined;
      readonly error?: never;
    }
  | { readonly ok: false; readonly error: Violation; readonly method?: never; readonly params?: never };

const roles: Readonly<Record<string, string>> = { ROLE_USER: 'user', ROLE_AGENT: 'agent' };

function part(source: JsonObject, path: string): JsonObject {
  const metadata = pick(source, ['metadata']);
  if ('text' in source) {
    // v0.3's TextPart has no media type or file name; a text part's own are descriptive only.
    return { kind: 'text', text: source['text'] ?? '', ...metadata };
  }
  if ('data' in source) {
    if (!isJsonObject(source['data'])) {
      throw new Refusal('invalid_type', `${path}.data`);
    }
    return { kind: 'data', data: source['data'], ...metadata };
  }
  const file: JsonObject = {
    ...('url' in source ? { uri: source['url'] ?? null } : { bytes: source['raw'] ?? null }),
    ...(source['mediaType'] === undefined ? {} : { mimeType: source['mediaType'] }),
    ...(source['filename'] === undefined ? {} : { name: source['filename'] }),
  };
  return { kind: 'file', file, ...metadata };
}

function message(source: JsonObject): JsonObject {
  const parts = Array.isArray(source['parts']) ? source['parts'] : [];
  return {
    kind: 'message',
    ...pick(source, ['messageId', 'contextId', 'taskId', 'metadata', 'extensions', 'referenceTaskIds']),
    role: roles[String(source['role'])] ?? 'user',
    parts: parts.map((entry, index) => part(isJsonObject(entry) ? entry : {}, `$.message.parts[${index}]`)),
  };
}

/**
A v1.0 push config's webhook as v0.3's PushNotificationConfig, the same in both v0.3 bindings: its one
authentication scheme as v0.3's list of them.

@example
```ts
v03Webhook({ url: 'https://hooks.example/a', authentication: { scheme: 'Bearer' } }); // { url, authentication: { schemes: ['Bearer'] } }
```
*/
export function v03Webhook(source: JsonObject): JsonObject {
  const authentication = source['authentication'];
  return {
    ...pick(source, ['id', 'url', 'token']),
    ...(isJsonObject(authentication)
      ? {
          authentication: {
            schemes: [authentication['scheme'] ?? ''],
            ...pick(authentication, ['credentials']),
          },
        }
      : {}),
  };
}

function sendParams(request: JsonObject): JsonObject {
  const configuration = isJsonObject(request['configuration']) ? request['configuration'] : {};
  const push = configuration['taskPushNotificationConfig'];
  return {
    message: message(isJsonObject(request['message']) ? request['message'] : {}),
    configuration: {
      ...pick(configuration, ['acceptedOutputModes', 'historyLength']),
      ...(isJsonObject(push) ? { pushNotificationConfig: v03Webhook(push) } : {}),
      // v1.0's missing returnImmediately is blocking, v0.3's missing blocking is not
      // (protocol/send-message.ts), so the flag is always written.
      blocking: configuration['returnImmediately'] !== true,
    },
    ...pick(request, ['metadata']),
  };
}

function paramsOf(
  operation: Exclude<ClientMethod, 'listTasks'>,
  request: JsonObject,
): JsonObject | undefined {
  switch (operation) {
    case 'sendMessage':
    case 'sendStreamingMessage':
      return sendParams(request);
    case 'getTask':
      return pick(request, ['id', 'historyLength']);
    case 'cancelTask':
      return pick(request, ['id', 'metadata']);
    case 'subscribeToTask':
      return pick(request, ['id']);
    case 'createTaskPushNotificationConfig':
      return { ...pick(request, ['taskId']), pushNotificationConfig: v03Webhook(request) };
    case 'getTaskPushNotificationConfig':
    case 'deleteTaskPushNotificationConfig':
      return { id: request['taskId'] ?? null, pushNotificationConfigId: request['id'] ?? null };
    case 'listTaskPushNotificationConfigs':
      // v0.3 lists every config at once: the page size and token have no v0.3 member, and A2A spec §3.1.9
      // has the server return every active config anyway.
      return { id: request['taskId'] ?? null };
    case 'getExtendedAgentCard':
      return undefined;
  }
}

/**
What no v0.3 binding can say of a request, whatever its binding: ListTasks (v0.3 has no such operation) and a
tenant (v0.3 has none); `undefined` for any other request.

@example
```ts
v03Refusal('listTasks', {}); // { rule: 'no-list-tasks', path: '$' }
```
*/
export function v03Refusal(operation: ClientMethod, request: JsonObject): Violation | undefined {
  if (operation === 'listTasks') {
    return { rule: 'no-list-tasks', path: '$' };
  }
  return request['tenant'] === undefined ? undefined : { rule: 'no-tenant', path: '$.tenant' };
}

/**
The v0.3 JSON-RPC method and params of a v1.0 request that passed the outbound contract.

@example
```ts
const built = v03Request('getTaskPushNotificationConfig', { taskId: 't-1', id: 'p-1' });
// { ok: true, method: 'tasks/pushNotificationConfig/get', params: { id: 't-1', pushNotificationConfigId: 'p-1' } }
```
*/
export function v03Request(operation: ClientMethod, request: unknown): V03Request {
  const source = isJsonObject(request) ? request : {};
  const refused = v03Refusal(operation, source);
  if (refused !== undefined) {
    return { ok: false, error: refused };
  }
  try {
    // ListTasks was refused above.
    const method = operation as Exclude<ClientMethod, 'listTasks'>;
    return { ok: true, method: v03Methods[method], params: paramsOf(method, source) };
  } catch (error) {
    return { ok: false, error: violationOf(error) };
  }
}
