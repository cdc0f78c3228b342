import { InvalidResponseError } from '../../src/core/errors.js';
import type { SseDecoder, SseEvent, SseLimits, SseRule } from '../../src/wire/sse.js';
import { carriageReturn, fieldName, findSpecial, lineFeed, parseDigits } from './sse-oracle-lines.js';

const SPACE = 32;
const COLON = 58;
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);
const noWords = new Int32Array(0);

/**
Creates a push decoder; `decodeSse` wraps it around a stream.

@example
```ts
const decoder = createSseDecoder(resolveLimits());
decoder.push(new TextEncoder().encode('data: hi\n\n'), (event) => console.log(event.data));
```
*/
export function createOracleDecoder(limits: SseLimits): SseDecoder {
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
  // The joined data of the current event; at most sseEventBytes. The first data line is only referenced where
  // it lies (pendingSrc: the current chunk or lineBuf), and copied once that place is about to be reused
  // before the dispatch.
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
    // A no-op streaming call: on Node it moves this decoder for good from the one-shot path to ICU's
    // converter, about 1.7 times faster for non-ASCII text. Every later call is a complete decode that
    // refuses a truncated sequence.
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

  // WHATWG: one UTF-8 BOM at the very start of the stream is dropped, even when it arrives split across
  // chunks.
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
      if (b[pos] === lineFeed) {
        pos++;
      }
    }
    // A word-at-a-time view finds NUL, CR and LF in one pass: three Uint8Array#indexOf scans cost more than
    // the decoding.
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
      if (b[j] === carriageReturn) {
        if (next === n) {
          this.afterCr = true;
        } else if (b[next] === lineFeed) {
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
    this.dataBuf[this.dataLen] = lineFeed;
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

function violation(rule: SseRule, offset: number): InvalidResponseError {
  // Every SSE failure happens after the request left: the response headers already arrived.
  return new InvalidResponseError('sse', { dispatched: true, violation: { rule, offset } });
}

function grow(buffer: Uint8Array, used: number, needed: number, limit: number): Uint8Array {
  const next = new Uint8Array(Math.min(limit, Math.max(needed, buffer.length * 2, 1024)));
  next.set(buffer.subarray(0, used));
  return next;
}
