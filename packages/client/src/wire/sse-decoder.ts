import { InvalidResponseError } from '../core/errors.js';
import type { Limits } from '../core/limits.js';
import { invalidUtf8Offset } from '../core/utf8.js';
import { carriageReturn, lineFeed, nextByte, nextNul, parseDigits, unfinishedTail } from './sse-lines.js';

/** The bounds the decoder enforces, all in bytes except the event count and the idle time. */
export type SseLimits = Pick<
  Limits,
  'sseLineBytes' | 'sseEventBytes' | 'sseTotalBytes' | 'sseEvents' | 'streamIdleTimeoutMs'
>;

/** One dispatched event (WHATWG HTML, "Interpreting an event stream"). */
export type SseEvent = {
  /** The event type; absent when the event type buffer is empty (a browser would call it `message`). */
  readonly event?: string;
  /** The `data` lines of the event joined with `\n`. */
  readonly data: string;
  /**
  The last event ID in effect: it persists across events until an `id` field changes it, and is absent while
  empty.
  */
  readonly id?: string;
  /** The last valid `retry` value in milliseconds; like `id`, it persists across events. */
  readonly retry?: number;
  /**
  The bytes consumed from the stream since the previous dispatched event up to the terminator of this event's
  blank line: BOM, comments, ignored fields and blank lines that dispatched nothing included, so that a frame
  inspector can show sizes. An event dispatches at the CR of a CRLF without waiting for the next byte, so that
  LF counts towards the next event; the sizes never depend on how the stream was chunked.
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
The push side of {@link decodeSse}, without I/O or timers. `push` calls `onEvent` for each event the chunk
completes, in order, and throws `InvalidResponseError('sse')` at the first violation (after the events that
precede it). Violation offsets are stream byte offsets: the NUL byte itself for `nul`; the start of the line
for `line-too-long`, `event-too-large` and `invalid-utf8` (for `data`, the event's first data line: data is
validated once per event); the start of the dispatching blank line for `too-many-events`; `sseTotalBytes` for
`stream-too-large`. After a violation every `push` throws it again.
*/
export type SseDecoder = {
  push(chunk: Uint8Array, onEvent: (event: SseEvent) => void): void;
  /**
  The stream bytes the decoder holds, as text: the unterminated line and the current event's data; never more
  than `sseLineBytes + sseEventBytes`.
  */
  readonly retainedBytes: number;
};

const SPACE = 32;
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);
const noBytes = new Uint8Array(0);

/**
Creates a push decoder; `decodeSse` wraps it around a stream.

@example
```ts
const decoder = createSseDecoder(resolveLimits());
decoder.push(new TextEncoder().encode('data: hi\n\n'), (event) => console.log(event.data));
```
*/
export function createSseDecoder(limits: SseLimits): SseDecoder {
  return new Decoder(limits);
}

