import { DeliveryChoice, type DeliveryOffer } from './delivery-choice.js';

/** The send box's durable side: `send` is absent while the chosen delivery is refused. */
export type DurableBox = {
  send?(text: string): void;
  readonly delivery?: DeliveryOffer;
};

/** Props of {@link DurableControls}. */
export type DurableControlsProps = {
  readonly durable: DurableBox;
  /** The send box's message, sent as it is when it is not blank. */
  readonly text: string;
};

/**
The send box's Durable send button, the delivery choice, and why no durable agent could be built for it.

@example
```tsx
<DurableControls durable={{ send: (line) => void agent.send({ role: 'ROLE_USER', parts: [{ text: line }] }) }} text={text} />
```
*/
export function DurableControls({ durable, text }: DurableControlsProps) {
  return (
    <>
      <button
        type="button"
        title="Recorded in the ledger before it leaves; a lost answer becomes an unknown outcome to reconcile"
        disabled={durable.send === undefined}
        onClick={() => {
          if (text.trim() !== '') {
            durable.send?.(text);
          }
        }}
      >
        Durable send
      </button>
      {durable.delivery === undefined ? null : <DeliveryChoice delivery={durable.delivery} />}
      {durable.delivery?.refusal === undefined ? null : (
        <p className="small muted" data-testid="durable-refusal">
          {durable.delivery.refusal}
        </p>
      )}
    </>
  );
}
