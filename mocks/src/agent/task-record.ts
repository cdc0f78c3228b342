/**
@module
A task as the store keeps it, and how a copy of it is shaped for an answer: what the store, its pages and
every part of the operations that holds a task share, kept apart from the store so that the pages can name it
without importing the store that imports them.
*/
import type { TaskPushNotificationConfig, WireStreamResponse, WireTask } from './wire.js';

/** A task as the store keeps it: the full task plus what ordering, paging and push delivery need. */
export type TaskRecord = {
  readonly tenant: string;
  /** The whole task, history and artifacts included; only the store changes it. */
  readonly task: WireTask;
  /** Milliseconds of the last status change: the ListTasks order and `statusTimestampAfter` compare this. */
  readonly updatedAt: number;
  /** Push configs by id, in creation order. */
  readonly pushConfigs: ReadonlyMap<string, TaskPushNotificationConfig>;
};

/** One change to a task, as streams and webhooks see it. */
export type TaskListener = (event: WireStreamResponse, record: TaskRecord) => void;

/** How `view` shapes a task copy. */
export type TaskView = {
  /** Absent: all history; 0: none; n: the last n messages (A2A spec §3.2.4). */
  readonly historyLength?: number | undefined;
  /**
  `always`: `artifacts` present, maybe `[]` (ListTasks with `includeArtifacts`); `omit`: never;
  `when-present`: only when there are some.
  */
  readonly artifacts: 'always' | 'omit' | 'when-present';
};
