import { TransportError, transportCause } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import { createSseDecoder, type SseEvent, type SseLimits } from './sse-decoder.js';

// The push decoder and the types it shares with this stream reader have their own module; callers keep
// importing them from here.
export {
  createSseDecoder,
  type SseDecoder,
  type SseEvent,
  type SseLimits,
  type SseRule,
} from './sse-decoder.js';

/** Options of {@link decodeSse}. */
export type SseOptions = {
  /** Usually `resolveLimits(...)`; only the SSE bounds and the idle timeout are read. */
  readonly limits: SseLimits;
  /** Aborting it ends the iteration with `TransportError('aborted')` and cancels the source. */
  readonly signal?: AbortSignal;
};

/**
Decodes a `text/event-stream` body into events within every SSE bound of `limits` (WHATWG HTML, "Interpreting
an event stream"; A2A spec, §9.4.2 and §11.7: each JSON-RPC or HTTP+JSON stream response is the `data` of one
event). LF, CR and CRLF end lines; comments and unknown fields are ignored; an unterminated event at the end
of the stream is discarded. The first error ends the iteration: `InvalidResponseError('sse')` with a
{@link SseRule} for a malformed or oversized stream, `TransportError` `idle` when no event comes for longer
than `streamIdleTimeoutMs` (comments and the lines of an unfinished event do not count), `read` when the
source fails, `aborted` when `signal` aborts; all with `dispatched: true`. The source is always cancelled (a
reader released, an iterator returned) when the iteration ends, also when the consumer stops early.

@example
```ts
const response = await fetch(url, { method: 'POST', body, headers: { accept: 'text/event-stream' } });
for await (const event of decodeSse(response.body!, { limits: resolveLimits(), signal })) {
  handle(JSON.parse(event.data));
}
```
*/
export async function* decodeSse(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  options: SseOptions,
): AsyncGenerator<SseEvent, void, undefined> {
  const { limits, signal } = options;
  const decoder = createSseDecoder(limits);
  const events: SseEvent[] = [];
  const collect = (event: SseEvent): void => {
    events.push(event);
  };
  const reader = new ChunkReader(source, limits.streamIdleTimeoutMs, signal);
  let restart = true;
  try {
    for (;;) {
      const chunk = await reader.read(restart);
      if (chunk === undefined) {
        return; // WHATWG: an event without its blank line at the end of the stream is discarded.
      }
      let failure: unknown;
      try {
        decoder.push(chunk, collect);
      } catch (error) {
        failure = error;
      }
      // docs/protocol-checks.md#sse-decoding: the idle time is the wait between events, so only a chunk that
      // completed one restarts the clock.
      restart = events.length > 0;
      for (const event of events) {
        if (signal?.aborted) {
          throw aborted(signal);
        }
        yield event;
      }
      events.length = 0;
      if (failure !== undefined) {
        throw failure;
      }
    }
  } finally {
    reader.close();
  }
}

/**
Reads one chunk at a time, bounded by the idle time (docs/protocol-checks.md#sse-decoding: the clock restarts
with a read after an event, never after a comment or part of an event) and by the caller's signal. Handlers
are made once per stream, the abort listener is added once and the timer re-armed in place where the platform
allows: a read costs one promise.
*/
class ChunkReader {
  private readonly next: () => Promise<IteratorResult<Uint8Array, unknown>>;
  private readonly cancel: () => void;
  private readonly release: () => void;
  private readonly idleMs: number;
  private readonly signal: AbortSignal | undefined;
  private ended = false;
  private restart = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private resolve: ((chunk: Uint8Array | undefined) => void) | undefined;
  private reject: ((error: TransportError) => void) | undefined;
  private readonly start = (
    resolve: (chunk: Uint8Array | undefined) => void,
    reject: (error: unknown) => void,
  ) => {
    this.resolve = resolve;
    this.reject = reject;
    const timer: unknown = this.timer;
    // Unless `read` restarts it, the clock runs on from the last event: such a read follows a chunk that
    // completed no event within the same task, so the timer cannot have fired unseen in between.
    if (this.restart) {
      if (
        typeof timer === 'object' &&
        timer !== null &&
        'refresh' in timer &&
        typeof timer.refresh === 'function'
      ) {
        timer.refresh(); // Node's timers re-arm in place, saving a timer per read.
      } else {
        clearTimeout(this.timer);
        this.timer = setTimeout(this.onIdle, this.idleMs);
      }
    }
    this.next().then(this.onChunk, this.onError);
  };
  private readonly onChunk = (result: IteratorResult<Uint8Array, unknown>): void => {
    const resolve = this.resolve;
    if (this.settle() && resolve !== undefined) {
      this.ended = result.done === true;
      resolve(result.done === true ? undefined : result.value);
    }
  };
  private readonly onError = (cause: unknown): void => {
    const code = transportCause(cause);
    this.fail(new TransportError('read', { dispatched: true, ...optionalMembers({ cause: code }) }));
    this.ended = true;
  };
  private readonly onIdle = (): void => {
    this.fail(new TransportError('idle', { dispatched: true }));
  };
  private readonly onAbort = (): void => {
    this.fail(aborted(this.signal));
  };

  constructor(
    source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
    idleMs: number,
    signal?: AbortSignal,
  ) {
    this.idleMs = idleMs;
    this.signal = signal;
    if ('getReader' in source) {
      const reader = source.getReader();
      this.next = () => reader.read();
      // Not awaited: a source whose cancel never settles must not hold the consumer.
      this.cancel = () => reader.cancel().catch(ignore);
      this.release = () => reader.releaseLock();
    } else {
      const iterator = source[Symbol.asyncIterator]();
      this.next = () => iterator.next();
      this.cancel = () => {
        Promise.resolve()
          .then(() => iterator.return?.())
          .catch(ignore);
      };
      this.release = ignore;
    }
    signal?.addEventListener('abort', this.onAbort);
  }

  /**
  The next chunk; `restart` starts the idle clock again (the first read always does, the timer being unset).
  */
  read(restart: boolean): Promise<Uint8Array | undefined> {
    if (this.signal?.aborted) {
      return Promise.reject(aborted(this.signal));
    }
    this.restart = restart || this.timer === undefined;
    return new Promise(this.start);
  }

  /** Cancels the source unless it ended by itself, and leaves no timer or listener behind. */
  close(): void {
    this.settle();
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
    if (!this.ended) {
      this.ended = true;
      this.cancel();
    }
    this.release();
  }

  private fail(error: TransportError): void {
    const reject = this.reject;
    if (this.settle() && reject !== undefined) {
      reject(error);
    }
  }

  // True for the first outcome of the pending read; later ones (a chunk after the idle timeout) are dropped.
  // The timer stays armed until the next read re-arms it: firing while no read is pending does nothing.
  private settle(): boolean {
    if (this.resolve === undefined) {
      return false;
    }
    this.resolve = undefined;
    this.reject = undefined;
    return true;
  }
}

function aborted(signal: AbortSignal | undefined): TransportError {
  return new TransportError('aborted', { dispatched: true, cause: signal?.reason });
}

function ignore(): void {
  // A failed cancel changes nothing: the iteration has already ended.
}
