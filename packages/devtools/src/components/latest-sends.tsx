import { formatClock, shortId } from '../model/format.js';
import type { SendRecord } from '../model/send.js';

/** Props of {@link LatestSends}. */
export type LatestSendsProps = {
  /** Newest first; the first four are shown. */
  readonly sends: readonly SendRecord[];
  /** Shows a task a send created. */
  onOpenTask(taskId: string): void;
};

/**
The latest sends of the send box with their outcomes, each with a link to the task it created; nothing before
the first send.

@example
```tsx
<LatestSends sends={box.sends} onOpenTask={show} />
```
*/
export function LatestSends({ sends, onOpenTask }: LatestSendsProps) {
  if (sends.length === 0) {
    return null;
  }
  return (
    <ol className="sends" aria-label="Latest sends" aria-live="polite">
      {sends.slice(0, 4).map((record) => (
        <li key={record.messageId} className={`send status-${record.status}`} data-testid="send">
          <span className="mono small">{formatClock(record.startedAt)}</span>{' '}
          <span className="mono small" title={record.messageId}>
            {shortId(record.messageId)}
          </span>{' '}
          <span>“{record.text}”</span> → <span data-testid="send-outcome">{record.outcome}</span>
          {record.mode === 'stream' ? <span className="muted small"> · {record.events} events</span> : null}
          {record.taskId === undefined ? null : (
            <>
              {' '}
              <button type="button" className="link" onClick={() => onOpenTask(record.taskId ?? '')}>
                open task
              </button>
            </>
          )}
        </li>
      ))}
    </ol>
  );
}
