import { type OperationName, operationNames } from '@surecall/client/protocol';
import { isObject } from '../agent/fields.js';
import type { IdempotencyMode } from '../agent/idempotency.js';
import {
  activatedExtensions,
  checkVersion,
  extensionHeaders,
  isJsonContentType,
  type Operations,
} from '../agent/operations.js';
import { AgentError, jsonRpcError, toAgentError } from '../agent/remote-errors.js';
import { encodeSseStream, sseHeaders } from './sse.js';

/** A JSON-RPC request id: a string, an integer or null (JSON-RPC 2.0 §4). */
export type JsonRpcId = string | number | null;

/** What the binding needs from its agent. */
export type JsonRpcBinding = {
  readonly operations: Operations;
  readonly mode: IdempotencyMode;
};

const methods: ReadonlySet<string> = new Set(operationNames);

function isId(value: unknown): value is JsonRpcId {
  return (
    value === null || typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))
  );
}

function errorResponse(
  id: JsonRpcId,
  thrown: unknown,
  extensions: readonly string[],
  extra: Readonly<Record<string, string>> = {},
): Response {
  const error = toAgentError(thrown);
  // A2A spec §9.5: JSON-RPC errors travel in HTTP 200; only a refused credential gets 401, so that HTTP
  // clients and proxies see it.
  const unauthenticated = error.error === 'Unauthenticated';
  return Response.json(
    { jsonrpc: '2.0', id, error: jsonRpcError(error) },
    {
      status: unauthenticated ? 401 : 200,
      headers: {
        'content-type': 'application/json',
        ...extensionHeaders(extensions),
        ...(unauthenticated ? { 'www-authenticate': 'Bearer' } : {}),
        ...extra,
      },
    },
  );
}

/**
Serve one JSON-RPC 2.0 request at the agent's JSON-RPC URL (A2A spec §9). The checks run in this order: POST,
a JSON content type (-32005), JSON (-32700), the envelope (-32600: `jsonrpc: '2.0'`, an id that is a string,
an integer or null, a method name; batches are refused), `A2A-Version` (-32009), the method (-32601), `params`
an object (-32602). Every error is answered in HTTP 200 with
`{jsonrpc, id, error: {code, message, data: [ErrorInfo]}}`, except a missing bearer on GetExtendedAgentCard
(HTTP 401). Streams answer `text/event-stream`, each event a whole JSON-RPC response carrying the request's id
(§9.4.2).

@example
```ts
const response = await handleJsonRpc(
  new Request('http://127.0.0.1/a2a/jsonrpc', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 't-1' } }),
  }),
  { operations, mode: 'honouring' },
); // 200 {"jsonrpc":"2.0","id":1,"error":{"code":-32001,…}}
```
*/
export async function handleJsonRpc(request: Request, binding: JsonRpcBinding): Promise<Response> {
  const extensions = activatedExtensions(request, binding.mode);
  if (request.method !== 'POST') {
    const response = errorResponse(
      null,
      new AgentError('InvalidRequest', 'JSON-RPC requests are POSTed'),
      extensions,
      {
        allow: 'POST',
      },
    );
    return new Response(response.body, { status: 405, headers: response.headers });
  }
  if (!isJsonContentType(request)) {
    return errorResponse(
      null,
      new AgentError('ContentTypeNotSupported', 'JSON-RPC requests must be application/json'),
      extensions,
    );
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(await request.text());
  } catch {
    return errorResponse(null, new AgentError('ParseError', 'Invalid JSON payload'), extensions);
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
    // A2A defines no notifications, so a request without an id is refused rather than left unanswered.
    return errorResponse(
      id,
      new AgentError('InvalidRequest', 'Request payload validation error'),
      extensions,
    );
  }
  try {
    checkVersion(request);
    if (!methods.has(method)) {
      throw new AgentError('MethodNotFound', 'Method not found');
    }
    const params = rawParams ?? {};
    if (!isObject(params)) {
      throw new AgentError('InvalidParams', 'params must be a JSON object');
    }
    const { tenant = '' } = params;
    if (typeof tenant !== 'string') {
      throw new AgentError('InvalidParams', 'params.tenant must be a string');
    }
    const outcome = await binding.operations.call(method as OperationName, params, {
      tenant,
      authorization: request.headers.get('authorization'),
      origin: new URL(request.url).origin,
      signal: request.signal,
    });
    if (outcome.kind === 'stream') {
      const body = encodeSseStream(outcome.events, (result) => ({
        data: JSON.stringify({ jsonrpc: '2.0', id, result }),
      }));
      return new Response(body, { status: 200, headers: { ...sseHeaders, ...extensionHeaders(extensions) } });
    }
    return Response.json(
      { jsonrpc: '2.0', id, result: outcome.value },
      { status: 200, headers: { 'content-type': 'application/json', ...extensionHeaders(extensions) } },
    );
  } catch (thrown) {
    return errorResponse(id, thrown, extensions);
  }
}
