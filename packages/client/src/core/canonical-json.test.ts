import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonicalJsonError, canonicalJson } from './canonical-json.js';
import type { JsonValue } from './json-value.js';

/** The double with these IEEE-754 bits (RFC 8785 Appendix B lists its samples by bits). */
function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe('canonicalJson: RFC 8785 examples', () => {
  it('canonicalizes the §3.2.2 sample (numbers, escapes, literals, member order)', () => {
    const input = String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`;
    const expected = String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;
    expect(canonicalJson(JSON.parse(input))).toBe(expected);
  });

  it('sorts member names by UTF-16 code units (§3.2.3), not by code points', () => {
    const input = String.raw`{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`;
    // The emoji (U+1F600, units D83D DE00) sorts before U+FB33 because D83D < FB33.
    const expected =
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
      '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}';
    expect(canonicalJson(JSON.parse(input))).toBe(expected);
  });

  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('serializes the Appendix B number %s as %s', (bits, text) => {
    expect(canonicalJson(fromBits(bits))).toBe(text);
  });

  it.each([
    [1e21, '1e+21'],
    [1e20, '100000000000000000000'],
    [1.5e-7, '1.5e-7'],
    [0.000001, '0.000001'],
    [-0, '0'],
    [0.1 + 0.2, '0.30000000000000004'],
    [4.5, '4.5'],
    [-17, '-17'],
  ])('serializes %s as %s', (value, text) => {
    expect(canonicalJson(value)).toBe(text);
    expect(canonicalJson([value])).toBe(`[${text}]`);
  });

  it.each([
    ['a control character', '\u001f', '"\\u001f"'],
    ['the short escapes', '\b\t\n\f\r', '"\\b\\t\\n\\f\\r"'],
    ['a quote and a backslash', '"\\', '"\\"\\\\"'],
    ['a slash, DEL and non-ASCII as they are', '/\u007fé€😀', '"/\u007fé€😀"'],
    ['a surrogate pair', '\ud83d\ude00', '"\ud83d\ude00"'],
  ])('escapes %s like JSON.stringify', (_name, value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });

  it('writes no whitespace and keeps array order', () => {
    expect(canonicalJson({ b: [3, 1, { d: null, c: true }], a: {} })).toBe(
      '{"a":{},"b":[3,1,{"c":true,"d":null}]}',
    );
  });
});

describe('canonicalJson: values without a canonical form', () => {
  it.each<[string, unknown, string]>([
    ['NaN', Number.NaN, 'non-finite'],
    ['Infinity', Number.POSITIVE_INFINITY, 'non-finite'],
    ['-Infinity deep in an array', { a: [1, Number.NEGATIVE_INFINITY] }, 'non-finite'],
    ['a lone high surrogate in a value', { a: 'x\ud800y' }, 'lone-surrogate'],
    ['a lone high surrogate at the end', 'x\ud83d', 'lone-surrogate'],
    ['a lone low surrogate in a member name', { '\udc00': 1 }, 'lone-surrogate'],
    ['two high surrogates', '\ud83d\ud83d\ude00', 'lone-surrogate'],
    ['an undefined member', { a: undefined }, 'not-json'],
    ['a BigInt', [1n], 'not-json'],
    ['a function', { f: () => 1 }, 'not-json'],
  ])('refuses %s', (_name, value, reason) => {
    let caught: unknown;
    try {
      canonicalJson(value as JsonValue);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CanonicalJsonError);
    expect(caught).toMatchObject({ name: 'CanonicalJsonError', kind: 'canonical-json', reason });
  });
});

// JSON values with any Unicode text (well-formed), any finite double, and names that may collide with
// Object.prototype members.
const json: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string({ unit: 'binary' }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(
      fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('__proto__', 'constructor', '10', '2')),
      tie('value'),
      {
        maxKeys: 5,
        noNullPrototype: true,
      },
    ),
  ),
})).value;

/** The same value with every object's members inserted in another order, picked by `seed`. */
function reorder(value: JsonValue, seed: number): JsonValue {
  if (Array.isArray(value)) {
    return value.map((item, index) => reorder(item, seed + index));
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const entries = Object.entries(value);
  let state = seed >>> 0;
  for (let index = entries.length - 1; index > 0; index--) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    const other = state % (index + 1);
    const swap = entries[index];
    const picked = entries[other];
    if (swap !== undefined && picked !== undefined) {
      entries[index] = picked;
      entries[other] = swap;
    }
  }
  const copy: { [key: string]: JsonValue } = {};
  for (const [key, item] of entries) {
    // defineProperty, so a `__proto__` member stays an own member as JSON.parse makes it.
    Object.defineProperty(copy, key, {
      value: reorder(item, seed + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/**
`-0` canonicalizes to `0` by design (RFC 8785 §3.2.2.3), as JSON.stringify writes it, so the round trip
compares against that.
*/
function withoutNegativeZero(value: JsonValue): JsonValue {
  return JSON.parse(JSON.stringify(value));
}

describe('canonicalJson: properties', () => {
  it('parses back to the same value', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(withoutNegativeZero(value));
      }),
    );
  });

  it('does not depend on the member order of the input', () => {
    fc.assert(
      fc.property(json, fc.integer(), (value, seed) => {
        expect(canonicalJson(reorder(value, seed))).toBe(canonicalJson(value));
      }),
    );
  });

  it('sorts few and many member names alike, by UTF-16 code units (§3.2.3)', () => {
    const names = fc.uniqueArray(fc.string({ unit: 'binary', maxLength: 4 }), { maxLength: 40 });
    fc.assert(
      fc.property(names, (keys) => {
        const value = Object.fromEntries(keys.map((key, index) => [key, index]));
        // Integer-like names come first in an object's own key order, so the order is read off the text.
        const written = [...canonicalJson(value).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map(
          (match) => JSON.parse(`"${match[1]}"`) as string,
        );
        expect(written).toEqual([...keys].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0)));
      }),
    );
  });

  it('writes any ASCII or well-formed string exactly as JSON.stringify does (§3.2.2.2), plain ones included', () => {
    const ascii = fc.string({
      unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)),
    });
    fc.assert(
      fc.property(fc.oneof(ascii, fc.string({ unit: 'grapheme' })), (text) => {
        expect(canonicalJson(text)).toBe(JSON.stringify(text));
        expect(canonicalJson({ [text]: text })).toBe(`{${JSON.stringify(text)}:${JSON.stringify(text)}}`);
      }),
    );
  });

  it('is a fixed point: canonicalizing the parsed canonical text gives the same text', () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });
});
