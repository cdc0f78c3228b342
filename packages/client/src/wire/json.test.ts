import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultLimits, resolveLimits } from '../core/limits.js';
import {
  JsonError,
  type JsonLimits,
  type JsonRule,
  jsonLimitsFrom,
  type KnownKey,
  parseJson,
} from './json.js';
import { longNumber } from './json-number.js';

const MiB = 1024 * 1024;
const encoder = new TextEncoder();
// The reference reading of bytes: strict UTF-8, and a byte order mark kept, so JSON.parse sees it as we do.
const referenceDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// Generous everywhere, so that each table row below breaks only the bound it is about.
const wide: JsonLimits = {
  jsonDepth: 64,
  jsonEntries: 1000,
  jsonValues: 10_000,
  jsonStringBytes: 10_000,
  jsonKeyBytes: 1000,
  maxBytes: 10_000,
};

type Refusal = { readonly rule: JsonRule; readonly offset: number; readonly path: string };

// The tables below name keys in their paths: as if every identifier were the caller's vocabulary.
const everyKey: KnownKey = () => true;

function refusal(input: Uint8Array | string, limits?: JsonLimits, knownKey: KnownKey = everyKey): JsonError {
  try {
    parseJson(input, limits, knownKey);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonError);
    return error as JsonError;
  }
  throw new Error('expected a JsonError, but the input was accepted');
}

function pointer(error: JsonError): Refusal {
  return { rule: error.rule, offset: error.offset, path: error.path };
}

/** Both forms of a text input: a string, and its UTF-8 bytes. Offsets are UTF-8 byte offsets in both. */
const forms = [
  ['string', (text: string): Uint8Array | string => text],
  ['bytes', (text: string): Uint8Array | string => encoder.encode(text)],
] as const;

