/**
@module
A v0.3 peer's answers over HTTP+JSON, written as the v1.0 values the client already checks (for
`bindings/v03/rest.ts`). Over HTTP+JSON a v0.3 peer speaks the v0.3 proto's messages in ProtoJSON, as the
official SDKs' v0.3 REST layers write them, not the `kind`-tagged JSON of its JSON-RPC binding (`answers.ts`):
a message holds its parts in `content`; a part, a send answer and a stream event are told apart by which
member is set (`{ text }`, `{ file }`, `{ data: { data } }`; `{ task }`, `{ message }`, `{ statusUpdate }`,
`{ artifactUpdate }`); a file holds `fileWithUri` or `fileWithBytes` with a `mimeType`; states are the
proto's names, one of them spelled `TASK_STATE_CANCELLED`; a push config is
`{ name: 'tasks/{taskId}/pushNotificationConfigs/{id}', pushNotificationConfig }`. As ProtoJSON allows, each
object's members are read under their JSON or their proto field names (`status_update`, `file_with_uri`, the
proto's `msg` and `update`), `null` as absent, an enum by name or number. Each function refuses what the v0.3
proto itself refuses (no member or two of a oneof, a state it has no name for, a push config named for no
task) with a violation naming a path and a rule, and otherwise returns the v1.0 JSON, which the v1.0 schemas
then hold to every bound and rule they hold a v1.0 answer to.
*/
import { isJsonObject, type JsonObject, type JsonValue } from '../json-value.js';
import { jsonName } from '../protojson.js';
import { mapped, pick, Refusal, type V03Mapping } from './refusal.js';

/**
An object's members under their JSON names, `null` ones left out (ProtoJSON: `null` is absence). A member
named both ways is refused, as the v1.0 reading refuses it (docs/protocol-checks.md#protojson).
*/
function fields(value: JsonValue | undefined, path: string): JsonObject {
  if (!isJsonObject(value)) {
    throw new Refusal(value === undefined || value === null ? 'required' : 'invalid_type', path);
  }
  const named: JsonObject = {};
  for (const [key, member] of Object.entries(value)) {
    const name = jsonName(key);
    if (Object.hasOwn(named, name)) {
      throw new Refusal('duplicate-key', `${path}.${name}`);
    }
    if (member !== null) {
      named[name] = member;
    }
  }
  return named;
}

// ProtoJSON leaves a repeated field out when it is empty.
function list(value: JsonValue | undefined, path: string): readonly JsonValue[] {
  if (value === undefined) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw new Refusal('invalid_type', path);
  }
  return value;
}

/** The one member of a oneof that `source` sets, among `members`, else a refusal at `path`. */
function oneof(source: JsonObject, members: readonly string[], path: string): string {
  const set = members.filter((name) => source[name] !== undefined);
  if (set.length !== 1) {
    throw new Refusal(set.length === 0 ? 'oneof-none' : 'oneof-many', path);
  }
  return set[0] as string;
}

/**
The v0.3 proto's TaskState names and their v1.0 names: the same but for `TASK_STATE_CANCELLED`. Numbers are
the same in both protos and left to the v1.0 enum, as `TASK_STATE_UNSPECIFIED` (refused there); v1.0's
spelling `TASK_STATE_CANCELED` is no v0.3 name.
*/
const states: Readonly<Record<string, string>> = Object.freeze({
  TASK_STATE_UNSPECIFIED: 'TASK_STATE_UNSPECIFIED',
  TASK_STATE_SUBMITTED: 'TASK_STATE_SUBMITTED',
  TASK_STATE_WORKING: 'TASK_STATE_WORKING',
  TASK_STATE_COMPLETED: 'TASK_STATE_COMPLETED',
  TASK_STATE_FAILED: 'TASK_STATE_FAILED',
  TASK_STATE_CANCELLED: 'TASK_STATE_CANCELED',
  TASK_STATE_INPUT_REQUIRED: 'TASK_STATE_INPUT_REQUIRED',
  TASK_STATE_REJECTED: 'TASK_STATE_REJECTED',
  TASK_STATE_AUTH_REQUIRED: 'TASK_STATE_AUTH_REQUIRED',
});

function state(value: JsonValue | undefined, path: string): JsonObject {
  if (value === undefined || typeof value === 'number') {
    return value === undefined ? {} : { state: value };
  }
  if (typeof value !== 'string' || !Object.hasOwn(states, value)) {
    throw new Refusal('enum', path);
  }
  return { state: states[value] as string };
}

