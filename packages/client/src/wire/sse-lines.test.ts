import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextByte, nextNul, nextNulByWords, parseDigits, unfinishedTail } from './sse-lines.js';

function firstOf(b: Uint8Array, from: number, values: readonly number[]): number {
  for (let i = from; i < b.length; i++) {
    if (values.includes(b[i] as number)) {
      return i;
    }
  }
  return b.length;
}

// Mostly bytes a NUL scan must not stop at (a zero high byte of a word is the classic trap), some NULs, CRs
// and LFs.
const byte = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 255 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 10, 13, 1, 0x80, 0xff) },
);

const view = fc
  .tuple(fc.array(byte, { maxLength: 90 }), fc.nat(7), fc.nat(100))
  .map(([values, skip, from]) => {
    // A view at any alignment of its buffer, so that the word loop meets every head and tail length.
    const buffer = new Uint8Array(values.length + 8);
    buffer.set(values, skip % 8);
    const b = buffer.subarray(skip % 8, (skip % 8) + values.length);
    return { b, from: from % (values.length + 2) };
  });

describe('sse-lines', () => {
  it('finds the first NUL at or after `from`, four bytes at a time and natively', () => {
    fc.assert(
      fc.property(view, ({ b, from }) => {
        const expected = firstOf(b, from, [0]);
        expect(nextNulByWords(b, from)).toBe(expected);
        expect(nextNul(b, from)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('finds the first CR, or the first LF, at or after `from`', () => {
    fc.assert(
      fc.property(view, ({ b, from }) => {
        expect(nextByte(b, 10, from)).toBe(firstOf(b, from, [10]));
        expect(nextByte(b, 13, from)).toBe(firstOf(b, from, [13]));
      }),
      { numRuns: 1000 },
    );
  });

  it('counts exactly the bytes a streaming TextDecoder holds back at the end of a chunk', () => {
    const tails = fc.array(
      fc.oneof(
        fc.integer({ min: 0x80, max: 0xff }),
        fc.constantFrom(0x41, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0x9f, 0xa0, 0x8f, 0x90),
      ),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(tails, (values) => {
        const b = Uint8Array.from(values);
        const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
        decoder.decode(b, { stream: true });
        // Flushing replaces whatever was held back with exactly one U+FFFD; nothing held flushes to ''.
        const flushed = decoder.decode();
        expect(flushed).toBe(unfinishedTail(b) > 0 ? '\uFFFD' : '');
        if (unfinishedTail(b) > 0) {
          // And the held bytes are the unfinished sequence: the text before them decodes alone to the same
          // text.
          const before = b.subarray(0, b.length - unfinishedTail(b));
          const whole = new TextDecoder('utf-8', { ignoreBOM: true }).decode(b, { stream: true });
          expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(before)).toBe(whole);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a retry value of ASCII digits only', () => {
    expect(parseDigits('3000')).toBe(3000);
    expect(parseDigits('0')).toBe(0);
    expect(parseDigits('')).toBeUndefined();
    expect(parseDigits('12a')).toBeUndefined();
    expect(parseDigits(' 1')).toBeUndefined();
    expect(parseDigits('-1')).toBeUndefined();
    expect(parseDigits('１')).toBeUndefined(); // a fullwidth digit is not an ASCII one
    expect(parseDigits('9'.repeat(20))).toBeUndefined(); // beyond 2^53: not a safe reconnection time
  });
});
