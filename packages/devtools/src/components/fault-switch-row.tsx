import { useId } from 'react';
import type { FaultSwitch } from '../model/faults.js';

/** Props of {@link FaultSwitchRow}. */
export type FaultSwitchRowProps = {
  readonly entry: FaultSwitch;
  readonly on: boolean;
  readonly values: Readonly<Record<string, string>>;
  readonly problem: string | undefined;
  onValues(values: Record<string, string>): void;
  onToggle(): void;
};

/**
One fault switch: a `switch` button named by its label, its description, its parameters' inputs, and why the
last arming was refused.

@example
```tsx
<FaultSwitchRow entry={entry} on={false} values={initialValues(entry)} problem={undefined} onValues={keep} onToggle={toggle} />
```
*/
export function FaultSwitchRow({ entry, on, values, problem, onValues, onToggle }: FaultSwitchRowProps) {
  const id = useId();
  return (
    <li className={on ? 'switch-row on' : 'switch-row'}>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-describedby={`${id}-description`}
        data-kind={entry.kind}
        onClick={onToggle}
      >
        <span className="switch-knob" aria-hidden="true" />
        {entry.label}
      </button>
      <span className="muted small" id={`${id}-description`}>
        {entry.description}
      </span>
      {entry.params.map((param) => (
        <span key={param.name} className="param">
          <label htmlFor={`${id}-${param.name}`}>{param.label}</label>
          {param.type === 'choice' ? (
            <select
              id={`${id}-${param.name}`}
              value={values[param.name] ?? param.initial}
              onChange={(event) => onValues({ ...values, [param.name]: event.target.value })}
            >
              {param.choices.map((choice) => (
                <option key={choice}>{choice}</option>
              ))}
            </select>
          ) : (
            <input
              id={`${id}-${param.name}`}
              inputMode="numeric"
              size={7}
              value={values[param.name] ?? String(param.initial)}
              onChange={(event) => onValues({ ...values, [param.name]: event.target.value })}
            />
          )}
        </span>
      ))}
      {problem === undefined ? null : (
        <span className="error" role="alert">
          {problem}
        </span>
      )}
    </li>
  );
}
