import type { Limits } from '../core/limits.js';
import { asciiText, cachedKey } from '../core/utf8.js';
import { isPlainKey, maskedKey, maxNamedKeyLength } from '../core/violation-path.js';
import { JsonError, type JsonRule } from './json-error.js';
import { longNumber } from './json-number.js';

/** Whether a key is public vocabulary that an error path may name (docs/protocol-checks.md#bounded-json). */
export type KnownKey = (key: string) => boolean;

/** The bounds a document is held to (docs/protocol-checks.md#bounded-json), from `jsonLimitsFrom`. */
export type JsonLimits = Pick<
  Limits,
  'jsonDepth' | 'jsonEntries' | 'jsonValues' | 'jsonStringBytes' | 'jsonKeyBytes'
> & {
  /** The whole document, in UTF-8 bytes. */
  readonly maxBytes: number;
};

const noKnownKeys: KnownKey = () => false;

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const ARRAY = 0;
const OBJECT = 1;
// Integers of at most 15 digits are below 2^53, so only longer ones need their value computed.
const safeDigits = 15;
// The largest double is about 1.8 × 10^308: 309 integer digits.
const maxFiniteDigits = 309;
// Objects up to this size are checked for duplicates by a linear search, cheaper than a Set for the small
// objects that dominate A2A payloads.
const linearKeys = 16;
// A number this long becomes text as it is; a longer one is cut first to at most this many digits.
const shortNumber = 32;

// 1 for the bytes that end a run of plain string content: the quote, the backslash and the control characters
// RFC 8259 §7 forbids raw.
const stringStop = new Uint8Array(256);
for (let byte = 0; byte < 0x20; byte++) {
  stringStop[byte] = 1;
}
stringStop[QUOTE] = 1;
stringStop[BACKSLASH] = 1;

const hexValue = new Int8Array(256).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  hexValue['0123456789abcdef'.charCodeAt(digit)] = digit;
  hexValue['0123456789ABCDEF'.charCodeAt(digit)] = digit;
}

// RFC 8259 §7: the one-character escapes, each decoding to one byte.
const shortEscape = new Uint8Array(256);
for (const char of '"\\/bfnrt') {
  shortEscape[char.charCodeAt(0)] = 1;
}

// RFC 8259 §3: the three literal names, found by their first byte.
const literals: ReadonlyMap<number, Uint8Array> = new Map(
  ['true', 'false', 'null'].map((name) => [name.charCodeAt(0), encoder.encode(name)]),
);

/**
One validating pass over UTF-8 JSON: syntax, bounds, duplicate keys and number ranges, with no value built.
Containers are tracked on explicit per-level arrays rather than by recursion, so depth costs no call stack,
and the same arrays give the error path.
*/
export class Scanner {
  private readonly bytes: Uint8Array;
  private readonly limits: JsonLimits;
  // Plain arrays, grown as levels open: typed ones sized for `jsonDepth` cost four buffers outside the heap
  // per answer, more than scanning a small answer did, and a level's state is written as it opens, before it
  // is read.
  private readonly kinds: number[] = [];
  private readonly counts: number[] = [];
  // The byte range of each object level's current key, quotes included; -1 while the member has no key yet.
  private readonly keyStarts: number[] = [];
  private readonly keyEnds: number[] = [];
  private readonly keys: string[][] = [];
  private readonly keySets: (Set<string> | undefined)[] = [];
  // Set by `string()` and `key()`: the decoded UTF-8 length; by `key()`, whether it is plain ASCII, its hash.
  private decodedBytes = 0;
  private keyPlain = false;
  private keyHash = 0;
  private readonly words: Int32Array;
  private readonly wordBase: number;
  private readonly knownKey: KnownKey;

  constructor(bytes: Uint8Array, limits: JsonLimits, knownKey: KnownKey = noKnownKeys) {
    this.bytes = bytes;
    this.limits = limits;
    this.knownKey = knownKey;
    // Plain string content is skipped four bytes at a time through an aligned view of the same memory.
    const aligned = (bytes.byteOffset + 3) & ~3;
    const wordCount = (bytes.length - (aligned - bytes.byteOffset)) >> 2;
    this.wordBase = aligned - bytes.byteOffset;
    this.words = wordCount > 0 ? new Int32Array(bytes.buffer, aligned, wordCount) : new Int32Array(0);
  }

