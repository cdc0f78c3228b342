import { createPages } from './pages.js';
import { terminalStates } from './task-states.js';
import type {
  ListTaskPushNotificationConfigsResponse,
  Message,
  TaskPushNotificationConfig,
  TaskState,
  WireArtifactUpdate,
  WireListTasksResponse,
  WireStreamResponse,
  WireTask,
} from './wire.js';

// Task states, ids and paging have their own modules; the operations, the tests and their helpers keep importing them from here.

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
  /** `always`: `artifacts` present, maybe `[]` (ListTasks with `includeArtifacts`); `omit`: never; `when-present`: only when there are some. */
  readonly artifacts: 'always' | 'omit' | 'when-present';
};

/** A validated ListTasks request (A2A spec §3.1.4). */
export type ListTasksQuery = {
  readonly contextId?: string | undefined;
  readonly status?: TaskState | undefined;
  /** Milliseconds; tasks whose status timestamp is at or after it (inclusive, proto comment of `status_timestamp_after`). */
  readonly statusTimestampAfter?: number | undefined;
  readonly pageSize: number;
  readonly pageToken?: string | undefined;
  readonly historyLength?: number | undefined;
  readonly includeArtifacts: boolean;
};

/** A validated ListTaskPushNotificationConfigs request. */
export type ListPushConfigsQuery = { readonly pageSize: number; readonly pageToken?: string | undefined };

/** One artifact chunk of a TaskArtifactUpdateEvent (A2A spec §3.3). */
export type ArtifactChunk = {
  readonly artifact: WireArtifactUpdate['artifact'];
  readonly append: boolean;
  readonly lastChunk: boolean;
};

/** Tasks kept per tenant, with their history, artifacts, push configs and live listeners. */
export type TaskStore = {
  /** Keep a new task; it must carry a status. */
  insert(tenant: string, task: WireTask): TaskRecord;
  /** A task of this tenant; another tenant's task is never found. */
  get(tenant: string, id: string): TaskRecord | undefined;
  /** Change the status (stamped with the store's clock), move a status message into the history, and tell the listeners. */
  setStatus(record: TaskRecord, state: TaskState, message?: Message): void;
  /** Fold an artifact chunk into the task (`append` adds parts to the artifact already held) and tell the listeners. */
  addArtifact(record: TaskRecord, chunk: ArtifactChunk): void;
  /** Add a message to the history without an event: the client sent it. */
  appendHistory(record: TaskRecord, message: Message): void;
  /** Listen to one task's changes until the returned function is called. */
  subscribe(record: TaskRecord, listener: TaskListener): () => void;
  /** Listen to every task's changes, after each task's own listeners: push delivery hangs here. */
  subscribeAll(listener: TaskListener): () => void;
  /** A detached copy of a task, shaped for an answer. */
  view(record: TaskRecord, shape: TaskView): WireTask;
  /** One page of a tenant's tasks, newest status first. */
  list(tenant: string, query: ListTasksQuery): WireListTasksResponse;
  /** Add or replace a push config (its `id` and `taskId` set). */
  putPushConfig(record: TaskRecord, config: TaskPushNotificationConfig & { readonly id: string }): void;
  /** Remove a push config; true if it existed. */
  deletePushConfig(record: TaskRecord, id: string): boolean;
  /** One page of a task's push configs, in creation order. */
  listPushConfigs(record: TaskRecord, query: ListPushConfigsQuery): ListTaskPushNotificationConfigsResponse;
};

/** What the store needs from its agent. */
export type TaskStoreOptions = {
  /** The clock of status timestamps and of eviction. */
  readonly now: () => number;
  /** Terminal tasks are forgotten this long after their last status change. @default never */
  readonly taskTtlMs?: number | undefined;
};

type MutableRecord = {
  tenant: string;
  task: WireTask;
  updatedAt: number;
  // Ties between equal timestamps go to the later change, so the order is total and a cursor never skips a task.
  updateSeq: number;
  pushConfigs: Map<string, TaskPushNotificationConfig>;
  pushConfigSeq: Map<string, number>;
  listeners: Set<TaskListener>;
};