/**
Each chunk is decoded once by a streaming `TextDecoder`, and lines are found in the text with native
`indexOf`: the platform's decode is the floor of any SSE decoder (ARCHITECTURE.md), and a byte scan in
JavaScript costs a fifth of it. The bounds and offsets stay in bytes: CR and LF are single bytes in UTF-8 and
never part of a longer sequence, and the decoder never swallows one into a replacement character, so the k-th
of them in the text is the k-th in the bytes; each is located in the bytes by a short scan over the bytes the
multi-byte characters before it add. NUL is looked for in the bytes (sse-lines.ts says why).
*/
class Decoder implements SseDecoder {
  private readonly limits: SseLimits;
  // Not fatal: a comment may hold any bytes (WHATWG decodes it as text and drops it). Every ill-formed
  // sequence becomes U+FFFD, so a part of a line whose text holds no U+FFFD is well-formed UTF-8, and one
  // that holds one has its bytes checked exactly. ignoreBOM keeps a U+FEFF inside a field value: WHATWG
  // strips one BOM at the start of the stream only.
  private readonly utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  // Decodes the chunks while every byte so far is well-formed, at the same speed: its text needs no search
  // for U+FFFD, one of the four passes over each chunk. The first ill-formed byte makes it throw; the
  // replacing decoder then takes over for good, given the bytes this one held back, so it decodes exactly
  // what it would have decoded all along.
  private wellFormed: TextDecoder | undefined = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });
  private onEvent: (event: SseEvent) => void = () => undefined;
  private failure: InvalidResponseError | undefined;
  private consumed = 0;
  private bomMatched = 0;
  private bomDone = false;
  private afterCr = false;
  // Bytes the text decoder held back at the end of the last chunk (an unfinished sequence, at most 3).
  private held: Uint8Array = noBytes;
  // The unterminated line carried over from earlier chunks: its text (the part in its first chunk, and the
  // rest), and its length in bytes (at most sseLineBytes).
  private lineText = '';
  private lineRest = '';
  private lineLen = 0;
  private lineOffset = 0;
  private lineNul = -1;
  private lineInvalid = false;
  // The joined data of the current event, and its length in bytes (at most sseEventBytes). Ill-formed UTF-8
  // in it is refused when the event dispatches: data is validated once per event.
  private data = '';
  private dataLen = 0;
  private dataLines = 0;
  private dataOffset = 0;
  private dataInvalid = false;
  private eventType = '';
  private lastId = '';
  private retry: number | undefined;
  private wireStart = 0;
  private dispatched = 0;

  constructor(limits: SseLimits) {
    this.limits = limits;
  }

  /** The stream bytes the decoder holds as text: the unterminated line and the current event's data. */
  get retainedBytes(): number {
    return this.lineLen + this.dataLen;
  }

  push(chunk: Uint8Array, onEvent: (event: SseEvent) => void): void {
    if (this.failure !== undefined) {
      throw this.failure;
    }
    this.onEvent = onEvent;
    try {
      this.consume(chunk);
    } catch (error) {
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

  // WHATWG: one UTF-8 BOM at the very start of the stream is dropped, even when split across chunks.
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
    if (from >= n) {
      return;
    }
    const own = from === 0 ? b : b.subarray(from);
    const heldIn = this.held;
    const text =
      this.wellFormed === undefined
        ? this.utf8.decode(own, { stream: true })
        : this.decodeWellFormed(this.wellFormed, own, heldIn);
    this.held = heldTail(heldIn, b, from);
    const length = text.length;
    // (mapByte, mapChar): the byte at mapByte starts no earlier than the character at mapChar, less `slack`
    // characters (the one character a sequence begun in the previous chunk can add); exact after every NUL,
    // CR or LF.
    let mapByte = from;
    let mapChar = 0;
    let slack = heldIn.length > 0 ? 1 : 0;
    if (this.afterCr) {
      this.afterCr = false;
      if (b[from] === lineFeed) {
        mapByte++;
        mapChar++;
      }
    }
    let lineByte = mapByte;
    let lineChar = mapChar;
    let lf = next(text, '\n', mapChar);
    let cr = next(text, '\r', mapChar);
    // A text the fatal decoder produced holds only well-formed U+FFFD, if any: nothing to check.
    let bad = this.wellFormed === undefined ? next(text, '\uFFFD', mapChar) : length;
    // NUL is looked for in the bytes: a line holds one when the next NUL comes before its end.
    let zero = nextNul(b, mapByte);
    for (;;) {
      const c = Math.min(lf, cr);
      if (c === length) {
        const invalid = bad < length && this.invalidPart(b, lineByte, n, from, heldIn, true);
        this.carry(text, lineChar, n - lineByte, base + lineByte, zero < n ? base + zero : -1, invalid);
        break;
      }
      const j = nextByte(b, c === lf ? lineFeed : carriageReturn, mapByte + Math.max(0, c - mapChar - slack));
      const nul = zero < j ? base + zero : -1;
      mapByte = j + 1;
      mapChar = c + 1;
      slack = 0;
      if (c === cr) {
        if (mapByte === n) {
          this.afterCr = true;
        } else if (b[mapByte] === lineFeed) {
          mapByte++;
          mapChar++;
        }
      }
      const invalid = bad < c && this.invalidPart(b, lineByte, j, from, heldIn, false);
      this.line(text, lineChar, c, j - lineByte, base + lineByte, base + j, nul, invalid);
      lineByte = mapByte;
      lineChar = mapChar;
      if (lf < mapChar) {
        lf = next(text, '\n', mapChar);
      }
      if (cr < mapChar) {
        cr = next(text, '\r', mapChar);
      }
      if (zero < mapByte) {
        zero = nextNul(b, mapByte);
      }
      if (bad < mapChar) {
        bad = next(text, '\uFFFD', mapChar);
      }
    }
  }

  // The chunk's text from the fatal decoder, or, at the first ill-formed byte, from the replacing one, which
  // is first given the bytes the fatal one held back from the previous chunk (a well-formed start of a
  // sequence).
  private decodeWellFormed(fatal: TextDecoder, own: Uint8Array, heldIn: Uint8Array): string {
    try {
      return fatal.decode(own, { stream: true });
    } catch {
      this.wellFormed = undefined;
      if (heldIn.length > 0) {
        this.utf8.decode(heldIn, { stream: true });
      }
      return this.utf8.decode(own, { stream: true });
    }
  }

  // Whether the part of a line in b[start, end) holds ill-formed UTF-8; runs only when its text holds a
  // U+FFFD, which may also be a well-formed one. The part that starts a chunk also owns the bytes held back
  // from the previous chunk, and the part that ends one leaves its unfinished sequence to the next.
  private invalidPart(
    b: Uint8Array,
    start: number,
    end: number,
    from: number,
    heldIn: Uint8Array,
    atEnd: boolean,
  ): boolean {
    const stop = atEnd ? end - this.held.length : end;
    const own = b.subarray(start, Math.max(start, stop));
    const bytes = start === from && heldIn.length > 0 ? join(heldIn, own) : own;
    return invalidUtf8Offset(bytes) < bytes.length;
  }

  // Keeps the unterminated line for the next chunk, refusing it as soon as it outgrows the bound.
  private carry(
    text: string,
    start: number,
    bytes: number,
    offset: number,
    nul: number,
    invalid: boolean,
  ): void {
    if (this.lineLen === 0) {
      if (bytes === 0) {
        return;
      }
      this.lineOffset = offset;
      this.lineNul = -1;
    }
    const length = this.lineLen + bytes;
    if (length > this.limits.sseLineBytes) {
      throw violation('line-too-long', this.lineOffset);
    }
    if (start < text.length) {
      if (this.lineLen === 0) {
        this.lineText = text.slice(start);
      } else {
        this.lineRest += text.slice(start);
      }
    }
    this.lineLen = length;
    this.lineNul = this.lineNul < 0 ? nul : this.lineNul;
    this.lineInvalid ||= invalid;
  }

  // One line: text[start, end) after the carried part, `bytes` long in this chunk, starting at stream offset
  // `offset` and ended by the byte at stream offset `terminator`.
  private line(
    text: string,
    start: number,
    end: number,
    bytes: number,
    offset: number,
    terminator: number,
    nul: number,
    invalid: boolean,
  ): void {
    if (bytes === 0 && this.lineLen === 0) {
      this.dispatch(offset, terminator + 1);
      return;
    }
    // `head` starts the line; `tail` is the rest of it when it spans chunks. They are joined only when the
    // colon is not in `head`: searching a joined string would first copy it whole.
    let head = text.slice(start, end);
    let tail = '';
    let length = bytes;
    if (this.lineLen > 0) {
      length += this.lineLen;
      offset = this.lineOffset;
      if (length > this.limits.sseLineBytes) {
        throw violation('line-too-long', offset);
      }
      tail = this.lineRest + head;
      head = this.lineText;
      nul = this.lineNul >= 0 ? this.lineNul : nul;
      invalid ||= this.lineInvalid;
      this.lineText = '';
      this.lineRest = '';
      this.lineLen = 0;
      this.lineInvalid = false;
    } else if (length > this.limits.sseLineBytes) {
      throw violation('line-too-long', offset);
    }
    let colon = head.indexOf(':');
    if (colon < 0 && tail !== '') {
      head += tail;
      tail = '';
      colon = head.indexOf(':');
    }
    if (colon === 0) {
      return; // a comment
    }
    if (colon < 0) {
      colon = head.length;
    }
    let value = colon < head.length ? colon + 1 : colon;
    if (value === head.length && value > colon && tail !== '') {
      head += tail;
      tail = '';
    }
    if (value < head.length && head.charCodeAt(value) === SPACE) {
      value++;
    }
    const line = head;
    const name = fieldName(line, colon);
    if (name === 'id' && nul >= 0) {
      return; // WHATWG: an id containing NUL is ignored.
    }
    if (nul >= 0) {
      throw violation('nul', nul);
    }
    if (name === 'data') {
      // The name, the colon and the space are ASCII: one byte per character.
      this.addData(
        tail === '' ? line.slice(value) : line.slice(value) + tail,
        length - value,
        offset,
        invalid,
      );
      return;
    }
    // Unknown fields are ignored, and a retry value that is not digits too, but must still be UTF-8.
    if (invalid) {
      throw violation('invalid-utf8', offset);
    }
    if (name === 'event') {
      this.eventType = line.slice(value) + tail;
    } else if (name === 'id') {
      this.lastId = line.slice(value) + tail;
    } else if (name === 'retry') {
      this.retry = parseDigits(line.slice(value) + tail) ?? this.retry;
    }
  }

  private addData(value: string, bytes: number, offset: number, invalid: boolean): void {
    const length = this.dataLines === 0 ? bytes : this.dataLen + 1 + bytes;
    if (length > this.limits.sseEventBytes) {
      throw violation('event-too-large', offset);
    }
    if (this.dataLines === 0) {
      this.dataOffset = offset;
      this.data = value;
    } else {
      this.data = `${this.data}\n${value}`;
    }
    this.dataLen = length;
    this.dataLines++;
    this.dataInvalid ||= invalid;
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
    if (this.dataInvalid) {
      throw violation('invalid-utf8', this.dataOffset);
    }
    const event: { -readonly [K in keyof SseEvent]: SseEvent[K] } = {
      data: this.data,
      wireBytes: end - this.wireStart,
    };
    if (this.eventType !== '') {
      event.event = this.eventType;
    }
    if (this.lastId !== '') {
      event.id = this.lastId;
    }
    if (this.retry !== undefined) {
      event.retry = this.retry;
    }
    this.data = '';
    this.dataLen = 0;
    this.dataLines = 0;
    this.eventType = '';
    this.wireStart = end;
    this.dispatched++;
    this.onEvent(event);
  }
}

