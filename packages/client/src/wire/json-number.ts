/**
@module
The value of a long JSON number token, computed in memory bounded by a constant
(docs/protocol-checks.md#bounded-json): the scanner (`json-scanner.ts`) hands a token longer than a few dozen
bytes here instead of turning it into text whole.
*/

const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
// Correct rounding to a double never depends on more than 768 significant decimal digits: every halfway point
// between two doubles has at most that many. Keeping more, and one nonzero digit for any nonzero rest, keeps
// the value `Number` gives exactly.
const keptDigits = 800;
// An exponent beyond this decides the value alone (0 or Infinity) whatever the digits: a document holds fewer
// than 2^28 of them.
const exponentCeiling = 1_000_000_000;

/**
`Number` of the number token `bytes[start, end)` (already validated), in memory bounded by a constant rather
than the token's length: leading zeros dropped, at most {@link keptDigits} significant digits kept, a single
`1` standing for any nonzero digits after them, and the exponent adjusted to match.

@example
```ts
longNumber(new TextEncoder().encode('9'.repeat(2_000_000)), 0, 2_000_000); // Infinity, from an 801-character text
```
*/
export function longNumber(bytes: Uint8Array, start: number, end: number): number {
  let at = start;
  const negative = bytes[at] === MINUS;
  if (negative) {
    at++;
  }
  let kept = '';
  let keptCount = 0;
  // Significant digits read, and how many of them sit after the decimal point.
  let significant = 0;
  let fractionDigits = 0;
  let inFraction = false;
  let sticky = false;
  let chunk = '';
  for (; at < end; at++) {
    const byte = bytes[at] ?? 0;
    if (byte === DOT) {
      inFraction = true;
      continue;
    }
    if (byte < ZERO || byte > NINE) {
      break;
    }
    if (inFraction) {
      fractionDigits++;
    }
    if (significant === 0 && byte === ZERO) {
      continue;
    }
    significant++;
    if (keptCount < keptDigits) {
      chunk += String.fromCharCode(byte);
      keptCount++;
      if (chunk.length === 64) {
        kept += chunk;
        chunk = '';
      }
    } else if (byte !== ZERO) {
      sticky = true;
    }
  }
  kept += chunk;
  let exponent = 0;
  if (at < end) {
    // `e` or `E`, an optional sign, digits: saturated, since a larger exponent cannot change the outcome.
    at++;
    const exponentSign = bytes[at] === MINUS ? -1 : 1;
    if (bytes[at] === MINUS || bytes[at] === PLUS) {
      at++;
    }
    for (; at < end; at++) {
      exponent = Math.min(exponentCeiling, exponent * 10 + ((bytes[at] ?? ZERO) - ZERO));
    }
    exponent *= exponentSign;
  }
  if (significant === 0) {
    return negative ? -0 : 0;
  }
  // value = kept × 10^(dropped digits) × 10^(exponent − fraction digits).
  let scale = exponent - fractionDigits + (significant - keptCount);
  if (sticky) {
    kept += '1';
    scale -= 1;
  }
  return Number(`${negative ? '-' : ''}${kept}e${scale}`);
}
