import { type A2aClient, type DurableAgent, durableAgent, OptionsError } from '@surecall/client';
import { type Ledger, openLedger } from '@surecall/client/ledger';
import { useEffect, useMemo, useState } from 'react';
import {
  type DevtoolsDelivery,
  deliveryChoices,
  durableConfig,
  type LedgerRole,
  ledgerName,
  ledgerRole,
} from '../model/durable-setup.js';

/** The durable side of the app: the ledger, this tab's role in it, and the agent for the chosen delivery. */
export type Durable =
  | { readonly phase: 'opening' }
  | { readonly phase: 'failed'; readonly message: string }
  | {
      readonly phase: 'ready';
      readonly ledger: Ledger;
      readonly role: LedgerRole;
      /**
      Absent while the chosen delivery is refused (at-most-once before its acknowledgement): `refusal` says
      why.
      */
      readonly agent: DurableAgent | undefined;
      readonly refusal: string | undefined;
      readonly choices: readonly DevtoolsDelivery[];
      readonly delivery: DevtoolsDelivery;
      choose(delivery: DevtoolsDelivery): void;
      /**
      Whether a person acknowledged that the browser may send an at-most-once message twice
      (docs/interop.md#browsers).
      */
      readonly acknowledged: boolean;
      acknowledge(acknowledged: boolean): void;
    };

function refusalOf(error: unknown): string {
  if (error instanceof OptionsError && error.option === 'acknowledgeBrowserResend') {
    return 'At-most-once delivery from a browser needs your acknowledgement: the browser may send the message twice by itself.';
  }
  return error instanceof OptionsError
    ? `option ${error.option}: ${error.reason}`
    : 'The durable agent could not be built';
}

// A ledger closing (React's development double effects, a reconnect) releases its Web Lock before the next
// one opens, so this tab stays the writer.
let closing: Promise<unknown> = Promise.resolve();

/**
Opens the IndexedDB ledger of `client`'s interface (one per pinned interface, so a redeploy's edited card
keeps its records; `@surecall/client/ledger` is the IndexedDB store in a browser) and builds a durable agent
over it: keyed where the peer honours keys, at-most-once with context-history recovery and the audit
otherwise, once a person acknowledged that the browser may re-send it. The ledger is closed when the client
changes or the app unmounts.

@example
```ts
const durable = useDurable(client);
if (durable.phase === 'ready') await durable.agent.send(message);
```
*/
export function useDurable(client: A2aClient): Durable {
  const [opened, setOpened] = useState<{ ledger: Ledger; role: LedgerRole } | { failed: string } | undefined>(
    undefined,
  );
  const choices = useMemo(() => deliveryChoices(client.honoursIdempotency), [client]);
  const [delivery, setDelivery] = useState<DevtoolsDelivery>(() => choices[0] ?? 'at-most-once');
  const [acknowledged, setAcknowledged] = useState(false);

  useEffect(() => {
    let live = true;
    const opening = closing.then(() => openLedger({ name: ledgerName(client.pin) }));
    opening.then(
      async (ledger) => {
        const role = await ledgerRole(ledger);
        if (live) {
          setOpened({ ledger, role });
        }
      },
      () => {
        if (live) {
          setOpened({ failed: 'The IndexedDB ledger could not be opened' });
        }
      },
    );
    return () => {
      live = false;
      setOpened(undefined);
      closing = opening.then(
        (ledger) => ledger.close(),
        () => undefined,
      );
    };
  }, [client]);

  const built = useMemo(() => {
    if (opened === undefined || 'failed' in opened) {
      return opened;
    }
    try {
      return {
        ...opened,
        agent: durableAgent({ client, ledger: opened.ledger, ...durableConfig(delivery, acknowledged) }),
        refusal: undefined,
      };
    } catch (error) {
      return { ...opened, agent: undefined, refusal: refusalOf(error) };
    }
  }, [client, opened, delivery, acknowledged]);

  if (built === undefined) {
    return { phase: 'opening' };
  }
  if ('failed' in built) {
    return { phase: 'failed', message: built.failed };
  }
  return {
    phase: 'ready',
    ...built,
    choices,
    delivery,
    choose: setDelivery,
    acknowledged,
    acknowledge: setAcknowledged,
  };
}
