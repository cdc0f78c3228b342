import {
  field,
  invalid,
  isObject,
  optionalBoolean,
  optionalId,
  optionalInt,
  optionalString,
  optionalStrings,
  optionalStruct,
  type Params,
  requiredId,
} from './fields.js';
import type { ListPushConfigsQuery, ListTasksQuery } from './pages.js';
import { parseTimestamp } from './timestamp.js';
import type { AuthenticationInfo, Message, TaskState } from './wire.js';

/** What a send asks for (A2A spec §3.4, SendMessageRequest). */
export type SendRequest = {
  /** The user's message exactly as sent, unknown fields included: the task history keeps it unchanged. */
  readonly message: Message;
  readonly historyLength: number | undefined;
  readonly returnImmediately: boolean;
  readonly acceptedOutputModes: readonly string[] | undefined;
  readonly pushConfig: PushConfigInput | undefined;
};

/** A push config as a client describes it (A2A spec §3.7, TaskPushNotificationConfig). */
export type PushConfigInput = {
  readonly id: string | undefined;
  readonly url: string;
  readonly token: string | undefined;
  readonly authentication: AuthenticationInfo | undefined;
};

/** The default ListTasks page (A2A spec §3.1.4). */
export const defaultTaskPageSize = 50;
/** The largest ListTasks page (A2A spec §3.1.4). */
export const maxTaskPageSize = 100;
/** The default and largest ListTaskPushNotificationConfigs page: the mock's choice, the spec names none. */
export const maxPushConfigPageSize = 100;

const int32Max = 2_147_483_647;

// By proto number (ProtoJSON accepts an enum's name or its number); 0 is TASK_STATE_UNSPECIFIED, which as a
// filter means none.
const taskStates: readonly (TaskState | undefined)[] = [
  undefined,
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
];

const base64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const partContents = ['text', 'raw', 'url', 'data'] as const;

function checkPart(part: unknown, path: string): void {
  if (!isObject(part)) {
    throw invalid(`${path} must be an object`);
  }
  // A2A spec §3.1 (Part): `content` is a oneof, so exactly one member is set.
  const present = partContents.filter((member) => Object.hasOwn(part, member));
  if (present.length !== 1) {
    throw invalid(`${path} must hold exactly one of text, raw, url or data`);
  }
  optionalString(part, 'text', `${path}.text`);
  const raw = optionalString(part, 'raw', `${path}.raw`);
  if (raw !== undefined && (!base64.test(raw) || raw.replace(/=+$/, '').length % 4 === 1)) {
    throw invalid(`${path}.raw must be base64`);
  }
  const url = optionalString(part, 'url', `${path}.url`);
  if (url === '') {
    throw invalid(`${path}.url must not be empty`);
  }
  optionalStruct(part, 'metadata', `${path}.metadata`);
  optionalString(part, 'filename', `${path}.filename`);
  optionalString(part, 'mediaType', `${path}.mediaType`);
}

/**
Check a client's Message (A2A spec §3.1): `messageId`, `role` (`ROLE_USER` or `ROLE_AGENT`, as their names,
§5.5) and at least one well-formed part are required; every other known field must have its type. Unknown
fields are kept (§5.7).

@example
```ts
checkMessage({ messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }, 'message'); // ok
checkMessage({ messageId: 'm-1', role: 'user', parts: [] }, 'message'); // AgentError InvalidParams
```
*/
export function checkMessage(value: unknown, path: string): Message {
  if (!isObject(value)) {
    throw invalid(`${path} is required and must be an object`);
  }
  requiredId(value, 'messageId', `${path}.messageId`);
  const role = field(value, 'role');
  if (role === undefined) {
    throw invalid(`${path}.role is required`);
  }
  if (role !== 'ROLE_USER' && role !== 'ROLE_AGENT') {
    throw invalid(`${path}.role must be ROLE_USER or ROLE_AGENT`);
  }
  const parts = field(value, 'parts');
  if (!Array.isArray(parts) || parts.length === 0) {
    throw invalid(`${path}.parts must hold at least one part`);
  }
  parts.forEach((part, index) => {
    checkPart(part, `${path}.parts[${index}]`);
  });
  optionalString(value, 'contextId', `${path}.contextId`);
  optionalString(value, 'taskId', `${path}.taskId`);
  optionalStruct(value, 'metadata', `${path}.metadata`);
  optionalStrings(value, 'extensions', `${path}.extensions`);
  optionalStrings(value, 'referenceTaskIds', `${path}.referenceTaskIds`);
  return value as Message;
}

function checkPushConfig(value: unknown, path: string): PushConfigInput {
  const name = (key: string): string => (path === '' ? key : `${path}.${key}`);
  if (!isObject(value)) {
    throw invalid(`${path} must be an object`);
  }
  const url = optionalString(value, 'url', name('url'));
  if (url === undefined || url === '') {
    throw invalid(`${name('url')} is required`);
  }
  if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol)) {
    throw invalid(`${name('url')} must be an absolute http or https URL`);
  }
  const authentication = field(value, 'authentication');
  let auth: AuthenticationInfo | undefined;
  if (authentication !== undefined) {
    if (!isObject(authentication)) {
      throw invalid(`${name('authentication')} must be an object`);
    }
    const scheme = requiredId(authentication, 'scheme', `${name('authentication')}.scheme`);
    const credentials = optionalString(
      authentication,
      'credentials',
      `${name('authentication')}.credentials`,
    );
    auth = { scheme, ...(credentials === undefined ? {} : { credentials }) };
  }
  return {
    id: optionalId(value, 'id', name('id')),
    url,
    token: optionalString(value, 'token', name('token')),
    authentication: auth,
  };
}

