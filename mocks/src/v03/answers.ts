/**
@module
The agent's v1.0 answers written as a v0.3 agent writes them (A2A v0.3's JSON-RPC types, as the official SDK's
v0.3 layer serves them): objects told apart by `kind` (`task`, `message`, `status-update`, `artifact-update`;
parts `text`, `file`, `data`), states and roles in lower case, a file part's content under `file` as `uri` or
`bytes`, the push webhook nested under `pushNotificationConfig` with its `authentication.schemes`, and a
status update's `final`. v0.3 JSON is plain JSON: an absent member is left out, never printed as a default.
*/
import { field, isObject, type Params } from '../agent/fields.js';
import { isSettled } from '../agent/task-states.js';
import type { TaskState } from '../agent/wire.js';

type Json = Record<string, unknown>;

function present(source: Params, names: readonly string[]): Json {
  const kept: Json = {};
  for (const name of names) {
    const value = field(source, name);
    if (value !== undefined) {
      kept[name] = value;
    }
  }
  return kept;
}

const objectOf = (value: unknown): Params => (isObject(value) ? value : {});
const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

/** v1.0's TaskState names and their v0.3 strings; an unspecified state is v0.3's `unknown`. */
export const v03StateNames: Readonly<Record<string, string>> = Object.freeze({
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_INPUT_REQUIRED: 'input-required',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_REJECTED: 'rejected',
  TASK_STATE_AUTH_REQUIRED: 'auth-required',
});

const stateOf = (state: unknown): string =>
  typeof state === 'string' && Object.hasOwn(v03StateNames, state) ? (v03StateNames[state] ?? '') : 'unknown';

function part(value: unknown): Json {
  const source = objectOf(value);
  const metadata = present(source, ['metadata']);
  if ('text' in source) {
    return { kind: 'text', text: source['text'], ...metadata };
  }
  if ('data' in source) {
    const data = source['data'];
    // A2A v0.3 DataPart holds an object; any other JSON value travels as `{ value }`, flagged in the part's
    // metadata as the official SDK's v0.3 layer flags it.
    return isObject(data)
      ? { kind: 'data', data, ...metadata }
      : {
          kind: 'data',
          data: { value: data },
          metadata: { ...objectOf(source['metadata']), data_part_compat: true },
        };
  }
  const file: Json = {
    ...('url' in source ? { uri: source['url'] } : { bytes: source['raw'] }),
    ...(source['mediaType'] === undefined ? {} : { mimeType: source['mediaType'] }),
    ...(source['filename'] === undefined ? {} : { name: source['filename'] }),
  };
  return { kind: 'file', file, ...metadata };
}

function message(value: unknown): Json {
  const source = objectOf(value);
  return {
    kind: 'message',
    ...present(source, ['messageId', 'contextId', 'taskId']),
    role: source['role'] === 'ROLE_USER' ? 'user' : 'agent',
    parts: listOf(source['parts']).map(part),
    ...present(source, ['metadata', 'extensions', 'referenceTaskIds']),
  };
}

function status(value: unknown): Json {
  const source = objectOf(value);
  return {
    state: stateOf(source['state']),
    ...(source['message'] === undefined ? {} : { message: message(source['message']) }),
    ...present(source, ['timestamp']),
  };
}

function artifact(value: unknown): Json {
  const source = objectOf(value);
  return {
    ...present(source, ['artifactId', 'name', 'description']),
    parts: listOf(source['parts']).map(part),
    ...present(source, ['metadata', 'extensions']),
  };
}

/**
A v1.0 Task as v0.3's (`tasks/get`, `tasks/cancel`, a send's task result).

@example
```ts
v03Task({ id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_COMPLETED' } });
// { kind: 'task', id: 't-1', contextId: 'c-1', status: { state: 'completed' } }
```
*/
export function v03Task(value: unknown): Json {
  const source = objectOf(value);
  return {
    kind: 'task',
    ...present(source, ['id', 'contextId']),
    status: status(source['status']),
    ...(source['history'] === undefined ? {} : { history: listOf(source['history']).map(message) }),
    ...(source['artifacts'] === undefined ? {} : { artifacts: listOf(source['artifacts']).map(artifact) }),
    ...present(source, ['metadata']),
  };
}

/**
One v1.0 StreamResponse (or SendMessageResponse, or webhook body) as the bare v0.3 object it holds. A status
update is `final` when its state ends the stream: terminal or interrupted (A2A spec §3.2.2; the agent closes
the stream there, as v1.0 does).

@example
```ts
v03Event({ message: { messageId: 'm-1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } });
// { kind: 'message', messageId: 'm-1', role: 'agent', parts: [{ kind: 'text', text: 'hi' }] }
```
*/
export function v03Event(value: unknown): Json {
  const source = objectOf(value);
  if ('task' in source) {
    return v03Task(source['task']);
  }
  if ('message' in source) {
    return message(source['message']);
  }
  if ('statusUpdate' in source) {
    const update = objectOf(source['statusUpdate']);
    const state = objectOf(update['status'])['state'];
    const ends = typeof state === 'string' && isSettled(state as TaskState);
    return {
      kind: 'status-update',
      ...present(update, ['taskId', 'contextId']),
      status: status(update['status']),
      final: ends,
      ...present(update, ['metadata']),
    };
  }
  const update = objectOf(source['artifactUpdate']);
  return {
    kind: 'artifact-update',
    ...present(update, ['taskId', 'contextId']),
    artifact: artifact(update['artifact']),
    ...present(update, ['append', 'lastChunk', 'metadata']),
  };
}

/**
A v1.0 TaskPushNotificationConfig as v0.3's, its webhook nested and its one scheme a list of one.

@example
```ts
v03PushConfig({ taskId: 't-1', id: 'p-1', url: 'http://127.0.0.1:9000/hook' });
// { taskId: 't-1', pushNotificationConfig: { id: 'p-1', url: 'http://127.0.0.1:9000/hook' } }
```
*/
export function v03PushConfig(value: unknown): Json {
  const source = objectOf(value);
  const authentication = source['authentication'];
  return {
    ...present(source, ['taskId']),
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
