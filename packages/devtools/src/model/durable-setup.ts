/**
@module
How the devtools set up their durable agent: which delivery modes the peer allows, the options for the chosen one, the IndexedDB ledger's name, and whether this tab writes the ledger or follows another tab.
*/
import { LedgerError, type RecoveryStrategy } from '@surecall/client';
import type { DeliveryMode, Ledger } from '@surecall/client/ledger';

/** The delivery modes a person may choose here: `keyed` needs a peer that honours keys (docs/idempotency.md#honouring-peers). */
export type DevtoolsDelivery = Extract<DeliveryMode, 'at-most-once' | 'keyed'>;

/**
The delivery modes the peer allows, the default first: `at-most-once` always, `keyed` only when the card shows the peer honours idempotency keys.

@example
```ts
deliveryChoices(client.honoursIdempotency); // ['at-most-once', 'keyed']
```
*/
export function deliveryChoices(honoursIdempotency: boolean): DevtoolsDelivery[] {
  return honoursIdempotency ? ['at-most-once', 'keyed'] : ['at-most-once'];
}

/** The context-history bounds the devtools use: a small scan, probed again after 2 s, at most 5 times. */
export const contextHistoryRecovery = {
  kind: 'context-history',
  maxPages: 4,
  historyLength: 64,
  retryAfterMs: 2000,
  maxProbes: 5,
} as const satisfies RecoveryStrategy;

/**
The delivery and recovery options of a durable agent for `delivery`: an at-most-once send is recovered from the task history of its opaque context; a keyed one by replaying it under its key.

@example
```ts
durableAgent({ client, ledger, ...durableConfig('keyed') });
```
*/
export function durableConfig(delivery: DevtoolsDelivery): {
  delivery: DevtoolsDelivery;
  recovery: RecoveryStrategy;
} {
  return delivery === 'keyed'
    ? { delivery, recovery: { kind: 'keyed', retryAfterMs: 2000, maxProbes: 5 } }
    : { delivery, recovery: contextHistoryRecovery };
}

/**
The IndexedDB database of the sends to one agent: one ledger per card digest, so another agent's records are never probed here.

@example
```ts
ledgerName(client.cardDigest); // 'surecall-devtools:sha256:…'
```
*/
export function ledgerName(cardDigest: string): string {
  return `surecall-devtools:${cardDigest}`;
}

/** Whether this tab holds the ledger's Web Lock (writes) or follows the tab that does (reads, and hears of its changes). */
export type LedgerRole = 'writer' | 'follower';

/**
Finds out whether `ledger` may write, without writing: a follower refuses every write as `locked` before looking at it; a writer gets as far as looking the empty id up, which no record has (`not-found`).

@example
```ts
await ledgerRole(ledger); // 'follower' in a second tab
```
*/
export async function ledgerRole(ledger: Pick<Ledger, 'transition'>): Promise<LedgerRole> {
  try {
    await ledger.transition('', 0, { type: 'pending', attemptId: 'role-check', notBefore: 0 });
  } catch (error) {
    return error instanceof LedgerError && error.reason === 'locked' ? 'follower' : 'writer';
  }
  return 'writer';
}
