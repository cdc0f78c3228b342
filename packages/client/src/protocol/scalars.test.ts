import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { decode } from './decode.js';
import { Bool, int32, items, oneof, protoEnum, protoMap, protoString, wireObject } from './scalars.js';
import { Label } from './text.js';

describe('schema builders', () => {
  it('int32 accepts only whole numbers in range', () => {
    const schema = int32(1, 3);
    expect(decode(schema, 1).ok && decode(schema, 3).ok).toBe(true);
    expect(decode(schema, 0).error?.violation.rule).toBe('range');
    expect(decode(schema, 4).error?.violation.rule).toBe('range');
    expect(decode(schema, 2.5).error?.violation.rule).toBe('integer');
    expect(decode(schema, '2').error?.violation.rule).toBe('invalid_type');
    expect(decode(int32(), 2_147_483_648).error?.violation.rule).toBe('range');
    expect(decode(int32(), -2_147_483_648).ok).toBe(true);
  });

  it('protoString, Bool and int32 give the verdicts of z.string(), z.boolean() and z.number(), and read their default as absent', () => {
    expect(decode(protoString(), '')).toEqual({ ok: true, value: '' });
    expect(decode(protoString(), 1).error?.violation).toEqual({ rule: 'invalid_type', path: '$' });
    expect(decode(wireObject({ name: z._default(protoString(), 'x') }), { name: '' })).toEqual({
      ok: true,
      value: { name: 'x' },
    });
    expect(decode(wireObject({ name: protoString() }), {}).error?.violation).toEqual({
      rule: 'required',
      path: '$.name',
    });
    expect(decode(Bool, true)).toEqual({ ok: true, value: true });
    for (const notABool of ['true', 1, null, {}]) {
      expect(decode(Bool, notABool).error?.violation).toEqual({ rule: 'invalid_type', path: '$' });
    }
    for (const notANumber of ['1', Number.NaN, Number.POSITIVE_INFINITY, true]) {
      expect(decode(int32(), notANumber).error?.violation).toEqual({ rule: 'invalid_type', path: '$' });
    }
    const holder = wireObject({ flag: Bool, count: int32(), kept: z._default(Bool, true) });
    expect(decode(holder, {}).error?.violation).toEqual({ rule: 'required', path: '$.flag' });
    expect(decode(holder, { flag: 'no', count: 1 }).error?.violation).toEqual({
      rule: 'invalid_type',
      path: '$.flag',
    });
    // ProtoJSON: a printed default (`false`, `0`) or `null` is the field left out, so a defaulted field reads
    // its default.
    expect(
      decode(wireObject({ kept: z._default(Bool, true), size: z._default(int32(), 7) }), {
        kept: false,
        size: 0,
      }),
    ).toEqual({
      ok: true,
      value: { kept: true, size: 7 },
    });
    expect(decode(wireObject({ kept: z._default(Bool, true) }), { kept: null })).toEqual({
      ok: true,
      value: { kept: true },
    });
  });

  it('items bounds both ends', () => {
    const schema = items(z.string(), 1, 2);
    expect(decode(schema, []).error?.violation).toEqual({ rule: 'min-items', path: '$' });
    expect(decode(schema, ['a', 'b']).ok).toBe(true);
    expect(decode(schema, ['a', 'b', 'c']).error?.violation).toEqual({ rule: 'max-items', path: '$' });
  });

  it('protoEnum numbers names from the UNSPECIFIED first entry', () => {
    const schema = protoEnum(['COLOR_UNSPECIFIED', 'COLOR_RED', 'COLOR_BLUE']);
    expect(decode(schema, 2)).toEqual({ ok: true, value: 'COLOR_BLUE' });
    expect(decode(schema, 'COLOR_RED')).toEqual({ ok: true, value: 'COLOR_RED' });
    expect(decode(schema, 'COLOR_UNSPECIFIED').error?.violation.rule).toBe('unspecified');
    expect(decode(schema, 'toString').error?.violation.rule).toBe('enum');
  });

  it('protoMap reads a proto map as z.record did: keys and values by their schemas, the count once every entry holds', () => {
    const schema = protoMap(Label, int32(0, 9), 2);
    expect(decode(schema, { a: 1, b: 2 })).toEqual({ ok: true, value: { a: 1, b: 2 } });
    for (const notAnObject of [[], null, 'a', 1, new Map([['a', 1]]), new Date(0)]) {
      expect(decode(schema, notAnObject).error?.violation).toEqual({ rule: 'invalid_type', path: '$' });
    }
    expect(decode(schema, Object.assign(Object.create(null), { a: 1 }))).toEqual({
      ok: true,
      value: { a: 1 },
    });
    // The first key or value that breaks its schema is the violation, at `[*]`: the key is the peer's text.
    expect(decode(schema, { a: 1, ' b': 2 }).error?.violation).toEqual({ rule: 'whitespace', path: '$[*]' });
    expect(decode(schema, { a: 10, b: 'x' }).error?.violation).toEqual({ rule: 'range', path: '$[*]' });
    expect(decode(schema, { a: 1, b: 2, c: 3 }).error?.violation).toEqual({ rule: 'max-entries', path: '$' });
    expect(decode(schema, { a: 1, b: 2, c: 30 }).error?.violation).toEqual({ rule: 'range', path: '$[*]' });
    // A `__proto__` entry is kept as an own entry, checked and counted, and never sets the output's
    // prototype.
    const parsed = decode(schema, JSON.parse('{"__proto__": 1, "a": 2}'));
    expect(parsed.ok).toBe(true);
    expect(Object.getPrototypeOf(parsed.value)).toBe(Object.prototype);
    expect(Object.entries(parsed.value ?? {})).toEqual([
      ['__proto__', 1],
      ['a', 2],
    ]);
    expect(decode(schema, JSON.parse('{"__proto__": 10}')).error?.violation).toEqual({
      rule: 'range',
      path: '$[*]',
    });
    expect(decode(schema, JSON.parse('{"__proto__": 1, "a": 2, "b": 3}')).error?.violation).toEqual({
      rule: 'max-entries',
      path: '$',
    });
    // A map field is absent at `{}` and its values are read as ProtoJSON (their proto names, their defaults).
    const holder = wireObject({
      entries: z._default(protoMap(Label, wireObject({ pageSize: int32() }), 4), () => ({})),
    });
    expect(decode(holder, { entries: null })).toEqual({ ok: true, value: { entries: {} } });
    expect(decode(holder, { entries: { a: { page_size: 3 } } })).toEqual({
      ok: true,
      value: { entries: { a: { pageSize: 3 } } },
    });
    expect(decode(holder, { entries: { a: { page_size: 3, pageSize: 3 } } }).error?.violation).toEqual({
      rule: 'duplicate-key',
      path: '$.entries[*].pageSize',
    });
  });

  it('oneof counts the present members, then decodes the one present with its own object schema', () => {
    const schema = oneof({ a: z.string(), b: z.number() }, { note: z.optional(z.string()) });
    expect(decode(schema, { a: 'x', note: 'n' })).toEqual({ ok: true, value: { a: 'x', note: 'n' } });
    expect(decode(schema, { note: 'n' }).error?.violation.rule).toBe('oneof-none');
    expect(decode(schema, { a: 'x', b: 1 }).error?.violation.rule).toBe('oneof-many');
    // A bad member is reported where it is.
    expect(decode(schema, { a: 1 }).error?.violation).toEqual({ rule: 'invalid_type', path: '$.a' });
  });
});
