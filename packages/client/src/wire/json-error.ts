import type { Violation } from '../core/errors.js';

/**
Which rule a refused document broke.

- `too-large`: more than `maxBytes` UTF-8 bytes; checked before anything else.
- `invalid-utf8`: byte input that is not UTF-8 (RFC 8259 §8.1).
- `lone-surrogate`: an unpaired UTF-16 surrogate, escaped (`"\ud800"`) or raw in a string input. RFC 8259 §8.2
  leaves such strings unpredictable and I-JSON (RFC 7493 §2.1) forbids them; A2A ProtoJSON strings are UTF-8,
  where they cannot exist, and ids compared byte for byte must have one spelling. Noncharacters, which I-JSON
  also forbids, are accepted: they are well-formed UTF-8, and `JSON.parse` keeps them.
- `syntax`: anything RFC 8259 does not allow, a byte order mark included (§8.1 lets a parser refuse one).
- `trailing-data`: anything but whitespace after the value.
- `duplicate-key`: two members of one object with the same name after escapes are decoded (I-JSON §2.3).
- `depth`, `entries`, `values`, `string-length`, `key-length`: a bound of `JsonLimits` broken.
- `non-finite`: a number too large for a double (`1e400`).
- `unsafe-integer`: an integer beyond ±(2^53−1) (I-JSON §2.2). A number is an integer when it has neither
  fraction nor exponent, or when it has an exponent and its value is integral; `1.5e300` is one,
  `9007199254740993.5` is not.
*/
export type JsonRule =
  | 'too-large'
  | 'invalid-utf8'
  | 'lone-surrogate'
  | 'syntax'
  | 'trailing-data'
  | 'duplicate-key'
  | 'depth'
  | 'entries'
  | 'values'
  | 'string-length'
  | 'key-length'
  | 'non-finite'
  | 'unsafe-integer';

/**
A document refused by `parseJson`. Its fields point into the document without quoting it: `offset` is a UTF-8
byte offset, and `path` names an object key only when it is a plain identifier of at most 64 characters that
the caller's `knownKey` accepts (`$.tasks[3].history[0]`), otherwise `[*]` (`$.metadata[*]`): a key is the
peer's text.

@example
```ts
try {
  return parseJson(body, jsonLimitsFrom(limits));
} catch (error) {
  if (error instanceof JsonError) {
    throw new InvalidResponseError('json', { dispatched: true, violation: error.toViolation() });
  }
  throw error;
}
```
*/
export class JsonError extends Error {
  override readonly name = 'JsonError';
  readonly rule: JsonRule;
  /**
  The UTF-8 byte offset where the broken rule was detected: the start of the offending token, key or
  container.
  */
  readonly offset: number;
  /** Where in the document, e.g. `$.tasks[3].history[0]`. */
  readonly path: string;

  constructor(rule: JsonRule, offset: number, path: string) {
    super(`JSON refused: ${rule} at byte ${offset} (${path})`);
    this.rule = rule;
    this.offset = offset;
    this.path = path;
  }

  /** The public-safe pointer that `InvalidResponseError` carries. */
  toViolation(): Violation {
    return { rule: this.rule, offset: this.offset, path: this.path };
  }
}
