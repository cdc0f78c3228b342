/**
@module
The HTTP+JSON binding of a v0.3 interface (docs/protocol-checks.md#v03-peers): the request the client already
checked against the v1.0 contract is written as its v0.3 route and proto body (`protocol/v03/routes.ts`) and
sent as `application/json` without `A2A-Version`, which a v0.3 peer does not read and which makes a server
with v0.3 compatibility serve the request as v0.3 (A2A spec §3.6.2). The answer gets the transport checks of
the v1.0 HTTP+JSON binding (docs/protocol-checks.md#unary-answers,
docs/protocol-checks.md#stream-establishment, docs/protocol-checks.md#stream-events: its status, media type,
bounded JSON, one union member), is read as the v0.3 proto's ProtoJSON (`protocol/v03/proto-answers.ts`,
`card.ts`) and then decoded by the v1.0 schemas, so every bound, union and identity rule a v1.0 answer meets
holds here too. A v0.3 error is the bare `{ code, message, data? }` of the JSON-RPC table with an HTTP status,
as both peers send it.
*/
import {
  HttpProtocolError,
  InvalidResponseError,
  type RemoteError,
  RequestError,
} from '../../core/errors.js';
import { optionalMembers } from '../../core/optional-members.js';
import { errorByCode } from '../../protocol/error-envelope.js';
import { isJsonObject, type JsonValue } from '../../protocol/json-value.js';
import { operationSchemas } from '../../protocol/operation-schemas.js';
import type { ClientMethod, OperationRequest } from '../../protocol/operations.js';
import { protoCardFromV03 } from '../../protocol/v03/card.js';
import {
  protoPushConfigFromV03,
  protoPushConfigListFromV03,
  protoSendResultFromV03,
  protoStreamEventFromV03,
  protoTaskFromV03,
} from '../../protocol/v03/proto-answers.js';
import type { V03Mapping } from '../../protocol/v03/refusal.js';
import { v03Route } from '../../protocol/v03/routes.js';
import {
  exchange,
  type HttpExchangeRequest,
  type HttpUnaryResponse,
  type MediaKind,
} from '../../wire/http.js';
import { openStream } from '../../wire/http-stream.js';
import type { Binding, BindingOptions, CallContext, UnaryMethod } from '../binding.js';
import { decodeStreamEvent, frameType, streamFrames, streamResponseMembers } from '../frames.js';
import { decodeResult } from '../push-config-answer.js';
import {
  type FailedAnswerInit,
  failedAnswer,
  fromJsonRpcError,
  fromRestStreamError,
} from '../remote-error.js';
import { routePrefix, statusAllowed } from '../rest.js';
import { parseBody, schemaError, sendResponseMembers, unionViolation } from '../result.js';

// The v0.3 proto's oneof names the send answer's message `msg`, its JSON name `message`.
const sendMembers = [...sendResponseMembers, 'msg'];
const streamMembers = [...streamResponseMembers, 'msg'];

// A delete answers no body (or v0.3 `null`), which the v1.0 delete rule reads as it is
// (push-config-answer.ts).
const asIs = (raw: JsonValue): V03Mapping => ({ ok: true, value: raw });

/** How each v0.3 unary answer is read as the v1.0 one (`protocol/v03/proto-answers.ts`, `card.ts`). */
const answers: Readonly<Record<Exclude<UnaryMethod, 'listTasks'>, (raw: JsonValue) => V03Mapping>> = {
  sendMessage: protoSendResultFromV03,
  getTask: protoTaskFromV03,
  cancelTask: protoTaskFromV03,
  createTaskPushNotificationConfig: protoPushConfigFromV03,
  getTaskPushNotificationConfig: protoPushConfigFromV03,
  listTaskPushNotificationConfigs: protoPushConfigListFromV03,
  deleteTaskPushNotificationConfig: asIs,
  getExtendedAgentCard: protoCardFromV03,
};

/**
A v0.3 error body, `{ code, message, data? }`: its code names the error only when the A2A table knows it,
which holds no HTTP status, so a proxy's status page can never pass for one (as an HTTP+JSON stream's bare
error, `fromRestStreamError`).
*/
function v03Error(body: JsonValue, init: FailedAnswerInit): RemoteError | undefined {
  const code = isJsonObject(body) ? body['code'] : undefined;
  const remote = fromJsonRpcError(body, {
    authoritative: typeof code === 'number' && errorByCode(code) !== undefined,
    httpStatus: init.httpStatus,
    ...optionalMembers({ retryAfterMs: init.retryAfterMs }),
  });
  return remote.ok ? remote.value : undefined;
}

