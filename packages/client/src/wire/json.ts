import type { JsonValue } from '../core/json-value.js';
import { defaultLimits, type Limits } from '../core/limits.js';
import { invalidUtf8Offset, loneSurrogateIndex } from '../core/utf8.js';
import { JsonError } from './json-error.js';
import { type JsonLimits, type KnownKey, Scanner } from './json-scanner.js';

// The error and its rules have their own module so that the scanner, which raises them, needs nothing from
// this one at run time; callers keep importing them from here.
export { JsonError, type JsonRule } from './json-error.js';
export type { JsonLimits, KnownKey } from './json-scanner.js';

/**
The JSON bounds of a resolved limits table; the document ceiling is the unary response body ceiling.

@example
```ts
const value = parseJson(bytes, jsonLimitsFrom(resolveLimits({ jsonDepth: 16 })));
```
*/
export function jsonLimitsFrom(limits: Limits): JsonLimits {
  return Object.freeze({
    jsonDepth: limits.jsonDepth,
    jsonEntries: limits.jsonEntries,
    jsonValues: limits.jsonValues,
    jsonStringBytes: limits.jsonStringBytes,
    jsonKeyBytes: limits.jsonKeyBytes,
    maxBytes: limits.responseBodyBytes,
  });
}

const defaultJsonLimits = jsonLimitsFrom(defaultLimits);
const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/**
Parses one JSON document under strict bounds: every rule of {@link JsonRule} is checked in one pass over the
UTF-8 bytes, and the native `JSON.parse` then builds the value, so the result is exactly what `JSON.parse`
returns (`__proto__` keys become own data properties). Byte input must be UTF-8 without a byte order mark.

A refusal's path names array indexes, and an object key only when `knownKey` accepts it (the protocol's own
member names, passed in by the layer that knows them); every other key reads `[*]`, since a key is the peer's
text and may echo a credential. Without `knownKey` no key is named.

@throws {JsonError} for the first broken rule in document order (after `too-large` and the encoding checks,
  which come first).

@example
```ts
const page = parseJson(await response.bytes(), jsonLimitsFrom(limits));
parseJson('{"a":1,"\\u0061":2}'); // JsonError: duplicate-key at byte 7 ($[*])
parseJson('{"a":1,"\\u0061":2}', undefined, (key) => key === 'a'); // JsonError: duplicate-key at byte 7 ($.a)
```
*/
export function parseJson(
  input: Uint8Array | string,
  limits: JsonLimits = defaultJsonLimits,
  knownKey?: KnownKey,
): JsonValue {
  if (typeof input === 'string') {
    // A string's UTF-8 form is never shorter than its UTF-16 length, so the cheap test refuses the worst
    // cases before any work.
    if (input.length > limits.maxBytes) {
      throw new JsonError('too-large', limits.maxBytes, '$');
    }
    const bytes = encoder.encode(input);
    if (bytes.length > limits.maxBytes) {
      throw new JsonError('too-large', limits.maxBytes, '$');
    }
    const index = loneSurrogateIndex(input);
    if (index >= 0) {
      throw new JsonError('lone-surrogate', encoder.encode(input.slice(0, index)).length, '$');
    }
    new Scanner(bytes, limits, knownKey).run();
    return JSON.parse(input) as JsonValue;
  }
  if (input.length > limits.maxBytes) {
    throw new JsonError('too-large', limits.maxBytes, '$');
  }
  let text: string;
  try {
    text = fatalDecoder.decode(input);
  } catch {
    throw new JsonError('invalid-utf8', invalidUtf8Offset(input), '$');
  }
  new Scanner(input, limits, knownKey).run();
  return JSON.parse(text) as JsonValue;
}
