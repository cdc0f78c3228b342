import { isClientError } from '../core/errors.js';
import type { HttpMethod, OperationName } from '../protocol/operations.js';
import type { StreamResponse } from '../protocol/stream.js';
import type { ProtocolBinding } from './security.js';

/**
What every inspector event carries: which call it belongs to and when it happened. Events are redacted exactly
like errors: no URL, token, header, request body or remote error text is ever in one; `taskId` is the only
identifier of the peer's state.
*/
export type ClientEventBase = {
  /** Numbers the calls of one client from 1: every event of one call carries the same `callId`. */
  readonly callId: number;
  /** The operation, as the spec names it (`'GetTask'`), which is also the JSON-RPC `method`. */
  readonly operation: OperationName;
  readonly binding: ProtocolBinding;
  /** Wall-clock time of the event, in milliseconds since the epoch (`Date.now()`). */
  readonly time: number;
};

/**
The request is about to leave: emitted immediately before `fetch`, once the token (if any) is in hand. From
here on the outcome may be unknown.
*/
export type ClientRequestEvent = ClientEventBase & {
  readonly type: 'request';
  readonly httpMethod: HttpMethod;
  /** The JSON-RPC `id`, over JSON-RPC only. */
  readonly rpcId?: number;
  /** The task the request targets, when it targets one (a send continuing a task included). */
  readonly taskId?: string;
};

/**
A checked answer arrived: for a unary call the whole contract-valid body, for a stream its establishment.
*/
export type ClientResponseEvent = ClientEventBase & {
  readonly type: 'response';
  /** True when this is the start of a stream; its frames follow as `stream-frame` events. */
  readonly stream: boolean;
  /** The HTTP status, where the binding reports one. */
  readonly httpStatus?: number;
  /** From the start of the call to this event. */
  readonly durationMs: number;
};

/** Which member of the StreamResponse union an event is (A2A spec §3.2.3). */
export type StreamEventKind = 'task' | 'message' | 'statusUpdate' | 'artifactUpdate';

/**
One stream event, after every check: the frame inspector's row. Gaps are the differences between consecutive
`time`s.
*/
export type StreamFrameEvent = ClientEventBase & {
  readonly type: 'stream-frame';
  /** 0 for the first event of the stream. */
  readonly index: number;
  /** The event's bytes on the wire, as the SSE decoder counted them. */
  readonly wireBytes: number;
  readonly kind: StreamEventKind;
  /** A copy of the event the caller receives. */
  readonly event: StreamResponse;
};

/**
A stream ended without an error: `complete` when the peer closed it where the lifecycle allows, `released`
when the caller stopped iterating first.
*/
export type StreamEndEvent = ClientEventBase & {
  readonly type: 'stream-end';
  readonly reason: 'complete' | 'released';
  /** Events delivered. */
  readonly frames: number;
  /** Wire bytes of those events. */
  readonly wireBytes: number;
  /** From the start of the call. */
  readonly durationMs: number;
};

/**
Why a stream broke (`resumption.ts`): how its transport failed, or `premature-end` when the peer closed it
before the task settled.
*/
export type StreamBreakReason = 'read' | 'idle' | 'network' | 'timeout' | 'premature-end';

/**
An established stream broke (docs/protocol-checks.md#stream-resumption). `resumable` says whether a resumption
follows (`stream-resume` events) or the stream fails with this error (an `error` event).
*/
export type StreamBreakEvent = ClientEventBase & {
  readonly type: 'stream-break';
  readonly reason: StreamBreakReason;
  /** Events delivered before the break: the index the next `stream-frame` will carry, where the seam is. */
  readonly frames: number;
  readonly resumable: boolean;
  /** The task the stream follows, once it named one; without it a send's stream cannot resume. */
  readonly taskId?: string;
  /** The break, as its public-safe `toJSON()`. */
  readonly error: Readonly<Record<string, unknown>>;
};

/**
A broken stream is about to resume (docs/protocol-checks.md#stream-resumption): by SubscribeToTask after
`delayMs`, or, once a subscription was refused, by one GetTask at once (`via`). The attempt's `request` event,
with its own operation, follows under the same `callId`.
*/
export type StreamResumeEvent = ClientEventBase & {
  readonly type: 'stream-resume';
  /** From 1; it counts the attempts since the stream last made progress. */
  readonly attempt: number;
  /** The reason of the break being repaired. */
  readonly reason: StreamBreakReason;
  readonly delayMs: number;
  readonly taskId: string;
  /** How the attempt reads the task: a subscription, or the one GetTask after a subscription was refused. */
  readonly via: 'SubscribeToTask' | 'GetTask';
  /**
  What made this attempt necessary: the break for the first, the previous attempt's failure after that (the
  refusal, for a GetTask), as its public-safe `toJSON()`.
  */
  readonly error: Readonly<Record<string, unknown>>;
};

/**
The call failed. `error` is the error's own public-safe `toJSON()`, so it holds nothing a log could not.
*/
export type ClientErrorEvent = ClientEventBase & {
  readonly type: 'error';
  readonly error: Readonly<Record<string, unknown>>;
  /** From the start of the call. */
  readonly durationMs: number;
};

