import type { Message } from './wire.js';

/**
How the agent treats the a2a-rust idempotency key (`message.metadata['a2a-rust.com/idempotency-key']`; idempotency digest §8 "Mock server"):
- `honouring`: keys are claimed per tenant before any work starts; an identical retry replays the first outcome, and the card advertises the extension;
- `refusing`: no key index; a keyed send is refused with UnsupportedOperation (-32004) and nothing runs, so a client's "no advertisement" path can be tested;
- `foreign`: the key is ignored entirely, like a server that never heard of the extension; a retry runs again.
*/
export type IdempotencyMode = 'honouring' | 'refusing' | 'foreign';

/** The extension's URI, advertised in `capabilities.extensions` when honouring (idempotency digest §1.1). */
export const idempotencyExtensionUri = 'https://a2a-rust.com/extensions/idempotency/v1';

/** Where the key travels: this entry of `message.metadata` (idempotency digest §1.1). */
export const idempotencyMetadataKey = 'a2a-rust.com/idempotency-key';

/** Why a key was refused (idempotency digest §1.2–§1.3), in the order the rules are checked. */
export type KeyProblem = 'too-short' | 'too-long' | 'invalid-character' | 'not-a-string';

/** The refusal text of each problem, word for word the a2a-rust `KeyError` display, which its server sends as the JSON-RPC error message. */
export const keyProblemText: Readonly<Record<KeyProblem, string>> = Object.freeze({
  'too-short':
    'idempotency key must be at least 16 bytes; generate it from a CSPRNG, not from message content',
  'too-long': 'idempotency key must be at most 255 bytes',
  'invalid-character': 'idempotency key accepts only ASCII alphanumerics and `-`, `_`, `.`, `:`',
  'not-a-string': '`a2a-rust.com/idempotency-key` must be a JSON string',
});

const minKeyBytes = 16;
const maxKeyBytes = 255;
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

/**
The first rule a key breaks, or `undefined` for a valid key. Lengths are UTF-8 bytes and the character rule is checked byte by byte, as in a2a-rust: fourteen `a`s and an `é` are 16 bytes, so `invalid-character`, where counting UTF-16 units would say `too-short` (idempotency digest §1.2).

@example
```ts
validateIdempotencyKey('run_8f14e45fceea167a'); // undefined
validateIdempotencyKey('retry'); // 'too-short'
validateIdempotencyKey('aaaaaaaaaaaaaaaa/'); // 'invalid-character'
```
*/
export function validateIdempotencyKey(key: string): KeyProblem | undefined {
  const bytes = encoder.encode(key);
  if (bytes.length < minKeyBytes) {
    return 'too-short';
  }
  if (bytes.length > maxKeyBytes) {
    return 'too-long';
  }
  return bytes.every(isKeyByte) ? undefined : 'invalid-character';
}

/** What a message says about its key. */
export type KeyReading =
  | { readonly kind: 'none' }
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'invalid'; readonly problem: KeyProblem };

/**
The key a message carries (idempotency digest §1.4): none when `metadata` is absent, not an object, or has no entry; `not-a-string` for any other JSON value, `null` included; otherwise the key, checked by {@link validateIdempotencyKey}. Whether the message lists the extension URI does not matter.

@example
```ts
readIdempotencyKey({ metadata: { 'a2a-rust.com/idempotency-key': 42 } }); // { kind: 'invalid', problem: 'not-a-string' }
```
*/
export function readIdempotencyKey(message: { readonly metadata?: unknown }): KeyReading {
  const metadata = message.metadata;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    return { kind: 'none' };
  }
  if (!Object.hasOwn(metadata, idempotencyMetadataKey)) {
    return { kind: 'none' };
  }
  const value: unknown = (metadata as Record<string, unknown>)[idempotencyMetadataKey];
  if (typeof value !== 'string') {
    return { kind: 'invalid', problem: 'not-a-string' };
  }
  const problem = validateIdempotencyKey(value);
  return problem === undefined ? { kind: 'key', key: value } : { kind: 'invalid', problem };
}

/** What the first send of a key produced, and so what every replay of it answers with. */
export type KeyOutcome =
  | { readonly kind: 'task'; readonly taskId: string }
  | { readonly kind: 'message'; readonly message: Message };

