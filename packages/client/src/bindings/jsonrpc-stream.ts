/**
@module
A JSON-RPC stream once its request is built (A2A spec §9.4.2; docs/protocol-checks.md#stream-establishment,
docs/protocol-checks.md#stream-events): the request goes out, an answer that is no event stream is a refusal,
and every event is a whole JSON-RPC response carrying the request's id whose `result` is one StreamResponse.
It loads with the first stream (ARCHITECTURE.md#decisions, "Code loads with its first use"); `jsonrpc.ts`
draws the id and builds the request.
*/
import type { Limits } from '../core/limits.js';
import { operationSchemas } from '../protocol/operation-schemas.js';
import type { HttpExchangeRequest } from '../wire/http.js';
import { openStream } from '../wire/http-stream.js';
import type { StreamFrame, StreamMethod } from './binding.js';
import { decodeStreamEvent, frameType, streamFrames } from './frames.js';
import { envelopeError, isEnvelope, readEnvelope } from './jsonrpc-envelope.js';
import { jsonRpcRefusal, jsonRpcRemoteError } from './jsonrpc-error.js';
import { parseBody } from './result.js';

/**
What `jsonrpc.ts` built for one stream: the request id, the HTTP request, the bounds and the caller's signal.
*/
export type JsonRpcStreamRequest = {
  readonly id: number;
  readonly http: HttpExchangeRequest;
  readonly limits: Limits;
  readonly signal: AbortSignal | undefined;
};

/**
Opens the stream of `operation` and iterates its checked frames; throws the refusal when the answer is no
event stream.

@example
```ts
const frames = await jsonRpcStream('subscribeToTask', { id, http, limits, signal });
```
*/
export async function jsonRpcStream(
  operation: StreamMethod,
  request: JsonRpcStreamRequest,
): Promise<AsyncIterableIterator<StreamFrame>> {
  const { id, http, limits, signal } = request;
  const schema = operationSchemas[operation].response;
  const response = await openStream(http);
  const httpStatus = response.status;
  if (!(response.body instanceof ReadableStream)) {
    response.release();
    const { mediaType, body, headers } = response;
    throw jsonRpcRefusal({ status: httpStatus, mediaType, body, headers }, id, limits);
  }
  const stream = { body: response.body, release: response.release };
  return streamFrames(stream, { limits, signal }, (event) => {
    const type = frameType(event);
    // A2A spec, §9.4.2: each event is a whole JSON-RPC response carrying the request's id.
    const envelope = readEnvelope(parseBody(event.data, limits), id);
    if (!isEnvelope(envelope)) {
      throw envelopeError(envelope);
    }
    if ('error' in envelope) {
      // In a stream no HTTP status can contradict the code: it is authoritative
      // (docs/protocol-checks.md#stream-events).
      throw jsonRpcRemoteError(envelope.error, undefined);
    }
    if (type === 'error') {
      throw envelopeError({ rule: 'result-in-error-event', path: '$.result' });
    }
    return {
      event: decodeStreamEvent(envelope.result, schema),
      raw: envelope.result,
      wireBytes: event.wireBytes,
    };
  });
}