describe('parseJson bounds, each at its limit and one past it', () => {
  it.each<[string, Partial<JsonLimits>, string, string, Refusal]>([
    [
      'depth of arrays',
      { jsonDepth: 3 },
      '[[[1]]]',
      '[[[[1]]]]',
      { rule: 'depth', offset: 3, path: '$[0][0][0]' },
    ],
    [
      'depth of objects',
      { jsonDepth: 3 },
      '{"a":{"b":{"c":1}}}',
      '{"a":{"b":{"c":{}}}}',
      { rule: 'depth', offset: 15, path: '$.a.b.c' },
    ],
    [
      'entries of an array',
      { jsonEntries: 3 },
      '[1,2,3]',
      '[1,2,3,4]',
      { rule: 'entries', offset: 7, path: '$' },
    ],
    [
      'entries of an object',
      { jsonEntries: 3 },
      '{"a":1,"b":2,"c":3}',
      '{"a":1,"b":2,"c":3,"d":4}',
      { rule: 'entries', offset: 19, path: '$' },
    ],
    [
      'entries of a nested array',
      { jsonEntries: 3 },
      '{"x":[1,2,3]}',
      '{"x":[1,2,3,4]}',
      { rule: 'entries', offset: 12, path: '$.x' },
    ],
    [
      'values in an array',
      { jsonValues: 10 },
      '[1,2,3,4,5,6,7,8,9]',
      '[1,2,3,4,5,6,7,8,9,0]',
      { rule: 'values', offset: 19, path: '$[9]' },
    ],
    [
      'values across members',
      { jsonValues: 10 },
      '{"a":[1,2,3],"b":[4,5,6,7]}',
      '{"a":[1,2,3],"b":[4,5,6,7],"c":8}',
      { rule: 'values', offset: 31, path: '$.c' },
    ],
    [
      'string bytes',
      { jsonStringBytes: 5 },
      '"abcde"',
      '"abcdef"',
      { rule: 'string-length', offset: 0, path: '$' },
    ],
    [
      'string bytes in UTF-8',
      { jsonStringBytes: 5 },
      '"aéé"',
      '"ééé"',
      { rule: 'string-length', offset: 0, path: '$' },
    ],
    [
      'string bytes after escapes',
      { jsonStringBytes: 5 },
      '"\\n\\n\\n\\n\\n"',
      '"\\u00e9\\u00e9\\u00e9"',
      { rule: 'string-length', offset: 0, path: '$' },
    ],
    [
      'string bytes of an escaped pair',
      { jsonStringBytes: 5 },
      '"\\ud83d\\ude00a"',
      '"\\ud83d\\ude00ab"',
      { rule: 'string-length', offset: 0, path: '$' },
    ],
    [
      'string bytes of a nested string',
      { jsonStringBytes: 5 },
      '{"k":["abcde"]}',
      '{"k":["abcde","abcdef"]}',
      { rule: 'string-length', offset: 14, path: '$.k[1]' },
    ],
    [
      'key bytes',
      { jsonKeyBytes: 3 },
      '{"abc":1}',
      '{"abcd":1}',
      { rule: 'key-length', offset: 1, path: '$.abcd' },
    ],
    [
      'key bytes after escapes',
      { jsonKeyBytes: 3 },
      '{"\\u00e9a":1}',
      '{"\\u00e9\\u00e9":1}',
      { rule: 'key-length', offset: 1, path: '$[*]' },
    ],
    [
      'document bytes',
      { maxBytes: 16 },
      `"${'a'.repeat(14)}"`,
      `"${'a'.repeat(15)}"`,
      { rule: 'too-large', offset: 16, path: '$' },
    ],
    [
      'document bytes in UTF-8',
      { maxBytes: 16 },
      `"${'é'.repeat(7)}"`,
      `"${'é'.repeat(8)}"`,
      { rule: 'too-large', offset: 16, path: '$' },
    ],
    [
      'non-finite numbers',
      { maxBytes: 1000 },
      `[1${'0'.repeat(308)}.5]`,
      `[1${'0'.repeat(309)}.5]`,
      { rule: 'non-finite', offset: 1, path: '$[0]' },
    ],
    ['non-finite exponents', {}, '[1e-400]', '[-1e400]', { rule: 'non-finite', offset: 1, path: '$[0]' }],
    [
      'safe integers',
      {},
      '9007199254740991',
      '9007199254740992',
      { rule: 'unsafe-integer', offset: 0, path: '$' },
    ],
    [
      'safe negative integers',
      {},
      '-9007199254740991',
      '-9007199254740992',
      { rule: 'unsafe-integer', offset: 0, path: '$' },
    ],
    [
      'integral exponents',
      {},
      '9.007199254740991e15',
      '9.007199254740992e15',
      { rule: 'unsafe-integer', offset: 0, path: '$' },
    ],
    [
      'integral negative exponents',
      {},
      '{"n":90071992547409910e-1}',
      '{"n":90071992547409920e-1}',
      { rule: 'unsafe-integer', offset: 5, path: '$.n' },
    ],
    ['large exponents', {}, '1.5e-300', '1.5e300', { rule: 'unsafe-integer', offset: 0, path: '$' }],
    [
      'duplicate keys',
      {},
      '{"a":1,"b":2}',
      '{"a":1,"a":2}',
      { rule: 'duplicate-key', offset: 7, path: '$.a' },
    ],
    [
      'duplicate keys after escapes',
      {},
      '{"a":1,"\\u0062":2}',
      '{"a":1,"\\u0061":2}',
      { rule: 'duplicate-key', offset: 7, path: '$.a' },
    ],
    [
      'duplicate keys in other scripts',
      {},
      '{"é":1,"\\u00e8":2}',
      '{"é":1,"\\u00e9":2}',
      { rule: 'duplicate-key', offset: 8, path: '$[*]' },
    ],
    [
      'duplicate keys in nested objects',
      {},
      '{"a":{"a":1},"b":[{"a":1},{"a":2}]}',
      '{"a":{"a":1},"b":[{"a":1},{"a":2,"a":3}]}',
      { rule: 'duplicate-key', offset: 33, path: '$.b[1].a' },
    ],
    [
      'duplicate __proto__ keys',
      {},
      '{"__proto__":1,"constructor":2}',
      '{"__proto__":1,"__proto__":2}',
      { rule: 'duplicate-key', offset: 15, path: '$.__proto__' },
    ],
    [
      'keys whose hashes collide',
      {},
      '{"Aa":1,"BB":2}',
      '{"Aa":1,"BB":2,"Aa":3}',
      { rule: 'duplicate-key', offset: 15, path: '$.Aa' },
    ],
    [
      'duplicate keys late in a large object',
      {},
      `{${keys(40)}}`,
      `{${keys(40)},"k33":1}`,
      { rule: 'duplicate-key', offset: keys(40).length + 2, path: '$.k33' },
    ],
    [
      'duplicate keys in a large object',
      {},
      `{${keys(40)}}`,
      `{${keys(40)},"k3":1}`,
      { rule: 'duplicate-key', offset: keys(40).length + 2, path: '$.k3' },
    ],
    [
      'escaped surrogate pairs',
      {},
      '"\\ud83d\\ude00"',
      '"\\ud83d"',
      { rule: 'lone-surrogate', offset: 1, path: '$' },
    ],
    ['lone low surrogates', {}, '"\\u0041"', '"\\ude00"', { rule: 'lone-surrogate', offset: 1, path: '$' }],
    [
      'high surrogates followed by another escape',
      {},
      '"\\ud83d\\ude00\\u0041"',
      '"\\ud83d\\u0041"',
      { rule: 'lone-surrogate', offset: 1, path: '$' },
    ],
    [
      'lone surrogates in keys',
      {},
      '["ok",{"\\ud83d\\ude00":1}]',
      '["ok",{"\\ud83d":1}]',
      { rule: 'lone-surrogate', offset: 8, path: '$[1]' },
    ],
    ['trailing whitespace', {}, '{} \n\t\r', '{} x', { rule: 'trailing-data', offset: 3, path: '$' }],
    ['a second value', {}, '1 ', '1 2', { rule: 'trailing-data', offset: 2, path: '$' }],
    ['a second container', {}, '[]', '[][]', { rule: 'trailing-data', offset: 2, path: '$' }],
    ['an extra bracket', {}, '{"a":[]}', '{"a":[]}}', { rule: 'trailing-data', offset: 8, path: '$' }],
  ])('%s', (_name, override, accepted, refused, expected) => {
    const limits = { ...wide, ...override };
    for (const [, form] of forms) {
      expect(parseJson(form(accepted), limits)).toStrictEqual(JSON.parse(accepted));
      expect(pointer(refusal(form(refused), limits))).toStrictEqual(expected);
    }
  });

  it.each(forms)('holds the 2 MiB default document ceiling for %s input', (_name, form) => {
    const padding = ' '.repeat(2 * MiB - 2);
    expect(parseJson(form(`${padding}[]`))).toStrictEqual([]);
    expect(pointer(refusal(form(`${padding} []`)))).toStrictEqual({
      rule: 'too-large',
      offset: 2 * MiB,
      path: '$',
    });
  });

  it('refuses a string input by its UTF-8 length, not its UTF-16 length', () => {
    const limits = { ...wide, maxBytes: 16 };
    const text = `"${'é'.repeat(8)}"`;
    expect(text.length).toBeLessThan(16);
    expect(refusal(text, limits).rule).toBe('too-large');
  });

  it('holds the default depth of 64', () => {
    expect(parseJson(`${'['.repeat(64)}${']'.repeat(64)}`)).toHaveLength(1);
    expect(pointer(refusal(`${'['.repeat(65)}${']'.repeat(65)}`))).toMatchObject({
      rule: 'depth',
      offset: 64,
    });
  });

  it('accepts a number with a fraction and no exponent as a non-integer, whatever its size', () => {
    expect(parseJson('9007199254740993.5')).toBe(Number('9007199254740993.5'));
  });

  it('refuses a raw lone surrogate in a string input', () => {
    expect(pointer(refusal('"\ud800"'))).toStrictEqual({ rule: 'lone-surrogate', offset: 1, path: '$' });
    expect(pointer(refusal('["é","a\udc00"]'))).toMatchObject({ rule: 'lone-surrogate', offset: 8 });
    expect(parseJson('["é","\ud83d\ude00"]')).toStrictEqual(['é', '😀']);
  });

  it('finds a raw lone surrogate in an engine without String.prototype.isWellFormed', () => {
    const original = Object.getOwnPropertyDescriptor(String.prototype, 'isWellFormed');
    Object.defineProperty(String.prototype, 'isWellFormed', { value: undefined, configurable: true });
    try {
      expect(pointer(refusal('["é","a\udc00"]'))).toMatchObject({ rule: 'lone-surrogate', offset: 8 });
      expect(parseJson('["é","\ud83d\ude00"]')).toStrictEqual(['é', '😀']);
    } finally {
      if (original !== undefined) {
        Object.defineProperty(String.prototype, 'isWellFormed', original);
      }
    }
  });
});

