/**
@module
The a2a-rust idempotency extension (docs/idempotency.md#keys), byte-for-byte: a key travels in
`message.metadata['a2a-rust.com/idempotency-key']`, the extension's URI is declared in `message.extensions`,
and a peer that honours keys says so on its card. An honouring peer answers a re-sent keyed message with the
task the first send created, so the agent runs once.

Everything here is pure and synchronous: where a2a-rust returns a `Result`, these functions return a
{@link KeyResult} and never throw.
*/
import type { AgentCard } from '../protocol/agent-card.js';

/** The extension's URI, exactly as a2a-rust spells it (docs/idempotency.md#keys); compared byte for byte. */
export const idempotencyExtensionUri = 'https://a2a-rust.com/extensions/idempotency/v1';

/** The `message.metadata` entry that carries the key (docs/idempotency.md#keys). */
export const idempotencyMetadataKey = 'a2a-rust.com/idempotency-key';

/** The shortest key, in UTF-8 bytes: long enough to be a key rather than a counter or a word. */
export const minKeyLength = 16;

/** The longest key, in UTF-8 bytes. */
export const maxKeyLength = 255;

/**
Why a key was refused, named as a2a-rust's `KeyError` variants (docs/idempotency.md#keys): `TooShort` and
`TooLong` count UTF-8 bytes, `InvalidCharacter` is any byte outside ASCII letters, digits and `- _ . :`,
`NotAString` is a metadata value that is not a JSON string (`null` included).
*/
export type KeyError = 'TooShort' | 'TooLong' | 'InvalidCharacter' | 'NotAString';

/**
The display text of each {@link KeyError}, word for word a2a-rust's: its server sends it as the JSON-RPC error
message when it refuses a key (docs/idempotency.md#keys). Each names the rule it enforces.

@example
```ts
keyErrorText.TooLong; // 'idempotency key must be at most 255 bytes'
```
*/
export const keyErrorText: Readonly<Record<KeyError, string>> = /* @__PURE__ */ Object.freeze({
  TooShort: 'idempotency key must be at least 16 bytes; generate it from a CSPRNG, not from message content',
  TooLong: 'idempotency key must be at most 255 bytes',
  InvalidCharacter: 'idempotency key accepts only ASCII alphanumerics and `-`, `_`, `.`, `:`',
  NotAString: '`a2a-rust.com/idempotency-key` must be a JSON string',
});

/**
The outcome of a key function: the value, or the rule the key broke (CONTRIBUTING.md#parsers, with `?: never`
on the other arm).
*/
export type KeyResult<T> =
  | { readonly ok: true; readonly value: T; readonly error?: never }
  | { readonly ok: false; readonly error: KeyError; readonly value?: never };

/** The parts of a message the extension reads and writes; a `Message` is one. */
export type KeyedMessage = { metadata?: unknown; extensions?: unknown };

/** Random bytes per generated key: 16, the floor docs/idempotency.md#keys sets for a CSPRNG key. */
const KEY_RANDOM_BYTES = 16;
const encoder = new TextEncoder();

function isKeyByte(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) || // 0-9
    (byte >= 0x41 && byte <= 0x5a) || // A-Z
    (byte >= 0x61 && byte <= 0x7a) || // a-z
    byte === 0x2d || // -
    byte === 0x5f || // _
    byte === 0x2e || // .
    byte === 0x3a // :
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
A fresh key: 16 bytes from `crypto.getRandomValues`, as 32 lowercase hex digits. A key is the handle to a task
within a tenant, so it must be unguessable and never derived from message content (docs/idempotency.md#keys).

@example
```ts
const key = newIdempotencyKey(); // e.g. '8f14e45fceea167a5a36dedd4bea2543'
```
*/
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(KEY_RANDOM_BYTES));
  let key = '';
  for (const byte of bytes) {
    key += byte.toString(16).padStart(2, '0');
  }
  return key;
}

/**
Checks a key against the rules in a2a-rust's order (docs/idempotency.md#keys): at least {@link MIN_KEY_LEN}
and at most {@link MAX_KEY_LEN} UTF-8 bytes, then every byte an ASCII letter or digit or one of `- _ . :`.
Lengths are bytes, not UTF-16 units, so fifteen `a`s and an `é` are 17 bytes and `InvalidCharacter`, exactly
as in Rust. A non-string is `NotAString`.

@example
```ts
validateKey('tenant-a:8f14e45fceea167a'); // { ok: true, value: 'tenant-a:8f14e45fceea167a' }
validateKey('retry'); // { ok: false, error: 'TooShort' }
validateKey('aaaaaaaaaaaaaaaa\n'); // { ok: false, error: 'InvalidCharacter' }
```
*/
export function validateKey(key: string): KeyResult<string> {
  if (typeof key !== 'string') {
    return { ok: false, error: 'NotAString' };
  }
  // Every UTF-16 unit is at least one UTF-8 byte: a string this long is too long whatever it holds, and is
  // never encoded.
  if (key.length > maxKeyLength) {
    return { ok: false, error: 'TooLong' };
  }
  const bytes = encoder.encode(key);
  if (bytes.length < minKeyLength) {
    return { ok: false, error: 'TooShort' };
  }
  if (bytes.length > maxKeyLength) {
    return { ok: false, error: 'TooLong' };
  }
  // A key reaches store keys and log lines; a newline in either is where log injection starts
  // (docs/idempotency.md#keys).
  return bytes.every(isKeyByte) ? { ok: true, value: key } : { ok: false, error: 'InvalidCharacter' };
}

