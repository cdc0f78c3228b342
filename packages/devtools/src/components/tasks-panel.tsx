import type { A2aClient } from '@surecall/client';
import { type ActionDispatch, useId, useState } from 'react';
import { useTaskList } from '../hooks/use-task-list.js';
import type { FeedAction } from '../model/feed.js';
import { formatClock, formatState, shortId, stateSlug } from '../model/format.js';
import { filterableStates } from '../model/task-filters.js';
import { currentState, type TaskViews } from '../model/task-view.js';
import { TaskDetail } from './task-detail.js';

/** Props of {@link TasksPanel}. */
export type TasksPanelProps = {
  readonly client: Pick<A2aClient, 'listTasks' | 'getTask' | 'subscribeToTask'>;
  readonly tasks: TaskViews;
  readonly dispatch: ActionDispatch<[FeedAction]>;
  /** The task to show first (the send box's latest). */
  readonly focusTaskId: string | undefined;
};

/**
ListTasks with context, state and since filters and paging; the tasks seen in this session; and one task's detail.

@example
```tsx
<TasksPanel client={client} tasks={feed.tasks} dispatch={dispatch} focusTaskId={latest} />
```
*/
export function TasksPanel({ client, tasks, dispatch, focusTaskId }: TasksPanelProps) {
  const list = useTaskList(client, dispatch);
  // A choice holds while the focus it was made under does: a new focus (a new send's task) takes over.
  const [choice, setChoice] = useState<
    { readonly id: string; readonly focus: string | undefined } | undefined
  >(undefined);
  const chosen = choice !== undefined && choice.focus === focusTaskId ? choice.id : undefined;
  const setChosen = (taskId: string): void => setChoice({ id: taskId, focus: focusTaskId });
  const id = useId();
  const seen = [...tasks.tasks].sort((a, b) => b.lastSeenAt - a.lastSeenAt);
  const taskId = chosen ?? focusTaskId ?? seen[0]?.id;
  const view = tasks.tasks.find((entry) => entry.id === taskId);
  const problemFor = (field: string) =>
    list.problem?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${id}-problem` } : {};
  const page = list.page;
  return (
    <div className="tasks-panel split">
      <div className="list">
        <form
          className="filters"
          aria-label="Task filters"
          onSubmit={(event) => {
            event.preventDefault();
            void list.search();
          }}
        >
          <span className="field">
            <label htmlFor={`${id}-context`}>Context id</label>
            <input
              id={`${id}-context`}
              value={list.form.contextId}
              onChange={(event) => list.setForm({ ...list.form, contextId: event.target.value })}
              {...problemFor('contextId')}
            />
          </span>
          <span className="field">
            <label htmlFor={`${id}-status`}>Status</label>
            <select
              id={`${id}-status`}
              value={list.form.status}
              onChange={(event) => list.setForm({ ...list.form, status: event.target.value })}
              {...problemFor('status')}
            >
              <option value="">any</option>
              {filterableStates.map((state) => (
                <option key={state} value={state}>
                  {formatState(state)}
                </option>
              ))}
            </select>
          </span>
          <span className="field">
            <label htmlFor={`${id}-since`}>Status since</label>
            <input
              id={`${id}-since`}
              type="datetime-local"
              step={1}
              value={list.form.since}
              onChange={(event) => list.setForm({ ...list.form, since: event.target.value })}
              {...problemFor('since')}
            />
          </span>
          <span className="field">
            <label htmlFor={`${id}-page-size`}>Page size</label>
            <input
              id={`${id}-page-size`}
              inputMode="numeric"
              size={4}
              value={list.form.pageSize}
              onChange={(event) => list.setForm({ ...list.form, pageSize: event.target.value })}
              {...problemFor('pageSize')}
            />
          </span>
          <button type="submit" disabled={list.loading}>
            {list.loading ? 'Listing…' : 'List tasks'}
          </button>
          {list.problem === undefined ? null : (
            <p className="error" id={`${id}-problem`} role="alert">
              {list.problem.message}
            </p>
          )}
          {list.error === undefined ? null : (
            <p className="error" role="alert">
              {list.error}
            </p>
          )}
        </form>

        {page === undefined ? null : (
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
                    aria-current={task.id === taskId ? 'true' : undefined}
                    onClick={() => setChosen(task.id)}
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
        )}

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
                      aria-current={entry.id === taskId ? 'true' : undefined}
                      onClick={() => setChosen(entry.id)}
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
      </div>
      {taskId === undefined ? (
        <p className="empty">Choose a task to see its status history, messages and artifacts.</p>
      ) : (
        <TaskDetail key={taskId} client={client} taskId={taskId} view={view} dispatch={dispatch} />
      )}
    </div>
  );
}
