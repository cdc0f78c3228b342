import { useState } from 'react';
import type { CallLog } from '../model/call-log.js';
import { formatClock } from '../model/format.js';
import { JsonTree } from './json-tree.js';

/**
The raw log of the client's unary calls: one row per call (operation, binding, outcome, duration) and, opened,
the events the client emitted for it as they are, with their redaction (ARCHITECTURE.md#events-and-redaction:
no URL, header, token, body or peer error text). Streams are the Streams panel's.

@example
```tsx
<CallsPanel log={useCallLog(client)} />
```
*/
export function CallsPanel({ log }: { readonly log: CallLog }) {
  const [open, setOpen] = useState<number | undefined>(undefined);
  if (log.calls.length === 0) {
    return <p className="empty">No unary call yet: send a message, or open a task.</p>;
  }
  return (
    <section aria-label="Unary calls">
      <p className="muted small">
        What the client’s events say of each call, newest first: never a URL, a header, a token, a body or the
        agent’s error text.
      </p>
      <div className="table-scroll">
        <table aria-label="Unary calls">
          <thead>
            <tr>
              <th scope="col">Call</th>
              <th scope="col">Time</th>
              <th scope="col">Operation</th>
              <th scope="col">Binding</th>
              <th scope="col">Outcome</th>
              <th scope="col">Duration</th>
              <th scope="col">Events</th>
            </tr>
          </thead>
          <tbody>
            {log.calls.map((call) => (
              <tr key={call.callId} data-testid="call">
                <td className="num">{call.callId}</td>
                <td className="mono small">{formatClock(call.events[0]?.time ?? 0)}</td>
                <td>{call.operation}</td>
                <td>{call.binding}</td>
                <td data-testid="call-outcome">{call.outcome}</td>
                <td className="num">{call.durationMs === undefined ? '—' : `${call.durationMs} ms`}</td>
                <td>
                  <button
                    type="button"
                    aria-expanded={open === call.callId}
                    aria-label={`Events of call ${call.callId}`}
                    onClick={() => setOpen(open === call.callId ? undefined : call.callId)}
                  >
                    {call.events.length} event{call.events.length === 1 ? '' : 's'}
                  </button>
                  {open === call.callId ? (
                    <JsonTree value={call.events} label={`Call ${call.callId} events`} openDepth={2} />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
