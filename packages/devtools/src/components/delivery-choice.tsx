import { useId } from 'react';
import type { DevtoolsDelivery } from '../model/durable-setup.js';

/**
The delivery modes a person may choose for durable sends, and the acknowledgement at-most-once needs in a
browser (docs/interop.md#browsers).
*/
export type DeliveryOffer = {
  readonly choices: readonly DevtoolsDelivery[];
  readonly current: DevtoolsDelivery;
  onChoose(delivery: DevtoolsDelivery): void;
  readonly acknowledged?: boolean;
  onAcknowledge?(acknowledged: boolean): void;
  readonly refusal?: string | undefined;
};

/** Props of {@link DeliveryChoice}. */
export type DeliveryChoiceProps = { readonly delivery: DeliveryOffer };

/**
The send box's Delivery select, and for at-most-once the checkbox that acknowledges that the browser may send
a message twice.

@example
```tsx
<DeliveryChoice delivery={{ choices: ['keyed', 'at-most-once'], current: 'keyed', onChoose: rebuild }} />
```
*/
export function DeliveryChoice({ delivery }: DeliveryChoiceProps) {
  const id = useId();
  return (
    <>
      <label htmlFor={`${id}-delivery`}>Delivery</label>
      <select
        id={`${id}-delivery`}
        value={delivery.current}
        onChange={(event) => {
          const chosen = delivery.choices.find((choice) => choice === event.target.value);
          if (chosen !== undefined) {
            delivery.onChoose(chosen);
          }
        }}
      >
        {delivery.choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
      {delivery.current !== 'at-most-once' || delivery.onAcknowledge === undefined ? null : (
        <label className="acknowledge small">
          <input
            type="checkbox"
            checked={delivery.acknowledged === true}
            onChange={(event) => delivery.onAcknowledge?.(event.target.checked)}
          />{' '}
          The browser may send it twice (audited)
        </label>
      )}
    </>
  );
}