/**
A task store. Page tokens are opaque handles to a cursor held by the store's pages (`pages.ts`): a token names a position in the order, not an offset, so tasks created after it was issued never shift the pages that follow (they sort before the cursor).

@example
```ts
const store = createTaskStore({ now: Date.now });
const record = store.insert('', { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_SUBMITTED' } });
store.setStatus(record, 'TASK_STATE_WORKING');
store.list('', { pageSize: 50, includeArtifacts: false }).tasks.length; // 1
```
*/
export function createTaskStore(options: TaskStoreOptions): TaskStore {
  const { now, taskTtlMs } = options;
  const everyTask = new Set<TaskListener>();
  const tenants = new Map<string, Map<string, MutableRecord>>();
  const pages = createPages();
  let seq = 0;

  const internal = (record: TaskRecord): MutableRecord => record as MutableRecord;

  function evict(tasks: Map<string, MutableRecord>): void {
    if (taskTtlMs === undefined) {
      return;
    }
    const at = now();
    for (const [id, record] of tasks) {
      if (terminalStates.has(record.task.status.state) && at - record.updatedAt >= taskTtlMs) {
        tasks.delete(id);
      }
    }
  }

  function tenantTasks(tenant: string): Map<string, MutableRecord> {
    let tasks = tenants.get(tenant);
    if (tasks === undefined) {
      tasks = new Map();
      tenants.set(tenant, tasks);
    }
    evict(tasks);
    return tasks;
  }

  function emit(record: MutableRecord, event: WireStreamResponse): void {
    // A copy per event: listeners may hold on to it while the task keeps changing.
    for (const listener of [...record.listeners]) {
      listener(structuredClone(event), record);
    }
    for (const listener of [...everyTask]) {
      listener(structuredClone(event), record);
    }
  }

  function stamp(record: MutableRecord): string {
    record.updatedAt = now();
    seq += 1;
    record.updateSeq = seq;
    return new Date(record.updatedAt).toISOString();
  }

  function view(record: TaskRecord, shape: TaskView): WireTask {
    const { history, artifacts, ...rest } = internal(record).task;
    const copy: WireTask = structuredClone(rest);
    const kept =
      history === undefined || shape.historyLength === 0
        ? []
        : shape.historyLength === undefined
          ? history
          : history.slice(-shape.historyLength);
    // A2A spec §3.2.4: historyLength 0 means no history, and an empty list is left out like any empty repeated field.
    if (kept.length > 0) {
      copy.history = structuredClone(kept);
    }
    // A2A spec §3.1.4: without includeArtifacts the field is left out entirely, never sent as [].
    if (
      shape.artifacts === 'always' ||
      (shape.artifacts === 'when-present' && (artifacts?.length ?? 0) > 0)
    ) {
      copy.artifacts = structuredClone(artifacts ?? []);
    }
    return copy;
  }

  return {
    insert(tenant, task) {
      const tasks = tenantTasks(tenant);
      const record: MutableRecord = {
        tenant,
        task,
        updatedAt: 0,
        updateSeq: 0,
        pushConfigs: new Map(),
        pushConfigSeq: new Map(),
        listeners: new Set(),
      };
      task.status = { ...task.status, timestamp: stamp(record) };
      tasks.set(task.id, record);
      return record;
    },

    get: (tenant, id) => tenantTasks(tenant).get(id),

    setStatus(record, state, message) {
      const target = internal(record);
      const { task } = target;
      if (message !== undefined) {
        task.history = [...(task.history ?? []), message];
      }
      task.status = { state, ...(message === undefined ? {} : { message }), timestamp: stamp(target) };
      emit(target, {
        statusUpdate: { taskId: task.id, contextId: task.contextId, status: structuredClone(task.status) },
      });
    },

    addArtifact(record, chunk) {
      const target = internal(record);
      const { task } = target;
      const artifacts = task.artifacts ?? [];
      const index = artifacts.findIndex((held) => held.artifactId === chunk.artifact.artifactId);
      const held = artifacts[index];
      if (chunk.append && held !== undefined) {
        held.parts.push(...structuredClone(chunk.artifact.parts));
      } else if (held !== undefined) {
        // The spec leaves `append: false` on a known artifact open; the reading of docs/protocol-checks.md#stream-events (replace it) is what clients do.
        artifacts[index] = structuredClone(chunk.artifact);
      } else {
        artifacts.push(structuredClone(chunk.artifact));
      }
      task.artifacts = artifacts;
      emit(target, {
        artifactUpdate: {
          taskId: task.id,
          contextId: task.contextId,
          artifact: structuredClone(chunk.artifact),
          // ProtoJSON leaves out fields holding their default, so `false` flags are not sent (docs/protocol-checks.md#protojson).
          ...(chunk.append ? { append: true } : {}),
          ...(chunk.lastChunk ? { lastChunk: true } : {}),
        },
      });
    },

    appendHistory(record, message) {
      const { task } = internal(record);
      task.history = [...(task.history ?? []), message];
    },

    subscribe(record, listener) {
      const { listeners } = internal(record);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    subscribeAll(listener) {
      everyTask.add(listener);
      return () => {
        everyTask.delete(listener);
      };
    },

    view,

    list(tenant, query) {
      return pages.tasks(tenant, tenantTasks(tenant).values(), query, view);
    },

    putPushConfig(record, config) {
      const target = internal(record);
      if (!target.pushConfigSeq.has(config.id)) {
        seq += 1;
        target.pushConfigSeq.set(config.id, seq);
      }
      target.pushConfigs.set(config.id, config);
    },

    deletePushConfig(record, id) {
      const target = internal(record);
      target.pushConfigSeq.delete(id);
      return target.pushConfigs.delete(id);
    },

    listPushConfigs(record, query) {
      return pages.configs(internal(record), query);
    },
  };
}
