import { describe, expect, it } from 'vitest';
import { parseTimestamp } from './timestamp.js';

describe('parseTimestamp', () => {
  it.each<[string, number | undefined]>([
    ['2026-01-01T00:00:00Z', Date.UTC(2026, 0, 1)],
    ['2026-01-01T00:00:00.5Z', Date.UTC(2026, 0, 1) + 500],
    ['2026-01-01T00:00:00.123Z', Date.UTC(2026, 0, 1) + 123],
    ['2026-01-01T00:00:00.123000Z', Date.UTC(2026, 0, 1) + 123],
    // Below a millisecond, the inclusive bound moves up to the next whole one.
    ['2026-01-01T00:00:00.123001Z', Date.UTC(2026, 0, 1) + 124],
    ['2026-01-01T00:00:00.000000001Z', Date.UTC(2026, 0, 1) + 1],
    ['2026-02-29T00:00:00Z', undefined],
    ['2028-02-29T23:59:59Z', Date.UTC(2028, 1, 29, 23, 59, 59)],
    ['2026-13-01T00:00:00Z', undefined],
    ['2026-01-01T24:00:00Z', undefined],
    ['2026-01-01T00:00:00', undefined],
    ['2026-01-01T00:00:00+00:00', undefined],
    ['2026-01-01 00:00:00Z', undefined],
    ['2026-01-01T00:00:00.1234567890Z', undefined],
  ])('%s → %s', (text, expected) => {
    expect(parseTimestamp(text)).toBe(expected);
  });
});
