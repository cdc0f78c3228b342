import type { ActiveFault } from '@surecall/mocks';
import { describeFault } from '../model/faults.js';

/** Props of {@link ArmedFaults}. */
export type ArmedFaultsProps = {
  readonly faults: readonly ActiveFault[];
  /** The lab's last failed action, if one failed. */
  readonly problem: string | undefined;
  onDisarm(faultId: string): void;
  onDisarmAll(): void;
};

/**
The faults armed on the mock agent, each with what is left of it and a button to disarm it.

@example
```tsx
<ArmedFaults faults={state.faults} problem={state.problem} onDisarm={disarm} onDisarmAll={disarmAll} />
```
*/
export function ArmedFaults({ faults, problem, onDisarm, onDisarmAll }: ArmedFaultsProps) {
  return (
    <section aria-label="Armed faults">
      <h2>Armed faults</h2>
      {faults.length === 0 ? (
        <p className="muted" data-testid="no-faults">
          None: every answer goes through unchanged.
        </p>
      ) : (
        <>
          <ul className="armed">
            {faults.map((fault) => (
              <li key={fault.id}>
                {describeFault(fault)}{' '}
                <button type="button" onClick={() => onDisarm(fault.id)}>
                  Disarm
                </button>
              </li>
            ))}
          </ul>
          <button type="button" onClick={onDisarmAll}>
            Disarm all
          </button>
        </>
      )}
      {problem === undefined ? null : (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
