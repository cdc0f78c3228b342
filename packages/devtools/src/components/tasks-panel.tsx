import type { A2aClient } from '@surecall/client';
import { type ActionDispatch, useState } from 'react';
import { useShownTask } from '../hooks/use-shown-task.js';
import { useTaskList } from '../hooks/use-task-list.js';
import type { FeedAction } from '../model/feed.js';
import { filterItems, taskFields } from '../model/filter.js';
import type { TaskViews } from '../model/task-view.js';
import { FilterBox } from './filter-box.js';
import { ListedTasks } from './listed-tasks.js';
import { SeenTasks } from './seen-tasks.js';
import { TaskDetail } from './task-detail.js';
import { TaskListFilters } from './task-list-filters.js';

/** Props of {@link TasksPanel}. */
export type TasksPanelProps = {
  readonly client: Pick<A2aClient, 'listTasks' | 'getTask' | 'subscribeToTask'>;
  readonly tasks: TaskViews;
  readonly dispatch: ActionDispatch<[FeedAction]>;
  /** The task to show first (the send box's latest). */
  readonly focusTaskId: string | undefined;
};

/**
ListTasks with context, state and since filters and paging; the tasks seen in this session; and one task's
detail.

@example
```tsx
<TasksPanel client={client} tasks={feed.tasks} dispatch={dispatch} focusTaskId={latest} />
```
*/
export function TasksPanel({ client, tasks, dispatch, focusTaskId }: TasksPanelProps) {
  const list = useTaskList(client, dispatch);
  const shown = useShownTask(tasks, focusTaskId);
  const [query, setQuery] = useState('');
  const seen = filterItems(query, shown.seen, taskFields);
  return (
    <div className="tasks-panel split">
      <div className="list">
        <TaskListFilters list={list} />
        <ListedTasks list={list} shownTaskId={shown.taskId} onChoose={shown.choose} />
        <FilterBox
          what="tasks"
          query={query}
          onQuery={setQuery}
          shown={seen.length}
          total={shown.seen.length}
        />
        <SeenTasks seen={seen} shownTaskId={shown.taskId} onChoose={shown.choose} />
      </div>
      {shown.taskId === undefined ? (
        <p className="empty">Choose a task to see its status history, messages and artifacts.</p>
      ) : (
        <TaskDetail
          key={shown.taskId}
          client={client}
          taskId={shown.taskId}
          view={shown.view}
          dispatch={dispatch}
        />
      )}
    </div>
  );
}