/** The answer to a claim. */
export type KeyClaim =
  /** The key was free: the caller runs the send, and calls `release` if it fails before the outcome exists. */
  | { readonly kind: 'claimed'; readonly release: () => void }
  /** The same message already holds the key: answer with its outcome, run nothing. */
  | { readonly kind: 'replay'; readonly outcome: KeyOutcome }
  /** Another message holds the key: refuse with InvalidParams. */
  | { readonly kind: 'conflict' }
  /** The tenant holds `capPerTenant` live keys: refuse as unavailable, run nothing. */
  | { readonly kind: 'full' };

/** The server-side key index of idempotency digest §2 and §8: `(tenant, key) → (messageId, outcome, claimedAt)`. */
export type KeyIndex = {
  /**
  Claim `key` for `messageId` of `tenant`, whose send will produce `outcome`. Synchronous, so racing sends in one agent get exactly one `claimed` (§2.6). Identity is the messageId, never the content (§2.2).
  */
  claim(tenant: string, key: string, messageId: string, outcome: KeyOutcome): KeyClaim;
  /** Live and expired-but-unswept keys held for a tenant. */
  size(tenant: string): number;
};

/** How long keys live and how many a tenant may hold. */
export type KeyIndexOptions = {
  /** A key older than this is free again; checked at claim time, and a replay never refreshes it. */
  readonly ttlMs: number;
  /** Live keys per tenant; a new key past this is refused. */
  readonly capPerTenant: number;
  /** The clock of `claimedAt`. */
  readonly now: () => number;
};

type Holder = { readonly messageId: string; readonly outcome: KeyOutcome; readonly claimedAt: number };

/**
A key index. Keys are scoped to the tenant only, never to the context (§2.5), and are never removed with their task (§2.7): a retry after the task is gone finds the key and answers TaskNotFound instead of running again.

@example
```ts
const keys = createKeyIndex({ ttlMs: 86_400_000, capPerTenant: 100_000, now: Date.now });
const claim = keys.claim('', key, 'm-1', { kind: 'task', taskId: 't-1' }); // { kind: 'claimed', … }
keys.claim('', key, 'm-1', { kind: 'task', taskId: 't-2' }); // { kind: 'replay', outcome: { kind: 'task', taskId: 't-1' } }
keys.claim('', key, 'm-2', { kind: 'task', taskId: 't-3' }); // { kind: 'conflict' }
```
*/
export function createKeyIndex(options: KeyIndexOptions): KeyIndex {
  const { ttlMs, capPerTenant, now } = options;
  // Per tenant, in claim order, so expired keys are found at the front.
  const tenants = new Map<string, Map<string, Holder>>();

  const expired = (holder: Holder, at: number): boolean => at - holder.claimedAt >= ttlMs;

  function sweep(keys: Map<string, Holder>, at: number, everything: boolean): void {
    for (const [key, holder] of keys) {
      if (expired(holder, at)) {
        keys.delete(key);
      } else if (!everything) {
        return;
      }
    }
  }

  return {
    claim(tenant, key, messageId, outcome) {
      const at = now();
      let keys = tenants.get(tenant);
      if (keys === undefined) {
        keys = new Map();
        tenants.set(tenant, keys);
      }
      const held = keys.get(key);
      if (held !== undefined && !expired(held, at)) {
        return held.messageId === messageId
          ? { kind: 'replay', outcome: held.outcome }
          : { kind: 'conflict' };
      }
      // A key past its TTL is free again: the retry that arrives later is treated as a new send (idempotency digest §2.7).
      keys.delete(key);
      sweep(keys, at, false);
      if (keys.size >= capPerTenant) {
        // A clock that went backwards can leave expired keys behind live ones; look at every key before refusing.
        sweep(keys, at, true);
      }
      if (keys.size >= capPerTenant) {
        return { kind: 'full' };
      }
      const holder: Holder = { messageId, outcome, claimedAt: at };
      keys.set(key, holder);
      const tenantKeys = keys;
      return {
        kind: 'claimed',
        release: () => {
          // Only this claim is released: after a TTL expiry the key may already belong to a newer send.
          if (tenantKeys.get(key) === holder) {
            tenantKeys.delete(key);
          }
        },
      };
    },
    size: (tenant) => tenants.get(tenant)?.size ?? 0,
  };
}