function keys(count: number): string {
  return Array.from({ length: count }, (_, index) => `"k${index}":${index}`).join(',');
}

describe('parseJson encoding', () => {
  it.each<[string, number[], number]>([
    ['a byte that never occurs in UTF-8', [0x22, 0xff, 0x22], 1],
    ['a lone continuation byte', [0x22, 0x80, 0x22], 1],
    ['a truncated sequence', [0x22, 0xc3, 0x22], 1],
    ['a truncated sequence at the end', [0x22, 0xe2, 0x82], 1],
    ['an overlong two-byte form', [0x22, 0xc0, 0x80, 0x22], 1],
    ['an overlong three-byte form', [0x22, 0xe0, 0x80, 0x80, 0x22], 1],
    ['an encoded surrogate', [0x22, 0xed, 0xa0, 0x80, 0x22], 1],
    ['a code point beyond U+10FFFF', [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22], 1],
    [
      'an invalid byte after valid multi-byte text',
      [0x22, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0x22],
      7,
    ],
    ['an invalid byte outside a string', [0x5b, 0x31, 0x2c, 0xfe, 0x5d], 3],
  ])('refuses %s as invalid-utf8', (_name, bytes, offset) => {
    expect(pointer(refusal(Uint8Array.from(bytes)))).toStrictEqual({
      rule: 'invalid-utf8',
      offset,
      path: '$',
    });
  });

  it('accepts every length of UTF-8 sequence', () => {
    const text = '["a","é","€","😀"]';
    expect(parseJson(encoder.encode(text))).toStrictEqual(['a', 'é', '€', '😀']);
  });

  it('refuses a byte order mark', () => {
    expect(pointer(refusal(Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])))).toStrictEqual({
      rule: 'syntax',
      offset: 0,
      path: '$',
    });
  });
});