/**
An attempt failed and the retry policy will try again after `delayMs` (`retry.ts`): the next attempt's
`request` event follows the wait.
*/
export type ClientRetryEvent = ClientEventBase & {
  readonly type: 'retry';
  /** The attempt that failed, from 1; the next one is `attempt + 1`. */
  readonly attempt: number;
  /**
  The wait before the next attempt: the jittered backoff, or the peer's `Retry-After` clamped to the cap.
  */
  readonly delayMs: number;
  /** The failed attempt's error, as its public-safe `toJSON()`. */
  readonly error: Readonly<Record<string, unknown>>;
};

/**
An inspector event, a union on `type` (CONTRIBUTING.md#devtools): what the devtools read, and all they read.

@example
```ts
const unsubscribe = client.events.subscribe((event) => {
  switch (event.type) {
    case 'request': timeline.start(event.callId, event.operation, event.time); break;
    case 'response': timeline.answer(event.callId, event.httpStatus, event.durationMs); break;
    case 'stream-frame': frames.add(event.callId, event.index, event.kind, event.wireBytes, event.event); break;
    case 'stream-end': timeline.end(event.callId, event.reason); break;
    case 'retry': timeline.retry(event.callId, event.attempt, event.delayMs, event.error); break;
    case 'stream-break': frames.seam(event.callId, event.frames, event.reason, event.resumable); break;
    case 'stream-resume': timeline.resume(event.callId, event.attempt, event.delayMs); break;
    case 'error': timeline.fail(event.callId, event.error); break;
  }
});
```
*/
export type ClientEvent =
  | ClientRequestEvent
  | ClientResponseEvent
  | StreamFrameEvent
  | StreamEndEvent
  | StreamBreakEvent
  | StreamResumeEvent
  | ClientRetryEvent
  | ClientErrorEvent;

/**
What `discover()` and `fetchAgentCard()` tell their `onEvent` (there is no client yet to carry it).
`card-fallback`: in a browser, the cross-origin card request carrying `A2A-Version: 1.0` failed before any
answer, which is how a refused CORS preflight looks to a page, so the card was asked for once more as a plain
GET without the header (a read: safe to repeat). Redacted like the client's events: no URL.

@example
```ts
const client = await discover({ ...options, onEvent: (event) => log(event.type) }); // 'card-fallback'
```
*/
export type DiscoveryEvent = {
  readonly type: 'card-fallback';
  readonly reason: 'preflight-refused';
  /** Wall-clock time of the event, in milliseconds since the epoch (`Date.now()`). */
  readonly time: number;
};

/**
Receives every event; whatever it throws or rejects with is ignored, so an inspector can never break a call.
*/
export type ClientEventListener = (event: ClientEvent) => unknown;

/**
The inspector feed of one client.

@example
```ts
const unsubscribe = client.events.subscribe((event) => log.push(event));
unsubscribe();
```
*/
export type ClientEvents = {
  /**
  Registers `listener` for every later event; the returned function removes it (calling it twice is harmless).
  */
  subscribe(listener: ClientEventListener): () => void;
};

/** The client's side of the feed: `emit` builds nothing unless someone listens. */
export type EventHub = {
  readonly events: ClientEvents;
  /** True while at least one listener is registered. */
  listening(): boolean;
  /** Delivers the event built by `build`, frozen, to every listener registered now. */
  emit(build: () => ClientEvent): void;
};

function ignore(): void {}

/**
Creates one client's event feed.

@example
```ts
const hub = createEventHub();
hub.emit(() => ({ type: 'error', callId: 1, operation: 'GetTask', binding: 'JSONRPC', time: Date.now(), durationMs: 3, error: errorJson(error) }));
```
*/
export function createEventHub(): EventHub {
  // One entry per subscription, so the same function subscribed twice is two subscriptions.
  const entries = new Set<{ readonly listener: ClientEventListener }>();
  return {
    events: Object.freeze({
      subscribe(listener: ClientEventListener): () => void {
        const entry = { listener };
        entries.add(entry);
        return () => {
          entries.delete(entry);
        };
      },
    }),
    listening: () => entries.size > 0,
    emit(build) {
      if (entries.size === 0) {
        return;
      }
      const event = Object.freeze(build());
      for (const entry of [...entries]) {
        try {
          const result = entry.listener(event);
          // An async listener's rejection would otherwise surface as an unhandled rejection.
          if (typeof result === 'object' && result !== null && 'then' in result) {
            Promise.resolve(result).catch(ignore);
          }
        } catch {
          // An observer never changes the outcome of a call.
        }
      }
    },
  };
}

/**
The public-safe form of anything a call threw: a client error's own `toJSON()`; for anything else only that it
was unexpected, since its message could hold anything.

@example
```ts
errorJson(new CapabilityError('streaming')); // { name: 'CapabilityError', kind: 'capability', reason: 'streaming', dispatched: false }
```
*/
export function errorJson(error: unknown): Readonly<Record<string, unknown>> {
  return isClientError(error) ? error.toJSON() : { name: 'Error', kind: 'unexpected' };
}

/** The union member a stream event carries. */
export function streamEventKind(event: StreamResponse): StreamEventKind {
  if ('task' in event) {
    return 'task';
  }
  if ('message' in event) {
    return 'message';
  }
  return 'statusUpdate' in event ? 'statusUpdate' : 'artifactUpdate';
}
