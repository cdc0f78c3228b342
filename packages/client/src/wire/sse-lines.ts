/**
@module
Line-level reading of an event stream (WHATWG HTML, "Interpreting an event stream"): where a line end or a NUL
lies in the bytes, the value of a `retry` field, and how many bytes at the end of a chunk are an unfinished
UTF-8 sequence.
*/

/** NUL: refused in a field line, ignored in a comment, makes an `id` line ignored. */
export const nul = 0;
/** Line feed: ends a line, alone or after a CR. */
export const lineFeed = 10;
/** Carriage return: ends a line, alone or before an LF. */
export const carriageReturn = 13;

type IndexOf = (this: Uint8Array, value: number, from: number) => number;
// Node's Buffer#indexOf is memchr and accepts any Uint8Array. A NUL in decoded text is slow to find (V8
// compares each UTF-16 unit of a two-byte string in turn, where memchr would stop at every ASCII character's
// zero high byte), and a line end is looked for in the bytes only across the bytes multi-byte characters add,
// which memchr skips at once.
const nativeIndexOf = (globalThis as { Buffer?: { prototype: { indexOf: IndexOf } } }).Buffer?.prototype
  .indexOf;

/**
The index of the first `value` byte in `b` at or after `from`, or `b.length`: the native search of the
platform.
*/
export function nextByte(b: Uint8Array, value: number, from: number): number {
  const at = nativeIndexOf === undefined ? b.indexOf(value, from) : nativeIndexOf.call(b, value, from);
  return at < 0 ? b.length : at;
}

/** The index of the first NUL in `b` at or after `from`, or `b.length`. */
export function nextNul(b: Uint8Array, from: number): number {
  if (from >= b.length) {
    return b.length;
  }
  // Uint8Array#indexOf is a plain loop in V8, slower than four bytes at a time.
  return nativeIndexOf === undefined ? nextNulByWords(b, from) : nextByte(b, nul, from);
}

/** {@link nextNul} four bytes at a time, where the platform has no native byte search. */
export function nextNulByWords(b: Uint8Array, from: number): number {
  const n = b.length;
  let i = from;
  const head = (4 - ((b.byteOffset + i) & 3)) & 3;
  for (const stop = Math.min(i + head, n); i < stop; i++) {
    if (b[i] === nul) {
      return i;
    }
  }
  const count = (n - i) >> 2;
  if (count > 0) {
    const words = new Int32Array(b.buffer, b.byteOffset + i, count);
    // (x - 0x01010101) & ~x & 0x80808080 is non-zero exactly when some byte of x is zero; four words per
    // step.
    let w = 0;
    for (const last = count - 3; w < last; w += 4) {
      const x0 = words[w] as number;
      const x1 = words[w + 1] as number;
      const x2 = words[w + 2] as number;
      const x3 = words[w + 3] as number;
      const hit =
        ((x0 - 0x01010101) & ~x0) |
        ((x1 - 0x01010101) & ~x1) |
        ((x2 - 0x01010101) & ~x2) |
        ((x3 - 0x01010101) & ~x3);
      if ((hit & 0x80808080) !== 0) {
        break;
      }
    }
    i += w << 2;
  }
  for (; i < n; i++) {
    if (b[i] === nul) {
      return i;
    }
  }
  return n;
}

// WHATWG: a retry value of ASCII digits only sets the reconnection time; anything else is ignored.
export function parseDigits(text: string): number | undefined {
  if (text.length === 0) {
    return undefined;
  }
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) {
      return undefined;
    }
    value = value * 10 + digit;
  }
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
How many bytes at the end of `b` (at most 3) a streaming UTF-8 decoder holds back: the start of a sequence
that is well-formed so far but unfinished (WHATWG Encoding, UTF-8 decoder; RFC 3629 §4). A prefix that is
already ill-formed is not held: the decoder has replaced it.
*/
export function unfinishedTail(b: Uint8Array): number {
  const n = b.length;
  for (let k = 1; k <= 3 && k <= n; k++) {
    const byte = b[n - k] as number;
    if (byte < 0x80) {
      return 0;
    }
    if (byte < 0xc0) {
      continue; // a continuation byte: look further back for the lead
    }
    const needed =
      byte >= 0xc2 && byte <= 0xdf
        ? 2
        : byte >= 0xe0 && byte <= 0xef
          ? 3
          : byte >= 0xf0 && byte <= 0xf4
            ? 4
            : 0;
    if (needed <= k) {
      return 0; // finished, or no lead byte at all
    }
    if (k >= 2) {
      const second = b[n - k + 1] as number;
      const lower = byte === 0xe0 ? 0xa0 : byte === 0xf0 ? 0x90 : 0x80;
      const upper = byte === 0xed ? 0x9f : byte === 0xf4 ? 0x8f : 0xbf;
      if (second < lower || second > upper) {
        return 0;
      }
    }
    return k;
  }
  return 0;
}
