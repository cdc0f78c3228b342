import { describe, expect, expectTypeOf, it } from 'vitest';
import { optionalMembers } from './optional-members.js';

describe('optionalMembers', () => {
  it('drops the members whose value is undefined and keeps the others in their order', () => {
    const kept = optionalMembers({ b: 1, a: undefined, c: null, d: '', e: 0, f: false });
    expect(kept).toEqual({ b: 1, c: null, d: '', e: 0, f: false });
    expect(Object.keys(kept)).toEqual(['b', 'c', 'd', 'e', 'f']);
    expect(Object.hasOwn(kept, 'a')).toBe(false);
    expect(optionalMembers({ a: undefined })).toEqual({});
  });

  it('writes what a spread of conditional members writes', () => {
    const tenant: string | undefined = undefined;
    const taskId: string | undefined = 't-1';
    const spread = {
      operation: 'GetTask',
      ...(tenant === undefined ? {} : { tenant }),
      ...(taskId === undefined ? {} : { taskId }),
    };
    const helped = { operation: 'GetTask', ...optionalMembers({ tenant, taskId }) };
    expect(JSON.stringify(helped)).toBe(JSON.stringify(spread));
    expect(Object.keys(helped)).toEqual(Object.keys(spread));
  });

  it('types each member as optional, without undefined', () => {
    const value = optionalMembers({ signal: undefined as AbortSignal | undefined, count: 1 });
    expectTypeOf(value).toEqualTypeOf<{ signal?: AbortSignal; count?: number }>();
  });
});
