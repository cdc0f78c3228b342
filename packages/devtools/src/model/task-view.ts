/**
@module
What the devtools know about each task: its status history as observed (every status a stream reported or a
snapshot showed, with the agent's timestamp and when the devtools saw it, ordered by the agent's timestamps),
its messages, and its artifacts assembled from their chunks. Built from the client's stream frames and from
the tasks the devtools fetched (GetTask, ListTasks), whatever order they arrived in.
*/
import type { ClientEvent, Message, StreamResponse, Task, TaskState, TaskStatus } from '@surecall/client';
import { compareTimestamps } from '@surecall/client/protocol';
import { type AssembledArtifact, applyArtifactSnapshot, applyArtifactUpdate } from './artifacts.js';

/** One status of a task, as observed. */
export type StatusEntry = {
  readonly state: TaskState;
  /** The agent's timestamp of the status, when it gave one. */
  readonly timestamp: string | undefined;
  /** When the devtools saw it, in milliseconds since the epoch. */
  readonly observedAt: number;
  /** The text of the status message, when it has one. */
  readonly text: string | undefined;
  /** A stream event, or a fetched task. */
  readonly source: 'stream' | 'snapshot';
};

/** One task. */
export type TaskView = {
  readonly id: string;
  readonly contextId: string;
  readonly statusHistory: readonly StatusEntry[];
  /** Every message seen for the task, once each (by `messageId`), in first-seen order. */
  readonly messages: readonly Message[];
  readonly artifacts: readonly AssembledArtifact[];
  readonly firstSeenAt: number;
  readonly lastSeenAt: number;
};

/** Every task seen, in first-seen order. */
export type TaskViews = { readonly tasks: readonly TaskView[] };

/** A task the devtools fetched themselves: the answer of GetTask, or one task of a ListTasks page. */
export type TaskSnapshot = { readonly type: 'task-snapshot'; readonly task: Task; readonly at: number };

/** How many tasks are kept; the least recently seen go first. */
export const maxTasksKept = 200;

/** The empty state. */
export const emptyTaskViews: TaskViews = Object.freeze({ tasks: Object.freeze([]) });

function statusText(status: TaskStatus): string | undefined {
  for (const part of status.message?.parts ?? []) {
    if ('text' in part && typeof part.text === 'string') {
      return part.text;
    }
  }
  return undefined;
}

/**
The same status: the same state and text at the same instant by the agent's clock (or, without timestamps,
nothing to tell them apart).
*/
function sameStatus(held: StatusEntry, entry: StatusEntry): boolean {
  if (held.state !== entry.state || held.text !== entry.text) {
    return false;
  }
  if (held.timestamp === undefined || entry.timestamp === undefined) {
    return held.timestamp === entry.timestamp;
  }
  return compareTimestamps(held.timestamp, entry.timestamp) === 0;
}

/**
The history with `status` in it, in the order of the agent's own status timestamps, not of arrival: a GetTask
snapshot taken before a later update can arrive after it, and must not become the newest state. A status
identical to one held (a snapshot repeating what a stream reported, in any order) is merged into it. A status
without a timestamp cannot be placed by time: it goes last, merged only into an identical last entry.
*/
export function withStatus(
  history: readonly StatusEntry[],
  status: TaskStatus,
  at: number,
  source: StatusEntry['source'],
): readonly StatusEntry[] {
  const entry: StatusEntry = {
    state: status.state,
    timestamp: status.timestamp,
    observedAt: at,
    text: statusText(status),
    source,
  };
  const { timestamp } = entry;
  if (timestamp === undefined) {
    const last = history[history.length - 1];
    return last !== undefined && sameStatus(last, entry) ? history : [...history, entry];
  }
  if (history.some((held) => sameStatus(held, entry))) {
    return history;
  }
  // Walk back over the entries the agent stamped later than this one; an entry without a timestamp cannot be
  // passed.
  let index = history.length;
  for (; index > 0; index--) {
    const before = history[index - 1]?.timestamp;
    if (before === undefined || compareTimestamps(before, timestamp) <= 0) {
      break;
    }
  }
  return [...history.slice(0, index), entry, ...history.slice(index)];
}

