/**
@module
The JSON of A2A v0.3's HTTP+JSON binding: the v0.3 proto's messages in ProtoJSON (as the official SDKs' v0.3
REST layers read and write them), not the v0.3 JSON-RPC shapes of `answers.ts`. A message holds its parts in
`content`; a part is `{ text }`, `{ file: { fileWithUri | fileWithBytes, mimeType } }` or
`{ data: { data } }`; states and roles are the proto's enum names (`TASK_STATE_COMPLETED`, `ROLE_USER`); a
send answers `{ task }` or `{ message }`, a stream event `{ task | message | statusUpdate | artifactUpdate }`
(a canceled task is `TASK_STATE_CANCELLED`); a push config is
`{ name: "tasks/{id}/pushNotificationConfigs/{id}", pushNotificationConfig }`. Requests are read into the v1.0
params of the agent's one core, refusing what v0.3 cannot be with InvalidParams; answers are written from the
core's v1.0 values, defaults left out.
*/
import { field, invalid, isObject, type Params } from '../agent/fields.js';
import { isSettled } from '../agent/task-states.js';
import type { TaskState } from '../agent/wire.js';

type Json = Record<string, unknown>;

const objectOf = (value: unknown): Params => (isObject(value) ? value : {});
const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

function present(source: Params, names: readonly string[]): Json {
  const kept: Json = {};
  for (const name of names) {
    const value = field(source, name);
    if (value !== undefined && value !== null) {
      kept[name] = value;
    }
  }
  return kept;
}

function object(value: unknown, path: string): Params {
  if (!isObject(value)) {
    throw invalid(`${path} must be an object`);
  }
  return value;
}

function partIn(value: unknown, path: string): Json {
  const source = object(value, path);
  const metadata = present(source, ['metadata']);
  if (field(source, 'text') !== undefined) {
    return { text: source['text'], ...metadata };
  }
  const file = field(source, 'file');
  if (file !== undefined) {
    const content = object(file, `${path}.file`);
    const uri = field(content, 'fileWithUri');
    const bytes = field(content, 'fileWithBytes');
    // The v0.3 proto's FilePart: a oneof of the two.
    if ((uri === undefined) === (bytes === undefined)) {
      throw invalid(`${path}.file must hold exactly one of fileWithUri and fileWithBytes`);
    }
    const mimeType = field(content, 'mimeType');
    return {
      ...(uri === undefined ? { raw: bytes } : { url: uri }),
      ...(mimeType === undefined || mimeType === '' ? {} : { mediaType: mimeType }),
      ...metadata,
    };
  }
  const data = field(source, 'data');
  if (data !== undefined) {
    return { data: object(field(object(data, `${path}.data`), 'data'), `${path}.data.data`), ...metadata };
  }
  throw invalid(`${path} must hold one of text, file and data`);
}

function messageIn(value: unknown, path: string): Json {
  const source = object(value, path);
  const content = field(source, 'content');
  if (!Array.isArray(content)) {
    throw invalid(`${path}.content must be an array`);
  }
  return {
    ...present(source, ['messageId', 'contextId', 'taskId', 'role', 'metadata', 'extensions']),
    parts: content.map((entry, index) => partIn(entry, `${path}.content[${index}]`)),
  };
}

function webhookIn(value: unknown, path: string): Json {
  const source = object(value, path);
  const authentication = field(source, 'authentication');
  const schemes = listOf(objectOf(authentication)['schemes']);
  return {
    ...present(source, ['id', 'url', 'token']),
    // v1.0 names one scheme; the first of v0.3's list is the one used, as over v0.3 JSON-RPC.
    ...(schemes.length === 0
      ? {}
      : { authentication: { scheme: schemes[0], ...present(objectOf(authentication), ['credentials']) } }),
  };
}

/**
The v1.0 params of a v0.3 `message:send` or `message:stream` body (the proto's SendMessageRequest, whose
message the SDKs write as `message`, the proto field `request`).

@example
```ts
sendParamsIn({ message: { messageId: 'm-1', role: 'ROLE_USER', content: [{ text: 'echo hi' }] } });
// { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'echo hi' }] }, configuration: { returnImmediately: true } }
```
*/
export function sendParamsIn(body: Params): Params {
  const configuration = objectOf(field(body, 'configuration'));
  const blocking = field(configuration, 'blocking');
  if (blocking !== undefined && typeof blocking !== 'boolean') {
    throw invalid('configuration.blocking must be a boolean');
  }
  const push = field(configuration, 'pushNotification');
  return {
    message: messageIn(field(body, 'message') ?? field(body, 'request'), 'message'),
    configuration: {
      ...present(configuration, ['acceptedOutputModes', 'historyLength']),
      ...(push === undefined
        ? {}
        : { taskPushNotificationConfig: webhookIn(push, 'configuration.pushNotification') }),
      // The v0.3 proto's SendMessageConfiguration: a send blocks only when `blocking` is true.
      returnImmediately: blocking !== true,
    },
    ...present(body, ['metadata']),
  };
}

