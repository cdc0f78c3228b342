import { InvalidResponseError, TransportError } from '../errors.js';
import type { Limits } from '../limits.js';

/** The bounds the decoder enforces, all in bytes except the event count and the idle time. */
export type SseLimits = Pick<
  Limits,
  'sseLineBytes' | 'sseEventBytes' | 'sseTotalBytes' | 'sseEvents' | 'streamIdleTimeoutMs'
>;

/** Options of {@link decodeSse}. */
export type SseOptions = {
  /** Usually `resolveLimits(...)`; only the SSE bounds and the idle timeout are read. */
  readonly limits: SseLimits;
  /** Aborting it ends the iteration with `TransportError('aborted')` and cancels the source. */
  readonly signal?: AbortSignal;
};

/** One dispatched event (WHATWG HTML, "Interpreting an event stream"). */
export type SseEvent = {
  /** The event type; absent when the event type buffer is empty (a browser would call it `message`). */
  readonly event?: string;
  /** The `data` lines of the event joined with `\n`. */
  readonly data: string;
  /** The last event ID in effect: it persists across events until an `id` field changes it, and is absent while empty. */
  readonly id?: string;
  /** The last valid `retry` value in milliseconds; like `id`, it persists across events. */
  readonly retry?: number;
  /**
  The bytes consumed from the stream since the previous dispatched event up to the terminator of this event's blank line: BOM, comments, ignored fields and blank lines that dispatched nothing included, so that a frame inspector can show sizes. An event dispatches at the CR of a CRLF without waiting for the next byte, so that LF counts towards the next event; the sizes never depend on how the stream was chunked.
  */
  readonly wireBytes: number;
};

/** The rule a refused stream broke, found in `InvalidResponseError('sse').violation.rule`. */
export type SseRule =
  | 'invalid-utf8'
  | 'nul'
  | 'line-too-long'
  | 'event-too-large'
  | 'stream-too-large'
  | 'too-many-events';

/**
The push side of {@link decodeSse}, without I/O or timers. `push` calls `onEvent` for each event the chunk completes, in order, and throws `InvalidResponseError('sse')` at the first violation (after the events that precede it). Violation offsets are stream byte offsets: the NUL byte itself for `nul`; the start of the line for `line-too-long`, `event-too-large` and `invalid-utf8` (for `data`, the event's first data line: data is validated once per event); the start of the dispatching blank line for `too-many-events`; `sseTotalBytes` for `stream-too-large`. After a violation every `push` throws it again.
*/
export type SseDecoder = {
  push(chunk: Uint8Array, onEvent: (event: SseEvent) => void): void;
  /** Capacity of the decoder's own buffers, never more than `sseLineBytes + sseEventBytes`. */
  readonly retainedBytes: number;
};

const LF = 10;
const CR = 13;
const SPACE = 32;
const COLON = 58;
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);
const noWords = new Int32Array(0);

/**
Creates a push decoder; {@link decodeSse} wraps it around a stream.

@example
```ts
const decoder = createSseDecoder(resolveLimits());
decoder.push(new TextEncoder().encode('data: hi\n\n'), (event) => console.log(event.data));
```
*/
export function createSseDecoder(limits: SseLimits): SseDecoder {
  return new Decoder(limits);
}

class Decoder implements SseDecoder {
  private readonly limits: SseLimits;
  // ignoreBOM keeps a U+FEFF inside a field value: WHATWG strips one BOM at the start of the stream only.
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private onEvent: (event: SseEvent) => void = () => undefined;
  private failure: InvalidResponseError | undefined;
  private consumed = 0;
  private bomMatched = 0;
  private bomDone = false;
  private afterCr = false;
  // The partial line carried over from earlier chunks; at most sseLineBytes.
  private lineBuf: Uint8Array = new Uint8Array(0);
  private lineLen = 0;
  private lineOffset = 0;
  private lineNul = -1;
  // The joined data of the current event; at most sseEventBytes. The first data line is only referenced where it lies
  // (pendingSrc: the current chunk or lineBuf), and copied once that place is about to be reused before the dispatch.
  private dataBuf: Uint8Array = new Uint8Array(0);
  private dataLen = 0;
  private dataLines = 0;
  private dataOffset = 0;
  private pendingSrc: Uint8Array | undefined;
  private pendingStart = 0;
  private eventType = '';
  private lastId = '';
  private retry: number | undefined;
  private wireStart = 0;
  private dispatched = 0;

  constructor(limits: SseLimits) {
    this.limits = limits;
    // A no-op streaming call: on Node it moves this decoder for good from the one-shot path to ICU's converter, about
    // 1.7 times faster for non-ASCII text. Every later call is a complete decode that refuses a truncated sequence.
    this.utf8.decode(new Uint8Array(0), { stream: true });
  }

