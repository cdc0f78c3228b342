/**
@module
A v0.3 peer's answers over JSON-RPC, written as the v1.0 values the client already checks (for the v0.3
binding, `bindings/v03/`): v0.3 tells its objects apart by a `kind` member (`task`, `message`,
`status-update`, `artifact-update`; parts `text`, `file`, `data`), spells states and roles in lower case
(`completed`, `user`) and nests a push config's webhook one level down. Each function reads one v0.3 value,
refuses what v0.3 itself refuses (a missing or wrong `kind`, an unknown state or role, a file with both or
neither of `uri` and `bytes`) with a violation that names a path and a rule of
docs/protocol-checks.md#rule-ids, and otherwise returns the v1.0 JSON, which the v1.0 schemas then hold to
every bound and rule they hold a v1.0 answer to. Nothing is decoded here: what is not v0.3's own difference is
left for the v1.0 contract to refuse.
*/
import { isJsonObject, type JsonObject, type JsonValue } from '../json-value.js';
import { mapped, Refusal, type V03Mapping } from './refusal.js';

function object(value: JsonValue | undefined, path: string): JsonObject {
  if (!isJsonObject(value)) {
    throw new Refusal(value === undefined || value === null ? 'required' : 'invalid_type', path);
  }
  return value;
}

function list(value: JsonValue | undefined, path: string): readonly JsonValue[] {
  if (!Array.isArray(value)) {
    throw new Refusal(value === undefined || value === null ? 'required' : 'invalid_type', path);
  }
  return value;
}

// v0.3 JSON is plain JSON, not ProtoJSON: an absent member and `null` are both left out of the v1.0 value.
function present(source: JsonObject, names: readonly string[]): JsonObject {
  const kept: JsonObject = {};
  for (const name of names) {
    const value = source[name];
    if (value !== undefined && value !== null) {
      kept[name] = value;
    }
  }
  return kept;
}

function expectKind(source: JsonObject, kind: string, path: string): void {
  if (source['kind'] !== kind) {
    throw new Refusal(source['kind'] == null ? 'required' : 'oneof-unknown', `${path}.kind`);
  }
}

/**
v0.3's `TaskState` strings and their v1.0 names; v0.3's `unknown` has none
(docs/protocol-checks.md#v03-peers).
*/
export const v03States: Readonly<Record<string, string>> = Object.freeze({
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  canceled: 'TASK_STATE_CANCELED',
  failed: 'TASK_STATE_FAILED',
  rejected: 'TASK_STATE_REJECTED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
});

/** v0.3's roles and their v1.0 names. */
export const v03Roles: Readonly<Record<string, string>> = Object.freeze({
  user: 'ROLE_USER',
  agent: 'ROLE_AGENT',
});

function named(table: Readonly<Record<string, string>>, value: JsonValue | undefined, path: string): string {
  if (value === undefined || value === null) {
    throw new Refusal('required', path);
  }
  if (typeof value !== 'string' || !Object.hasOwn(table, value)) {
    throw new Refusal('enum', path);
  }
  return table[value] as string;
}

function part(value: JsonValue, path: string): JsonObject {
  const source = object(value, path);
  const common = present(source, ['metadata']);
  switch (source['kind']) {
    case 'text':
      if (source['text'] === undefined || source['text'] === null) {
        throw new Refusal('required', `${path}.text`);
      }
      return { text: source['text'], ...common };
    case 'data': {
      // v0.3's DataPart holds an object; v1.0 takes any JSON value, so every v0.3 data part is one.
      return { data: object(source['data'], `${path}.data`), ...common };
    }
    case 'file': {
      const file = object(source['file'], `${path}.file`);
      const uri = file['uri'] ?? undefined;
      const bytes = file['bytes'] ?? undefined;
      // v0.3 FileWithUri | FileWithBytes: exactly one of the two.
      if ((uri === undefined) === (bytes === undefined)) {
        throw new Refusal(uri === undefined ? 'oneof-none' : 'oneof-many', `${path}.file`);
      }
      const content: JsonObject = uri === undefined ? { raw: bytes ?? null } : { url: uri };
      const described = present(file, ['mimeType', 'name']);
      return {
        ...content,
        ...(described['mimeType'] === undefined ? {} : { mediaType: described['mimeType'] }),
        ...(described['name'] === undefined ? {} : { filename: described['name'] }),
        ...common,
      };
    }
    default:
      throw new Refusal(source['kind'] == null ? 'required' : 'oneof-unknown', `${path}.kind`);
  }
}

function parts(value: JsonValue | undefined, path: string): JsonValue[] {
  return list(value, path).map((entry, index) => part(entry, `${path}[${index}]`));
}

function message(value: JsonValue | undefined, path: string): JsonObject {
  const source = object(value, path);
  expectKind(source, 'message', path);
  return {
    ...present(source, ['messageId', 'contextId', 'taskId', 'metadata', 'extensions', 'referenceTaskIds']),
    role: named(v03Roles, source['role'], `${path}.role`),
    parts: parts(source['parts'], `${path}.parts`),
  };
}

function status(value: JsonValue | undefined, path: string): JsonObject {
  const source = object(value, path);
  const update = source['message'];
  return {
    state: named(v03States, source['state'], `${path}.state`),
    ...(update === undefined || update === null ? {} : { message: message(update, `${path}.message`) }),
    ...present(source, ['timestamp']),
  };
}

function artifact(value: JsonValue, path: string): JsonObject {
  const source = object(value, path);
  return {
    ...present(source, ['artifactId', 'name', 'description', 'metadata', 'extensions']),
    parts: parts(source['parts'], `${path}.parts`),
  };
}