describe('parseJson syntax', () => {
  it.each<[string, number]>([
    ['', 0],
    [' ', 1],
    ['{', 1],
    ['[', 1],
    ['{"a"', 4],
    ['{"a":', 5],
    ['{"a":1', 6],
    ['{"a":1,', 7],
    ['{a:1}', 1],
    ["{'a':1}", 1],
    ['{1:2}', 1],
    ['{"a"::1}', 5],
    ['{"a" 1}', 5],
    ['{"a":1 "b":2}', 7],
    ['{"a":1,}', 7],
    ['{"a":1 , }', 9],
    ['{,}', 1],
    ['[1,]', 3],
    ['[,1]', 1],
    ['[1 2]', 3],
    ['[-]', 2],
    ['[1e5.0]', 4],
    ['tru', 3],
    ['truE', 3],
    ['True', 0],
    ['nul', 3],
    ['NaN', 0],
    ['Infinity', 0],
    ['-Infinity', 1],
    ['+1', 0],
    ['.5', 0],
    ['01', 1],
    ['-01', 2],
    ['1.', 2],
    ['1.e5', 2],
    ['1e', 2],
    ['1e+', 3],
    ['"abc', 4],
    ['"\u0001"', 1],
    ['"\t"', 1],
    ['"a\nb"', 2],
    ['"\\x"', 2],
    ['"\\', 2],
    ['"\\u12"', 5],
    ['"\\u12', 5],
    ['"\\uZZZZ"', 3],
    ['\u000b1', 0],
    ['\u00a01', 0],
    ['\ufeff{}', 0],
  ])('refuses %j at byte %i', (input, offset) => {
    expect(() => JSON.parse(input)).toThrow(SyntaxError);
    for (const [, form] of forms) {
      expect(pointer(refusal(form(input)))).toMatchObject({ rule: 'syntax', offset });
    }
  });

  it('finds a stop byte at every position of a long string, aligned or not', () => {
    const buffer = new Uint8Array(64);
    for (let shift = 0; shift < 4; shift++) {
      for (let position = 0; position < 24; position++) {
        // A raw control character is refused where it stands; a quote ends the string, so the rest is
        // trailing data.
        for (const [stop, rule, offset] of [
          ['\u0001', 'syntax', position + 1],
          ['"', 'trailing-data', position + 2],
        ] as const) {
          const bytes = encoder.encode(`"${'a'.repeat(position)}${stop}${'b'.repeat(12)}"`);
          buffer.fill(0x61);
          buffer.set(bytes, shift);
          const view = buffer.subarray(shift, shift + bytes.length);
          expect(pointer(refusal(view))).toMatchObject({ rule, offset });
        }
        const escaped = `"${'a'.repeat(position)}\\n${'b'.repeat(12)}"`;
        buffer.set(encoder.encode(escaped), shift);
        const view = buffer.subarray(shift, shift + escaped.length);
        expect(parseJson(view)).toBe(JSON.parse(escaped));
      }
    }
  });
});