function withMessages(held: readonly Message[], incoming: readonly Message[]): readonly Message[] {
  const known = new Set(held.map((message) => message.messageId));
  const added = incoming.filter((message) => {
    if (known.has(message.messageId)) {
      return false;
    }
    known.add(message.messageId);
    return true;
  });
  return added.length === 0 ? held : [...held, ...added];
}

function update(
  views: TaskViews,
  id: string,
  contextId: string,
  at: number,
  change: (view: TaskView) => TaskView,
): TaskViews {
  const index = views.tasks.findIndex((view) => view.id === id);
  const held: TaskView = views.tasks[index] ?? {
    id,
    contextId,
    statusHistory: [],
    messages: [],
    artifacts: [],
    firstSeenAt: at,
    lastSeenAt: at,
  };
  const next = { ...change(held), lastSeenAt: at };
  if (index !== -1) {
    return { tasks: views.tasks.map((view, position) => (position === index ? next : view)) };
  }
  const tasks = [...views.tasks, next];
  if (tasks.length <= maxTasksKept) {
    return { tasks };
  }
  const stalest = tasks.reduce(
    (oldest, view, position) =>
      view.lastSeenAt < (tasks[oldest]?.lastSeenAt ?? Number.POSITIVE_INFINITY) ? position : oldest,
    0,
  );
  return { tasks: tasks.filter((_, position) => position !== stalest) };
}

/**
Folds one fetched task in: its status (if new), its history's messages, and its artifacts when it carries
them.

@example
```ts
views = applyTaskSnapshot(views, await client.getTask({ id }), Date.now());
```
*/
export function applyTaskSnapshot(views: TaskViews, task: Task, at: number): TaskViews {
  return update(views, task.id, task.contextId, at, (view) => ({
    ...view,
    statusHistory: withStatus(view.statusHistory, task.status, at, 'snapshot'),
    messages: withMessages(
      view.messages,
      task.status.message === undefined ? task.history : [...task.history, task.status.message],
    ),
    artifacts: applyArtifactSnapshot(view.artifacts, task.artifacts),
  }));
}

/**
Folds one stream event in. A message that names no task (a direct reply) changes nothing here.

@example
```ts
views = applyStreamEvent(views, event.event, event.time);
```
*/
export function applyStreamEvent(views: TaskViews, event: StreamResponse, at: number): TaskViews {
  if ('task' in event) {
    return update(views, event.task.id, event.task.contextId, at, (view) => ({
      ...view,
      statusHistory: withStatus(view.statusHistory, event.task.status, at, 'stream'),
      messages: withMessages(view.messages, event.task.history),
      artifacts: applyArtifactSnapshot(view.artifacts, event.task.artifacts),
    }));
  }
  if ('statusUpdate' in event) {
    const { taskId, contextId, status } = event.statusUpdate;
    return update(views, taskId, contextId, at, (view) => ({
      ...view,
      statusHistory: withStatus(view.statusHistory, status, at, 'stream'),
      messages: status.message === undefined ? view.messages : withMessages(view.messages, [status.message]),
    }));
  }
  if ('artifactUpdate' in event) {
    const { taskId, contextId } = event.artifactUpdate;
    return update(views, taskId, contextId, at, (view) => ({
      ...view,
      artifacts: applyArtifactUpdate(view.artifacts, event.artifactUpdate),
    }));
  }
  const { message } = event;
  if (message.taskId === undefined || message.contextId === undefined) {
    return views;
  }
  return update(views, message.taskId, message.contextId, at, (view) => ({
    ...view,
    messages: withMessages(view.messages, [message]),
  }));
}

/**
Folds a client event or a snapshot in: stream frames and snapshots change the views, anything else returns
them unchanged (the same object).

@example
```ts
const [views, dispatch] = useReducer(reduceTaskViews, emptyTaskViews);
```
*/
export function reduceTaskViews(views: TaskViews, action: ClientEvent | TaskSnapshot): TaskViews {
  switch (action.type) {
    case 'stream-frame':
      return applyStreamEvent(views, action.event, action.time);
    case 'task-snapshot':
      return applyTaskSnapshot(views, action.task, action.at);
    default:
      return views;
  }
}

/** The task's latest observed state, or `undefined` before any. */
export function currentState(view: Pick<TaskView, 'statusHistory'>): TaskState | undefined {
  return view.statusHistory[view.statusHistory.length - 1]?.state;
}
