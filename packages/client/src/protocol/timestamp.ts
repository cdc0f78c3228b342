import * as z from 'zod/mini';
import { violate } from './scalars.js';

// A2A spec §5.6.1: UTC, ending in `Z`, no other offset; the spec's own examples use 0, 3 and 6 fraction digits, so any number is read.
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/**
True for an RFC 3339 UTC timestamp a `google.protobuf.Timestamp` can hold: years 0001–9999, a real calendar day, no leap second (`:60` has no Timestamp value), `Z` only, any number of fraction digits.

@example
```ts
isTimestamp('2026-03-12T10:00:00.123456Z'); // true
isTimestamp('2026-03-12T10:00:00+01:00');   // false
```
*/
export function isTimestamp(text: string): boolean {
  const match = TIMESTAMP.exec(text);
  if (match === null) {
    return false;
  }
  // A failed capture reads as NaN, which fails every comparison below.
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(year, month) &&
    Number(match[4]) <= 23 &&
    Number(match[5]) <= 59 &&
    Number(match[6]) <= 59
  );
}

/** A `google.protobuf.Timestamp` in its ProtoJSON form, kept as received (see {@link isTimestamp}). */
export const Timestamp = z.string().check((payload) => {
  if (!isTimestamp(payload.value)) {
    violate(payload, 'timestamp');
  }
});

/** A decoded timestamp: an RFC 3339 UTC string. */
export type Timestamp = z.infer<typeof Timestamp>;

/**
Orders two valid timestamps by instant: negative, zero or positive. Plain string order is wrong once fraction lengths differ (`…:00Z` sorts after `…:00.5Z`), so the fractions are compared digit by digit, the shorter padded with zeros.

@example
```ts
compareTimestamps('2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z'); // 0
compareTimestamps('2026-01-01T00:00:00.5Z', '2026-01-01T00:00:00.45Z') > 0; // true
```
*/
export function compareTimestamps(left: Timestamp, right: Timestamp): number {
  // The first 19 characters are fixed-width digits, so string order is time order there.
  const leftWhole = left.slice(0, 19);
  const rightWhole = right.slice(0, 19);
  if (leftWhole !== rightWhole) {
    return leftWhole < rightWhole ? -1 : 1;
  }
  const leftFraction = fraction(left);
  const rightFraction = fraction(right);
  const width = Math.max(leftFraction.length, rightFraction.length);
  const a = leftFraction.padEnd(width, '0');
  const b = rightFraction.padEnd(width, '0');
  return a < b ? -1 : a > b ? 1 : 0;
}

function fraction(timestamp: string): string {
  return timestamp.charAt(19) === '.' ? timestamp.slice(20, -1) : '';
}
