/**
@module
The HTTP+JSON binding of the mock agent in its v0.3 mode: A2A v0.3's routes below the binding's URL, as the
official SDK's v0.3 REST layer serves them, over the agent's one core. Bodies and answers are the v0.3
proto's JSON (`proto-json.ts`), as `application/json`; a stream's events are bare StreamResponses, with no
JSON-RPC envelope; an error is the bare `{ code, message }` of the JSON-RPC error table, with the agent's HTTP
status for it. `A2A-Version` is not read, and v0.3 has no tenant.

| route | operation |
|---|---|
| `GET /v1/card` | GetExtendedAgentCard (the proto's AgentCard) |
| `POST /v1/message:send` | SendMessage (201) |
| `POST /v1/message:stream` | SendStreamingMessage |
| `GET /v1/tasks/{id}` | GetTask (`historyLength` in the query) |
| `POST /v1/tasks/{id}:cancel` | CancelTask |
| `GET` or `POST /v1/tasks/{id}:subscribe` | SubscribeToTask |
| `POST /v1/tasks/{id}/pushNotificationConfigs` | CreateTaskPushNotificationConfig (201) |
| `GET /v1/tasks/{id}/pushNotificationConfigs` | ListTaskPushNotificationConfigs (every config at once) |
| `GET`, `DELETE /v1/tasks/{id}/pushNotificationConfigs/{configId}` | Get, Delete (204) |
*/
import type { OperationName } from '@surecall/client/protocol';
import { isObject, type Params } from '../agent/fields.js';
import { isJsonContentType } from '../agent/operations.js';
import { AgentError, toAgentError } from '../agent/remote-errors.js';
import type { WireAgentCard } from '../agent/wire.js';
import { encodeSseStream, sseHeaders } from '../http/sse.js';
import { v03Card } from './card.js';
import { everyConfig, type V03Binding } from './jsonrpc.js';
import { eventOut, pushConfigIn, pushConfigOut, sendParamsIn, taskOut } from './proto-json.js';

type V03Operation = Exclude<OperationName, 'ListTasks'>;

/** One matched v0.3 route: its operation and the ids its path names. */
export type V03RestRoute = {
  readonly operation: V03Operation;
  readonly taskId?: string;
  readonly configId?: string;
};

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AgentError('InvalidParams', 'the path holds a malformed percent-encoding');
  }
}

/**
Match a method and a path below the binding's URL to a v0.3 route; `undefined` for any other.

@example
```ts
matchV03RestRoute('POST', '/v1/tasks/t-1:cancel'); // { operation: 'CancelTask', taskId: 't-1' }
```
*/
export function matchV03RestRoute(method: string, path: string): V03RestRoute | undefined {
  if (path === '/v1/card') {
    return method === 'GET' ? { operation: 'GetExtendedAgentCard' } : undefined;
  }
  if (path === '/v1/message:send' || path === '/v1/message:stream') {
    const operation = path.endsWith(':send') ? 'SendMessage' : 'SendStreamingMessage';
    return method === 'POST' ? { operation } : undefined;
  }
  const [v1, tasks, id, configs, configId, ...rest] = path.split('/').slice(1);
  if (v1 !== 'v1' || tasks !== 'tasks' || id === undefined || id === '' || rest.length > 0) {
    return undefined;
  }
  if (configs === undefined) {
    const action = /^(.+):(cancel|subscribe)$/.exec(id);
    if (action === null) {
      return method === 'GET' ? { operation: 'GetTask', taskId: decoded(id) } : undefined;
    }
    const taskId = decoded(action[1] ?? '');
    if (action[2] === 'cancel') {
      return method === 'POST' ? { operation: 'CancelTask', taskId } : undefined;
    }
    return method === 'GET' || method === 'POST' ? { operation: 'SubscribeToTask', taskId } : undefined;
  }
  if (configs !== 'pushNotificationConfigs') {
    return undefined;
  }
  const taskId = decoded(id);
  if (configId === undefined) {
    const operation =
      method === 'POST'
        ? 'CreateTaskPushNotificationConfig'
        : method === 'GET'
          ? 'ListTaskPushNotificationConfigs'
          : undefined;
    return operation === undefined ? undefined : { operation, taskId };
  }
  if (configId === '' || (method !== 'GET' && method !== 'DELETE')) {
    return undefined;
  }
  const operation = method === 'GET' ? 'GetTaskPushNotificationConfig' : 'DeleteTaskPushNotificationConfig';
  return { operation, taskId, configId: decoded(configId) };
}

