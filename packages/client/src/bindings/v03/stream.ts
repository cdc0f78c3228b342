/**
@module
A v0.3 JSON-RPC stream (`message/stream`, `tasks/resubscribe`) once its request is built: the checks of the
v1.0 JSON-RPC stream (docs/protocol-checks.md#stream-establishment, docs/protocol-checks.md#stream-events:
an event stream or a refusal, every event a whole JSON-RPC response carrying the request's id), with each
event's `result` read as a v0.3 stream event (`protocol/v03/answers.ts`) before the v1.0 StreamResponse
decoding. The stream's lifecycle is checked above the binding, as for v1.0 (client/streaming.ts).
*/
import type { Limits } from '../../core/limits.js';
import { operationSchemas } from '../../protocol/operation-schemas.js';
import { streamEventFromV03 } from '../../protocol/v03/answers.js';
import type { HttpExchangeRequest } from '../../wire/http.js';
import { openStream } from '../../wire/http-stream.js';
import type { StreamFrame, StreamMethod } from '../binding.js';
import { decodeStreamEvent, frameType, streamFrames } from '../frames.js';
import { envelopeError, isEnvelope, readEnvelope } from '../jsonrpc-envelope.js';
import { jsonRpcRefusal, jsonRpcRemoteError } from '../jsonrpc-error.js';
import { parseBody, schemaError } from '../result.js';

/** What `jsonrpc.ts` built for one stream: the request id, the HTTP request, the bounds, the signal. */
export type V03StreamRequest = {
  readonly id: number;
  readonly http: HttpExchangeRequest;
  readonly limits: Limits;
  readonly signal: AbortSignal | undefined;
};

/**
Opens the v0.3 stream of `operation` and iterates its checked frames, each a v1.0 StreamResponse; throws the
refusal when the answer is no event stream.

@example
```ts
const frames = await v03Stream('sendStreamingMessage', { id, http, limits, signal });
```
*/
export async function v03Stream(
  operation: StreamMethod,
  request: V03StreamRequest,
): Promise<AsyncIterableIterator<StreamFrame>> {
  const { id, http, limits, signal } = request;
  const schema = operationSchemas[operation].response;
  const response = await openStream(http);
  if (!(response.body instanceof ReadableStream)) {
    response.release();
    const { status, mediaType, body, headers } = response;
    throw jsonRpcRefusal({ status, mediaType, body, headers }, id, limits);
  }
  const stream = { body: response.body, release: response.release };
  return streamFrames(stream, { limits, signal }, (event) => {
    const type = frameType(event);
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
    // v0.3 tells its events apart by `kind`; once read, the v1.0 union and schema hold the event.
    const mapped = streamEventFromV03(envelope.result);
    if (!mapped.ok) {
      throw schemaError({}, mapped.error);
    }
    return {
      event: decodeStreamEvent(mapped.value, schema),
      raw: envelope.result,
      wireBytes: event.wireBytes,
    };
  });
}
