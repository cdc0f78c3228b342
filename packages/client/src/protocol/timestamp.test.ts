import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode } from './decode.js';
import { isTimestamp, Timestamp } from './timestamp.js';
import { compareTimestamps } from './timestamp-order.js';

describe('Timestamp', () => {
  it.each([
    '2026-03-12T10:00:00Z',
    '2026-03-12T10:00:00.1Z',
    '2026-03-12T10:00:00.123Z',
    '2026-03-12T10:00:00.123456Z',
    '2026-03-12T10:00:00.123456789Z',
    '2026-03-12T10:00:00.1234567890123Z',
    '2024-02-29T23:59:59Z',
    '2000-02-29T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999999999Z',
  ])('accepts %s', (text) => {
    expect(isTimestamp(text)).toBe(true);
    expect(decode(Timestamp, text)).toEqual({ ok: true, value: text });
  });

  it.each([
    ['an offset', '2026-03-12T10:00:00+01:00'],
    ['a zero offset', '2026-03-12T10:00:00+00:00'],
    ['no zone', '2026-03-12T10:00:00'],
    ['a lower-case z', '2026-03-12T10:00:00z'],
    ['a space separator', '2026-03-12 10:00:00Z'],
    ['a dot without digits', '2026-03-12T10:00:00.Z'],
    ['no seconds', '2026-03-12T10:00Z'],
    ['month 13', '2026-13-12T10:00:00Z'],
    ['month 0', '2026-00-12T10:00:00Z'],
    ['day 0', '2026-03-00T10:00:00Z'],
    ['31 April', '2026-04-31T10:00:00Z'],
    ['29 February of a common year', '2026-02-29T10:00:00Z'],
    ['29 February 1900', '1900-02-29T10:00:00Z'],
    ['hour 24', '2026-03-12T24:00:00Z'],
    ['minute 60', '2026-03-12T10:60:00Z'],
    ['a leap second (no Timestamp value)', '2026-12-31T23:59:60Z'],
    ['year 0', '0000-01-01T00:00:00Z'],
    ['a five-digit year', '12026-03-12T10:00:00Z'],
    ['epoch seconds', '1700000000'],
  ])('refuses %s', (_name, text) => {
    expect(isTimestamp(text)).toBe(false);
    expect(decode(Timestamp, text).error?.violation.rule).toBe('timestamp');
  });

  it('refuses a number', () => {
    expect(decode(Timestamp, 1_700_000_000).error?.violation.rule).toBe('invalid_type');
  });
});

describe('compareTimestamps', () => {
  const instant = fc.date({
    min: new Date('0001-01-01T00:00:00Z'),
    max: new Date('9999-12-31T23:59:59Z'),
    noInvalidDate: true,
  });

  // Renders an instant with 0, 3, 6 or 9 fraction digits, as peers do.
  function render(date: Date, digits: number): string {
    const iso = date.toISOString();
    const whole = iso.slice(0, 19);
    const millis = iso.slice(20, 23);
    return digits === 0 ? `${whole}Z` : `${whole}.${millis.padEnd(digits, '0').slice(0, digits)}Z`;
  }

  it('orders like the instants whatever the fraction lengths', () => {
    fc.assert(
      fc.property(instant, instant, fc.constantFrom(3, 6, 9), fc.constantFrom(3, 6, 9), (a, b, da, db) => {
        const left = render(a, da);
        const right = render(b, db);
        expect(isTimestamp(left) && isTimestamp(right)).toBe(true);
        expect(Math.sign(compareTimestamps(left, right))).toBe(Math.sign(a.getTime() - b.getTime()));
      }),
    );
  });

  it.each([
    ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z', 0],
    ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.5Z', -1],
    ['2026-01-01T00:00:00.5Z', '2026-01-01T00:00:00.45Z', 1],
    ['2026-01-01T00:00:00.100Z', '2026-01-01T00:00:00.1Z', 0],
    ['2026-01-01T00:00:01Z', '2026-01-01T00:00:00.999999Z', 1],
    ['2025-12-31T23:59:59.9Z', '2026-01-01T00:00:00Z', -1],
  ])('compares %s with %s as %i', (left, right, expected) => {
    expect(Math.sign(compareTimestamps(left, right))).toBe(expected);
  });
});