/** The v0.3 proto's AgentCard: the v0.3 card with the proto's security schemes and requirements. */
function protoCard(card: WireAgentCard, bindings: readonly string[]): Record<string, unknown> {
  return {
    ...v03Card(card, bindings),
    securitySchemes: card.securitySchemes,
    security: card.securityRequirements ?? [],
    skills: card.skills,
  };
}

function answer(status: number, body: unknown, headers: Record<string, string>): Response {
  return status === 204
    ? new Response(null, { status, headers })
    : Response.json(body, { status, headers: { 'content-type': 'application/json', ...headers } });
}

async function bodyOf(request: Request): Promise<Params> {
  const text = await request.text();
  if (text === '' || text === 'null') {
    return {};
  }
  if (!isJsonContentType(request)) {
    throw new AgentError('ContentTypeNotSupported', 'HTTP+JSON bodies must be application/json');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AgentError('ParseError', 'Invalid JSON payload');
  }
  if (!isObject(body)) {
    throw new AgentError('InvalidParams', 'the body must be a JSON object');
  }
  return body;
}

function paramsOf(route: V03RestRoute, request: Request, body: Params): Params {
  const { taskId, configId } = route;
  switch (route.operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return sendParamsIn(body);
    case 'GetTask': {
      const historyLength = new URL(request.url).searchParams.get('historyLength');
      const length = historyLength === null ? undefined : Number(historyLength);
      return { id: taskId, ...(length === undefined ? {} : { historyLength: length }) };
    }
    case 'CreateTaskPushNotificationConfig':
      return pushConfigIn(taskId ?? '', body);
    case 'ListTaskPushNotificationConfigs':
      return { taskId };
    case 'GetTaskPushNotificationConfig':
    case 'DeleteTaskPushNotificationConfig':
      return { taskId, id: configId };
    case 'GetExtendedAgentCard':
      return {};
    default:
      return { id: taskId };
  }
}

/**
Serve one v0.3 HTTP+JSON request at `path`, the request's path below the binding's URL.

@example
```ts
const response = await handleV03Rest(new Request('http://127.0.0.1/a2a/rest/v1/tasks/t-1'), '/v1/tasks/t-1', binding);
// 404 {"code":-32001,"message":"Task not found: t-1"}
```
*/
export async function handleV03Rest(request: Request, path: string, binding: V03Binding): Promise<Response> {
  const headers: Record<string, string> = {};
  try {
    const route = matchV03RestRoute(request.method, path);
    if (route === undefined) {
      throw new AgentError('MethodNotFound', 'Method not found');
    }
    const context = {
      tenant: '',
      authorization: request.headers.get('authorization'),
      origin: new URL(request.url).origin,
      signal: request.signal,
    };
    const params = paramsOf(route, request, await bodyOf(request));
    if (route.operation === 'ListTaskPushNotificationConfigs') {
      const configs = await everyConfig(binding.operations, params, context);
      return answer(200, { configs: configs.map(pushConfigOut) }, headers);
    }
    const outcome = await binding.operations.call(route.operation, params, context);
    if (outcome.kind === 'stream') {
      const body = encodeSseStream(outcome.events, (event) => ({ data: JSON.stringify(eventOut(event)) }));
      return new Response(body, { status: 200, headers: { ...sseHeaders } });
    }
    const { value } = outcome;
    switch (route.operation) {
      case 'SendMessage':
        return answer(201, eventOut(value), headers);
      case 'GetTask':
      case 'CancelTask':
        return answer(200, taskOut(value), headers);
      case 'CreateTaskPushNotificationConfig':
        return answer(201, pushConfigOut(value), headers);
      case 'GetTaskPushNotificationConfig':
        return answer(200, pushConfigOut(value), headers);
      case 'DeleteTaskPushNotificationConfig':
        return answer(204, null, headers);
      default:
        return answer(200, protoCard(value as WireAgentCard, binding.bindings), headers);
    }
  } catch (thrown) {
    const error = toAgentError(thrown);
    const status = error.error === 'MethodNotFound' ? 404 : error.mapping.httpStatus;
    return answer(
      status,
      { code: error.mapping.code, message: error.message },
      {
        ...(error.error === 'Unauthenticated' ? { 'www-authenticate': 'Bearer' } : {}),
      },
    );
  }
}
