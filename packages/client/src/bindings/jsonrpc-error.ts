/**
@module
The JSON-RPC binding's refusals (docs/protocol-checks.md#unary-answers,
docs/protocol-checks.md#stream-establishment, docs/protocol-checks.md#stream-events): a non-2xx answer, a
stream request answered without an event stream, and an `error` envelope, each as the closed error it is. It
loads with the first refusal or the first stream (ARCHITECTURE.md#decisions, "Code loads with its first use");
`jsonrpc.ts` reads the envelope and hands it here.
*/
import { HttpProtocolError } from '../core/errors.js';
import type { Limits } from '../core/limits.js';
import { optionalMembers } from '../core/optional-members.js';
import type { JsonValue } from '../protocol/json-value.js';
import { type Envelope, envelopeError, isEnvelope, readEnvelope } from './jsonrpc-envelope.js';
import { failedAnswer, fromJsonRpcError } from './remote-error.js';
import { parseBody } from './result.js';

/** A non-2xx answer as `failedAnswer` reads it. */
export type FailedResponse = Parameters<typeof failedAnswer>[0];

/**
A non-2xx answer to request `id`: the code of an error in it is not authoritative
(docs/protocol-checks.md#unary-answers). A `RemoteError` without a code for an `error` envelope,
`HttpProtocolError('result-on-error-status')` for a `result`, otherwise `HttpProtocolError` (`status` for an
empty body, `error-envelope` for anything else).

@example
```ts
throw jsonRpcFailure(response, id, limits);
```
*/
export function jsonRpcFailure(response: FailedResponse, id: number, limits: Limits): Error {
  return failedAnswer(response, limits, (body, init) => {
    const envelope = readEnvelope(body, id);
    if (!isEnvelope(envelope)) {
      return undefined;
    }
    if ('result' in envelope) {
      return new HttpProtocolError('result-on-error-status', init);
    }
    const { httpStatus, retryAfterMs } = init;
    const remote = fromJsonRpcError(envelope.error, {
      authoritative: false,
      httpStatus,
      ...optionalMembers({ retryAfterMs }),
    });
    return remote.ok ? remote.value : undefined;
  });
}

/**
A stream request answered without an event stream (docs/protocol-checks.md#stream-establishment). A non-2xx
answer reads as {@link jsonRpcFailure}; a 2xx JSON answer is read as an envelope, and only an error in it
means something; anything else is `HttpProtocolError('media-type')`.

@example
```ts
throw jsonRpcRefusal({ status, mediaType, body, headers }, id, limits);
```
*/
export function jsonRpcRefusal(response: FailedResponse, id: number, limits: Limits): Error {
  const httpStatus = response.status;
  if (httpStatus < 200 || httpStatus > 299) {
    return jsonRpcFailure(response, id, limits);
  }
  let envelope: Envelope | ReturnType<typeof readEnvelope>;
  try {
    envelope = readEnvelope(parseBody(response.body, limits, httpStatus), id);
  } catch {
    return new HttpProtocolError('media-type', { dispatched: true, httpStatus });
  }
  const remote =
    isEnvelope(envelope) && 'error' in envelope
      ? fromJsonRpcError(envelope.error, { authoritative: true, httpStatus })
      : undefined;
  return remote?.ok === true
    ? remote.value
    : new HttpProtocolError('media-type', { dispatched: true, httpStatus });
}

/**
The `error` of an envelope in a 2xx answer (`httpStatus`) or a stream (`undefined`): the code is
authoritative. A malformed error object is `InvalidResponseError('jsonrpc-envelope')`.

@example
```ts
throw jsonRpcRemoteError(envelope.error, 200);
```
*/
export function jsonRpcRemoteError(error: JsonValue, httpStatus: number | undefined): Error {
  const remote = fromJsonRpcError(error, {
    authoritative: true,
    ...optionalMembers({ httpStatus }),
  });
  return remote.ok ? remote.value : envelopeError(remote.error.violation, httpStatus);
}
