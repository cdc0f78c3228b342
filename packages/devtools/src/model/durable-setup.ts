/**
@module
How the devtools set up their durable agent: which delivery modes the peer allows, the options for the chosen
one, the IndexedDB ledger's name, and whether this tab writes the ledger or follows another tab.
*/
import { type InterfacePin, LedgerError, type RecoveryStrategy } from '@surecall/client';
import type { DeliveryMode, Ledger } from '@surecall/client/ledger';

/**
The delivery modes a person may choose here: `keyed` needs a peer that honours keys
(docs/idempotency.md#honouring-peers).
*/
export type DevtoolsDelivery = Extract<DeliveryMode, 'at-most-once' | 'keyed'>;

/**
The delivery modes the peer allows, the default first: `keyed` when the card shows the peer honours
idempotency keys (docs/interop.md#browsers: its key index absorbs the browser's own re-send), then
`at-most-once`, which a person must acknowledge before it is used.

@example
```ts
deliveryChoices(client.honoursIdempotency); // ['keyed', 'at-most-once']
```
*/
export function deliveryChoices(honoursIdempotency: boolean): DevtoolsDelivery[] {
  return honoursIdempotency ? ['keyed', 'at-most-once'] : ['at-most-once'];
}

/** The context-history bounds the devtools use: a small scan, probed again after 2 s, at most 5 times. */
export const contextHistoryRecovery = {
  kind: 'context-history',
  maxPages: 4,
  historyLength: 64,
  retryAfterMs: 2000,
  maxProbes: 5,
} as const satisfies RecoveryStrategy;

/** The options {@link durableConfig} gives a durable agent. */
export type DevtoolsDurableConfig = {
  readonly delivery: DevtoolsDelivery;
  readonly recovery: RecoveryStrategy;
  readonly acknowledgeBrowserResend?: true;
  readonly audit?: true;
};

/**
The delivery and recovery options of a durable agent for `delivery`: a keyed send is recovered by replaying it
under its key; an at-most-once send from the task history of its opaque context, and only once a person
acknowledged that the browser may send it twice (docs/interop.md#browsers), with every commit audited for a
second task (docs/durable-send.md#the-audit). Without the acknowledgement the agent refuses to be built, as
`durableAgent` does in any browser.

@example
```ts
durableAgent({ client, ledger, ...durableConfig('keyed', false) });
```
*/
export function durableConfig(delivery: DevtoolsDelivery, acknowledged: boolean): DevtoolsDurableConfig {
  if (delivery === 'keyed') {
    return { delivery, recovery: { kind: 'keyed', retryAfterMs: 2000, maxProbes: 5 } };
  }
  return acknowledged
    ? { delivery, recovery: contextHistoryRecovery, acknowledgeBrowserResend: true, audit: true }
    : { delivery, recovery: contextHistoryRecovery };
}

/**
The IndexedDB database of the sends through one interface: a record belongs to the interface it was sent
through, not to the card (docs/durable-send.md#whose-record-it-is), so an agent's redeploy with an edited card
opens the same ledger and its unknown sends stay reconcilable.

@example
```ts
ledgerName(client.pin); // 'surecall-devtools:JSONRPC http://127.0.0.1:4100/a2a/jsonrpc'
```
*/
export function ledgerName(pin: Pick<InterfacePin, 'binding' | 'url' | 'tenant'>): string {
  return `surecall-devtools:${pin.binding} ${pin.url}${pin.tenant === undefined ? '' : ` tenant ${pin.tenant}`}`;
}

/**
Whether this tab writes the ledger (every tab of an origin does, docs/durable-send.md#tabs) or only follows
it: a ledger opened `readOnly` reads, and hears of the other tabs' changes.
*/
export type LedgerRole = 'writer' | 'follower';

/**
Finds out whether `ledger` may write, without writing: a follower refuses every write as `locked` before
looking at it; a writer gets as far as looking the empty id up, which no record has (`not-found`).

@example
```ts
await ledgerRole(ledger); // 'follower' for a ledger opened with readOnly: true
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
