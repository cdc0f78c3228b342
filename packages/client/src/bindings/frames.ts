/**
@module
An established SSE answer as an iterator of checked frames (docs/protocol-checks.md#sse-decoding,
docs/protocol-checks.md#stream-events), and the decoding of one stream event both bindings share. The binding
says how one event becomes a frame; this file owns the lifetime: the first error ends the iteration and
nothing follows it, and the HTTP body is released on every way out — the end, an error, or `return()`, even
before the first `next()`.
*/
import { InvalidResponseError } from '../core/errors.js';
import type { Limits } from '../core/limits.js';
import { decode } from '../protocol/decode.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { StreamResponse } from '../protocol/stream.js';
import type { HttpStreamResponse } from '../wire/http-stream.js';
import { decodeSse, type SseEvent } from '../wire/sse.js';
import type { StreamFrame } from './binding.js';
import { type OperationSchemas, schemaError, unionViolation } from './result.js';

/** The members of StreamResponse (A2A spec, §3.1.2). */
export const streamResponseMembers: readonly string[] = Object.freeze([
  'task',
  'message',
  'statusUpdate',
  'artifactUpdate',
]);

/** The two event types an A2A stream may carry besides none (docs/protocol-checks.md#stream-events). */
export type FrameType = 'message' | 'error';

/**
The type of an SSE event: absent and `message` are the same (WHATWG HTML, "dispatch the event"); `error`
carries an error; anything else is refused, since A2A spec, §9.4.2 and §11.7 define no other.

@throws InvalidResponseError `sse` (dispatched) with the rule `event-type`.
@example
```ts
if (frameType(event) === 'error') { … }
```
*/
export function frameType(event: SseEvent): FrameType {
  if (event.event === undefined || event.event === 'message') {
    return 'message';
  }
  if (event.event === 'error') {
    return 'error';
  }
  throw new InvalidResponseError('sse', { dispatched: true, violation: { rule: 'event-type' } });
}

/** What {@link streamFrames} reads: the live body of an established stream, and how to release it. */
export type EstablishedStream = Pick<HttpStreamResponse, 'release'> & {
  readonly body: ReadableStream<Uint8Array>;
};

const finished: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
Iterates the frames of an established stream: each SSE event, decoded within the SSE bounds of `limits` and
the caller's `signal`, goes through `toFrame`, whose error ends the stream like a decoder error.

@example
```ts
const frames = streamFrames(established, { limits, signal }, (event) => {
  const raw = parseBody(event.data, limits);
  return { event: decodeStreamEvent(raw), raw, wireBytes: event.wireBytes };
});
for await (const frame of frames) handle(frame.event);
```
*/
export function streamFrames(
  stream: EstablishedStream,
  options: { readonly limits: Limits; readonly signal?: AbortSignal | undefined },
  toFrame: (event: SseEvent) => StreamFrame,
): AsyncIterableIterator<StreamFrame, undefined, undefined> {
  const { limits, signal } = options;
  const events = decodeSse(stream.body, signal === undefined ? { limits } : { limits, signal });
  let ended = false;
  const end = async (): Promise<void> => {
    if (!ended) {
      ended = true;
      stream.release();
      await events.return(undefined);
    }
  };
  return {
    async next() {
      if (ended) {
        return finished;
      }
      try {
        const step = await events.next();
        if (step.done === true) {
          await end();
          return finished;
        }
        return { done: false, value: toFrame(step.value) };
      } catch (error) {
        await end();
        throw error;
      }
    },
    async return() {
      await end();
      return finished;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
Decodes one stream event: the exact union first (docs/protocol-checks.md#stream-events), then the
StreamResponse schema (`schema`: a stream loads the schemas with its first call).

@throws InvalidResponseError `schema` (dispatched, no HTTP status: the stream was established with a 2xx).
@example
```ts
const event = decodeStreamEvent(raw, operationSchemas.sendStreamingMessage.response);
if ('statusUpdate' in event) { … }
```
*/
export function decodeStreamEvent(
  raw: JsonValue,
  schema: OperationSchemas['sendStreamingMessage']['response'],
): StreamResponse {
  const violation = unionViolation(raw, streamResponseMembers);
  if (violation !== undefined) {
    throw schemaError({}, violation);
  }
  const result = decode(schema, raw);
  if (!result.ok) {
    throw schemaError({}, result.error.violation);
  }
  return result.value;
}
