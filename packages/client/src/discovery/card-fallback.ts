/**
@module
Whether a failed card request is worth asking once more without `A2A-Version` (docs/interop.md#browsers). It
loads on demand (ARCHITECTURE.md#decisions, "Code loads with its first use"): only a card fetch that failed
before any answer reaches it.
*/

import type { DiscoveryEvent } from '../client/events.js';

/**
True when the card request that failed came from a page to another origin, the one request a CORS preflight
guards (Fetch standard, "CORS-preflight fetch"): the `A2A-Version` header makes the GET non-simple, and an
agent that refuses the preflight looks to the page exactly like a lost connection. Node, and a page asking
its own origin, never see a preflight, so their failure stands. When true, `onEvent` is told the fallback;
what it throws is swallowed, since a listener never changes the outcome.

@example
```ts
if (cardFallback(cardUrl, onEvent)) {
  // ask again, as a plain GET
}
```
*/
export function cardFallback(cardUrl: string, onEvent?: (event: DiscoveryEvent) => void): boolean {
  const page = (globalThis as { readonly location?: { readonly origin?: unknown } }).location?.origin;
  if (typeof page !== 'string' || page === new URL(cardUrl).origin) {
    return false;
  }
  try {
    onEvent?.({ type: 'card-fallback', reason: 'preflight-refused', time: Date.now() });
  } catch {
    // A listener never changes the outcome of discovery.
  }
  return true;
}
