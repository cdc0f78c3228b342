import type * as z from 'zod/mini';
import { protoString, violate } from './scalars.js';

// A2A spec §5.6.1: UTC, ending in `Z`, no other offset; the spec's own examples use 0, 3 and 6 fraction
// digits, so any number is read.
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/**
True for an RFC 3339 UTC timestamp a `google.protobuf.Timestamp` can hold: years 0001–9999, a real calendar
day, no leap second (`:60` has no Timestamp value), `Z` only, any number of fraction digits.

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
export const Timestamp = protoString().check((payload) => {
  if (!isTimestamp(payload.value)) {
    violate(payload, 'timestamp');
  }
});

/** A decoded timestamp: an RFC 3339 UTC string. */
export type Timestamp = z.infer<typeof Timestamp>;
