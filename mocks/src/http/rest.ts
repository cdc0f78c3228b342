import type { OperationName } from '@surecall/client/protocol';
import { isObject } from '../agent/fields.js';
import type { IdempotencyMode } from '../agent/idempotency.js';
import {
  activatedExtensions,
  checkVersion,
  extensionHeaders,
  isJsonContentType,
  type Operations,
} from '../agent/operations.js';
import { AgentError, restError, toAgentError } from '../agent/remote-errors.js';
import { encodeSseStream, sseHeaders } from './sse.js';

/** The media type of HTTP+JSON answers (A2A spec §11.1, v1.0.1). */
export const restContentType = 'application/a2a+json';

/** What the binding needs from its agent. */
export type RestBinding = {
  readonly operations: Operations;
  readonly mode: IdempotencyMode;
};

type QueryType = 'string' | 'int' | 'bool' | 'enum';

/**
One matched route: the operation, the tenant, the fields taken from the path, and how to read the query.
*/
export type RestRoute = {
  readonly operation: OperationName;
  readonly tenant: string;
  readonly pathParams: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, QueryType>>;
  /** The request carries a JSON body (the POSTs whose binding is `body: "*"`). */
  readonly body: boolean;
};

// The first segment of every operation path (A2A spec §2.1). Any other first segment is a tenant.
const roots: ReadonlySet<string> = new Set(['message:send', 'message:stream', 'tasks', 'extendedAgentCard']);

const listTasksQuery: Readonly<Record<string, QueryType>> = {
  contextId: 'string',
  status: 'enum',
  pageSize: 'int',
  pageToken: 'string',
  historyLength: 'int',
  statusTimestampAfter: 'string',
  includeArtifacts: 'bool',
};

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AgentError('InvalidParams', 'the path holds a malformed percent-encoding');
  }
}

/**
Match an HTTP method and a path below the binding's URL to an operation (A2A spec §2.1, with the proto's
`/{tenant}` forms). The tenant is the first segment when that segment is not one of the operation roots
`message:send`, `message:stream`, `tasks` and `extendedAgentCard`, so a tenant with one of those names cannot
be addressed over HTTP+JSON. Each segment is percent-decoded after matching, so ids and tenants may hold `/`
or `:` when encoded. SubscribeToTask answers both GET (the proto) and POST (the prose and the official
clients). Returns `undefined` for anything else.

@example
```ts
matchRestRoute('POST', '/acme/tasks/t%2F1:cancel'); // { operation: 'CancelTask', tenant: 'acme', pathParams: { id: 't/1' }, … }
matchRestRoute('GET', '/tasks'); // { operation: 'ListTasks', tenant: '', … }
```
*/
export function matchRestRoute(method: string, path: string): RestRoute | undefined {
  const segments = path.split('/').slice(1);
  if (segments.length === 0 || segments.some((segment) => segment === '')) {
    return undefined;
  }
  let tenant = '';
  const [first = ''] = segments;
  if (!roots.has(first)) {
    tenant = decode(first);
    segments.shift();
  }
  const route = (
    operation: OperationName,
    pathParams: Record<string, string> = {},
    query: Record<string, QueryType> = {},
    body = false,
  ): RestRoute => ({ operation, tenant, pathParams, query, body });
  const [root, second, third, fourth, ...rest] = segments;
  if (rest.length > 0) {
    return undefined;
  }
  if (second === undefined) {
    if (root === 'message:send' && method === 'POST') {
      return route('SendMessage', {}, {}, true);
    }
    if (root === 'message:stream' && method === 'POST') {
      return route('SendStreamingMessage', {}, {}, true);
    }
    if (root === 'tasks' && method === 'GET') {
      return route('ListTasks', {}, listTasksQuery);
    }
    if (root === 'extendedAgentCard' && method === 'GET') {
      return route('GetExtendedAgentCard');
    }
    return undefined;
  }
  if (root !== 'tasks') {
    return undefined;
  }
  if (third === undefined) {
    const colon = second.lastIndexOf(':');
    const verb = colon === -1 ? '' : second.slice(colon + 1);
    const id = colon === -1 ? second : second.slice(0, colon);
    if (verb === 'cancel' && method === 'POST') {
      return route('CancelTask', { id: decode(id) }, {}, true);
    }
    if (verb === 'subscribe' && (method === 'GET' || method === 'POST')) {
      return route('SubscribeToTask', { id: decode(id) });
    }
    if (verb !== 'cancel' && verb !== 'subscribe' && method === 'GET') {
      return route('GetTask', { id: decode(second) }, { historyLength: 'int' });
    }
    return undefined;
  }
  if (third !== 'pushNotificationConfigs') {
    return undefined;
  }
  const taskId = decode(second);
  if (fourth === undefined) {
    if (method === 'POST') {
      return route('CreateTaskPushNotificationConfig', { taskId }, {}, true);
    }
    if (method === 'GET') {
      return route('ListTaskPushNotificationConfigs', { taskId }, { pageSize: 'int', pageToken: 'string' });
    }
    return undefined;
  }
  if (method === 'GET') {
    return route('GetTaskPushNotificationConfig', { taskId, id: decode(fourth) });
  }
  if (method === 'DELETE') {
    return route('DeleteTaskPushNotificationConfig', { taskId, id: decode(fourth) });
  }
  return undefined;
}

