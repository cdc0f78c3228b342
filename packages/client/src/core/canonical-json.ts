/**
@module
RFC 8785, the JSON Canonicalization Scheme (JCS): one exact text for one JSON value, whatever the member
order, whitespace or number spelling of the document it came from. The card digest hashes it
(docs/protocol-checks.md#card-trust), and A2A spec §8.4 signs over it.
*/

import type { JsonValue } from './json-value.js';
import { loneSurrogateIndex } from './utf8.js';

/**
Why a value has no canonical form.

- `non-finite`: `NaN` or an infinity; JSON has no such number (RFC 8785 §3.2.2.3).
- `lone-surrogate`: a string or member name holding an unpaired UTF-16 surrogate; JCS input must be I-JSON
  (RFC 8785 §3.1, RFC 7493 §2.1), and such a string has no UTF-8 form to hash.
- `not-json`: anything `JSON.parse` cannot produce, such as `undefined`, a function or a BigInt, at any depth.
*/
export type CanonicalJsonReason = 'non-finite' | 'lone-surrogate' | 'not-json';

/** A value that has no RFC 8785 canonical form. The message names the reason only, never the value. */
export class CanonicalJsonError extends Error {
  override readonly name = 'CanonicalJsonError';
  readonly kind = 'canonical-json';
  readonly reason: CanonicalJsonReason;
  constructor(reason: CanonicalJsonReason) {
    super(`surecall: the value has no canonical JSON form (${reason})`);
    this.reason = reason;
  }
}

// Printable ASCII other than `"` and `\`: written as it is between quotes (RFC 8785 §3.2.2.2 escapes none of
// it), which spares most ids, labels and digests the general path.
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function string(text: string): string {
  if (PLAIN.test(text)) {
    return `"${text}"`;
  }
  if (loneSurrogateIndex(text) !== -1) {
    throw new CanonicalJsonError('lone-surrogate');
  }
  // RFC 8785 §3.2.2.2: the escaping is exactly ECMAScript's JSON.stringify (\b \t \n \f \r, other controls as
  // lowercase \u00xx, `"` and `\`; everything else as is).
  return JSON.stringify(text);
}

/**
RFC 8785 §3.2.3: member names sort by their UTF-16 code units, which is what `<` compares on strings. The few
names of an object are sorted in place by insertion, which allocates nothing (`Array.prototype.sort` copies
into a work array on every call, a large share of what a ledger commit allocates); many names go through
`sort`, whose default order is the same (ECMA-262 §23.1.3.30.2).
*/
function sortedNames(names: string[]): string[] {
  if (names.length > 16) {
    return names.sort();
  }
  for (let index = 1; index < names.length; index++) {
    const name = names[index] as string;
    let at = index - 1;
    while (at >= 0 && (names[at] as string) > name) {
      names[at + 1] = names[at] as string;
      at--;
    }
    names[at + 1] = name;
  }
  return names;
}

function write(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return string(value);
    case 'number':
      if (!Number.isFinite(value)) {
        throw new CanonicalJsonError('non-finite');
      }
      // RFC 8785 §3.2.2.3: ECMAScript Number-to-String, which JSON.stringify applies (`-0` becomes `0`,
      // `1e21` `1e+21`).
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) {
        return 'null';
      }
      // Plain concatenation: V8 builds these as ropes, cheaper than the arrays map and join allocate on the
      // ledger's hot path.
      if (Array.isArray(value)) {
        let text = '[';
        for (let index = 0; index < value.length; index++) {
          text += index === 0 ? write(value[index]) : `,${write(value[index])}`;
        }
        return `${text}]`;
      }
      const members = value as Readonly<Record<string, unknown>>;
      const names = sortedNames(Object.keys(members));
      let text = '{';
      for (let index = 0; index < names.length; index++) {
        const name = names[index] as string;
        text += `${index === 0 ? '' : ','}${string(name)}:${write(members[name])}`;
      }
      return `${text}}`;
    }
    default:
      throw new CanonicalJsonError('not-json');
  }
}

/**
The RFC 8785 canonical text of a JSON value: members sorted by the UTF-16 code units of their names, no
whitespace, strings escaped as `JSON.stringify` does, numbers in their shortest ECMAScript form. Two values
that `JSON.parse` reads alike, whatever their member order or number spelling, give the same text.

Integers beyond ±(2^53−1) are canonicalized as the doubles they became when parsed (RFC 8785 §3.2.2.3); the
bounded JSON parser refuses them before that can happen (docs/protocol-checks.md#bounded-json).

@throws {CanonicalJsonError} for `NaN`, an infinity, an unpaired surrogate, or a value JSON cannot hold.

@example
```ts
canonicalJson({ b: [1.0, -0, 1e21], a: 'é' }); // '{"a":"é","b":[1,0,1e+21]}'
```
*/
export function canonicalJson(value: JsonValue): string {
  return write(value);
}