function part(value: JsonValue, path: string): JsonObject {
  const source = fields(value, path);
  const metadata = pick(source, ['metadata']);
  switch (oneof(source, ['text', 'file', 'data'], path)) {
    case 'text':
      return { text: source['text'] as JsonValue, ...metadata };
    case 'data':
      // The v0.3 proto's DataPart holds a Struct; v1.0 takes any JSON value, so every v0.3 data part is one.
      return {
        data: fields(fields(source['data'], `${path}.data`)['data'], `${path}.data.data`),
        ...metadata,
      };
    default: {
      const file = fields(source['file'], `${path}.file`);
      const content = oneof(file, ['fileWithUri', 'fileWithBytes'], `${path}.file`);
      const mimeType = file['mimeType'];
      return {
        ...(content === 'fileWithUri'
          ? { url: file['fileWithUri'] as JsonValue }
          : { raw: file['fileWithBytes'] as JsonValue }),
        // An empty string is the proto's default: no media type.
        ...(mimeType === undefined || mimeType === '' ? {} : { mediaType: mimeType }),
        ...metadata,
      };
    }
  }
}

/** Each entry of the repeated field at `path`, read by `read` at its own index. */
function each(
  value: JsonValue | undefined,
  path: string,
  read: (entry: JsonValue, path: string) => JsonObject,
): JsonObject[] {
  return list(value, path).map((entry, index) => read(entry, `${path}[${index}]`));
}

function message(value: JsonValue | undefined, path: string): JsonObject {
  const source = fields(value, path);
  return {
    ...pick(source, ['messageId', 'contextId', 'taskId', 'role', 'metadata', 'extensions']),
    parts: each(source['content'], `${path}.content`, part),
  };
}

function status(value: JsonValue | undefined, path: string): JsonObject {
  const source = fields(value, path);
  // The proto field is `update`, its JSON name `message`: one field, so named once.
  if (source['message'] !== undefined && source['update'] !== undefined) {
    throw new Refusal('duplicate-key', `${path}.message`);
  }
  const update = source['message'] === undefined ? 'update' : 'message';
  return {
    ...state(source['state'], `${path}.state`),
    ...(source[update] === undefined ? {} : { message: message(source[update], `${path}.${update}`) }),
    ...pick(source, ['timestamp']),
  };
}

function artifact(value: JsonValue | undefined, path: string): JsonObject {
  const source = fields(value, path);
  return {
    ...pick(source, ['artifactId', 'name', 'description', 'metadata', 'extensions']),
    parts: each(source['parts'], `${path}.parts`, part),
  };
}

function task(value: JsonValue | undefined, path: string): JsonObject {
  const source = fields(value, path);
  return {
    ...pick(source, ['id', 'contextId', 'metadata']),
    status: status(source['status'], `${path}.status`),
    ...(source['artifacts'] === undefined
      ? {}
      : { artifacts: each(source['artifacts'], `${path}.artifacts`, artifact) }),
    ...(source['history'] === undefined
      ? {}
      : { history: each(source['history'], `${path}.history`, message) }),
  };
}

// The proto names the send answer's message `msg`, its JSON name `message`: either is the one member.
function payload(source: JsonObject, members: readonly string[]): JsonObject {
  const member = oneof(source, members, '$');
  const value = source[member];
  switch (member) {
    case 'task':
      return { task: task(value, '$.task') };
    case 'message':
    case 'msg':
      return { message: message(value, `$.${member}`) };
    case 'statusUpdate': {
      const update = fields(value, '$.statusUpdate');
      // v0.3's `final` has no v1.0 member: the stream's end is its close (`v03.final`).
      if (update['final'] !== undefined && typeof update['final'] !== 'boolean') {
        throw new Refusal('invalid_type', '$.statusUpdate.final');
      }
      return {
        statusUpdate: {
          ...pick(update, ['taskId', 'contextId', 'metadata']),
          status: status(update['status'], '$.statusUpdate.status'),
        },
      };
    }
    default: {
      const update = fields(value, '$.artifactUpdate');
      return {
        artifactUpdate: {
          ...pick(update, ['taskId', 'contextId', 'append', 'lastChunk', 'metadata']),
          artifact: artifact(update['artifact'], '$.artifactUpdate.artifact'),
        },
      };
    }
  }
}

