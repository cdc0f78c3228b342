import { describe, expect, it } from 'vitest';
import { indexSegment, isPlainKey, maxNamedKeyLength } from './violation-path.js';

describe('isPlainKey', () => {
  it.each<[string, string, boolean]>([
    ['a member name', 'price', true],
    ['underscores, dollars and digits after the first character', '_$a9', true],
    ['64 characters', 'a'.repeat(maxNamedKeyLength), true],
    ['65 characters', 'a'.repeat(maxNamedKeyLength + 1), false],
    ['the empty key', '', false],
    ['a leading digit', '0a', false],
    ['a dot, which would read as two members', 'a.b', false],
    ['an index, which would read as an element', '[0]', false],
    ['a line break', 'a\nb', false],
    ['a carriage return', 'a\rb', false],
    ['an escape sequence', '\u001b[31m', false],
    ['a bidi override', 'a\u202eb', false],
    ['a letter outside ASCII', 'prïce', false],
    ['a space', 'a b', false],
    ['a hyphen', 'a-b', false],
  ])('%s', (_, key, expected) => {
    expect(isPlainKey(key)).toBe(expected);
  });
});

describe('indexSegment', () => {
  it.each<[number, string]>([
    [0, '[0]'],
    [42, '[42]'],
    [Number.MAX_SAFE_INTEGER, `[${Number.MAX_SAFE_INTEGER}]`],
    [-1, '[*]'],
    [1.5, '[*]'],
    [Number.NaN, '[*]'],
    [Number.POSITIVE_INFINITY, '[*]'],
    [2 ** 60, '[*]'],
  ])('%s', (index, expected) => {
    expect(indexSegment(index)).toBe(expected);
  });
});