  run(): void {
    const bytes = this.bytes;
    const end = bytes.length;
    const { jsonDepth, jsonEntries, jsonValues, jsonStringBytes } = this.limits;
    const kinds = this.kinds;
    const counts = this.counts;
    let depth = 0;
    let values = 0;
    let index = this.whitespace(0);
    for (;;) {
      // A value starts at `index`.
      values++;
      if (values > jsonValues) {
        this.fail('values', index, depth);
      }
      const byte = bytes[index] ?? -1;
      if (byte === QUOTE) {
        const start = index;
        index = this.string(index, depth);
        if (this.decodedBytes > jsonStringBytes) {
          this.fail('string-length', start, depth);
        }
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (depth === jsonDepth) {
          this.fail('depth', index, depth);
        }
        depth++;
        const kind = byte === OPEN_OBJECT ? OBJECT : ARRAY;
        kinds[depth] = kind;
        counts[depth] = 0;
        this.keyStarts[depth] = -1;
        this.keySets[depth] = undefined;
        index = this.whitespace(index + 1);
        const next = bytes[index];
        if (next === (kind === OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          depth--;
          index++;
        } else {
          if (kind === OBJECT) {
            index = this.member(index, depth);
          } else {
            counts[depth] = 1;
          }
          continue;
        }
      } else if (byte === MINUS || (byte >= ZERO && byte <= NINE)) {
        index = this.number(index, depth);
      } else {
        index = this.literal(index, depth);
      }
      // After a value: close containers, or find the next element or member.
      for (;;) {
        index = this.whitespace(index);
        if (depth === 0) {
          if (index !== end) {
            this.fail('trailing-data', index, 0);
          }
          return;
        }
        const next = bytes[index];
        const kind = kinds[depth];
        if (next === COMMA) {
          index = this.whitespace(index + 1);
          if (kind === OBJECT) {
            index = this.member(index, depth);
          } else {
            const count = (counts[depth] ?? 0) + 1;
            counts[depth] = count;
            if (count > jsonEntries) {
              this.fail('entries', index, depth - 1);
            }
          }
          break;
        }
        if (next !== (kind === OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          this.fail('syntax', index, depth);
        }
        depth--;
        index++;
      }
    }
  }

  private whitespace(index: number): number {
    const bytes = this.bytes;
    for (;;) {
      const byte = bytes[index];
      // RFC 8259 §2: space, tab, line feed and carriage return, nothing else.
      if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) {
        index++;
      } else {
        return index;
      }
    }
  }

  /** One `"key": ` of the object at `depth`; returns where its value starts. */
  private member(index: number, depth: number): number {
    const counts = this.counts;
    this.keyStarts[depth] = -1;
    if (this.bytes[index] !== QUOTE) {
      this.fail('syntax', index, depth);
    }
    const count = (counts[depth] ?? 0) + 1;
    counts[depth] = count;
    if (count > this.limits.jsonEntries) {
      this.fail('entries', index, depth - 1);
    }
    const keyEnd = this.key(index, depth);
    this.keyStarts[depth] = index;
    this.keyEnds[depth] = keyEnd;
    if (this.decodedBytes > this.limits.jsonKeyBytes) {
      this.fail('key-length', index, depth);
    }
    // Built only once its length is known to be within bounds.
    const key = this.keyPlain
      ? cachedKey(this.bytes, index + 1, keyEnd - 1, this.keyHash)
      : decodeString(this.bytes, index, keyEnd);
    let list = this.keys[depth];
    if (list === undefined) {
      list = [];
      this.keys[depth] = list;
    }
    if (count <= linearKeys) {
      for (let other = 0; other < count - 1; other++) {
        if (list[other] === key) {
          this.fail('duplicate-key', index, depth);
        }
      }
      list[count - 1] = key;
    } else {
      let set = this.keySets[depth];
      if (set === undefined) {
        set = new Set(list.slice(0, linearKeys));
        this.keySets[depth] = set;
      }
      if (set.has(key)) {
        this.fail('duplicate-key', index, depth);
      }
      set.add(key);
    }
    const colon = this.whitespace(keyEnd);
    if (this.bytes[colon] !== COLON) {
      this.fail('syntax', colon, depth);
    }
    return this.whitespace(colon + 1);
  }

  /** Validates the key whose quote is at `index` and sets `decodedBytes`, `keyHash`, `keyPlain`. */
  private key(index: number, depth: number): number {
    const bytes = this.bytes;
    const end = bytes.length;
    const start = index + 1;
    let hash = 0;
    // Keys are short and plain ASCII: this loop hashes them for the key cache, and leaves escapes and other
    // scripts to the general path.
    for (let at = start; at < end; at++) {
      const byte = bytes[at] ?? 0;
      if (byte === QUOTE) {
        this.keyHash = hash;
        this.keyPlain = true;
        this.decodedBytes = at - start;
        return at + 1;
      }
      if (byte < 0x20 || byte === BACKSLASH || byte >= 0x80) {
        break;
      }
      hash = (Math.imul(hash, 31) + byte) | 0;
    }
    this.keyPlain = false;
    return this.string(index, depth);
  }

  /** Validates the string whose quote is at `index` and sets `decodedBytes`; returns the index after it. */
  private string(index: number, depth: number): number {
    const bytes = this.bytes;
    const end = bytes.length;
    let at = index + 1;
    // Decoded length = raw length + what the escapes change.
    let shrink = 0;
    const words = this.words;
    const wordBase = this.wordBase;
    const wordCount = words.length;
    for (;;) {
      let byte = -1;
      while (at < end) {
        byte = bytes[at] ?? -1;
        if (stringStop[byte] === 1) {
          break;
        }
        at++;
        if (((at - wordBase) & 3) === 0) {
          let word = (at - wordBase) >> 2;
          while (word < wordCount) {
            const w = words[word] ?? 0;
            const quote = w ^ 0x22222222;
            const backslash = w ^ 0x5c5c5c5c;
            if (
              (((w - 0x20202020) & ~w) |
                ((quote - 0x01010101) & ~quote) |
                ((backslash - 0x01010101) & ~backslash)) &
              0x80808080
            ) {
              break;
            }
            word++;
          }
          at = wordBase + (word << 2);
        }
      }
      if (at >= end) {
        this.fail('syntax', end, depth);
      }
      if (byte === QUOTE) {
        this.decodedBytes = at - index - 1 - shrink;
        return at + 1;
      }
      if (byte !== BACKSLASH) {
        this.fail('syntax', at, depth);
      }
      const escaped = bytes[at + 1] ?? -1;
      if (shortEscape[escaped] === 1) {
        at += 2;
        shrink += 1;
        continue;
      }
      if (escaped !== 0x75) {
        this.fail('syntax', Math.min(at + 1, end), depth);
      }
      const unit = this.hex4(at + 2, depth);
      if (unit >= 0xdc00 && unit <= 0xdfff) {
        this.fail('lone-surrogate', at, depth);
      }
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const paired =
          bytes[at + 6] === BACKSLASH && bytes[at + 7] === 0x75 && isLowSurrogate(this.hex4(at + 8, depth));
        if (!paired) {
          this.fail('lone-surrogate', at, depth);
        }
        // Twelve escape bytes decode to one four-byte character.
        at += 12;
        shrink += 8;
        continue;
      }
      at += 6;
      shrink += 6 - (unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3);
    }
  }