describe('parseJson values', () => {
  it('makes __proto__ an own data property, as JSON.parse does, and never touches a prototype', () => {
    const text = '{"__proto__":{"polluted":true},"a":[{"__proto__":null}]}';
    const value = parseJson(text);
    expect(value).toStrictEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value as object, '__proto__')).toBe(true);
    expect('polluted' in {}).toBe(false);
  });

  it.each<[string, string]>([
    ['{"tasks":[{"history":[{"x":1,"x":2}]}]}', '$.tasks[0].history[0].x'],
    [`{"${'k'.repeat(64)}":{"x":1,"x":2}}`, `$.${'k'.repeat(64)}.x`],
    [`{"${'k'.repeat(65)}":{"x":1,"x":2}}`, '$[*].x'],
    ['{"$ok_1":{"x":1,"x":2}}', '$.$ok_1.x'],
    ['{"1a":{"x":1,"x":2}}', '$[*].x'],
    ['{"":{"x":1,"x":2}}', '$[*].x'],
    ['{"a b":{"x":1,"x":2}}', '$[*].x'],
    ['{"\\u0061":{"x":1,"x":2}}', '$.a.x'],
    ['[[],[0,{"x":1,"x":2}]]', '$[1][1].x'],
  ])('names the place of a refusal in %s as %s', (input, path) => {
    expect(refusal(input).path).toBe(path);
  });

  it.each<[string, string]>([
    ['{"tasks":[{"history":[{"x":1,"x":2}]}]}', '$.tasks[0].history[0][*]'],
    ['{"tokSECRET":{"x":1,"x":2}}', '$[*][*]'],
    ['[{"tokSECRET":1,"tokSECRET":2}]', '$[0][*]'],
    ['{"tasks":{"tokSECRET":[1e999]}}', '$.tasks[*][0]'],
  ])('names only the keys the caller knows, in %s: %s', (input, path) => {
    expect(refusal(input, undefined, (key) => key === 'tasks' || key === 'history').path).toBe(path);
  });

  it('names no key at all without a list of known keys', () => {
    let error: unknown;
    try {
      parseJson('{"a":{"b":[{"c":1,"c":2}]}}');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(JsonError);
    expect((error as JsonError).path).toBe('$[*][*][0][*]');
  });

  it('describes a refusal by rule, offset and path only', () => {
    const error = refusal('{"secret":[1,2,"tok\\u0065n",{"k":1,"k":2}]}');
    expect(error.name).toBe('JsonError');
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('JSON refused: duplicate-key at byte 35 ($.secret[3].k)');
    expect(error.toViolation()).toStrictEqual({ rule: 'duplicate-key', offset: 35, path: '$.secret[3].k' });
  });
});

/**
What the scanner must make of a number literal: the rule `Number` of its whole text implies (the reference),
or acceptance.
*/
function expectedNumberRule(text: string): JsonRule | undefined {
  const value = Number(text);
  if (!Number.isFinite(value)) {
    return 'non-finite';
  }
  const integer = /[eE]/.test(text) ? Number.isInteger(value) : !text.includes('.');
  return integer && !Number.isSafeInteger(value) ? 'unsafe-integer' : undefined;
}

function numberOutcome(text: string): JsonRule | undefined {
  try {
    expect(parseJson(text, { ...wide, maxBytes: 16 * MiB })).toBe(JSON.parse(text));
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(JsonError);
    return (error as JsonError).rule;
  }
}

// 2^1024 − 2^970: halfway between the largest double and 2^1024, where a literal starts to read as Infinity.
const overflowHalfway =
  '179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792';