  get retainedBytes(): number {
    return this.lineBuf.length + this.dataBuf.length;
  }

  push(chunk: Uint8Array, onEvent: (event: SseEvent) => void): void {
    if (this.failure !== undefined) {
      throw this.failure;
    }
    this.onEvent = onEvent;
    try {
      this.consume(chunk);
    } catch (error) {
      this.pendingSrc = undefined;
      if (error instanceof InvalidResponseError) {
        this.failure = error;
      }
      throw error;
    }
  }

  private consume(chunk: Uint8Array): void {
    const base = this.consumed;
    const room = this.limits.sseTotalBytes - base;
    const bytes = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.consumed += bytes.length;
    if (this.bomDone) {
      this.scan(bytes, base, 0);
    } else {
      this.skipBom(bytes, base);
    }
    if (bytes !== chunk) {
      throw violation('stream-too-large', this.limits.sseTotalBytes);
    }
  }

  // WHATWG: one UTF-8 BOM at the very start of the stream is dropped, even when it arrives split across chunks.
  private skipBom(bytes: Uint8Array, base: number): void {
    let i = 0;
    while (i < bytes.length && this.bomMatched < 3 && bytes[i] === BOM[this.bomMatched]) {
      i++;
      this.bomMatched++;
    }
    if (this.bomMatched === 3) {
      this.bomDone = true;
      this.scan(bytes, base, i);
    } else if (i < bytes.length) {
      this.bomDone = true;
      const held = this.bomMatched - i;
      if (held > 0) {
        this.scan(BOM.subarray(0, held), base - held, 0);
      }
      this.scan(bytes, base, 0);
    }
  }

  private scan(b: Uint8Array, base: number, from: number): void {
    const n = b.length;
    let pos = from;
    if (pos >= n) {
      return;
    }
    if (this.afterCr) {
      this.afterCr = false;
      if (b[pos] === LF) {
        pos++;
      }
    }
    // A word-at-a-time view finds NUL, CR and LF in one pass: three Uint8Array#indexOf scans cost more than the decoding.
    const head = (4 - (b.byteOffset & 3)) & 3;
    const count = n > head ? (n - head) >> 2 : 0;
    const words = count > 0 ? new Int32Array(b.buffer, b.byteOffset + head, count) : noWords;
    let start = pos;
    let nul = -1;
    for (;;) {
      const j = pos < n ? findSpecial(b, words, head, pos) : n;
      if (j === n) {
        this.carry(b, start, n, base, nul);
        break;
      }
      if (b[j] === 0) {
        nul = nul < 0 ? base + j : nul;
        pos = j + 1;
        continue;
      }
      let next = j + 1;
      if (b[j] === CR) {
        if (next === n) {
          this.afterCr = true;
        } else if (b[next] === LF) {
          next++;
        }
      }
      this.line(b, start, j, base, nul);
      nul = -1;
      start = next;
      pos = next;
    }
    if (this.pendingSrc === b) {
      this.materialize();
    }
  }

  // Keeps the bytes of an unterminated line for the next chunk, refusing it as soon as it outgrows the bound.
  private carry(b: Uint8Array, start: number, end: number, base: number, nul: number): void {
    if (this.lineLen === 0) {
      if (start === end) {
        return;
      }
      if (this.pendingSrc === this.lineBuf) {
        this.materialize();
      }
      this.lineOffset = base + start;
      this.lineNul = -1;
    }
    const length = this.lineLen + end - start;
    if (length > this.limits.sseLineBytes) {
      throw violation('line-too-long', this.lineOffset);
    }
    if (length > this.lineBuf.length) {
      this.lineBuf = grow(this.lineBuf, this.lineLen, length, this.limits.sseLineBytes);
    }
    this.lineBuf.set(b.subarray(start, end), this.lineLen);
    this.lineLen = length;
    this.lineNul = this.lineNul < 0 ? nul : this.lineNul;
  }

