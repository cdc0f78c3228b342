import { useState } from 'react';
import { seenNewestFirst, shownTaskId, type TaskChoice } from '../model/task-choice.js';
import type { TaskView, TaskViews } from '../model/task-view.js';

/** The task the Tasks panel shows, the tasks seen, and how a person chooses another. */
export type ShownTask = {
  /** The tasks seen in this session, newest first. */
  readonly seen: readonly TaskView[];
  readonly taskId: string | undefined;
  /** What the devtools know of it, once they saw it. */
  readonly view: TaskView | undefined;
  choose(taskId: string): void;
};

/**
The task to show among `tasks` ({@link shownTaskId}): a person's choice holds while the focus it was made
under does.

@example
```ts
const shown = useShownTask(feed.tasks, latestTaskId(box.sends));
shown.choose('task-7');
```
*/
export function useShownTask(tasks: TaskViews, focusTaskId: string | undefined): ShownTask {
  const [choice, setChoice] = useState<TaskChoice | undefined>(undefined);
  const seen = seenNewestFirst(tasks);
  const taskId = shownTaskId(choice, focusTaskId, seen);
  return {
    seen,
    taskId,
    view: tasks.tasks.find((entry) => entry.id === taskId),
    choose: (id) => setChoice({ id, focus: focusTaskId }),
  };
}