/** The v1.0 params of a v0.3 push-config body (the proto's TaskPushNotificationConfig) for a task. */
export function pushConfigIn(taskId: string, body: Params): Params {
  const name = field(body, 'name');
  // The task is the path's; a body that names another is refused rather than read two ways.
  if (typeof name === 'string' && name !== '' && !name.startsWith(`tasks/${taskId}/`)) {
    throw invalid('name must be a push config of the task the path names');
  }
  return { taskId, ...webhookIn(field(body, 'pushNotificationConfig'), 'pushNotificationConfig') };
}

function partOut(value: unknown): Json {
  const source = objectOf(value);
  const metadata = present(source, ['metadata']);
  if ('text' in source) {
    return { text: source['text'], ...metadata };
  }
  if ('data' in source) {
    const data = source['data'];
    // The v0.3 DataPart holds a Struct; any other value travels as `{ value }` (as in `answers.ts`).
    return { data: { data: isObject(data) ? data : { value: data } }, ...metadata };
  }
  const mimeType = source['mediaType'] === undefined ? {} : { mimeType: source['mediaType'] };
  return {
    file: {
      ...('url' in source ? { fileWithUri: source['url'] } : { fileWithBytes: source['raw'] }),
      ...mimeType,
    },
    ...metadata,
  };
}

function messageOut(value: unknown): Json {
  const source = objectOf(value);
  return {
    ...present(source, ['messageId', 'contextId', 'taskId', 'role']),
    content: listOf(source['parts']).map(partOut),
    ...present(source, ['metadata', 'extensions']),
  };
}

function statusOut(value: unknown): Json {
  const source = objectOf(value);
  const state = source['state'];
  return {
    // The v0.3 proto spells one state the British way: TASK_STATE_CANCELLED; the others are v1.0's names.
    ...(state === undefined
      ? {}
      : { state: state === 'TASK_STATE_CANCELED' ? 'TASK_STATE_CANCELLED' : state }),
    ...(source['message'] === undefined ? {} : { message: messageOut(source['message']) }),
    ...present(source, ['timestamp']),
  };
}

function artifactOut(value: unknown): Json {
  const source = objectOf(value);
  return {
    ...present(source, ['artifactId', 'name', 'description']),
    parts: listOf(source['parts']).map(partOut),
    ...present(source, ['metadata', 'extensions']),
  };
}

/** A v1.0 Task as the v0.3 proto's Task. */
export function taskOut(value: unknown): Json {
  const source = objectOf(value);
  return {
    ...present(source, ['id', 'contextId']),
    status: statusOut(source['status']),
    ...(source['artifacts'] === undefined ? {} : { artifacts: listOf(source['artifacts']).map(artifactOut) }),
    ...(source['history'] === undefined ? {} : { history: listOf(source['history']).map(messageOut) }),
    ...present(source, ['metadata']),
  };
}

/**
A v1.0 SendMessageResponse or StreamResponse as the v0.3 proto's: the same members, their objects in v0.3
form, a status update `final` when its state ends the stream (terminal or interrupted).

@example
```ts
eventOut({ message: { messageId: 'm-1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } });
// { message: { messageId: 'm-1', role: 'ROLE_AGENT', content: [{ text: 'hi' }] } }
```
*/
export function eventOut(value: unknown): Json {
  const source = objectOf(value);
  if ('task' in source) {
    return { task: taskOut(source['task']) };
  }
  if ('message' in source) {
    return { message: messageOut(source['message']) };
  }
  if ('statusUpdate' in source) {
    const update = objectOf(source['statusUpdate']);
    const state = objectOf(update['status'])['state'];
    const ends = typeof state === 'string' && isSettled(state as TaskState);
    return {
      statusUpdate: {
        ...present(update, ['taskId', 'contextId']),
        status: statusOut(update['status']),
        ...(ends ? { final: true } : {}),
        ...present(update, ['metadata']),
      },
    };
  }
  const update = objectOf(source['artifactUpdate']);
  return {
    artifactUpdate: {
      ...present(update, ['taskId', 'contextId']),
      artifact: artifactOut(update['artifact']),
      ...present(update, ['append', 'lastChunk', 'metadata']),
    },
  };
}

/** A v1.0 TaskPushNotificationConfig as the v0.3 proto's, named by its task and id. */
export function pushConfigOut(value: unknown): Json {
  const source = objectOf(value);
  const authentication = source['authentication'];
  return {
    name: `tasks/${String(source['taskId'])}/pushNotificationConfigs/${String(source['id'])}`,
    pushNotificationConfig: {
      ...present(source, ['id', 'url', 'token']),
      ...(isObject(authentication)
        ? {
            authentication: {
              schemes: [authentication['scheme']],
              ...present(authentication, ['credentials']),
            },
          }
        : {}),
    },
  };
}
