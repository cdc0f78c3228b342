/**
@module
Which task the Tasks panel shows: the one a person chose while the focus it was chosen under holds (a new
send's task takes over), else the focus, else the task seen last.
*/
import type { TaskView, TaskViews } from './task-view.js';

/** A task a person chose, and the focus the panel had then. */
export type TaskChoice = { readonly id: string; readonly focus: string | undefined };

/**
The tasks seen in this session, the most recently seen first.

@example
```ts
seenNewestFirst(feed.tasks)[0]?.id; // the task of the latest event
```
*/
export function seenNewestFirst(views: TaskViews): TaskView[] {
  return [...views.tasks].sort((a, b) => b.lastSeenAt - a.lastSeenAt);
}

/**
The id of the task to show: the choice while `focus` is still the focus it was made under, else `focus`, else
the first of `seen`.

@example
```ts
shownTaskId({ id: 't-1', focus: 't-2' }, 't-3', []); // 't-3': a new focus took over
```
*/
export function shownTaskId(
  choice: TaskChoice | undefined,
  focus: string | undefined,
  seen: readonly Pick<TaskView, 'id'>[],
): string | undefined {
  const chosen = choice !== undefined && choice.focus === focus ? choice.id : undefined;
  return chosen ?? focus ?? seen[0]?.id;
}