/** The field a line names when it is one the decoder acts on; every other name is ignored. */
function fieldName(line: string, colon: number): 'data' | 'event' | 'id' | 'retry' | undefined {
  if (colon === 4) {
    return line.startsWith('data') ? 'data' : undefined;
  }
  if (colon === 2) {
    return line.startsWith('id') ? 'id' : undefined;
  }
  if (colon === 5) {
    return line.startsWith('event') ? 'event' : line.startsWith('retry') ? 'retry' : undefined;
  }
  return undefined;
}

// The index of the next `char` in `text` at or after `from`, or text.length.
function next(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at < 0 ? text.length : at;
}

// What the text decoder holds back after b[from, end), the held bytes included when a chunk is that short.
function heldTail(heldIn: Uint8Array, b: Uint8Array, from: number): Uint8Array {
  const own = from === 0 ? b : b.subarray(from);
  const tail = own.length >= 3 || heldIn.length === 0 ? own : join(heldIn, own);
  const count = unfinishedTail(tail);
  return count === 0 ? noBytes : tail.slice(tail.length - count);
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function violation(rule: SseRule, offset: number): InvalidResponseError {
  // Every SSE failure happens after the request left: the response headers already arrived.
  return new InvalidResponseError('sse', { dispatched: true, violation: { rule, offset } });
}