describe('parseJson long numbers (RFC 8259 §6; I-JSON §2.2)', () => {
  const below = `${overflowHalfway.slice(0, -1)}1.${'9'.repeat(900)}`;
  const above = `${overflowHalfway}.${'0'.repeat(900)}1`;
  it.each<[string, string, JsonRule | undefined]>([
    ['just below the overflow halfway point, 900 digits after it', below, undefined],
    ['the overflow halfway point itself, which rounds to Infinity', `${overflowHalfway}.0`, 'non-finite'],
    ['just above the overflow halfway point, by a digit 900 places down', above, 'non-finite'],
    ['2^53 − 1 plus a tail just under one half', `9007199254740991.4${'9'.repeat(900)}e0`, undefined],
    ['2^53 − 1 plus a tail just over one half', `9007199254740991.5${'0'.repeat(900)}1e0`, 'unsafe-integer'],
    [
      '2^53 − 1 written with 900 leading zeros in its fraction form',
      `0.${'0'.repeat(900)}9007199254740991e916`,
      undefined,
    ],
    ['a 2 MiB integer', '9'.repeat(2 * MiB), 'non-finite'],
    ['minus zero with 2 MiB of fraction zeros and an exponent', `-0.${'0'.repeat(2 * MiB)}e5`, undefined],
    ['a 1 MiB exponent', `1e${'9'.repeat(MiB)}`, 'non-finite'],
    ['a 1 MiB negative exponent', `1e-${'9'.repeat(MiB)}`, undefined],
    ['a 1 MiB exponent of zeros', `7e${'0'.repeat(MiB)}`, undefined],
  ])('%s', (_name, text, rule) => {
    expect(expectedNumberRule(text)).toBe(rule);
    expect(numberOutcome(text)).toBe(rule);
  });

  const digits = (maxLength: number) =>
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength });
  const literal = fc
    .record({
      minus: fc.boolean(),
      lead: fc.constantFrom(...'123456789'),
      integer: fc.oneof(fc.constant(''), digits(40), digits(1200)),
      fraction: fc.option(fc.oneof(digits(40), digits(1200)), { nil: undefined }),
      exponent: fc.option(
        fc.record({
          letter: fc.constantFrom('e', 'E'),
          sign: fc.constantFrom('', '+', '-'),
          value: fc.oneof(digits(3), digits(12), fc.nat({ max: 400 }).map(String)),
        }),
        { nil: undefined },
      ),
      zero: fc.boolean(),
    })
    .map(({ minus, lead, integer, fraction, exponent, zero }) => {
      const whole = zero && fraction !== undefined ? '0' : `${lead}${integer}`;
      return `${minus ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${
        exponent === undefined ? '' : `${exponent.letter}${exponent.sign}${exponent.value}`
      }`;
    });

  it.each<[string, string]>([
    ['a tie broken only by a digit 900 places down', `4503599627370496.5${'0'.repeat(900)}1`],
    ['the same tie, unbroken', `4503599627370496.5${'0'.repeat(901)}`],
    ['a tie at 2^53 broken late', `9007199254740993${'0'.repeat(900)}1e-901`],
    [
      'a subnormal tie broken late',
      `2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125${'0'.repeat(100)}1e-324`,
    ],
    ['an integer of 1200 digits', '1'.repeat(1200)],
  ])('reads %s exactly as `Number` does', (_name, text) => {
    expect(Object.is(longNumber(encoder.encode(text), 0, text.length), Number(text))).toBe(true);
  });

  it('gives exactly what `Number` gives for any literal', () => {
    fc.assert(
      fc.property(literal, (text) => {
        expect(Object.is(longNumber(encoder.encode(text), 0, text.length), Number(text))).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses exactly what `Number` of the whole literal implies, for any length', () => {
    fc.assert(
      fc.property(literal, (text) => {
        expect(numberOutcome(text)).toBe(expectedNumberRule(text));
      }),
      { numRuns: 400 },
    );
  });
});

describe('jsonLimitsFrom', () => {
  it('takes the JSON bounds and the response body ceiling from one resolved table', () => {
    const limits = resolveLimits({ jsonDepth: 16, responseBodyBytes: 4 * MiB });
    expect(jsonLimitsFrom(limits)).toStrictEqual({
      jsonDepth: 16,
      jsonEntries: defaultLimits.jsonEntries,
      jsonValues: defaultLimits.jsonValues,
      jsonStringBytes: defaultLimits.jsonStringBytes,
      jsonKeyBytes: defaultLimits.jsonKeyBytes,
      maxBytes: 4 * MiB,
    });
    expect(refusal('[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]', jsonLimitsFrom(limits)).rule).toBe('depth');
  });
});

/**
The rules JSON.stringify's output of `value` must break: unsafe integers and lone surrogates survive
stringify.
*/
function rulesBrokenBy(value: unknown, found: Set<JsonRule> = new Set()): Set<JsonRule> {
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    found.add('unsafe-integer');
  } else if (typeof value === 'string' && /\p{Cs}/u.test(value)) {
    found.add('lone-surrogate');
  } else if (Array.isArray(value)) {
    for (const item of value) {
      rulesBrokenBy(item, found);
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      rulesBrokenBy(key, found);
      rulesBrokenBy(item, found);
    }
  }
  return found;
}

