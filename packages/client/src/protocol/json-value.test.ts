import { describe, expect, it } from 'vitest';
import { decode } from './decode.js';
import { compactJsonRule, isJsonObject, Metadata } from './json-value.js';

const KiB = 1024;

describe('compactJsonRule', () => {
  it('measures compact JSON in UTF-8 bytes', () => {
    // {"k":"é"} is 10 bytes: é is two.
    expect(compactJsonRule({ k: 'é' }, 10)).toBeUndefined();
    expect(compactJsonRule({ k: 'é' }, 9)).toBe('max-bytes');
  });

  it.each([
    [
      'a cycle',
      (() => {
        const cyclic: { self?: unknown } = {};
        cyclic.self = cyclic;
        return cyclic;
      })(),
    ],
    ['a BigInt', { n: 1n }],
    ['undefined', undefined],
    ['a function', () => 1],
  ])('calls %s not JSON, without throwing', (_name, value) => {
    expect(compactJsonRule(value, 1024)).toBe('json');
  });
});

describe('Metadata', () => {
  it('keeps the object as received', () => {
    const metadata = { peer: { mode: 'echo', requestMetadata: null }, 'a2a-rust.com/idempotency-key': 'k' };
    const result = decode(Metadata, metadata);
    expect(result.ok && result.value).toBe(metadata);
  });

  it.each([
    ['an array', [1], 'invalid_type'],
    ['null', null, 'invalid_type'],
    ['a string', 'x', 'invalid_type'],
    ['an empty key', { '': 1 }, 'empty'],
    ['a key with surrounding space', { ' k': 1 }, 'whitespace'],
    ['a key with a control character', { 'k\n': 1 }, 'whitespace'],
    ['a key over 512 bytes', { ['k'.repeat(513)]: 1 }, 'max-bytes'],
  ])('refuses %s', (_name, value, expected) => {
    expect(decode(Metadata, value).error?.violation).toEqual({ rule: expected, path: '$' });
  });

  it('holds entries to 256 and size to 256 KiB, at the limit and one past it', () => {
    const entries = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, true]));
    expect(decode(Metadata, entries(256)).ok).toBe(true);
    expect(decode(Metadata, entries(257)).error?.violation.rule).toBe('max-entries');
    // {"k":"…"} adds 8 bytes.
    expect(decode(Metadata, { k: 'a'.repeat(256 * KiB - 8) }).ok).toBe(true);
    expect(decode(Metadata, { k: 'a'.repeat(256 * KiB - 7) }).error?.violation.rule).toBe('max-bytes');
    expect(decode(Metadata, { k: 'ü'.repeat(128 * KiB - 4) }).ok).toBe(true);
    expect(decode(Metadata, { k: `${'ü'.repeat(128 * KiB - 4)}a` }).error?.violation.rule).toBe('max-bytes');
  });

  it('tells objects from arrays and null', () => {
    expect([isJsonObject({}), isJsonObject([]), isJsonObject(null), isJsonObject('x')]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});