function task(value: JsonValue | undefined, path: string): JsonObject {
  const source = object(value, path);
  expectKind(source, 'task', path);
  const history = source['history'];
  const artifacts = source['artifacts'];
  return {
    ...present(source, ['id', 'contextId', 'metadata']),
    status: status(source['status'], `${path}.status`),
    ...(history === undefined || history === null
      ? {}
      : {
          history: list(history, `${path}.history`).map((entry, index) =>
            message(entry, `${path}.history[${index}]`),
          ),
        }),
    ...(artifacts === undefined || artifacts === null
      ? {}
      : {
          artifacts: list(artifacts, `${path}.artifacts`).map((entry, index) =>
            artifact(entry, `${path}.artifacts[${index}]`),
          ),
        }),
  };
}

/**
A v0.3 Task (`tasks/get`, `tasks/cancel`) as the v1.0 Task.

@example
```ts
const result = taskFromV03({ kind: 'task', id: 't-1', contextId: 'c-1', status: { state: 'completed' } });
// { ok: true, value: { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_COMPLETED' } } }
```
*/
export function taskFromV03(raw: JsonValue): V03Mapping {
  return mapped(() => task(raw, '$'));
}

/**
The result of v0.3 `message/send`, a Task or a Message told apart by `kind`, as the v1.0 SendMessageResponse
(`{ task }` or `{ message }`).

@example
```ts
const result = sendResultFromV03({ kind: 'message', messageId: 'm-1', role: 'agent', parts: [{ kind: 'text', text: 'hi' }] });
// { ok: true, value: { message: { messageId: 'm-1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } } }
```
*/
export function sendResultFromV03(raw: JsonValue): V03Mapping {
  return mapped(() => {
    const source = object(raw, '$');
    if (source['kind'] === 'message') {
      return { message: message(source, '$') };
    }
    expectKind(source, 'task', '$');
    return { task: task(source, '$') };
  });
}

/**
One v0.3 stream event (`message/stream`, `tasks/resubscribe`), told apart by `kind`, as the v1.0
StreamResponse. v0.3's `final` on a status update has no v1.0 member: the stream's end is its close, as in
v1.0 (docs/protocol-checks.md#v03-peers), so it is read and dropped.

@example
```ts
const result = streamEventFromV03({ kind: 'status-update', taskId: 't-1', contextId: 'c-1', status: { state: 'working' }, final: false });
// { ok: true, value: { statusUpdate: { taskId: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_WORKING' } } } }
```
*/
export function streamEventFromV03(raw: JsonValue): V03Mapping {
  return mapped(() => {
    const source = object(raw, '$');
    switch (source['kind']) {
      case 'task':
        return { task: task(source, '$') };
      case 'message':
        return { message: message(source, '$') };
      case 'status-update':
        if (source['final'] !== undefined && typeof source['final'] !== 'boolean') {
          throw new Refusal('invalid_type', '$.final');
        }
        return {
          statusUpdate: {
            ...present(source, ['taskId', 'contextId', 'metadata']),
            status: status(source['status'], '$.status'),
          },
        };
      case 'artifact-update':
        return {
          artifactUpdate: {
            ...present(source, ['taskId', 'contextId', 'append', 'lastChunk', 'metadata']),
            artifact: artifact(source['artifact'] ?? null, '$.artifact'),
          },
        };
      default:
        throw new Refusal(source['kind'] == null ? 'required' : 'oneof-unknown', '$.kind');
    }
  });
}

function pushConfig(value: JsonValue, path: string): JsonObject {
  const source = object(value, path);
  const webhook = object(source['pushNotificationConfig'], `${path}.pushNotificationConfig`);
  const authentication = webhook['authentication'];
  let auth: JsonObject = {};
  if (authentication !== undefined && authentication !== null) {
    const info = object(authentication, `${path}.pushNotificationConfig.authentication`);
    const schemes = list(info['schemes'], `${path}.pushNotificationConfig.authentication.schemes`);
    // v1.0's AuthenticationInfo names one scheme; v0.3 lists those the webhook takes. One maps exactly, none
    // means no authentication was set, and several cannot be said in v1.0
    // (docs/protocol-checks.md#v03-peers).
    if (schemes.length > 1) {
      throw new Refusal('max-items', `${path}.pushNotificationConfig.authentication.schemes`);
    }
    if (schemes.length === 1) {
      auth = { authentication: { scheme: schemes[0] ?? null, ...present(info, ['credentials']) } };
    }
  }
  return { ...present(source, ['taskId']), ...present(webhook, ['id', 'url', 'token']), ...auth };
}

/**
A v0.3 TaskPushNotificationConfig (`{ taskId, pushNotificationConfig: { id, url, token, authentication } }`)
as v1.0's flat one.

@example
```ts
const result = pushConfigFromV03({ taskId: 't-1', pushNotificationConfig: { id: 'p-1', url: 'https://hooks.example/a2a' } });
// { ok: true, value: { taskId: 't-1', id: 'p-1', url: 'https://hooks.example/a2a' } }
```
*/
export function pushConfigFromV03(raw: JsonValue): V03Mapping {
  return mapped(() => pushConfig(raw, '$'));
}

/**
The result of v0.3 `tasks/pushNotificationConfig/list`, a bare array with no pages, as v1.0's
ListTaskPushNotificationConfigsResponse with no next page.

@example
```ts
const result = pushConfigListFromV03([]); // { ok: true, value: { configs: [] } }
```
*/
export function pushConfigListFromV03(raw: JsonValue): V03Mapping {
  return mapped(() => ({
    configs: list(raw, '$').map((entry, index) => pushConfig(entry, `$[${index}]`)),
  }));
}
