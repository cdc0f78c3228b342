/**
@module
A v0.3 request's params as the v1.0 params the agent's one core reads (`agent/operations.ts`), so a task sent
over v0.3 is the task any other binding reads, and the execution counter and the idempotency keys are one.
What v0.3 says differently is written in v1.0 terms: `kind` discriminators on messages and parts, lower-case
roles, a file part's `file: { uri | bytes }`, the nested push webhook with its `authentication.schemes`, and
`blocking` (a missing one is not blocking). What is not v0.3 is refused with InvalidParams before anything
runs; the v1.0 checks then hold the mapped params to every rule they hold a v1.0 request to.
*/
import type { OperationName } from '@surecall/client/protocol';
import { field, invalid, isObject, type Params } from '../agent/fields.js';

function object(value: unknown, path: string): Record<string, unknown> {
  if (!isObject(value)) {
    throw invalid(`${path} must be an object`);
  }
  return value;
}

function optionalObject(value: unknown, path: string): Record<string, unknown> | undefined {
  return value === undefined || value === null ? undefined : object(value, path);
}

/** The members that are set, copied under their own names (a v0.3 `null` is an absent member). */
function present(source: Params, names: readonly string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name of names) {
    const value = field(source, name);
    if (value !== undefined && value !== null) {
      kept[name] = value;
    }
  }
  return kept;
}

const roles: Readonly<Record<string, string>> = { user: 'ROLE_USER', agent: 'ROLE_AGENT' };

function part(value: unknown, path: string): Record<string, unknown> {
  const source = object(value, path);
  const metadata = present(source, ['metadata']);
  switch (field(source, 'kind')) {
    case 'text':
      return { ...present(source, ['text']), ...metadata };
    case 'data':
      // A2A v0.3 DataPart: `data` is an object.
      return { data: object(field(source, 'data'), `${path}.data`), ...metadata };
    case 'file': {
      const file = object(field(source, 'file'), `${path}.file`);
      const uri = field(file, 'uri');
      const bytes = field(file, 'bytes');
      // A2A v0.3 FilePart: FileWithUri | FileWithBytes, exactly one of the two.
      if ((uri === undefined) === (bytes === undefined)) {
        throw invalid(`${path}.file must hold exactly one of uri and bytes`);
      }
      const described = present(file, ['mimeType', 'name']);
      return {
        ...(uri === undefined ? { raw: bytes } : { url: uri }),
        ...(described['mimeType'] === undefined ? {} : { mediaType: described['mimeType'] }),
        ...(described['name'] === undefined ? {} : { filename: described['name'] }),
        ...metadata,
      };
    }
    default:
      throw invalid(`${path}.kind must be text, file or data`);
  }
}

function message(value: unknown, path: string): Record<string, unknown> {
  const source = object(value, path);
  const kind = field(source, 'kind');
  // A2A v0.3 Message: `kind` is "message"; one left out names no other object, so it is not refused.
  if (kind !== undefined && kind !== 'message') {
    throw invalid(`${path}.kind must be message`);
  }
  const role = field(source, 'role');
  if (typeof role !== 'string' || !Object.hasOwn(roles, role)) {
    throw invalid(`${path}.role must be user or agent`);
  }
  const parts = field(source, 'parts');
  if (!Array.isArray(parts)) {
    throw invalid(`${path}.parts must be an array`);
  }
  return {
    ...present(source, ['messageId', 'contextId', 'taskId', 'metadata', 'extensions', 'referenceTaskIds']),
    role: roles[role],
    parts: parts.map((entry, index) => part(entry, `${path}.parts[${index}]`)),
  };
}

/**
A v0.3 PushNotificationConfig as v1.0's flat config. v1.0's AuthenticationInfo names one scheme where v0.3
lists those the webhook takes: the first is the one the agent uses, as the official SDK's v0.3 layer does, and
an empty list is no authentication.
*/
function webhook(value: unknown, path: string): Record<string, unknown> {
  const source = object(value, path);
  const authentication = optionalObject(field(source, 'authentication'), `${path}.authentication`);
  let auth: Record<string, unknown> = {};
  if (authentication !== undefined) {
    const schemes = field(authentication, 'schemes');
    if (!Array.isArray(schemes)) {
      throw invalid(`${path}.authentication.schemes must be an array`);
    }
    if (schemes.length > 0) {
      auth = { authentication: { scheme: schemes[0], ...present(authentication, ['credentials']) } };
    }
  }
  return { ...present(source, ['id', 'url', 'token']), ...auth };
}

function sendParams(params: Params): Params {
  const configuration = optionalObject(field(params, 'configuration'), 'configuration') ?? {};
  const blocking = field(configuration, 'blocking');
  if (blocking !== undefined && blocking !== null && typeof blocking !== 'boolean') {
    throw invalid('configuration.blocking must be a boolean');
  }
  const push = field(configuration, 'pushNotificationConfig');
  return {
    message: message(field(params, 'message'), 'message'),
    configuration: {
      ...present(configuration, ['acceptedOutputModes', 'historyLength']),
      ...(push === undefined || push === null
        ? {}
        : { taskPushNotificationConfig: webhook(push, 'configuration.pushNotificationConfig') }),
      // A2A v0.3 MessageSendConfiguration: a send blocks only when `blocking` is true.
      returnImmediately: blocking !== true,
    },
    ...present(params, ['metadata']),
  };
}

/**
The v1.0 params of one v0.3 request, for the operation its method runs. GetTaskPushNotificationConfig with no
`pushNotificationConfigId` (v0.3 also takes a bare `{ id }`) has `id` left out, for the binding to resolve.

@example
```ts
v1ParamsOf('GetTaskPushNotificationConfig', { id: 't-1', pushNotificationConfigId: 'p-1' });
// { taskId: 't-1', id: 'p-1' }
```
*/
export function v1ParamsOf(operation: Exclude<OperationName, 'ListTasks'>, params: Params): Params {
  switch (operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return sendParams(params);
    case 'GetTask':
      return present(params, ['id', 'historyLength']);
    case 'CancelTask':
      return present(params, ['id', 'metadata']);
    case 'SubscribeToTask':
      return present(params, ['id']);
    case 'CreateTaskPushNotificationConfig':
      return {
        ...present(params, ['taskId']),
        ...webhook(field(params, 'pushNotificationConfig'), 'pushNotificationConfig'),
      };
    case 'GetTaskPushNotificationConfig':
    case 'DeleteTaskPushNotificationConfig': {
      const { id: taskId, pushNotificationConfigId: id } = present(params, [
        'id',
        'pushNotificationConfigId',
      ]);
      return { taskId, ...(id === undefined ? {} : { id }) };
    }
    case 'ListTaskPushNotificationConfigs':
      return { taskId: field(params, 'id') };
    case 'GetExtendedAgentCard':
      return {};
  }
}
