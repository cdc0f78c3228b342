/**
@module
The JSON-RPC binding of the mock agent in its v0.3 mode: A2A v0.3's methods (`message/send`,
`message/stream`, `tasks/get`, `tasks/cancel`, `tasks/resubscribe`, the four `tasks/pushNotificationConfig/*`
methods, `agent/getAuthenticatedExtendedCard`) over the agent's one core, so tasks, executions and
idempotency keys are those of every other binding. Requests are read by `requests.ts`, answers written by
`answers.ts` and `card.ts`. What differs from the v1.0 binding (`http/jsonrpc.ts`): a v1.0 method name is
no method (-32601, as a v0.3 server answers it); `A2A-Version` is not read (v0.3 has no such header); the
extensions travel in `X-A2A-Extensions`; an error is `{ code, message }` with no `ErrorInfo` data; and
`tasks/pushNotificationConfig/list` answers every config as one array.
*/
import type { OperationName } from '@surecall/client/protocol';
import { isObject, type Params } from '../agent/fields.js';
import { type IdempotencyMode, idempotencyExtensionUri } from '../agent/idempotency.js';
import { isJsonContentType, type Operations } from '../agent/operations.js';
import { AgentError, toAgentError } from '../agent/remote-errors.js';
import type { WireAgentCard } from '../agent/wire.js';
import { encodeSseStream, sseHeaders } from '../http/sse.js';
import { v03Event, v03PushConfig, v03Task } from './answers.js';
import { v03Card } from './card.js';
import { v03OperationOf } from './methods.js';
import { v1ParamsOf } from './requests.js';

/** What the v0.3 binding needs from its agent. */
export type V03Binding = {
  readonly operations: Operations;
  readonly mode: IdempotencyMode;
  /** The bindings the v0.3 cards list (those the v0.3 mode serves). */
  readonly bindings: readonly string[];
};

type Id = string | number | null;
type Context = Parameters<Operations['call']>[2];

const extensionHeader = 'x-a2a-extensions';

function isId(value: unknown): value is Id {
  return (
    value === null || typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))
  );
}

// A2A v0.3 §3.2.6: the extensions a request activates are listed in `X-A2A-Extensions`; the agent honours
// only the idempotency one, and only when it honours keys.
function activated(request: Request, mode: IdempotencyMode): Record<string, string> {
  const requested = (request.headers.get(extensionHeader) ?? '').split(',').map((uri) => uri.trim());
  return mode === 'honouring' && requested.includes(idempotencyExtensionUri)
    ? { [extensionHeader]: idempotencyExtensionUri }
    : {};
}

function errorResponse(id: Id, thrown: unknown, headers: Record<string, string>, status = 200): Response {
  const error = toAgentError(thrown);
  // Only a refused credential leaves HTTP 200, as on the v1.0 binding, so HTTP clients and proxies see it.
  const unauthenticated = error.error === 'Unauthenticated';
  return Response.json(
    { jsonrpc: '2.0', id, error: { code: error.mapping.code, message: error.message } },
    {
      status: unauthenticated ? 401 : status,
      headers: { ...headers, ...(unauthenticated ? { 'www-authenticate': 'Bearer' } : {}) },
    },
  );
}

async function value(operations: Operations, operation: OperationName, params: Params, context: Context) {
  const outcome = await operations.call(operation, params, context);
  if (outcome.kind !== 'value') {
    throw new AgentError('InternalError', 'Internal error');
  }
  return outcome.value;
}

/**
Every push config of a task (`params.taskId`), as the v1.0 core lists them: A2A v0.3 lists them all at once,
so the core's pages are read to their end. The v0.3 HTTP+JSON routes (`rest.ts`) list them so too.
*/
export async function everyConfig(
  operations: Operations,
  params: Params,
  context: Context,
): Promise<unknown[]> {
  const configs: unknown[] = [];
  let pageToken: unknown;
  do {
    const page = await value(
      operations,
      'ListTaskPushNotificationConfigs',
      { ...params, pageToken },
      context,
    );
    const source: Params = isObject(page) ? page : {};
    configs.push(...(Array.isArray(source['configs']) ? source['configs'] : []));
    pageToken = source['nextPageToken'] === '' ? undefined : source['nextPageToken'];
  } while (pageToken !== undefined);
  return configs;
}