/**
Read the query of a GET as typed fields (A2A spec §11.5): camelCase names, decimal numbers, `true`/`false`,
enum names. Unknown names are ignored.
*/
function readQuery(url: URL, types: Readonly<Record<string, QueryType>>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(types)) {
    const values = url.searchParams.getAll(name);
    if (values.length > 1) {
      throw new AgentError('InvalidParams', `${name} may appear once in the query`);
    }
    const [value] = values;
    if (value === undefined) {
      continue;
    }
    if (type === 'int' || (type === 'enum' && /^\d+$/.test(value))) {
      if (!/^-?\d{1,10}$/.test(value)) {
        throw new AgentError('InvalidParams', `${name} must be a whole number`);
      }
      fields[name] = Number(value);
    } else if (type === 'bool') {
      if (value !== 'true' && value !== 'false') {
        throw new AgentError('InvalidParams', `${name} must be true or false`);
      }
      fields[name] = value === 'true';
    } else {
      fields[name] = value;
    }
  }
  return fields;
}

async function readBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  // Cancel and subscribe carry nothing the agent needs, so an empty body is taken as {} rather than refused.
  if (text.trim() === '') {
    return {};
  }
  if (!isJsonContentType(request)) {
    throw new AgentError(
      'ContentTypeNotSupported',
      'HTTP+JSON bodies must be application/json or application/a2a+json',
    );
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

function errorResponse(thrown: unknown, extensions: readonly string[]): Response {
  const error = toAgentError(thrown);
  const body = restError(error);
  return Response.json(body, {
    status: body.error.code,
    headers: {
      'content-type': restContentType,
      ...extensionHeaders(extensions),
      ...(error.error === 'Unauthenticated' ? { 'www-authenticate': 'Bearer' } : {}),
      // A2A spec §3.3.2: a 503 MAY say when to come back.
      ...(error.error === 'Unavailable' ? { 'retry-after': '1' } : {}),
    },
  });
}

/**
Serve one HTTP+JSON request below the binding's URL (A2A spec §11). `path` is the part of the URL path after
the binding's own, such as `/tasks/t-1` or `/acme/tasks/t-1`. The route is matched first (404
`METHOD_NOT_FOUND` otherwise), then `A2A-Version`, then the query or the JSON body. The tenant comes from the
path only: a body `tenant` must be absent or the same. Answers are `application/a2a+json`: 200 with the result
message, 201 for a created push config and 204 for a deleted one (as the official JS SDK answers), AIP-193
bodies for errors, `text/event-stream` for streams with one bare StreamResponse per event (§11.7).

@example
```ts
const response = await handleRest(
  new Request('http://127.0.0.1/a2a/rest/acme/tasks/t-1', { headers: { 'a2a-version': '1.0' } }),
  '/acme/tasks/t-1',
  { operations, mode: 'honouring' },
); // 404 {"error":{"code":404,"status":"NOT_FOUND",…,"details":[{…"reason":"TASK_NOT_FOUND"…}]}}
```
*/
export async function handleRest(request: Request, path: string, binding: RestBinding): Promise<Response> {
  const extensions = activatedExtensions(request, binding.mode);
  try {
    const route = matchRestRoute(request.method, path);
    if (route === undefined) {
      throw new AgentError('MethodNotFound', 'No A2A operation has this method and path');
    }
    checkVersion(request);
    const url = new URL(request.url);
    const fields = route.body ? await readBody(request) : readQuery(url, route.query);
    const { tenant: bodyTenant } = fields;
    if (bodyTenant !== undefined && bodyTenant !== route.tenant) {
      // A2A spec §8 (tenant): over HTTP+JSON the tenant is the path prefix, not a body field.
      throw new AgentError('InvalidParams', 'tenant goes in the path; the body names another one');
    }
    for (const [name, value] of Object.entries(route.pathParams)) {
      if (Object.hasOwn(fields, name) && fields[name] !== value) {
        throw new AgentError('InvalidParams', `${name} in the body is not the one in the path`);
      }
    }
    const outcome = await binding.operations.call(
      route.operation,
      { ...fields, ...route.pathParams },
      {
        tenant: route.tenant,
        authorization: request.headers.get('authorization'),
        origin: url.origin,
        signal: request.signal,
      },
    );
    const headers = { 'content-type': restContentType, ...extensionHeaders(extensions) };
    if (outcome.kind === 'stream') {
      const body = encodeSseStream(outcome.events, (event) => ({ data: JSON.stringify(event) }));
      return new Response(body, { status: 200, headers: { ...sseHeaders, ...extensionHeaders(extensions) } });
    }
    if (route.operation === 'DeleteTaskPushNotificationConfig') {
      return new Response(null, { status: 204, headers: extensionHeaders(extensions) });
    }
    const status = route.operation === 'CreateTaskPushNotificationConfig' ? 201 : 200;
    return Response.json(outcome.value, { status, headers });
  } catch (thrown) {
    return errorResponse(thrown, extensions);
  }
}
