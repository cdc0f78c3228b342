/**
@module
An HTTP exchange whose answer may be a live event stream: the half of `http.ts` only a stream reaches, so it
loads with the first stream (`deferred.ts`, ARCHITECTURE.md#decisions, "Code loads with its first use"). The
token, dispatch, headers and redirect rules are `http.ts`'s own.
*/
import type { Deadline } from './deadline.js';
import { dispatch, type HttpExchangeRequest, type MediaType, wrongMedia } from './http.js';
import { classifyMediaType } from './media-type.js';
import { ignore, readAll, readChunk } from './response-body.js';

/** An answer to a stream request: a live body for a 2xx event stream, otherwise the whole (bounded) body. */
export type HttpStreamResponse = {
  readonly status: number;
  readonly headers: Headers;
  readonly mediaType: MediaType;
  /** Read errors surface as `TransportError` (`read`, or `aborted` when the caller's signal fired). */
  readonly body: ReadableStream<Uint8Array> | Uint8Array;
  /** Stops listening to the caller's signal and cancels the live body if it has not ended. Idempotent. */
  release(): void;
};

/**
Opens a stream: the deadline covers the token and the response headers only; after that the caller's signal
still ends the body. A 2xx `text/event-stream` answer returns the live body; a 2xx JSON answer (a JSON-RPC
error envelope, docs/protocol-checks.md#stream-establishment) and any non-2xx answer are read whole under the
deadline and bounded; any other 2xx media type fails.

@throws as `exchange` (`http.ts`); reading the live body throws `TransportError` (`read` or `aborted`).
@example
```ts
const stream = await openStream({ method: 'POST', url, body, accept: 'sse', signal, limits });
try {
  if (stream.body instanceof ReadableStream) for await (const event of decodeSse(stream.body, { limits, signal })) handle(event);
} finally {
  stream.release();
}
```
*/
export async function openStream(request: HttpExchangeRequest): Promise<HttpStreamResponse> {
  const { response, deadline } = await dispatch(request);
  const { status, headers } = response;
  try {
    const mediaType = classifyMediaType(headers.get('content-type'));
    if (response.ok && mediaType === 'sse') {
      // docs/protocol-checks.md#dispatch-and-timing: the deadline ends at establishment; the consumer's idle
      // bound takes over.
      deadline.stopTimer();
      const live = liveBody(
        response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() }),
        deadline,
      );
      return { status, headers, mediaType, body: live.body, release: live.release };
    }
    if (response.ok && mediaType !== 'json') {
      throw wrongMedia(response);
    }
    const body = await readAll(response, request.limits.responseBodyBytes, deadline);
    deadline.release();
    return { status, headers, mediaType, body, release: ignore };
  } catch (error) {
    deadline.release();
    throw error;
  }
}

/**
Wraps a live body so that the deadline's signal still ends it, and frees the deadline's timer and listener
once the body ends, fails or is released.
*/
export function liveBody(
  source: ReadableStream<Uint8Array>,
  deadline: Deadline,
): { body: ReadableStream<Uint8Array>; release: () => void } {
  const reader = source.getReader();
  deadline.watch(reader);
  let ended = false;
  const end = (): void => {
    if (!ended) {
      ended = true;
      deadline.release();
    }
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await readChunk(reader, deadline);
        if (chunk === undefined) {
          end();
          controller.close();
        } else {
          controller.enqueue(chunk);
        }
      } catch (error) {
        // The source is already errored, or cancelled by the deadline's watch.
        end();
        controller.error(error);
      }
    },
    cancel() {
      end();
      reader.cancel().catch(ignore);
    },
  });
  return {
    body,
    release: () => {
      if (!ended) {
        end();
        reader.cancel().catch(ignore);
      }
    },
  };
}
