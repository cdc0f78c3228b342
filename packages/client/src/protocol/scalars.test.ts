import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { decode } from './decode.js';
import { int32, items, oneof, protoEnum } from './scalars.js';

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

  it('oneof counts the present members, then decodes the one present with its own object schema', () => {
    const schema = oneof({ a: z.string(), b: z.number() }, { note: z.optional(z.string()) });
    expect(decode(schema, { a: 'x', note: 'n' })).toEqual({ ok: true, value: { a: 'x', note: 'n' } });
    expect(decode(schema, { note: 'n' }).error?.violation.rule).toBe('oneof-none');
    expect(decode(schema, { a: 'x', b: 1 }).error?.violation.rule).toBe('oneof-many');
    // A bad member is reported where it is.
    expect(decode(schema, { a: 1 }).error?.violation).toEqual({ rule: 'invalid_type', path: '$.a' });
  });
});
