import type { OperationName } from '@surecall/client/protocol';
import type { ActiveFault } from '@surecall/mocks';
import { useId } from 'react';
import type { SwitchSettings } from '../hooks/use-switch-settings.js';
import { armedFor, type FaultGroup, faultGroups, faultOperations, faultSwitches } from '../model/faults.js';
import { FaultSwitchRow } from './fault-switch-row.js';

/** Props of {@link FaultSwitches}. */
export type FaultSwitchesProps = {
  /** The faults armed now: a switch is on while one of its kind is aimed at the operation. */
  readonly faults: readonly ActiveFault[];
  readonly settings: SwitchSettings;
};

/**
The fault switches, grouped (lost answers, timing, malformed answers), under the operation they aim at and how
many requests a fault applies to.

@example
```tsx
<FaultSwitches faults={state.faults} settings={useSwitchSettings(lab)} />
```
*/
export function FaultSwitches({ faults, settings }: FaultSwitchesProps) {
  const id = useId();
  return (
    <section aria-label="Fault switches">
      <h2>Switches</h2>
      <div className="filters">
        <span className="field">
          <label htmlFor={`${id}-operation`}>Operation</label>
          <select
            id={`${id}-operation`}
            value={settings.operation}
            onChange={(event) => settings.setOperation(event.target.value as OperationName | '*')}
          >
            {faultOperations.map((name) => (
              <option key={name} value={name}>
                {name === '*' ? 'any operation' : name}
              </option>
            ))}
          </select>
        </span>
        <span className="field">
          <label htmlFor={`${id}-count`}>Requests it applies to</label>
          <input
            id={`${id}-count`}
            inputMode="numeric"
            size={4}
            value={settings.count}
            onChange={(event) => settings.setCount(event.target.value)}
          />
        </span>
      </div>
      {(Object.keys(faultGroups) as FaultGroup[]).map((group) => (
        <fieldset key={group}>
          <legend>{faultGroups[group]}</legend>
          <ul className="switches">
            {faultSwitches
              .filter((entry) => entry.group === group)
              .map((entry) => {
                const armed = armedFor(faults, entry.kind, settings.operation);
                return (
                  <FaultSwitchRow
                    key={entry.kind}
                    entry={entry}
                    on={armed.length > 0}
                    values={settings.valuesOf(entry)}
                    problem={settings.problemOf(entry.kind)}
                    onValues={(next) => settings.setValues(entry.kind, next)}
                    onToggle={() => void settings.toggle(entry, armed)}
                  />
                );
              })}
          </ul>
        </fieldset>
      ))}
    </section>
  );
}