  private line(b: Uint8Array, start: number, end: number, base: number, nul: number): void {
    if (start === end && this.lineLen === 0) {
      this.dispatch(base + start, base + end + 1);
      return;
    }
    let src = b;
    let offset = base + start;
    if (this.lineLen > 0) {
      this.carry(b, start, end, base, nul);
      src = this.lineBuf;
      start = 0;
      end = this.lineLen;
      offset = this.lineOffset;
      nul = this.lineNul;
      this.lineLen = 0;
    } else if (end - start > this.limits.sseLineBytes) {
      throw violation('line-too-long', offset);
    }
    if (src[start] === COLON) {
      return;
    }
    let colon = start;
    while (colon < end && src[colon] !== COLON) {
      colon++;
    }
    let value = colon < end ? colon + 1 : end;
    if (value < end && src[value] === SPACE) {
      value++;
    }
    const name = fieldName(src, start, colon);
    if (name === 'id' && nul >= 0) {
      return; // WHATWG: an id containing NUL is ignored.
    }
    if (nul >= 0) {
      throw violation('nul', nul);
    }
    if (name === 'data') {
      this.addData(src, value, end, offset);
    } else if (name === 'event') {
      this.eventType = this.text(src, value, end, offset);
    } else if (name === 'id') {
      this.lastId = this.text(src, value, end, offset);
    } else if (name === 'retry') {
      const retry = parseDigits(src, value, end);
      if (retry === undefined) {
        this.text(src, value, end, offset);
      } else {
        this.retry = retry;
      }
    } else {
      this.text(src, start, end, offset); // Unknown fields are ignored, but must still be UTF-8.
    }
  }

  private addData(src: Uint8Array, start: number, end: number, offset: number): void {
    const length = this.dataLines === 0 ? end - start : this.dataLen + 1 + end - start;
    if (length > this.limits.sseEventBytes) {
      throw violation('event-too-large', offset);
    }
    if (this.dataLines === 0) {
      this.dataOffset = offset;
      this.pendingSrc = src;
      this.pendingStart = start;
      this.dataLen = length;
      this.dataLines = 1;
      return;
    }
    this.materialize();
    if (length > this.dataBuf.length) {
      this.dataBuf = grow(this.dataBuf, this.dataLen, length, this.limits.sseEventBytes);
    }
    this.dataBuf[this.dataLen] = LF;
    this.dataBuf.set(src.subarray(start, end), this.dataLen + 1);
    this.dataLen = length;
    this.dataLines++;
  }

  private materialize(): void {
    const src = this.pendingSrc;
    if (src === undefined) {
      return;
    }
    this.pendingSrc = undefined;
    if (this.dataLen > this.dataBuf.length) {
      this.dataBuf = grow(this.dataBuf, 0, this.dataLen, this.limits.sseEventBytes);
    }
    this.dataBuf.set(src.subarray(this.pendingStart, this.pendingStart + this.dataLen));
  }

  // `blankOffset` is where the blank line starts; `end` is just past the first byte of its terminator.
  private dispatch(blankOffset: number, end: number): void {
    if (this.dataLines === 0) {
      this.eventType = ''; // WHATWG: a blank line with an empty data buffer only resets the event type.
      return;
    }
    if (this.dispatched === this.limits.sseEvents) {
      throw violation('too-many-events', blankOffset);
    }
    const src = this.pendingSrc ?? this.dataBuf;
    const start = this.pendingSrc === undefined ? 0 : this.pendingStart;
    const data = this.text(src, start, start + this.dataLen, this.dataOffset);
    const event: { -readonly [K in keyof SseEvent]: SseEvent[K] } = { data, wireBytes: end - this.wireStart };
    if (this.eventType !== '') {
      event.event = this.eventType;
    }
    if (this.lastId !== '') {
      event.id = this.lastId;
    }
    if (this.retry !== undefined) {
      event.retry = this.retry;
    }
    this.pendingSrc = undefined;
    this.dataLen = 0;
    this.dataLines = 0;
    this.eventType = '';
    this.wireStart = end;
    this.dispatched++;
    this.onEvent(event);
  }

  private text(src: Uint8Array, start: number, end: number, offset: number): string {
    try {
      return this.utf8.decode(src.subarray(start, end));
    } catch {
      throw violation('invalid-utf8', offset);
    }
  }
}

/**
Decodes a `text/event-stream` body into events, byte by byte, within every SSE bound of `limits` (WHATWG HTML, "Interpreting an event stream"; A2A spec, §9.4.2 and §11.7: each JSON-RPC or HTTP+JSON stream response is the `data` of one event). LF, CR and CRLF end lines; comments and unknown fields are ignored; an unterminated event at the end of the stream is discarded. The first error ends the iteration: `InvalidResponseError('sse')` with a {@link SseRule} for a malformed or oversized stream, `TransportError` `idle` when a read waits longer than `streamIdleTimeoutMs`, `read` when the source fails, `aborted` when `signal` aborts; all with `dispatched: true`. The source is always cancelled (a reader released, an iterator returned) when the iteration ends, also when the consumer stops early.

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
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk === undefined) {
        return; // WHATWG: an event without its blank line at the end of the stream is discarded.
      }
      let failure: unknown;
      try {
        decoder.push(chunk, collect);
      } catch (error) {
        failure = error;
      }
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
Reads one chunk at a time, each read bounded by the idle time (durable-client digest §5.4: every chunk, a keep-alive comment too, restarts the clock) and by the caller's signal. Handlers are made once per stream, the abort listener is added once and the timer re-armed in place where the platform allows: a read costs one promise.
*/
class ChunkReader {
  private readonly next: () => Promise<IteratorResult<Uint8Array, unknown>>;
  private readonly cancel: () => void;
  private readonly release: () => void;
  private readonly idleMs: number;
  private readonly signal: AbortSignal | undefined;
  private ended = false;
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
    this.fail(new TransportError('read', { dispatched: true, cause }));
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