/**
Creates the v0.3 HTTP+JSON binding of one interface. A tenant cannot reach a v0.3 peer: an interface with one
refuses every call before dispatch (`no-tenant`), as ListTasks is refused (`no-list-tasks`).

@example
```ts
const binding = createV03RestBinding({ url: 'https://agent.example/a2a/rest', limits: resolveLimits() });
const { value } = await binding.unary('getTask', { id: 't-1', historyLength: 1 }, {}); // GET /a2a/rest/v1/tasks/t-1?historyLength=1
```
*/
export function createV03RestBinding(options: BindingOptions): Binding {
  const prefix = routePrefix(options.url);
  const { limits, tenant } = options;

  function prepare<N extends ClientMethod>(
    operation: N,
    request: OperationRequest<N>,
    context: CallContext,
    accept: MediaKind,
  ): HttpExchangeRequest {
    // The interface's tenant goes where the v1.0 binding puts it, so the mapping refuses it (v0.3 has none).
    const built = v03Route(operation, tenant === undefined ? request : { ...request, tenant });
    if (!built.ok) {
      throw new RequestError('invalid-params', { violation: built.error });
    }
    const method = operation === 'subscribeToTask' ? (options.subscribeMethod ?? 'POST') : built.method;
    return {
      method,
      url: `${prefix}${built.path}`,
      // A2A v0.3 §3.2.3: HTTP+JSON bodies are application/json (v1.0's application/a2a+json is not v0.3's).
      ...(built.body === undefined
        ? {}
        : { body: JSON.stringify(built.body), contentType: 'application/json' }),
      accept,
      limits,
      ...context,
      a2aVersion: false,
    };
  }

  function read<N extends UnaryMethod>(operation: N, response: HttpUnaryResponse) {
    const httpStatus = response.status;
    const schema = operationSchemas[operation].response;
    // docs/protocol-checks.md#unary-answers, delete: 204, or any 2xx with an empty body, means deleted.
    if (operation === 'deleteTaskPushNotificationConfig' && response.body.byteLength === 0) {
      return { value: decodeResult(operation, null, { httpStatus }, schema), raw: null, httpStatus };
    }
    if (response.mediaType !== 'json') {
      throw new HttpProtocolError('media-type', { dispatched: true, httpStatus });
    }
    const raw = parseBody(response.body, limits, httpStatus);
    // docs/protocol-checks.md#unary-answers: a send answers exactly one known member.
    const union = operation === 'sendMessage' ? unionViolation(raw, sendMembers) : undefined;
    if (union !== undefined) {
      throw schemaError({ httpStatus }, union);
    }
    // ListTasks never gets here: `v03Route` refused it before dispatch.
    const mapped = answers[operation as Exclude<UnaryMethod, 'listTasks'>](raw);
    if (!mapped.ok) {
      throw schemaError({ httpStatus }, mapped.error);
    }
    return { value: decodeResult(operation, mapped.value, { httpStatus }, schema), raw, httpStatus };
  }

  return {
    protocolBinding: 'HTTP+JSON',

    async unary(operation, request, context) {
      const response = await exchange(prepare(operation, request, context, 'json'));
      const httpStatus = response.status;
      if (httpStatus < 200 || httpStatus > 299) {
        throw failedAnswer(response, limits, v03Error);
      }
      // Both v0.3 peers answer a send with 201 too (docs/interop.md#v03-peers); the rest as v1.0's allow.
      const allowed =
        operation === 'sendMessage'
          ? httpStatus === 200 || httpStatus === 201
          : statusAllowed(operation, httpStatus);
      if (!allowed) {
        throw new HttpProtocolError('status', { dispatched: true, httpStatus });
      }
      return read(operation, response);
    },

    async stream(operation, request, context) {
      const schema = operationSchemas[operation].response;
      const response = await openStream(prepare(operation, request, context, 'sse'));
      const httpStatus = response.status;
      if (!(response.body instanceof ReadableStream)) {
        response.release();
        const { body, mediaType, headers } = response;
        if (httpStatus < 200 || httpStatus > 299) {
          throw failedAnswer({ status: httpStatus, mediaType, body, headers }, limits, v03Error);
        }
        // docs/protocol-checks.md#stream-establishment: a 2xx stream answer must be an event stream.
        throw new HttpProtocolError('media-type', { dispatched: true, httpStatus });
      }
      const stream = { body: response.body, release: response.release };
      return streamFrames(stream, { limits, signal: context.signal }, (event) => {
        const type = frameType(event);
        // Each event's data is one bare StreamResponse of the v0.3 proto, an error event one v0.3 error.
        const raw = parseBody(event.data, limits);
        const violation =
          type === 'error' ? { rule: 'error-event', path: '$' } : unionViolation(raw, streamMembers);
        if (violation !== undefined) {
          // docs/protocol-checks.md#stream-events: an error event, or data that is no StreamResponse but is
          // an error, is the peer's error.
          throw (
            fromRestStreamError(raw) ?? new InvalidResponseError('schema', { dispatched: true, violation })
          );
        }
        const mapped = protoStreamEventFromV03(raw);
        if (!mapped.ok) {
          throw schemaError({}, mapped.error);
        }
        return { event: decodeStreamEvent(mapped.value, schema), raw, wireBytes: event.wireBytes };
      });
    },
  };
}
