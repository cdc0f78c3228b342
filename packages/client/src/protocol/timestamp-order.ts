/**
@module
The order of two timestamps, read only by the checks of task pages and streams, so it loads with them
(`deferred.ts`, ARCHITECTURE.md#decisions, "Code loads with its first use"); the `Timestamp` schema is in
`timestamp.ts`.
*/
import type { Timestamp } from './timestamp.js';

/**
Orders two valid timestamps by instant: negative, zero or positive. Plain string order is wrong once fraction
lengths differ (`…:00Z` sorts after `…:00.5Z`), so the fractions are compared digit by digit, the shorter
padded with zeros.

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