  read(): Promise<Uint8Array | undefined> {
    if (this.signal?.aborted) {
      return Promise.reject(aborted(this.signal));
    }
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

  // True for the first outcome of the pending read; later ones (a chunk after the idle timeout) are dropped. The timer
  // stays armed until the next read re-arms it: firing while no read is pending does nothing.
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

function violation(rule: SseRule, offset: number): InvalidResponseError {
  // Every SSE failure happens after the request left: the response headers already arrived.
  return new InvalidResponseError('sse', { dispatched: true, violation: { rule, offset } });
}

function grow(buffer: Uint8Array, used: number, needed: number, limit: number): Uint8Array {
  const next = new Uint8Array(Math.min(limit, Math.max(needed, buffer.length * 2, 1024)));
  next.set(buffer.subarray(0, used));
  return next;
}

// The index of the first NUL, LF or CR in b at or after `from`, or b.length. `words` views b from index `head` on.
function findSpecial(b: Uint8Array, words: Int32Array, head: number, from: number): number {
  const n = b.length;
  let i = from;
  const aligned = i <= head ? head : head + (((i - head + 3) >> 2) << 2);
  for (const stop = Math.min(aligned, n); i < stop; i++) {
    const c = b[i];
    if (c === 0 || c === LF || c === CR) {
      return i;
    }
  }
  if (i === n) {
    return n;
  }
  const wordCount = words.length;
  const wordEnd = head + (wordCount << 2);
  // (x - 0x0e0e0e0e) & ~x & 0x80808080 is non-zero when some byte of x is below 14 (exact for any bound up to 128):
  // NUL, LF and CR are among them. Four words per step; a hit is resolved byte by byte (a TAB is a false alarm).
  for (let w = (i - head) >> 2; w < wordCount; w += 4) {
    for (const last = wordCount - 3; w < last; w += 4) {
      const x0 = words[w] as number;
      const x1 = words[w + 1] as number;
      const x2 = words[w + 2] as number;
      const x3 = words[w + 3] as number;
      const hit =
        ((x0 - 0x0e0e0e0e) & ~x0) |
        ((x1 - 0x0e0e0e0e) & ~x1) |
        ((x2 - 0x0e0e0e0e) & ~x2) |
        ((x3 - 0x0e0e0e0e) & ~x3);
      if ((hit & 0x80808080) !== 0) {
        break;
      }
    }
    const at = head + (w << 2);
    for (let k = at, stop = Math.min(at + 16, wordEnd); k < stop; k++) {
      const c = b[k];
      if (c === 0 || c === LF || c === CR) {
        return k;
      }
    }
  }
  for (i = Math.max(i, wordEnd); i < n; i++) {
    const c = b[i];
    if (c === 0 || c === LF || c === CR) {
      return i;
    }
  }
  return n;
}

function fieldName(
  src: Uint8Array,
  start: number,
  end: number,
): 'data' | 'event' | 'id' | 'retry' | undefined {
  const length = end - start;
  if (
    length === 4 &&
    src[start] === 100 &&
    src[start + 1] === 97 &&
    src[start + 2] === 116 &&
    src[start + 3] === 97
  ) {
    return 'data';
  }
  if (length === 2 && src[start] === 105 && src[start + 1] === 100) {
    return 'id';
  }
  if (length === 5) {
    const word = String.fromCharCode(...src.subarray(start, end));
    return word === 'event' || word === 'retry' ? word : undefined;
  }
  return undefined;
}

// WHATWG: a retry value of ASCII digits only sets the reconnection time; anything else is ignored.
function parseDigits(src: Uint8Array, start: number, end: number): number | undefined {
  if (start === end) {
    return undefined;
  }
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = (src[i] as number) - 48;
    if (digit < 0 || digit > 9) {
      return undefined;
    }
    value = value * 10 + digit;
  }
  return Number.isSafeInteger(value) ? value : undefined;
}
