/**
@module
How a path into a document (a violation's, a remote skill's issue) may show an object key
(ARCHITECTURE.md#errors, `redact.violation-path` in docs/protocol-checks.md#redaction): by name only when it
is a plain identifier of at most 64 characters and the layer building the path knows it is not the peer's
text; every other key reads `[*]`. A plain identifier holds no line break, escape sequence, `.`, `[` or bidi
control, so a path stays one unambiguous line; a key the peer chose may echo a credential back, so it is never
shown, however plain it looks.
*/

/**
The longest key a path names.

@example
```ts
isPlainKey('a'.repeat(maxNamedKeyLength + 1)); // false
```
*/
export const maxNamedKeyLength = 64;

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
What a key a path does not name reads.

@example
```ts
`$${maskedKey}`; // '$[*]'
```
*/
export const maskedKey = '[*]';

/**
Whether a key is plain enough for a path to name: an ASCII identifier of at most {@link maxNamedKeyLength}
characters. It says nothing of whose key it is; the caller decides that.

@example
```ts
isPlainKey('price'); // true
isPlainKey('a.b'); // false: the path would read as two members
isPlainKey('line\nbreak'); // false
```
*/
export function isPlainKey(key: string): boolean {
  return key.length <= maxNamedKeyLength && identifier.test(key);
}

/**
An array index as a path shows it: `[n]` for a non-negative safe integer, {@link maskedKey} for anything else.

@example
```ts
indexSegment(2); // '[2]'
indexSegment(-1); // '[*]'
```
*/
export function indexSegment(index: number): string {
  return Number.isSafeInteger(index) && index >= 0 ? `[${index}]` : maskedKey;
}
