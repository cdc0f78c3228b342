import type { A2aClient } from '@surecall/client';
import type { OperationName } from '@surecall/client/protocol';
import type { FaultKind } from '@surecall/mocks';
import { useId, useState } from 'react';
import { useFaultLab } from '../hooks/use-fault-lab.js';
import {
  armedFor,
  describeFault,
  type FaultSwitch,
  faultGroups,
  faultOperations,
  faultSpec,
  faultSwitches,
  initialValues,
} from '../model/faults.js';
import { shortId } from '../model/format.js';
import type { SendRecord } from '../model/send.js';

/** Props of {@link FaultsPanel}. */
export type FaultsPanelProps = {
  /** The origin of the mock agent's control routes. */
  readonly origin: string;
  /** The loopback mock agent's control token (`x-surecall-mock-token`), when it demands one. */
  readonly token?: string;
  readonly client: Pick<A2aClient, 'events'>;
  /** The send box's sends, whose executions the counter reports. */
  readonly sends: readonly SendRecord[];
};

type SwitchRowProps = {
  readonly entry: FaultSwitch;
  readonly on: boolean;
  readonly values: Readonly<Record<string, string>>;
  readonly problem: string | undefined;
  onValues(values: Record<string, string>): void;
  onToggle(): void;
};

function SwitchRow({ entry, on, values, problem, onValues, onToggle }: SwitchRowProps) {
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

/**
The mock agent's fault lab: switches per operation (lost responses, slow and broken streams, malformed answers), the armed faults, and the execution counter, which shows that a lost answer's work still happened.

@example
```tsx
<FaultsPanel origin={location.origin} client={client} sends={sends} />
```
*/
export function FaultsPanel({ origin, token, client, sends }: FaultsPanelProps) {
  const lab = useFaultLab(
    origin,
    client,
    sends.map((send) => send.messageId),
    token,
  );
  const [operation, setOperation] = useState<OperationName | '*'>('SendMessage');
  const [count, setCount] = useState('1');
  const [values, setValues] = useState<Partial<Record<FaultKind, Record<string, string>>>>({});
  const [problems, setProblems] = useState<Partial<Record<FaultKind, string>>>({});
  const id = useId();
  const { state } = lab;

  if (state.status === 'loading') {
    return <p className="empty">Reaching the fault lab at {origin}…</p>;
  }
  if (state.status === 'unavailable') {
    return (
      <div className="empty">
        <p>
          No mock fault lab answers at <span className="mono">{origin}</span>: {state.reason}.
        </p>
        <p className="muted">
          The Faults panel works with the embedded mock agent and with <code>npm run mock-agent</code>: paste
          the card URL it prints with its <code>#mock-token=</code> fragment, the token of its control routes.
        </p>
        <button type="button" onClick={() => void lab.refresh()}>
          Try again
        </button>
      </div>
    );
  }

  const toggle = async (entry: FaultSwitch, on: boolean): Promise<void> => {
    if (on) {
      await lab.disarm(armedFor(state.faults, entry.kind, operation).map((fault) => fault.id));
      return;
    }
    const result = faultSpec(
      entry.kind,
      operation,
      values[entry.kind] ?? initialValues(entry),
      Number(count),
    );
    setProblems({ ...problems, [entry.kind]: result.problem?.message });
    if (result.ok) {
      await lab.arm(result.spec);
    }
  };

  return (
    <div className="faults-panel columns">
      <div>
        <section aria-label="Execution counter" className="counter">
          <h2>
            Executions <output data-testid="executions-total">{state.executions.total}</output>
          </h2>
          <p className="muted small">
            Business actions the mock agent ran, whatever reached the client. A send whose answer was dropped
            after commit still counts one.
          </p>
          <div className="actions">
            <button type="button" onClick={() => void lab.refresh()}>
              Refresh
            </button>
            <button type="button" onClick={() => void lab.resetExecutions()}>
              Reset counter
            </button>
          </div>
          {sends.length === 0 ? null : (
            <table className="executions">
              <thead>
                <tr>
                  <th scope="col">Sent</th>
                  <th scope="col">Message id</th>
                  <th scope="col">Client saw</th>
                  <th scope="col">Executions</th>
                </tr>
              </thead>
              <tbody>
                {sends.map((send) => (
                  <tr key={send.messageId}>
                    <td>{send.text}</td>
                    <td className="mono">{shortId(send.messageId)}</td>
                    <td>{send.outcome}</td>
                    <td className="num" data-testid="execution-count">
                      {state.executions.byMessageId[send.messageId] ?? '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>

        <section aria-label="Armed faults">
          <h2>Armed faults</h2>
          {state.faults.length === 0 ? (
            <p className="muted" data-testid="no-faults">
              None: every answer goes through unchanged.
            </p>
          ) : (
            <>
              <ul className="armed">
                {state.faults.map((fault) => (
                  <li key={fault.id}>
                    {describeFault(fault)}{' '}
                    <button type="button" onClick={() => void lab.disarm([fault.id])}>
                      Disarm
                    </button>
                  </li>
                ))}
              </ul>
              <button type="button" onClick={() => void lab.disarmAll()}>
                Disarm all
              </button>
            </>
          )}
          {state.problem === undefined ? null : (
            <p className="error" role="alert">
              {state.problem}
            </p>
          )}
        </section>
      </div>

      <section aria-label="Fault switches">
        <h2>Switches</h2>
        <div className="filters">
          <span className="field">
            <label htmlFor={`${id}-operation`}>Operation</label>
            <select
              id={`${id}-operation`}
              value={operation}
              onChange={(event) => setOperation(event.target.value as OperationName | '*')}
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
              value={count}
              onChange={(event) => setCount(event.target.value)}
            />
          </span>
        </div>
        {(Object.keys(faultGroups) as (keyof typeof faultGroups)[]).map((group) => (
          <fieldset key={group}>
            <legend>{faultGroups[group]}</legend>
            <ul className="switches">
              {faultSwitches
                .filter((entry) => entry.group === group)
                .map((entry) => {
                  const on = armedFor(state.faults, entry.kind, operation).length > 0;
                  return (
                    <SwitchRow
                      key={entry.kind}
                      entry={entry}
                      on={on}
                      values={values[entry.kind] ?? initialValues(entry)}
                      problem={problems[entry.kind]}
                      onValues={(next) => setValues({ ...values, [entry.kind]: next })}
                      onToggle={() => void toggle(entry, on)}
                    />
                  );
                })}
            </ul>
          </fieldset>
        ))}
      </section>
    </div>
  );
}
