import type { TaskList } from '../hooks/use-task-list.js';
import { formatState, shortId, stateSlug } from '../model/format.js';

/** Props of {@link ListedTasks}. */
export type ListedTasksProps = {
  readonly list: Pick<TaskList, 'page' | 'paging' | 'loading' | 'next' | 'previous'>;
  /** The task the panel shows, marked current. */
  readonly shownTaskId: string | undefined;
  onChoose(taskId: string): void;
};

/**
The page ListTasks answered, one button per task, with the previous and next pages; nothing before the first
listing.

@example
```tsx
<ListedTasks list={list} shownTaskId={shown.taskId} onChoose={shown.choose} />
```
*/
export function ListedTasks({ list, shownTaskId, onChoose }: ListedTasksProps) {
  const { page } = list;
  if (page === undefined) {
    return null;
  }
  return (
    <section aria-label="Listed tasks">
      <h2>
        Listed tasks{' '}
        <span className="muted small">
          page {list.paging.index + 1} · {page.totalSize} in total
        </span>
      </h2>
      {page.tasks.length === 0 ? <p className="muted">No task matches.</p> : null}
      <ul className="task-list">
        {page.tasks.map((task) => (
          <li key={task.id}>
            <button
              type="button"
              aria-current={task.id === shownTaskId ? 'true' : undefined}
              onClick={() => onChoose(task.id)}
            >
              <span className="mono">{shortId(task.id)}</span>{' '}
              <span className={`chip state-${stateSlug(task.status.state)}`}>
                {formatState(task.status.state)}
              </span>{' '}
              <span className="muted small">
                ctx {shortId(task.contextId)}
                {task.status.timestamp === undefined ? '' : ` · ${task.status.timestamp}`}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <div className="actions">
        <button
          type="button"
          onClick={() => void list.previous()}
          disabled={list.loading || list.paging.index === 0}
        >
          Previous page
        </button>
        <button
          type="button"
          onClick={() => void list.next()}
          disabled={list.loading || page.nextPageToken === ''}
        >
          Next page
        </button>
      </div>
    </section>
  );
}
