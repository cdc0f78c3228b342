/**
@module
The `Retry-After` header of an error answer, read only when a refusal is decoded (`bindings/remote-error.ts`),
so it loads with that decoding (`deferred.ts`).
*/

// RFC 9110, §5.6.7: the IMF-fixdate form of an HTTP-date, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
const imfFixdate =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-3][0-9] (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-2][0-9]:[0-5][0-9]:[0-6][0-9] GMT$/;

/**
Reads a `Retry-After` header (RFC 9110, §10.2.3) as milliseconds from `now`: delay-seconds (`120`), or an
IMF-fixdate, where a date in the past means 0. Anything else, an absent header, several values (joined with
commas by `Headers`) or an obsolete date form, is `undefined`: a retry then uses its own backoff.

@example
```ts
parseRetryAfter('2', Date.now()); // 2000
parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT')); // 60000
```
*/
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) {
    return undefined;
  }
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) {
    const ms = Number(text) * 1000;
    return Number.isSafeInteger(ms) ? ms : undefined;
  }
  if (!imfFixdate.test(text)) {
    return undefined;
  }
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
