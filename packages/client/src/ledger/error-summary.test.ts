import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ErrorSummary, fitErrorSummary } from './error-summary.js';

const base = {
  name: 'InvalidResponseError',
  kind: 'invalid-response',
  reason: 'json',
  dispatched: true,
} as const;
const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('fitErrorSummary (docs/durable-send.md#after-dispatch)', () => {
  it('returns a summary the schema accepts as it is', () => {
    const summary = { ...base, httpStatus: 200, violation: { rule: 'depth', offset: 3, path: '$.task[0]' } };
    expect(fitErrorSummary(summary)).toBe(summary);
  });

  it.each<[string, string, string]>([
    ['indexes', `$${'[0]'.repeat(300)}`, `$${'[0]'.repeat(169)}…`],
    ['members and indexes', `$.result.task${'[8191]'.repeat(90)}`, `$.result.task${'[8191]'.repeat(82)}…`],
    ['masked keys', `$${'[*]'.repeat(200)}.x`, `$${'[*]'.repeat(169)}…`],
  ])('cuts a path of %s to whole segments within 512 bytes', (_name, path, fitted) => {
    const result = fitErrorSummary({ ...base, violation: { rule: 'depth', path } });
    expect(result.violation?.path).toBe(fitted);
    expect(bytes(fitted)).toBeLessThanOrEqual(512);
    expect(z.safeParse(ErrorSummary, result).success).toBe(true);
  });

  it('drops what it cannot fit and names what is required', () => {
    expect(
      fitErrorSummary({
        ...base,
        reason: '',
        httpStatus: 1000,
        remoteCode: 2 ** 40,
        violation: { rule: ' spaced ', offset: -1, path: '$\n' },
      }),
    ).toStrictEqual({ ...base, reason: 'unnamed', violation: { rule: 'unnamed' } });
  });

  it('always gives a summary the schema accepts', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.string({ minLength: 500, maxLength: 700 }),
      fc.string({ unit: 'binary', maxLength: 600 }),
    );
    fc.assert(
      fc.property(
        fc.record({
          name: text,
          kind: text,
          reason: text,
          dispatched: fc.boolean(),
          httpStatus: fc.option(fc.integer(), { nil: undefined }),
          remoteCode: fc.option(fc.double(), { nil: undefined }),
          violation: fc.option(
            fc.record({
              rule: text,
              offset: fc.option(fc.integer(), { nil: undefined }),
              path: fc.option(text, { nil: undefined }),
            }),
            { nil: undefined },
          ),
        }),
        (raw) => {
          const summary = JSON.parse(JSON.stringify(raw)) as ErrorSummary;
          expect(z.safeParse(ErrorSummary, fitErrorSummary(summary)).success).toBe(true);
        },
      ),
    );
  });
});