type Mutation = { readonly kind: 'flip' | 'insert' | 'delete'; readonly at: number; readonly byte: number };

const mutation = fc.record({
  kind: fc.constantFrom<Mutation['kind']>('flip', 'insert', 'delete'),
  at: fc.nat(),
  byte: fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...encoder.encode('{}[]",:\\u0e-. 1'))),
});

function mutate(bytes: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  let result = Array.from(bytes);
  for (const { kind, at, byte } of mutations) {
    const index = result.length === 0 ? 0 : at % (result.length + (kind === 'insert' ? 1 : 0));
    if (kind === 'insert') {
      result = [...result.slice(0, index), byte, ...result.slice(index)];
    } else if (kind === 'delete') {
      result = [...result.slice(0, index), ...result.slice(index + 1)];
    } else if (index < result.length) {
      result[index] = byte;
    }
  }
  return Uint8Array.from(result);
}

const jsonishText = fc.string({
  unit: fc.constantFrom(...'{}[]":,\\/u0123456789abefd-+.eEtrlsn \n\u00e9'),
  maxLength: 40,
});

/** Any input: random bytes, JSON-like text, and valid JSON with bytes flipped, inserted or deleted. */
const fuzzInput = fc.oneof(
  fc.uint8Array({ maxLength: 48 }),
  jsonishText.map((text) => encoder.encode(text)),
  fc
    .tuple(fc.jsonValue({ maxDepth: 4 }), fc.array(mutation, { minLength: 1, maxLength: 4 }))
    .map(([value, mutations]) => mutate(encoder.encode(JSON.stringify(value)), mutations)),
);

const fuzzLimits = fc.constantFrom<JsonLimits | undefined>(undefined, {
  jsonDepth: 2,
  jsonEntries: 3,
  jsonValues: 8,
  jsonStringBytes: 6,
  jsonKeyBytes: 2,
  maxBytes: 40,
});

type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown };

function attempt(work: () => unknown): Outcome {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    return { ok: false, error };
  }
}

// The rules about the text itself, which JSON.parse enforces too; every other rule is a bound or a policy of
// ours.
const grammarRules: ReadonlySet<JsonRule> = new Set(['syntax', 'trailing-data', 'invalid-utf8']);

