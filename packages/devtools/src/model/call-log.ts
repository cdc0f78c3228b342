/**
@module
The Calls panel's model: a log of the unary calls (every operation but a stream), one entry per call with the
raw events the client emitted for it, request first, then its retries and its answer or error. The events are
the client's own (ARCHITECTURE.md#events-and-redaction), so the log holds what they hold and nothing more: the
method, the HTTP method, the JSON-RPC id, the task targeted, the status and the duration, an error's public
`toJSON()`; never a URL, a header, a token, a body or a peer's error text.
*/
import type { ClientEvent } from '@surecall/client';

/** One unary call, as its events tell it. */
export type CallEntry = {
  readonly callId: number;
  readonly operation: string;
  readonly binding: string;
  /**
  How it ended: `answered` with the HTTP status, `failed` with the error's kind and reason, or `pending`.
  */
  readonly outcome: string;
  readonly durationMs: number | undefined;
  /** The call's events, as emitted, oldest first. */
  readonly events: readonly ClientEvent[];
};

/** The log, newest call first. */
export type CallLog = { readonly calls: readonly CallEntry[] };

/** How many calls the log keeps; the oldest go first. */
export const maxCallsKept = 200;

/** The empty log. */
export const emptyCallLog: CallLog = Object.freeze({ calls: Object.freeze([]) });

// The streaming operations: their frames are the Streams panel's.
const streamed = new Set(['SendStreamingMessage', 'SubscribeToTask']);

function outcomeOf(events: readonly ClientEvent[]): Pick<CallEntry, 'outcome' | 'durationMs'> {
  for (const event of [...events].reverse()) {
    if (event.type === 'response') {
      return {
        outcome: `answered${event.httpStatus === undefined ? '' : ` ${event.httpStatus}`}`,
        durationMs: event.durationMs,
      };
    }
    if (event.type === 'error') {
      const error = event.error as { kind?: unknown; reason?: unknown };
      return {
        outcome: `failed: ${String(error.kind ?? 'unexpected')} ${String(error.reason ?? '')}`.trim(),
        durationMs: event.durationMs,
      };
    }
  }
  return { outcome: 'pending', durationMs: undefined };
}

/**
The log with `event` in it. A call is unary when its first event's operation is no stream's and it never
answered as one (`response.stream`); a stream's events leave the log unchanged. The log is built from the
event it is given, frozen as the client delivers it, never a copy that could differ.

@example
```ts
let log = reduceCallLog(emptyCallLog, requestEvent);
log = reduceCallLog(log, responseEvent);
log.calls[0]?.outcome; // 'answered 200'
```
*/
export function reduceCallLog(log: CallLog, event: ClientEvent): CallLog {
  const held = log.calls.find((call) => call.callId === event.callId);
  if (held === undefined) {
    // A call starts with its request, or fails before one could leave (an error alone).
    if ((event.type !== 'request' && event.type !== 'error') || streamed.has(event.operation)) {
      return log;
    }
    const entry: CallEntry = {
      callId: event.callId,
      operation: event.operation,
      binding: event.binding,
      events: [event],
      ...outcomeOf([event]),
    };
    return { calls: [entry, ...log.calls].slice(0, maxCallsKept) };
  }
  if (event.type === 'response' && event.stream) {
    return { calls: log.calls.filter((call) => call !== held) };
  }
  const events = [...held.events, event];
  const next: CallEntry = { ...held, events, ...outcomeOf(events) };
  return { calls: log.calls.map((call) => (call === held ? next : call)) };
}
