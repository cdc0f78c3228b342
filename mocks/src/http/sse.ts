/** One Server-Sent Event as the agent writes it. */
export type SseEvent = {
  /** The payload; each of its lines becomes one `data:` line. */
  readonly data: string;
  /** The `event:` field, left out when absent (A2A defines no event names, §9.4.2, §11.7). */
  readonly event?: string;
  /** The `id:` field, left out when absent. */
  readonly id?: string;
};

/**
One event in the `text/event-stream` format (WHATWG HTML §9.2): optional `event:` and `id:` lines, one `data:`
line per line of the payload, and a blank line that dispatches it. The inverse of the client's decoder.

@example
```ts
encodeSseEvent({ data: '{"task":{}}' }); // 'data: {"task":{}}\n\n'
encodeSseEvent({ event: 'error', data: 'a\nb' }); // 'event: error\ndata: a\ndata: b\n\n'
```
*/
export function encodeSseEvent(event: SseEvent): string {
  let out = '';
  if (event.event !== undefined) {
    out += `event: ${singleLine(event.event)}\n`;
  }
  if (event.id !== undefined) {
    out += `id: ${singleLine(event.id)}\n`;
  }
  // A CR, LF or CRLF inside the payload would end the field early, so each line gets its own `data:` field;
  // the decoder joins them back with LF.
  for (const line of event.data.split(/\r\n|\r|\n/)) {
    out += `data: ${line}\n`;
  }
  return `${out}\n`;
}

function singleLine(value: string): string {
  return value.replace(/[\r\n]/g, ' ');
}

/**
The response headers of every stream: the media type of A2A spec §9.4.2 / §11.7, and no caching or proxy
buffering, so each event reaches the client as it is written.
*/
export const sseHeaders: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

/**
A byte stream of SSE events from a stream of values: each value is turned into one event by `toEvent`.
Cancelling the byte stream cancels the source, so a client that hangs up releases the agent's subscription.

@example
```ts
const body = encodeSseStream(events, (event) => ({ data: JSON.stringify(event) }));
return new Response(body, { headers: sseHeaders });
```
*/
export function encodeSseStream<T>(
  source: ReadableStream<T>,
  toEvent: (value: T) => SseEvent,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return source.pipeThrough(
    new TransformStream<T, Uint8Array>({
      transform(value, controller) {
        controller.enqueue(encoder.encode(encodeSseEvent(toEvent(value))));
      },
    }),
  );
}