async function unary(
  binding: V03Binding,
  operation: Exclude<OperationName, 'ListTasks' | 'SendStreamingMessage' | 'SubscribeToTask'>,
  params: Params,
  context: Context,
): Promise<unknown> {
  const { operations } = binding;
  switch (operation) {
    case 'SendMessage':
      return v03Event(await value(operations, operation, params, context));
    case 'GetTask':
    case 'CancelTask':
      return v03Task(await value(operations, operation, params, context));
    case 'CreateTaskPushNotificationConfig':
      return v03PushConfig(await value(operations, operation, params, context));
    case 'GetTaskPushNotificationConfig': {
      if (params['id'] !== undefined) {
        return v03PushConfig(await value(operations, operation, params, context));
      }
      // A2A v0.3 also takes a bare `{ id }`, naming the task only: its first config answers.
      const [first] = await everyConfig(operations, { taskId: params['taskId'] }, context);
      if (first === undefined) {
        throw new AgentError('TaskNotFound', 'Push notification config not found');
      }
      return v03PushConfig(first);
    }
    case 'ListTaskPushNotificationConfigs':
      return (await everyConfig(operations, params, context)).map(v03PushConfig);
    case 'DeleteTaskPushNotificationConfig':
      await value(operations, operation, params, context);
      return null;
    case 'GetExtendedAgentCard':
      return v03Card(
        (await value(operations, operation, params, context)) as WireAgentCard,
        binding.bindings,
      );
  }
}

/**
Serve one v0.3 JSON-RPC 2.0 request. The checks run in this order: POST, a JSON content type (-32005), JSON
(-32700), the envelope (-32600), the method, a v0.3 one (-32601), `params` an object (-32602). Every error is
answered in HTTP 200 with `{ jsonrpc, id, error: { code, message } }`, except a missing bearer on
`agent/getAuthenticatedExtendedCard` (HTTP 401). Streams answer `text/event-stream`, each event a whole
JSON-RPC response carrying the request's id.

@example
```ts
const response = await handleV03JsonRpc(
  new Request('http://127.0.0.1/a2a/jsonrpc', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 't-1' } }),
  }),
  { operations, mode: 'honouring', bindings: ['JSONRPC'] },
); // 200 {"jsonrpc":"2.0","id":1,"error":{"code":-32001,…}}
```
*/
export async function handleV03JsonRpc(request: Request, binding: V03Binding): Promise<Response> {
  const headers = { 'content-type': 'application/json', ...activated(request, binding.mode) };
  if (request.method !== 'POST') {
    return errorResponse(
      null,
      new AgentError('InvalidRequest', 'JSON-RPC requests are POSTed'),
      {
        ...headers,
        allow: 'POST',
      },
      405,
    );
  }
  if (!isJsonContentType(request)) {
    const refusal = new AgentError('ContentTypeNotSupported', 'JSON-RPC requests must be application/json');
    return errorResponse(null, refusal, headers);
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(await request.text());
  } catch {
    return errorResponse(null, new AgentError('ParseError', 'Invalid JSON payload'), headers);
  }
  const { jsonrpc, id: rawId, method, params: rawParams } = isObject(envelope) ? envelope : {};
  const id = isId(rawId) ? rawId : null;
  if (
    !isObject(envelope) ||
    jsonrpc !== '2.0' ||
    !Object.hasOwn(envelope, 'id') ||
    !isId(rawId) ||
    typeof method !== 'string'
  ) {
    return errorResponse(id, new AgentError('InvalidRequest', 'Request payload validation error'), headers);
  }
  try {
    const operation = v03OperationOf(method);
    if (operation === undefined) {
      throw new AgentError('MethodNotFound', 'Method not found');
    }
    const params = rawParams ?? {};
    if (!isObject(params)) {
      throw new AgentError('InvalidParams', 'params must be a JSON object');
    }
    const context: Context = {
      // v0.3 has no tenant.
      tenant: '',
      authorization: request.headers.get('authorization'),
      origin: new URL(request.url).origin,
      signal: request.signal,
    };
    const mapped = v1ParamsOf(operation, params);
    if (operation === 'SendStreamingMessage' || operation === 'SubscribeToTask') {
      const outcome = await binding.operations.call(operation, mapped, context);
      if (outcome.kind !== 'stream') {
        throw new AgentError('InternalError', 'Internal error');
      }
      const body = encodeSseStream(outcome.events, (event) => ({
        data: JSON.stringify({ jsonrpc: '2.0', id, result: v03Event(event) }),
      }));
      return new Response(body, {
        status: 200,
        headers: { ...sseHeaders, ...activated(request, binding.mode) },
      });
    }
    const result = await unary(binding, operation, mapped, context);
    return Response.json({ jsonrpc: '2.0', id, result }, { status: 200, headers });
  } catch (thrown) {
    return errorResponse(id, thrown, headers);
  }
}