describe('parseJson properties', () => {
  it.each([
    ['ASCII', undefined],
    ['any UTF-16, lone surrogates included', 'binary'],
  ] as const)('agrees with JSON.parse on stringified values with %s strings', (_name, stringUnit) => {
    const values = stringUnit === undefined ? fc.jsonValue() : fc.jsonValue({ stringUnit });
    fc.assert(
      fc.property(values, (value) => {
        const text = JSON.stringify(value);
        const broken = rulesBrokenBy(value);
        for (const [, form] of forms) {
          if (broken.size === 0) {
            expect(parseJson(form(text))).toStrictEqual(JSON.parse(text));
          } else {
            expect(broken).toContain(refusal(form(text)).rule);
          }
        }
      }),
    );
  });

  it('returns what JSON.parse returns or throws a JsonError, for any bytes', () => {
    fc.assert(
      fc.property(fuzzInput, fuzzLimits, (bytes, limits) => {
        const ours = attempt(() => parseJson(bytes, limits));
        const reference = attempt(() => JSON.parse(referenceDecoder.decode(bytes)));
        if (ours.ok) {
          expect(reference).toStrictEqual({ ok: true, value: ours.value });
          return;
        }
        expect(ours.error).toBeInstanceOf(JsonError);
        const error = ours.error as JsonError;
        expect(error.offset).toBeGreaterThanOrEqual(0);
        expect(error.offset).toBeLessThanOrEqual(bytes.length);
        expect(error.path.startsWith('$')).toBe(true);
        // A grammar refusal is one JSON.parse makes too: ours is never stricter than the grammar.
        if (grammarRules.has(error.rule)) {
          expect(reference.ok).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reads an unaligned view of a larger buffer exactly as a copy of it', () => {
    fc.assert(
      fc.property(
        fuzzInput,
        fc.nat({ max: 7 }),
        fc.uint8Array({ minLength: 8, maxLength: 8 }),
        (bytes, shift, junk) => {
          const buffer = new Uint8Array(bytes.length + 16);
          buffer.set(junk, 0);
          buffer.set(junk, bytes.length + 8);
          buffer.set(bytes, shift);
          const view = buffer.subarray(shift, shift + bytes.length);
          const summary = (outcome: Outcome): unknown =>
            outcome.ok ? outcome.value : pointer(outcome.error as JsonError);
          expect(summary(attempt(() => parseJson(view)))).toStrictEqual(
            summary(attempt(() => parseJson(bytes))),
          );
        },
      ),
    );
  });

  it('never repeats input content in an error', () => {
    const marker = 'zq-MARK-\u03a9';
    const marked = fc
      .jsonValue({ maxDepth: 3 })
      .map((value) =>
        JSON.stringify(value, (_key, item: unknown) =>
          typeof item === 'string'
            ? `${marker}${item}`
            : typeof item === 'object' && item !== null && !Array.isArray(item)
              ? Object.fromEntries(Object.entries(item).map(([key, inner]) => [`${marker}${key}`, inner]))
              : item,
        ),
      );
    fc.assert(
      fc.property(marked, fc.array(mutation, { maxLength: 3 }), fuzzLimits, (text, mutations, limits) => {
        const bytes = mutate(encoder.encode(`[${JSON.stringify(marker)},${text}]`), mutations);
        const outcome = attempt(() => parseJson(bytes, limits));
        if (!outcome.ok) {
          const error = outcome.error as JsonError;
          const exposed = [error.message, error.path, error.stack, JSON.stringify(error), String(error)].join(
            '\n',
          );
          expect(exposed).not.toContain(marker);
        }
      }),
      { numRuns: 300 },
    );
  });
});

// Each scan keeps its levels' state in arrays of its own (json-scanner.ts), grown as levels open.
describe('parseJson scans one after another', () => {
  it('sees nothing of an earlier scan that was refused midway, at the same depth', () => {
    // Refused at depth 2, its keys c and d written and its counts left where the refusal stopped them.
    expect(pointer(refusal('{"a":1,"b":{"c":1,"d":2,"e":', wide))).toMatchObject({ rule: 'syntax' });
    // The same level, keys in another order: no stale key is taken for a duplicate.
    expect(parseJson('{"x":{"d":1,"c":2,"e":3}}', wide)).toStrictEqual({ x: { d: 1, c: 2, e: 3 } });
    // And a real duplicate there is still found, past the linear search as well.
    expect(pointer(refusal('{"x":{"d":1,"d":2}}', wide))).toStrictEqual({
      rule: 'duplicate-key',
      offset: 12,
      path: '$.x.d',
    });
    const many = Array.from({ length: 20 }, (_, index) => `"k${index}":${index}`).join(',');
    expect(pointer(refusal(`{"x":{${many},"k3":0}}`, wide))).toMatchObject({
      rule: 'duplicate-key',
      path: '$.x.k3',
    });
    expect(Object.keys((parseJson(`{"x":{${many}}}`, wide) as { x: object }).x)).toHaveLength(20);
  });

  it('gives a scan started while another builds its refusal path arrays of its own', () => {
    // The outer refusal's path asks `knownKey` about each key, and this one scans a document of arrays four
    // deep meanwhile: were the levels' arrays shared between scans, the outer path would read that
    // document's levels.
    const knownKey: KnownKey = () => {
      parseJson('[[[[1]]]]', wide);
      return true;
    };
    expect(pointer(refusal('{"task":{"history":[{"x":1,"x":2}]}}', wide, knownKey))).toStrictEqual({
      rule: 'duplicate-key',
      offset: 27,
      path: '$.task.history[0].x',
    });
  });
});
