const timestampPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/;

/**
Milliseconds of a ProtoJSON Timestamp: RFC 3339 in UTC with `Z` and 0–9 fractional digits (A2A spec §5.6.1).
Digits below the millisecond round the bound up, since every task timestamp here is a whole millisecond and
the bound is inclusive.

@example
```ts
parseTimestamp('2026-01-01T00:00:00.0005Z'); // Date.UTC(2026, 0, 1) + 1
```
*/
export function parseTimestamp(value: string): number | undefined {
  const match = timestampPattern.exec(value);
  if (match === null) {
    return undefined;
  }
  const [, year, month, day, hour, minute, second, fraction = ''] = match;
  const ms = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
  );
  const date = new Date(ms);
  // Date.UTC rolls 2026-02-30 over to March; a real date survives the round trip.
  if (
    date.getUTCFullYear() !== Number(year) ||
    date.getUTCMonth() !== Number(month) - 1 ||
    date.getUTCDate() !== Number(day) ||
    date.getUTCHours() !== Number(hour) ||
    date.getUTCMinutes() !== Number(minute)
  ) {
    return undefined;
  }
  const digits = fraction.padEnd(9, '0');
  const millis = Number(digits.slice(0, 3));
  const below = Number(digits.slice(3));
  return ms + millis + (below > 0 ? 1 : 0);
}