/**
Reads a message's key (docs/idempotency.md#keys). No `metadata`, a `metadata` that is not an object, or no
entry: `{ ok: true, value: undefined }`, which is normal. An entry that is not a string, `null` included
(present, not absent): `NotAString`. A string that breaks a rule: that rule's error. Whether the message
declares the URI does not matter.

@example
```ts
keyOf({ metadata: { 'a2a-rust.com/idempotency-key': '8f14e45fceea167a5a36dedd4bea2543' } }); // { ok: true, value: '8f14…' }
keyOf({ metadata: { 'a2a-rust.com/idempotency-key': null } }); // { ok: false, error: 'NotAString' }
keyOf({}); // { ok: true, value: undefined }
```
*/
export function keyOf(message: Readonly<KeyedMessage>): KeyResult<string | undefined> {
  const { metadata } = message;
  if (!isObject(metadata) || !Object.hasOwn(metadata, idempotencyMetadataKey)) {
    return { ok: true, value: undefined };
  }
  const value = metadata[idempotencyMetadataKey];
  return typeof value === 'string' ? validateKey(value) : { ok: false, error: 'NotAString' };
}

/**
Writes `key` into `message`, in place, exactly as a2a-rust's `set_key` (docs/idempotency.md#keys):

1. the key is validated first, and on an error the message is left untouched (no metadata created, no URI
   added);
2. absent `metadata` is created as `{}`, and `metadata` that is not an object is replaced by `{}`;
3. the key overwrites whatever the entry held, a non-string included, and other entries are kept;
4. `extensions` is created when absent (or not a list), and the URI is appended only if it is not listed yet,
   so two calls leave one URI and the newer key.

@example
```ts
const message: Message = { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'summarise the incident' }] };
const result = setKey(message, newIdempotencyKey());
if (!result.ok) throw new Error(result.error);
message.extensions; // ['https://a2a-rust.com/extensions/idempotency/v1']
```
*/
export function setKey(message: KeyedMessage, key: string): KeyResult<string> {
  const valid = validateKey(key);
  if (!valid.ok) {
    return valid;
  }
  const metadata = isObject(message.metadata) ? message.metadata : {};
  metadata[idempotencyMetadataKey] = key;
  message.metadata = metadata;
  // `extensions` can carry no value, which is why the key itself lives in metadata
  // (docs/idempotency.md#keys).
  const extensions = Array.isArray(message.extensions) ? (message.extensions as unknown[]) : [];
  if (!extensions.includes(idempotencyExtensionUri)) {
    extensions.push(idempotencyExtensionUri);
  }
  message.extensions = extensions;
  return valid;
}

/**
Whether the message lists the extension's URI in `extensions` (a2a-rust's `declares_extension`). A peer
honours a key whether or not it is declared; this only reports the declaration.

@example
```ts
declaresExtension({ extensions: ['https://a2a-rust.com/extensions/idempotency/v1'] }); // true
```
*/
export function declaresExtension(message: Readonly<KeyedMessage>): boolean {
  return Array.isArray(message.extensions) && message.extensions.includes(idempotencyExtensionUri);
}

/**
Whether the agent card says its agent honours keys: some entry of `capabilities.extensions` has exactly the
URI {@link idempotencyExtensionUri} (docs/idempotency.md#honouring-peers). The entry's `required`,
`description` and `params` are ignored. This is the only evidence the client accepts: a conformant server that
never heard of the extension ignores the metadata and runs a re-sent message again, and `A2A-Extensions` is a
report, not a demand it must refuse.

@example
```ts
const client = createClient({ card, cardDigest, pin, security, retry: {} });
honoursIdempotency(card) === client.honoursIdempotency; // true unless `peerHonoursIdempotency` says otherwise
```
*/
export function honoursIdempotency(card: AgentCard): boolean {
  return card.capabilities.extensions.some((extension) => extension.uri === idempotencyExtensionUri);
}
