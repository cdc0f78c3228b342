import { describe, expect, it } from 'vitest';
import { OptionsError } from './errors.js';
import { defaultLimits, limitCeilings, resolveLimits } from './limits.js';

describe('resolveLimits', () => {
  it('returns the defaults, frozen, when nothing is overridden', () => {
    const limits = resolveLimits();
    expect(limits).toEqual(defaultLimits);
    expect(Object.isFrozen(limits)).toBe(true);
  });

  it('accepts every ceiling exactly', () => {
    expect(resolveLimits(limitCeilings)).toEqual(limitCeilings);
  });

  it.each([
    [{ sseEvents: 65_537 }, 'limits.sseEvents', 'above-ceiling'],
    [{ jsonDepth: 0 }, 'limits.jsonDepth', 'below-minimum'],
    [{ requestTimeoutMs: 1.5 }, 'limits.requestTimeoutMs', 'not-a-whole-number'],
    [{ requestTimeoutMs: Number.NaN }, 'limits.requestTimeoutMs', 'not-a-whole-number'],
    [{ sseLineBytes: 3 * 1024 * 1024 }, 'limits.sseEventBytes', 'inconsistent'],
    [{ sseEventBytes: 65 * 1024 * 1024 }, 'limits.sseTotalBytes', 'inconsistent'],
  ] as const)('refuses %o', (overrides, option, reason) => {
    const error = (() => {
      try {
        resolveLimits(overrides);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).toMatchObject({ option, reason });
  });
});
