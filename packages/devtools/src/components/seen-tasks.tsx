import { formatClock, formatState, shortId, stateSlug } from '../model/format.js';
import { currentState, type TaskView } from '../model/task-view.js';

/** Props of {@link SeenTasks}. */
export type SeenTasksProps = {
  /** Newest first. */
  readonly seen: readonly TaskView[];
  /** The task the panel shows, marked current. */
  readonly shownTaskId: string | undefined;
  onChoose(taskId: string): void;
};

/**
The tasks seen in this session, each with its latest state and when it was last seen.

@example
```tsx
<SeenTasks seen={shown.seen} shownTaskId={shown.taskId} onChoose={shown.choose} />
```
*/
export function SeenTasks({ seen, shownTaskId, onChoose }: SeenTasksProps) {
  return (
    <section aria-label="Tasks seen in this session">
      <h2>Seen in this session</h2>
      {seen.length === 0 ? (
        <p className="muted">No task yet: send one from the send box, or list the agent’s tasks.</p>
      ) : (
        <ul className="task-list">
          {seen.map((entry) => {
            const state = currentState(entry);
            return (
              <li key={entry.id}>
                <button
                  type="button"
                  aria-current={entry.id === shownTaskId ? 'true' : undefined}
                  onClick={() => onChoose(entry.id)}
                >
                  <span className="mono">{shortId(entry.id)}</span>{' '}
                  {state === undefined ? null : (
                    <span className={`chip state-${stateSlug(state)}`}>{formatState(state)}</span>
                  )}{' '}
                  <span className="muted small">seen {formatClock(entry.lastSeenAt)}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
