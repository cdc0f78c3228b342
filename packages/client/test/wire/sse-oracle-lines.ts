/**
@module
Line-level reading of an event stream (WHATWG HTML, "Interpreting an event stream"): where the next line ends,
which field a line names, and the value of a `retry` field.
*/

/** Line feed: ends a line, alone or after a CR. */
export const lineFeed = 10;
/** Carriage return: ends a line, alone or before an LF. */
export const carriageReturn = 13;

/**
The index of the first NUL, LF or CR in `b` at or after `from`, or `b.length`. `words` views `b` from index
`head` on.
*/
export function findSpecial(b: Uint8Array, words: Int32Array, head: number, from: number): number {
  const n = b.length;
  let i = from;
  const aligned = i <= head ? head : head + (((i - head + 3) >> 2) << 2);
  for (const stop = Math.min(aligned, n); i < stop; i++) {
    const c = b[i];
    if (c === 0 || c === lineFeed || c === carriageReturn) {
      return i;
    }
  }
  if (i === n) {
    return n;
  }
  const wordCount = words.length;
  const wordEnd = head + (wordCount << 2);
  // (x - 0x0e0e0e0e) & ~x & 0x80808080 is non-zero when some byte of x is below 14 (exact for any bound up to
  // 128): NUL, LF and CR are among them. Four words per step; a hit is resolved byte by byte (a TAB is a
  // false alarm).
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
      if (c === 0 || c === lineFeed || c === carriageReturn) {
        return k;
      }
    }
  }
  for (i = Math.max(i, wordEnd); i < n; i++) {
    const c = b[i];
    if (c === 0 || c === lineFeed || c === carriageReturn) {
      return i;
    }
  }
  return n;
}

/** The field a line names when it is one the decoder acts on; every other name is ignored. */
export function fieldName(
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
export function parseDigits(src: Uint8Array, start: number, end: number): number | undefined {
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
