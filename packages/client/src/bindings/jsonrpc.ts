/**
@module
The JSON-RPC 2.0 binding (A2A spec, §9): every call is a POST of `{ jsonrpc: '2.0', id, method, params }` to
the interface URL, with a numeric id from the client's one counter, and every answer is an envelope checked to
the letter (docs/protocol-checks.md#unary-answers, docs/protocol-checks.md#stream-establishment,
docs/protocol-checks.md#stream-events).
*/
import type { Load } from '../core/lazy.js';
import type { JsonObject } from '../protocol/json-value.js';
import { methods } from '../protocol/methods.js';
import type { ClientMethod, OperationRequest } from '../protocol/operations.js';
import { exchange, type HttpExchangeRequest, type MediaKind } from '../wire/http.js';
import type { Binding, BindingOptions, CallContext } from './binding.js';
import { envelopeError, isEnvelope, readEnvelope } from './jsonrpc-envelope.js';
import type { jsonRpcFailure, jsonRpcRemoteError } from './jsonrpc-error.js';
import type { jsonRpcStream } from './jsonrpc-stream.js';
import type { decodeResult } from './push-config-answer.js';
import { interfaceUrl } from './request.js';
import { decodeAnswer, parseBody, type SchemaCode, schemasOf } from './result.js';

/**
What the binding loads with its first need of it (ARCHITECTURE.md#decisions, "Code loads with its first use"):
the schemas of every operation but SendMessage, a refusal's decoding, the answer rules of the other operations
and the stream machinery. The client hands the loader down (`client/loader.ts`).
*/
export type JsonRpcCode = SchemaCode & {
  readonly jsonRpcFailure: typeof jsonRpcFailure;
  readonly jsonRpcRemoteError: typeof jsonRpcRemoteError;
  readonly decodeResult: typeof decodeResult;
  readonly jsonRpcStream: typeof jsonRpcStream;
};

/** Options of {@link createJsonRpcBinding}: the interface, plus the client's id counter. */
export type JsonRpcBindingOptions = BindingOptions & {
  /**
  The next request id: one counter per client, starting at 1, shared by every operation
  (docs/protocol-checks.md#requests).
  */
  readonly nextId: () => number;
  /** Loads the code the binding needs past a plain send's answer. */
  readonly load: Load<JsonRpcCode>;
};

/**
Creates the JSON-RPC binding of one interface. `params` is the request message as ProtoJSON (A2A spec, §9.1)
with the interface's `tenant` added when it has one (§8.3.2); GetExtendedAgentCard sends `{}` or `{ tenant }`.

Answers, in order: a 2xx is parsed as bounded JSON and must be this request's envelope (`invalid-response`,
reason `json` or `jsonrpc-envelope`); its `error` is a `RemoteError` whose code is authoritative; its `result`
is decoded (`schema`). A non-2xx answer is a `RemoteError` without a code when it carries an `error` envelope,
`HttpProtocolError('result-on-error-status')` when it carries a `result`, and otherwise `HttpProtocolError`
(`status` for an empty body, `error-envelope` for anything else: a 401 or 403 from an authentication proxy
included, whose status the error keeps).

@example
```ts
let id = 0;
const binding = createJsonRpcBinding({ url: 'https://agent.example/rpc', limits: resolveLimits(), nextId: () => ++id });
const { value } = await binding.unary('sendMessage', { message }, { signal });
if ('task' in value) console.log(value.task.status.state);
```
*/
export function createJsonRpcBinding(options: JsonRpcBindingOptions): Binding {
  const url = interfaceUrl(options.url).href;
  const { limits, tenant, nextId, load } = options;

  function prepare<N extends ClientMethod>(
    operation: N,
    request: OperationRequest<N>,
    context: CallContext,
    accept: MediaKind,
  ): { readonly id: number; readonly http: HttpExchangeRequest } {
    // A2A spec, §8.3.2: the interface's tenant, never the caller's; without one the request is sent as it is.
    const params = tenant === undefined ? request : { ...(request as JsonObject), tenant };
    const id = nextId();
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: methods[operation].name, params });
    // A2A spec, §9.1: JSON-RPC requests are application/json.
    return {
      id,
      http: {
        method: 'POST',
        url,
        body,
        contentType: 'application/json',
        accept,
        limits,
        ...context,
      },
    };
  }

  return {
    protocolBinding: 'JSONRPC',

    async unary(operation, request, context) {
      // The id is drawn before the first await, as a stream's is.
      const { id, http } = prepare(operation, request, context, 'json');
      const { response: schema } = await schemasOf(operation, load);
      const response = await exchange(http);
      const httpStatus = response.status;
      if (httpStatus < 200 || httpStatus > 299) {
        // A refusal's decoding loads with the first one (ARCHITECTURE.md#decisions, "Code loads with its
        // first use"); the request has left.
        throw (await load(true)).jsonRpcFailure(response, id, limits);
      }
      // A 204 or an empty 2xx is no envelope: even a delete answers `"result": {}` or `null`
      // (docs/protocol-checks.md#unary-answers).
      const envelope = readEnvelope(parseBody(response.body, limits, httpStatus), id);
      if (!isEnvelope(envelope)) {
        throw envelopeError(envelope, httpStatus);
      }
      if ('error' in envelope) {
        throw (await load(true)).jsonRpcRemoteError(envelope.error, httpStatus);
      }
      const source = tenant === undefined ? { httpStatus } : { httpStatus, tenant };
      // Every operation but SendMessage loaded the deferred module with its schemas, so this is no new load.
      const decodeResult = operation === 'sendMessage' ? decodeAnswer : (await load(true)).decodeResult;
      return {
        value: decodeResult(operation, envelope.result, source, schema),
        raw: envelope.result,
        httpStatus,
      };
    },

    async stream(operation, request, context) {
      // The id is drawn before the first await: the caller learns it synchronously (client/call-context.ts).
      const { id, http } = prepare(operation, request, context, 'sse');
      // The stream's machinery loads with the first stream, before anything is sent
      // (ARCHITECTURE.md#decisions, "Code loads with its first use").
      const { jsonRpcStream } = await load(false);
      return jsonRpcStream(operation, { id, http, limits, signal: context.signal });
    },
  };
}
