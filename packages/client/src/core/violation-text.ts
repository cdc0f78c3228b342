/**
@module
The words an error message gives a `Violation`: where (its path, which holds indices and the protocol's own
member names only) and what the rule asks, phrased so a user can act on it. Nothing here comes from the peer.
The rules and their sources are listed in docs/protocol-checks.md.
*/
/** A public-safe pointer into a refused response: never its content. */
export type Violation = {
  readonly rule: string;
  readonly offset?: number;
  readonly path?: string;
};

// What each rule asks of the value at the path. A rule missing here is named as it is.
const ruleText: Readonly<Record<string, string>> = {
  // Bounded JSON (docs/protocol-checks.md#bounded-json)
  'too-large': 'is larger than the body bound',
  'invalid-utf8': 'is not UTF-8',
  'lone-surrogate': 'holds an unpaired UTF-16 surrogate',
  syntax: 'is not JSON',
  'trailing-data': 'has data after the JSON value',
  'duplicate-key': 'names one member twice (a JSON name twice, or the JSON and the proto name of one field)',
  depth: 'nests deeper than the depth bound',
  entries: 'holds more entries than the container bound',
  values: 'holds more values than the document bound',
  'string-length': 'holds a string longer than the string bound',
  'key-length': 'holds a member name longer than the string bound',
  'non-finite': 'holds a number too large for a double',
  'unsafe-integer': 'holds an integer beyond ±(2^53−1)',
  // Schemas (docs/protocol-checks.md#protojson)
  required: 'is required and missing (absent, null or its default)',
  invalid_type: 'has the wrong JSON type',
  empty: 'must not be empty',
  'max-bytes': 'is longer than its byte bound',
  whitespace: 'must not start or end with white space',
  'control-character': 'must not hold control characters',
  'min-items': 'holds too few elements',
  'max-items': 'holds more elements than its bound',
  'max-entries': 'holds more entries than its bound',
  unique: 'repeats an earlier element',
  integer: 'must be an integer',
  range: 'is out of range',
  enum: 'is no value of its enum',
  unspecified: 'must not be the *_UNSPECIFIED value',
  'oneof-none': 'must hold one member of its oneof, holds none',
  'oneof-many': 'must hold one member of its oneof, holds several',
  'oneof-unknown': 'holds no member this answer may carry',
  timestamp: 'must be a UTC timestamp ending in Z',
  url: 'must be an absolute URL with a host and no userinfo',
  uri: 'must be an absolute URI (RFC 3986)',
  'media-type': 'must be a media type (RFC 9110 §8.3.1)',
  base64: 'must be base64',
  json: 'must be serializable JSON',
  'auth-required-message': 'must carry a message saying what authorization is needed',
  role: 'has the wrong role for its sender',
  'interface-url': 'must be an absolute URL for a binding this client speaks',
  'unknown-security-scheme': 'names a security scheme the card does not declare',
};

/**
`$.tasks[0].status.state is required and missing (absent, null or its default)`: the violation in words, or
`undefined` without one.

@example
```ts
violationText({ rule: 'url', path: '$.capabilities.extensions[0].uri' }); // '$.capabilities.extensions[0].uri must be an absolute URL …'
```
*/
export function violationText(violation: Violation | undefined): string | undefined {
  if (violation === undefined) {
    return undefined;
  }
  const where = violation.path ?? (violation.offset === undefined ? '$' : `byte ${violation.offset}`);
  const text = Object.hasOwn(ruleText, violation.rule) ? ruleText[violation.rule] : undefined;
  return `${where} ${text ?? `breaks rule ${violation.rule}`}`;
}