  private hex4(index: number, depth: number): number {
    let unit = 0;
    for (let at = index; at < index + 4; at++) {
      const digit = hexValue[this.bytes[at] ?? 0] ?? -1;
      if (digit < 0) {
        this.fail('syntax', Math.min(at, this.bytes.length), depth);
      }
      unit = (unit << 4) | digit;
    }
    return unit;
  }

  /** Validates the number at `index` (RFC 8259 §6) and its range; returns the index after it. */
  private number(index: number, depth: number): number {
    const bytes = this.bytes;
    let at = bytes[index] === MINUS ? index + 1 : index;
    const digitsStart = at;
    let byte = bytes[at] ?? -1;
    if (byte === ZERO) {
      at++;
      byte = bytes[at] ?? -1;
      if (byte >= ZERO && byte <= NINE) {
        this.fail('syntax', at, depth);
      }
    } else if (byte >= ZERO + 1 && byte <= NINE) {
      at = this.digits(at);
    } else {
      this.fail('syntax', at, depth);
    }
    const integerDigits = at - digitsStart;
    let fraction = false;
    let exponent = false;
    if (bytes[at] === DOT) {
      at = this.requiredDigits(at + 1, depth);
      fraction = true;
    }
    byte = bytes[at] ?? -1;
    if (byte === 0x65 || byte === 0x45) {
      at++;
      byte = bytes[at] ?? -1;
      if (byte === PLUS || byte === MINUS) {
        at++;
      }
      at = this.requiredDigits(at, depth);
      exponent = true;
    }
    // Without an exponent, an integer part of more than 309 digits (no leading zero) is at least 10^309,
    // beyond the largest double: no need to read it twice.
    if (!exponent && integerDigits > maxFiniteDigits) {
      this.fail('non-finite', index, depth);
    }
    if (exponent || integerDigits > safeDigits) {
      const value =
        at - index <= shortNumber ? Number(asciiText(bytes, index, at)) : longNumber(bytes, index, at);
      if (!Number.isFinite(value)) {
        this.fail('non-finite', index, depth);
      }
      const integer = exponent ? Number.isInteger(value) : !fraction;
      if (integer && !Number.isSafeInteger(value)) {
        this.fail('unsafe-integer', index, depth);
      }
    }
    return at;
  }