/**
Check a SendMessage / SendStreamingMessage request (A2A spec §3.4): the message, its configuration and the
request metadata. The message is returned as given, not rebuilt, so the history can keep it unchanged.

@example
```ts
parseSendRequest({ message, configuration: { returnImmediately: true, historyLength: 0 } }).returnImmediately; // true
```
*/
export function parseSendRequest(params: Params): SendRequest {
  const message = checkMessage(field(params, 'message'), 'message');
  optionalStruct(params, 'metadata', 'metadata');
  const configuration = field(params, 'configuration') ?? {};
  if (!isObject(configuration)) {
    throw invalid('configuration must be an object');
  }
  const pushConfig = field(configuration, 'taskPushNotificationConfig');
  return {
    message,
    historyLength: optionalInt(configuration, 'historyLength', 'configuration.historyLength', 0, int32Max),
    returnImmediately:
      optionalBoolean(configuration, 'returnImmediately', 'configuration.returnImmediately') ?? false,
    acceptedOutputModes: optionalStrings(
      configuration,
      'acceptedOutputModes',
      'configuration.acceptedOutputModes',
    ),
    pushConfig:
      pushConfig === undefined
        ? undefined
        : checkPushConfig(pushConfig, 'configuration.taskPushNotificationConfig'),
  };
}

/** Check a GetTask request: `id` required, `historyLength` ≥ 0. */
export function parseGetTaskRequest(params: Params): { id: string; historyLength: number | undefined } {
  return {
    id: requiredId(params, 'id', 'id'),
    historyLength: optionalInt(params, 'historyLength', 'historyLength', 0, int32Max),
  };
}

/** Check a CancelTask or SubscribeToTask request: `id` required. */
export function parseTaskRef(params: Params): { id: string } {
  optionalStruct(params, 'metadata', 'metadata');
  return { id: requiredId(params, 'id', 'id') };
}

function parseState(value: unknown): TaskState | undefined {
  if (value === 0 || value === 'TASK_STATE_UNSPECIFIED') {
    return undefined;
  }
  const state =
    typeof value === 'number'
      ? taskStates[value]
      : taskStates.find((name) => name !== undefined && name === value);
  if (state === undefined) {
    throw invalid('status must be a TaskState name such as TASK_STATE_WORKING');
  }
  return state;
}

/**
Check a ListTasks request (A2A spec §3.1.4): `pageSize` 1–100 (default 50), `historyLength` ≥ 0, `status` a
TaskState, `statusTimestampAfter` a Timestamp, `includeArtifacts` a boolean.

@example
```ts
parseListTasksRequest({ pageSize: 101 }); // AgentError InvalidParams
```
*/
export function parseListTasksRequest(params: Params): ListTasksQuery {
  const status = field(params, 'status');
  const after = optionalString(params, 'statusTimestampAfter', 'statusTimestampAfter');
  const afterMs = after === undefined ? undefined : parseTimestamp(after);
  if (after !== undefined && afterMs === undefined) {
    throw invalid('statusTimestampAfter must be an RFC 3339 timestamp in UTC, ending in Z');
  }
  return {
    contextId: optionalId(params, 'contextId', 'contextId'),
    status: status === undefined ? undefined : parseState(status),
    statusTimestampAfter: afterMs,
    pageSize: optionalInt(params, 'pageSize', 'pageSize', 1, maxTaskPageSize) ?? defaultTaskPageSize,
    pageToken: optionalId(params, 'pageToken', 'pageToken'),
    historyLength: optionalInt(params, 'historyLength', 'historyLength', 0, int32Max),
    includeArtifacts: optionalBoolean(params, 'includeArtifacts', 'includeArtifacts') ?? false,
  };
}

/** Check a CreateTaskPushNotificationConfig request: the config itself, `taskId` and `url` required. */
export function parseCreatePushConfig(params: Params): PushConfigInput & { taskId: string } {
  return { ...checkPushConfig(params, ''), taskId: requiredId(params, 'taskId', 'taskId') };
}

/** Check a Get or Delete push-config request: `taskId` and `id` required. */
export function parsePushConfigRef(params: Params): { taskId: string; id: string } {
  return { taskId: requiredId(params, 'taskId', 'taskId'), id: requiredId(params, 'id', 'id') };
}

/**
Check a ListTaskPushNotificationConfigs request: `taskId` required, `pageSize` 0–100, where 0 (a plain proto3
int32 left unset) means the default of 100.
*/
export function parseListPushConfigs(params: Params): ListPushConfigsQuery & { taskId: string } {
  return {
    taskId: requiredId(params, 'taskId', 'taskId'),
    pageSize: optionalInt(params, 'pageSize', 'pageSize', 0, maxPushConfigPageSize) || maxPushConfigPageSize,
    pageToken: optionalId(params, 'pageToken', 'pageToken'),
  };
}
