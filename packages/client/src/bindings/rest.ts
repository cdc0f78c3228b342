/**
@module
The HTTP+JSON binding (A2A spec, §11): one route per operation below the interface URL (A2A spec §11.3, with
the proto's `/{tenant}` forms), the request's other fields in a JSON body or the query, AIP-193 error bodies,
and bare StreamResponse events (docs/protocol-checks.md#requests, docs/protocol-checks.md#unary-answers,
docs/protocol-checks.md#stream-establishment, docs/protocol-checks.md#stream-events). It loads only with the
first call of a client pinned to it (`rest-loader.ts`), so it imports the schema table and the stream
machinery directly: they load with it.
*/
import { HttpProtocolError, InvalidResponseError } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import { operationSchemas } from '../protocol/operation-schemas.js';
import type { ClientMethod, OperationRequest } from '../protocol/operations.js';
import { exchange, type HttpExchangeRequest, type MediaKind } from '../wire/http.js';
import { openStream } from '../wire/http-stream.js';
import type { Binding, BindingOptions, CallContext, UnaryMethod } from './binding.js';
import { decodeStreamEvent, frameType, streamFrames, streamResponseMembers } from './frames.js';
import { decodeResult } from './push-config-answer.js';
import { failedAnswer, fromRestEnvelope, fromRestStreamError } from './remote-error.js';
import { interfaceUrl } from './request.js';
import { restRoute } from './rest-route.js';
import { parseBody, unionViolation } from './result.js';

// A2A spec, §11.1 (v1.0.1): HTTP+JSON requests are application/a2a+json.
const contentType = 'application/a2a+json';

/**
The 2xx statuses an answer may carry: 201 for a created config and 204 for a deleted one, as the official JS
SDK server answers (docs/interop.md#the-official-js-sdk-server), 200 otherwise.
*/
export function statusAllowed(operation: UnaryMethod, status: number): boolean {
  switch (operation) {
    case 'createTaskPushNotificationConfig':
      return status === 200 || status === 201;
    case 'deleteTaskPushNotificationConfig':
      return true;
    default:
      return status === 200;
  }
}

/**
What every route of the interface at `url` starts with (docs/protocol-checks.md#requests): a trailing empty
segment is dropped, so `/a2a/` and `/a2a` name the same routes. The v0.3 binding's routes start there too.
*/
export function routePrefix(url: string): string {
  const base = interfaceUrl(url);
  return `${base.origin}${base.pathname.replace(/\/$/, '')}`;
}

/**
Creates the HTTP+JSON binding of one interface. Requests: the tenant is one percent-encoded path segment right
after the interface URL's path, each path variable one segment; body operations POST a JSON object holding
every field that is not in the path (`{}` at least; docs/protocol-checks.md#requests), query operations send
the rest as camelCase query parameters (`pageSize` always, 50 unless given; `includeArtifacts` only when
true); SubscribeToTask is a POST without a body, or a GET with `subscribeMethod: 'GET'`.

Answers: a 2xx must carry its operation's status and an `application/json` or `application/a2a+json` body,
which is parsed as bounded JSON and decoded (DeleteTaskPushNotificationConfig may also answer 204 or an empty
2xx). A non-2xx is read as an AIP-193 envelope whose `code` is the HTTP status: a `RemoteError`, with
`remoteCode` only when the status, the `status` string and one A2A ErrorInfo agree; anything else is
`HttpProtocolError` (`status` for an empty body, `error-envelope` otherwise).

@example
```ts
const binding = createRestBinding({ url: 'https://agent.example/a2a', tenant: 'acme', limits: resolveLimits() });
await binding.unary('getTask', { id: 'task-1', historyLength: 1 }, {}); // GET /a2a/acme/tasks/task-1?historyLength=1
```
*/
export function createRestBinding(options: BindingOptions): Binding {
  const prefix = routePrefix(options.url);
  const { limits, tenant } = options;
  const source = optionalMembers({ tenant });

  function route<N extends ClientMethod>(
    operation: N,
    request: OperationRequest<N>,
    context: CallContext,
    accept: MediaKind,
  ): HttpExchangeRequest {
    const built = restRoute(operation, request as Readonly<Record<string, unknown>>, tenant);
    const method = operation === 'subscribeToTask' ? (options.subscribeMethod ?? 'POST') : built.method;
    return {
      method,
      url: `${prefix}${built.path}`,
      ...(built.body === undefined ? {} : { body: built.body, contentType }),
      accept,
      limits,
      ...context,
    };
  }

  return {
    protocolBinding: 'HTTP+JSON',

    async unary(operation, request, context) {
      const schema = operationSchemas[operation].response;
      const response = await exchange(route(operation, request, context, 'json'));
      const httpStatus = response.status;
      if (httpStatus < 200 || httpStatus > 299) {
        throw failedAnswer(response, limits, (body, init) =>
          fromRestEnvelope(body, httpStatus, init.retryAfterMs),
        );
      }
      if (!statusAllowed(operation, httpStatus)) {
        throw new HttpProtocolError('status', { dispatched: true, httpStatus });
      }
      // docs/protocol-checks.md#unary-answers, delete: 204, or any 2xx with an empty body, means deleted.
      if (operation === 'deleteTaskPushNotificationConfig' && response.body.byteLength === 0) {
        return {
          value: decodeResult(operation, null, { ...source, httpStatus }, schema),
          raw: null,
          httpStatus,
        };
      }
      if (response.mediaType !== 'json') {
        throw new HttpProtocolError('media-type', { dispatched: true, httpStatus });
      }
      const raw = parseBody(response.body, limits, httpStatus);
      return { value: decodeResult(operation, raw, { ...source, httpStatus }, schema), raw, httpStatus };
    },

    async stream(operation, request, context) {
      const http = route(operation, request, context, 'sse');
      const schema = operationSchemas[operation].response;
      const response = await openStream(http);
      const httpStatus = response.status;
      if (!(response.body instanceof ReadableStream)) {
        response.release();
        const { body, mediaType, headers } = response;
        if (httpStatus < 200 || httpStatus > 299) {
          throw failedAnswer({ status: httpStatus, mediaType, body, headers }, limits, (json, init) =>
            fromRestEnvelope(json, httpStatus, init.retryAfterMs),
          );
        }
        // docs/protocol-checks.md#stream-establishment: a 2xx stream answer must be an event stream.
        throw new HttpProtocolError('media-type', { dispatched: true, httpStatus });
      }
      const stream = { body: response.body, release: response.release };
      return streamFrames(stream, { limits, signal: context.signal }, (event) => {
        const type = frameType(event);
        // A2A spec, §11.7: each event's data is one bare StreamResponse.
        const raw = parseBody(event.data, limits);
        const violation =
          type === 'error' ? { rule: 'error-event', path: '$' } : unionViolation(raw, streamResponseMembers);
        if (violation !== undefined) {
          // docs/protocol-checks.md#stream-events: an error event, or data that is no StreamResponse but is
          // an error, is the peer's error.
          throw (
            fromRestStreamError(raw) ?? new InvalidResponseError('schema', { dispatched: true, violation })
          );
        }
        return { event: decodeStreamEvent(raw, schema), raw, wireBytes: event.wireBytes };
      });
    },
  };
}
