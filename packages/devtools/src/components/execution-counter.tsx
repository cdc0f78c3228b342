import type { ExecutionTable } from '../model/executions.js';
import { shortId } from '../model/format.js';

/** Props of {@link ExecutionCounter}. */
export type ExecutionCounterProps = {
  /** Every message this page sent, with the agent's count of each, and the executions of the others. */
  readonly table: ExecutionTable;
  /** The durable send whose rows a person asked for from the Sends panel: marked and scrolled to. */
  readonly focusRecord?: string | undefined;
  onRefresh(): void;
  onReset(): void;
};

/**
The mock agent's execution counter: the business actions it ran in total and per message this page sent (the
send box's sends and every attempt of a durable send), whatever reached the client, so a lost answer's work
still shows. The rows add up to the total: a last row counts the messages this page did not send.

@example
```tsx
<ExecutionCounter table={executionTable(sends, records, state.executions)} onRefresh={refresh} onReset={reset} />
```
*/
export function ExecutionCounter({ table, focusRecord, onRefresh, onReset }: ExecutionCounterProps) {
  return (
    <section aria-label="Execution counter" className="counter">
      <h2>
        Executions <output data-testid="executions-total">{table.total}</output>
      </h2>
      <p className="muted small">
        Business actions the mock agent ran, by its own counter, whatever reached the client. A send whose
        answer was lost after commit still counts one; a durable send counts each of its attempts.
      </p>
      <div className="actions">
        <button type="button" onClick={onRefresh}>
          Refresh
        </button>
        <button type="button" onClick={onReset}>
          Reset counter
        </button>
      </div>
      {table.rows.length === 0 && table.others === 0 ? null : (
        <table className="executions" aria-label="Executions by message">
          <thead>
            <tr>
              <th scope="col">Sent</th>
              <th scope="col">From</th>
              <th scope="col">Message id</th>
              <th scope="col">Client saw</th>
              <th scope="col">Executions</th>
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => {
              const focused = row.recordId !== undefined && row.recordId === focusRecord;
              return (
                <tr
                  key={`${row.source} ${row.messageId}`}
                  data-testid="execution-row"
                  data-source={row.source}
                  {...(focused
                    ? {
                        'aria-current': 'true' as const,
                        ref: (element: HTMLTableRowElement | null) =>
                          element?.scrollIntoView({ block: 'nearest' }),
                      }
                    : {})}
                >
                  <td>{row.text}</td>
                  <td>
                    {row.source}
                    {row.recordId === undefined ? null : (
                      <span className="mono small" title={row.recordId}>
                        {' '}
                        {shortId(row.recordId)}
                      </span>
                    )}
                  </td>
                  <td className="mono">{shortId(row.messageId)}</td>
                  <td>{row.outcome}</td>
                  <td className="num" data-testid="execution-count">
                    {row.executions ?? '—'}
                  </td>
                </tr>
              );
            })}
            <tr data-testid="execution-others">
              <td colSpan={4}>Messages this page did not send</td>
              <td className="num">{table.others}</td>
            </tr>
          </tbody>
        </table>
      )}
    </section>
  );
}
