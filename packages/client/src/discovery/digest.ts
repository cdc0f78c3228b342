/**
@module
The agent card digest (docs/protocol-checks.md#card-trust): SHA-256 over the RFC 8785 canonical form of the
card's parsed JSON, so it names the card's content, not its bytes. WebCrypto only, so the same code runs in
browsers and Node.
*/

import { canonicalJson } from '../core/canonical-json.js';
import type { JsonValue } from '../core/json-value.js';

/**
The digest of a card as `'sha256:'` and 64 lowercase hex digits: SHA-256 over the UTF-8 bytes of
`canonicalJson(rawCard)`. Pass the whole parsed body, unknown members and `signatures` included, before any
decoding: the digest pins what the agent published, and member order or whitespace never change it.

`globalThis.crypto.subtle` is looked up on every call, so a polyfill installed after import is used.

@throws {CanonicalJsonError} when the value has no canonical form (see `canonicalJson`).
@throws {TypeError} when the platform has no WebCrypto `subtle` (a browser page outside a secure context).

@example
```ts
const digest = await cardDigest(parseJson(body));
if (digest !== pinned) { … } // pinned: 'sha256:9f86d0…'
```
*/
export async function cardDigest(rawCard: JsonValue): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(rawCard));
  const subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new TypeError('surecall: WebCrypto (crypto.subtle) is unavailable; a secure context is required');
  }
  const hash = new Uint8Array(await subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of hash) {
    hex += byte.toString(16).padStart(2, '0');
  }
  return `sha256:${hex}`;
}
