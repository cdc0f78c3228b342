/**
@module
The filter box of the Tasks, Sends and Streams panels: a query of words, each of which must appear, ignoring
case, in one of an item's fields (its id, its state, its context, its text). An empty query keeps everything.
The fields of each kind of item are named here, so every panel filters by the same rule.
*/
import type { Part } from '@surecall/client';
import type { LedgerRecord } from '@surecall/client/ledger';
import { statusOf } from '@surecall/client/ledger';
import { artifactText } from './artifacts.js';
import { formatState } from './format.js';
import type { FrameRow } from './streams.js';
import { currentState, type TaskView } from './task-view.js';

/** The words of a query, lowercased; none for a blank one. */
export function queryWords(query: string): string[] {
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
}

/** Whether every word of `query` is in one of `fields`, ignoring case. */
export function matchesQuery(query: string, fields: readonly (string | undefined)[]): boolean {
  const haystack = fields.filter((field) => field !== undefined).map((field) => field.toLowerCase());
  return queryWords(query).every((word) => haystack.some((field) => field.includes(word)));
}

function textsOf(parts: readonly Part[]): string[] {
  return parts.flatMap((part) => ('text' in part && typeof part.text === 'string' ? [part.text] : []));
}

/** A task's fields: its id, context, current state, status texts, messages' and artifacts' text. */
export function taskFields(view: TaskView): (string | undefined)[] {
  const state = currentState(view);
  return [
    view.id,
    view.contextId,
    state === undefined ? undefined : formatState(state),
    ...view.statusHistory.map((entry) => entry.text),
    ...view.messages.flatMap((message) => textsOf(message.parts)),
    ...view.artifacts.map((artifact) => artifactText(artifact)),
  ];
}

/**
A durable send's fields: its id, status, delivery, its message's text, its task and context when committed.
*/
export function sendFields(record: LedgerRecord): (string | undefined)[] {
  const { state } = record;
  return [
    record.id,
    statusOf(record),
    record.delivery,
    ...textsOf(record.message.parts),
    record.message.contextId,
    ...(state.status === 'committed' ? [state.result.taskId, state.result.contextId] : []),
    ...record.attempts.map((attempt) => attempt.contextId),
  ];
}

/** A stream frame's fields: its kind, its task, its one-line summary (the state, the text it carries). */
export function frameFields(frame: FrameRow): (string | undefined)[] {
  return [frame.kind, frame.taskId, frame.summary, String(frame.index)];
}

/**
The items of `items` that `query` matches through `fieldsOf`.

@example
```ts
filterItems('lyon committed', records, sendFields); // the committed sends whose text says Lyon
```
*/
export function filterItems<T>(
  query: string,
  items: readonly T[],
  fieldsOf: (item: T) => (string | undefined)[],
): T[] {
  return queryWords(query).length === 0
    ? [...items]
    : items.filter((item) => matchesQuery(query, fieldsOf(item)));
}
