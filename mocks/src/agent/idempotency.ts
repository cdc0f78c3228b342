/**
@module
The agent's side of the idempotency extension: the key index of docs/idempotency.md#server-semantics and
docs/idempotency.md#what-the-tests-prove. The key rules themselves (the constants, `validateKey`, `keyOf`, the
refusal texts) are the client's, imported from `@surecall/client`, so the agent and the client can never
disagree on what a key is.
*/
import type { Message } from './wire.js';

/**
How the agent treats the a2a-rust idempotency key (`message.metadata['a2a-rust.com/idempotency-key']`;
docs/idempotency.md#what-the-tests-prove):
- `honouring`: keys are claimed per tenant before any work starts; an identical retry replays the first
  outcome, and the card advertises the extension;
- `refusing`: no key index; a keyed send is refused with UnsupportedOperation (-32004) and nothing runs, so a
  client's "no advertisement" path can be tested;
- `foreign`: the key is ignored entirely, like a server that never heard of the extension; a retry runs again.
*/
export type IdempotencyMode = 'honouring' | 'refusing' | 'foreign';

// The extension's URI (advertised in `capabilities.extensions` when honouring) is the client's own constant,
// not a copy.
export { idempotencyExtensionUri } from '@surecall/client/idempotency';

/** What the first send of a key produced, and so what every replay of it answers with. */
export type KeyOutcome =
  | { readonly kind: 'task'; readonly taskId: string }
  | { readonly kind: 'message'; readonly message: Message };

/** The answer to a claim. */
export type KeyClaim =
  /**
  The key was free: the caller runs the send, and calls `release` if it fails before the outcome exists.
  */
  | { readonly kind: 'claimed'; readonly release: () => void }
  /** The same message already holds the key: answer with its outcome, run nothing. */
  | { readonly kind: 'replay'; readonly outcome: KeyOutcome }
  /** Another message holds the key: refuse with InvalidParams. */
  | { readonly kind: 'conflict' }
  /** The tenant holds `capPerTenant` live keys: refuse as unavailable, run nothing. */
  | { readonly kind: 'full' };

/**
The server-side key index of docs/idempotency.md#server-semantics and
docs/idempotency.md#what-the-tests-prove: `(tenant, key) → (messageId, outcome, claimedAt)`.
*/
export type KeyIndex = {
  /**
  Claim `key` for `messageId` of `tenant`, whose send will produce `outcome`. Synchronous, so racing sends in
  one agent get exactly one `claimed` (§2.6). Identity is the messageId, never the content (§2.2).
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
A key index. Keys are scoped to the tenant only, never to the context (§2.5), and are never removed with their
task (§2.7): a retry after the task is gone finds the key and answers TaskNotFound instead of running again.

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
      // A key past its TTL is free again: the retry that arrives later is treated as a new send
      // (docs/idempotency.md#key-lifetime).
      keys.delete(key);
      sweep(keys, at, false);
      if (keys.size >= capPerTenant) {
        // A clock that went backwards can leave expired keys behind live ones; look at every key before
        // refusing.
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
