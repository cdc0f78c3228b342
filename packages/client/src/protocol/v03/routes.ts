/**
@module
The v1.0 requests the client builds, written as a v0.3 peer's HTTP+JSON routes and bodies (for the v0.3
binding's HTTP+JSON half, `bindings/v03/rest.ts`). A2A v0.3 §3.2.3 puts every route under `/v1` and, as the
official SDKs' v0.3 REST layers read them, its bodies are the v0.3 proto's messages in ProtoJSON, not the
v0.3 JSON-RPC shapes of `requests.ts`: a message holds its parts in `content`, a part is `{ text }`,
`{ file: { fileWithUri | fileWithBytes, mimeType } }` or `{ data: { data } }`, a push config is
`{ name, pushNotificationConfig }`. The client checks every request against the v1.0 contract first
(docs/protocol-checks.md#requests); what is refused here is what the v0.3 proto cannot hold: ListTasks and a
tenant (as over JSON-RPC), a data part that is no object, a message's `referenceTaskIds` and a cancel's
`metadata` (the v0.3 proto's Message and CancelTaskRequest have no such field), each a violation for a
`RequestError('invalid-params')` before anything is sent.
*/
import type { Violation } from '../../core/violation-text.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json-value.js';
import type { ClientMethod } from '../operations.js';
import { expandPath } from '../path-template.js';
import type { HttpMethod } from '../routes.js';
import { pick, Refusal, violationOf } from './refusal.js';
import { v03Refusal, v03Webhook } from './requests.js';

/** A v1.0 request as its v0.3 route and body, or where and why v0.3 cannot say it. */
export type V03Route =
  | {
      readonly ok: true;
      readonly method: HttpMethod;
      /** Below the interface URL, with its query. */
      readonly path: string;
      readonly body?: JsonObject;
      readonly error?: never;
    }
  | { readonly ok: false; readonly error: Violation; readonly method?: never; readonly path?: never };

const objectOf = (value: JsonValue | undefined): JsonObject => (isJsonObject(value) ? value : {});

function part(source: JsonObject, path: string): JsonObject {
  const metadata = pick(source, ['metadata']);
  if ('text' in source) {
    // v0.3's TextPart has no media type or file name; a text part's own are descriptive only.
    return { text: source['text'] ?? '', ...metadata };
  }
  if ('data' in source) {
    // The v0.3 proto's DataPart holds a Struct, and no media type (descriptive only, as a text part's).
    if (!isJsonObject(source['data'])) {
      throw new Refusal('invalid_type', `${path}.data`);
    }
    return { data: { data: source['data'] }, ...metadata };
  }
  // The v0.3 proto's FilePart has no file name: like a text part's media type, it is descriptive only.
  return {
    file: {
      ...('url' in source
        ? { fileWithUri: source['url'] ?? null }
        : { fileWithBytes: source['raw'] ?? null }),
      ...(source['mediaType'] === undefined ? {} : { mimeType: source['mediaType'] }),
    },
    ...metadata,
  };
}

function message(source: JsonObject): JsonObject {
  if (source['referenceTaskIds'] !== undefined) {
    throw new Refusal('unsupported', '$.message.referenceTaskIds');
  }
  const parts = Array.isArray(source['parts']) ? source['parts'] : [];
  return {
    ...pick(source, ['messageId', 'contextId', 'taskId', 'role']),
    content: parts.map((entry, index) => part(objectOf(entry), `$.message.parts[${index}]`)),
    ...pick(source, ['metadata', 'extensions']),
  };
}

function sendBody(request: JsonObject): JsonObject {
  const configuration = objectOf(request['configuration']);
  const push = configuration['taskPushNotificationConfig'];
  return {
    message: message(objectOf(request['message'])),
    configuration: {
      ...pick(configuration, ['acceptedOutputModes', 'historyLength']),
      ...(isJsonObject(push) ? { pushNotification: v03Webhook(push) } : {}),
      // The v0.3 proto's `blocking` defaults to false, v1.0's missing returnImmediately blocks, so the flag
      // is always written (docs/protocol-checks.md#v03-peers, `v03.blocking`).
      blocking: configuration['returnImmediately'] !== true,
    },
    ...pick(request, ['metadata']),
  };
}

function text(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

type Built = { readonly method: HttpMethod; readonly path: string; readonly body?: JsonObject };

function route(operation: Exclude<ClientMethod, 'listTasks'>, request: JsonObject): Built {
  const task = { id: text(request['id']) };
  const owner = { taskId: text(request['taskId']) };
  switch (operation) {
    case 'sendMessage':
      return { method: 'POST', path: '/v1/message:send', body: sendBody(request) };
    case 'sendStreamingMessage':
      return { method: 'POST', path: '/v1/message:stream', body: sendBody(request) };
    case 'getTask': {
      const length = request['historyLength'];
      const query = typeof length === 'number' ? `?historyLength=${length}` : '';
      return { method: 'GET', path: `${expandPath('/v1/tasks/{id}', task)}${query}` };
    }
    case 'cancelTask':
      if (request['metadata'] !== undefined) {
        throw new Refusal('unsupported', '$.metadata');
      }
      return { method: 'POST', path: expandPath('/v1/tasks/{id}:cancel', task) };
    case 'subscribeToTask':
      return { method: 'POST', path: expandPath('/v1/tasks/{id}:subscribe', task) };
    case 'createTaskPushNotificationConfig': {
      const path = expandPath('/v1/tasks/{taskId}/pushNotificationConfigs', owner);
      // The proto's resource name, as the official SDKs' v0.3 clients write it; the id is the config's own.
      const name = `tasks/${owner.taskId}/pushNotificationConfigs/${text(request['id']) ?? ''}`;
      return { method: 'POST', path, body: { name, pushNotificationConfig: v03Webhook(request) } };
    }
    case 'listTaskPushNotificationConfigs':
      // v0.3 lists every config at once: no page size or token (`v03.push-pages`).
      return { method: 'GET', path: expandPath('/v1/tasks/{taskId}/pushNotificationConfigs', owner) };
    case 'getTaskPushNotificationConfig':
    case 'deleteTaskPushNotificationConfig':
      return {
        method: operation === 'getTaskPushNotificationConfig' ? 'GET' : 'DELETE',
        path: expandPath('/v1/tasks/{taskId}/pushNotificationConfigs/{id}', { ...owner, ...task }),
      };
    case 'getExtendedAgentCard':
      return { method: 'GET', path: '/v1/card' };
  }
}

/**
The v0.3 HTTP+JSON route and body of a v1.0 request that passed the outbound contract.

@throws RequestError `invalid-params` (`path-segment`) for an id that cannot be one path segment, as the v1.0
  routes do (`protocol/path-template.ts`).
@example
```ts
v03Route('cancelTask', { id: 'a/b' }); // { ok: true, method: 'POST', path: '/v1/tasks/a%2Fb:cancel' }
```
*/
export function v03Route(operation: ClientMethod, request: unknown): V03Route {
  const source = objectOf(request as JsonValue);
  const refused = v03Refusal(operation, source);
  if (refused !== undefined) {
    return { ok: false, error: refused };
  }
  try {
    return { ok: true, ...route(operation as Exclude<ClientMethod, 'listTasks'>, source) };
  } catch (error) {
    return { ok: false, error: violationOf(error) };
  }
}
