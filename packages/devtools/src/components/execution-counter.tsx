import type { ExecutionCount } from '../model/faults.js';
import { shortId } from '../model/format.js';
import type { SendRecord } from '../model/send.js';

/** Props of {@link ExecutionCounter}. */
export type ExecutionCounterProps = {
  readonly executions: ExecutionCount;
  /** The send box's sends, each shown with its executions. */
  readonly sends: readonly SendRecord[];
  onRefresh(): void;
  onReset(): void;
};

/**
The mock agent's execution counter: the business actions it ran in total and per send, whatever reached the
client, so a lost answer's work still shows.

@example
```tsx
<ExecutionCounter executions={state.executions} sends={sends} onRefresh={refresh} onReset={reset} />
```
*/
export function ExecutionCounter({ executions, sends, onRefresh, onReset }: ExecutionCounterProps) {
  return (
    <section aria-label="Execution counter" className="counter">
      <h2>
        Executions <output data-testid="executions-total">{executions.total}</output>
      </h2>
      <p className="muted small">
        Business actions the mock agent ran, whatever reached the client. A send whose answer was dropped
        after commit still counts one.
      </p>
      <div className="actions">
        <button type="button" onClick={onRefresh}>
          Refresh
        </button>
        <button type="button" onClick={onReset}>
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
                  {executions.byMessageId[send.messageId] ?? '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