/**
A v0.3 proto Task (`GET /v1/tasks/{id}`, `POST /v1/tasks/{id}:cancel`) as the v1.0 Task.

@example
```ts
protoTaskFromV03({ id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_CANCELLED' } });
// { ok: true, value: { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_CANCELED' } } }
```
*/
export function protoTaskFromV03(raw: JsonValue): V03Mapping {
  return mapped(() => task(raw, '$'));
}

/**
A v0.3 proto SendMessageResponse (`POST /v1/message:send`), `{ task }` or `{ message }`, as v1.0's.

@example
```ts
protoSendResultFromV03({ message: { messageId: 'm-1', role: 'ROLE_AGENT', content: [{ text: 'hi' }] } });
// { ok: true, value: { message: { messageId: 'm-1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } } }
```
*/
export function protoSendResultFromV03(raw: JsonValue): V03Mapping {
  return mapped(() => payload(fields(raw, '$'), ['task', 'message', 'msg']));
}

/**
One event of a v0.3 HTTP+JSON stream, a bare proto StreamResponse, as v1.0's.

@example
```ts
protoStreamEventFromV03({ statusUpdate: { taskId: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_WORKING' } } });
// { ok: true, value: { statusUpdate: { taskId: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_WORKING' } } } }
```
*/
export function protoStreamEventFromV03(raw: JsonValue): V03Mapping {
  return mapped(() =>
    payload(fields(raw, '$'), ['task', 'message', 'msg', 'statusUpdate', 'artifactUpdate']),
  );
}

// A2A v0.3 proto: `tasks/{task_id}/pushNotificationConfigs/{config_id}`; the task id is the config's owner.
const configName = /^tasks\/([^/]+)\/pushNotificationConfigs\/([^/]*)$/;

function pushConfig(value: JsonValue, path: string): JsonObject {
  const source = fields(value, path);
  const named = configName.exec(typeof source['name'] === 'string' ? source['name'] : '');
  if (named === null) {
    throw new Refusal(source['name'] === undefined ? 'required' : 'pattern', `${path}.name`);
  }
  const webhook = fields(source['pushNotificationConfig'], `${path}.pushNotificationConfig`);
  const id = webhook['id'] ?? named[2];
  // The name and the config say one id, or the answer names two configs.
  if (named[2] !== '' && id !== named[2]) {
    throw new Refusal('pattern', `${path}.name`);
  }
  let auth: JsonObject = {};
  if (webhook['authentication'] !== undefined) {
    const info = fields(webhook['authentication'], `${path}.pushNotificationConfig.authentication`);
    const schemes = list(info['schemes'], `${path}.pushNotificationConfig.authentication.schemes`);
    // As over JSON-RPC (`v03.push-webhook`): one scheme maps, none is no authentication, several cannot be
    // said in v1.0.
    if (schemes.length > 1) {
      throw new Refusal('max-items', `${path}.pushNotificationConfig.authentication.schemes`);
    }
    if (schemes.length === 1) {
      auth = { authentication: { scheme: schemes[0] ?? null, ...pick(info, ['credentials']) } };
    }
  }
  return {
    taskId: named[1] ?? '',
    ...pick({ id: id ?? null }, ['id']),
    ...pick(webhook, ['url', 'token']),
    ...auth,
  };
}

/**
A v0.3 proto TaskPushNotificationConfig as v1.0's flat one, its task read from its resource name.

@example
```ts
protoPushConfigFromV03({ name: 'tasks/t-1/pushNotificationConfigs/p-1', pushNotificationConfig: { id: 'p-1', url: 'https://hooks.example/a2a' } });
// { ok: true, value: { taskId: 't-1', id: 'p-1', url: 'https://hooks.example/a2a' } }
```
*/
export function protoPushConfigFromV03(raw: JsonValue): V03Mapping {
  return mapped(() => pushConfig(raw, '$'));
}

/**
A v0.3 proto ListTaskPushNotificationConfigResponse as v1.0's; a next page token, which the v0.3 routes never
ask for, is kept for the v1.0 page rules to judge.

@example
```ts
protoPushConfigListFromV03({}); // { ok: true, value: { configs: [] } }
```
*/
export function protoPushConfigListFromV03(raw: JsonValue): V03Mapping {
  return mapped(() => {
    const source = fields(raw, '$');
    return {
      configs: each(source['configs'], '$.configs', pushConfig),
      ...pick(source, ['nextPageToken']),
    };
  });
}