  private digits(index: number): number {
    const bytes = this.bytes;
    let at = index;
    for (;;) {
      const byte = bytes[at] ?? -1;
      if (byte < ZERO || byte > NINE) {
        return at;
      }
      at++;
    }
  }

  private requiredDigits(index: number, depth: number): number {
    const at = this.digits(index);
    if (at === index) {
      this.fail('syntax', index, depth);
    }
    return at;
  }

  private literal(index: number, depth: number): number {
    const expected = literals.get(this.bytes[index] ?? -1);
    if (expected === undefined) {
      this.fail('syntax', index, depth);
    }
    for (let offset = 1; offset < expected.length; offset++) {
      if (this.bytes[index + offset] !== expected[offset]) {
        this.fail('syntax', Math.min(index + offset, this.bytes.length), depth);
      }
    }
    return index + expected.length;
  }

  /** The path of the value being read at `depth` levels of nesting. */
  private path(levels: number): string {
    let path = '$';
    for (let level = 1; level <= levels; level++) {
      if (this.kinds[level] === ARRAY) {
        path += `[${(this.counts[level] ?? 1) - 1}]`;
        continue;
      }
      const keyStart = this.keyStarts[level] ?? -1;
      if (keyStart >= 0) {
        // A key is the peer's text (it may echo a credential): named only when the caller knows it as its own
        // vocabulary.
        const keyEnd = this.keyEnds[level] ?? keyStart;
        // An identifier is ASCII, so at most six escaped bytes per character: a longer key is never decoded.
        const key =
          keyEnd - keyStart - 2 <= maxNamedKeyLength * 6 ? decodeString(this.bytes, keyStart, keyEnd) : '';
        path += isPlainKey(key) && this.knownKey(key) ? `.${key}` : maskedKey;
      }
    }
    return path;
  }

  private fail(rule: JsonRule, offset: number, levels: number): never {
    throw new JsonError(rule, offset, this.path(levels));
  }
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** The decoded text of a string token already validated by the scanner, quotes included in `[start, end)`. */
function decodeString(bytes: Uint8Array, start: number, end: number): string {
  return JSON.parse(fatalDecoder.decode(bytes.subarray(start, end))) as string;
}
