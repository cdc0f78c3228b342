import { formatClock, formatDuration, shortId } from '../model/format.js';
import { describeCounts, describeOutcome, type RecoverySpan } from '../model/recovery.js';

/** Props of {@link RecoveryPanel}. */
export type RecoveryPanelProps = { readonly spans: readonly RecoverySpan[] };

/**
The Recovery panel: each reconciliation as a span, newest first, with its counts, its result, and for a
context-history scan each page it read as a step.

@example
```tsx
<RecoveryPanel spans={useRecovery(agent.events)} />
```
*/
export function RecoveryPanel({ spans }: RecoveryPanelProps) {
  if (spans.length === 0) {
    return <p className="empty">No reconciliation yet: reconcile an unknown send in the Sends panel.</p>;
  }
  return (
    <ol className="spans" aria-label="Reconciliations">
      {[...spans].reverse().map((span) => (
        <li
          key={`${span.id}-${span.startedAt}`}
          className="span"
          data-testid="recovery-span"
          data-outcome={span.outcome.kind}
        >
          <p>
            <strong>{span.recovery}</strong> {span.audit ? 'audit' : 'probe'} of send{' '}
            <span className="mono" title={span.id}>
              {shortId(span.id)}
            </span>{' '}
            <span className="muted small">
              (attempt {shortId(span.attemptId)}) at {formatClock(span.startedAt)}
              {span.durationMs === undefined ? '' : `, ${formatDuration(span.durationMs)}`}
            </span>
          </p>
          <p data-testid="span-counts">
            {describeCounts(span)} → <strong data-testid="span-outcome">{describeOutcome(span)}</strong>
          </p>
          {span.steps.length === 0 ? null : (
            <ol className="steps" aria-label="Scan steps">
              {span.steps.map((step) => (
                <li key={step.page} data-testid="scan-step">
                  Page {step.page}: {step.tasksExamined} {step.tasksExamined === 1 ? 'task' : 'tasks'}{' '}
                  examined, {step.matches} {step.matches === 1 ? 'match' : 'matches'},{' '}
                  {step.nextPageToken ? 'a next page follows' : 'last page'}{' '}
                  <span className="mono small muted">{formatClock(step.time)}</span>
                </li>
              ))}
            </ol>
          )}
        </li>
      ))}
    </ol>
  );
}
