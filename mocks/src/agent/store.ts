/**
@module
The task store: tasks kept per tenant, with their history, artifacts, push configs and live listeners. Every
operation is a function over one explicit `StoreState`; `createTaskStore` binds them to it.
*/
import { createPages, type ListPushConfigsQuery, type ListTasksQuery, type Pages } from './pages.js';
import type { TaskListener, TaskRecord, TaskView } from './task-record.js';
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
  /**
  Change the status (stamped with the store's clock), move a status message into the history, and tell the
  listeners.
  */
  setStatus(record: TaskRecord, state: TaskState, message?: Message): void;
  /**
  Fold an artifact chunk into the task (`append` adds parts to the artifact already held) and tell the
  listeners.
  */
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
  // Ties between equal timestamps go to the later change, so the order is total and a cursor never skips a
  // task.
  updateSeq: number;
  pushConfigs: Map<string, TaskPushNotificationConfig>;
  pushConfigSeq: Map<string, number>;
  listeners: Set<TaskListener>;
};

/**
Everything one store holds: its clock and eviction, its tenants' tasks, the listeners of every task, its
pages, and the counter that orders changes.
*/
type StoreState = {
  readonly now: () => number;
  readonly taskTtlMs: number | undefined;
  readonly everyTask: Set<TaskListener>;
  readonly tenants: Map<string, Map<string, MutableRecord>>;
  readonly pages: Pages;
  seq: number;
};

const internal = (record: TaskRecord): MutableRecord => record as MutableRecord;

function evict(state: StoreState, tasks: Map<string, MutableRecord>): void {
  const { taskTtlMs } = state;
  if (taskTtlMs === undefined) {
    return;
  }
  const at = state.now();
  for (const [id, record] of tasks) {
    if (terminalStates.has(record.task.status.state) && at - record.updatedAt >= taskTtlMs) {
      tasks.delete(id);
    }
  }
}

function tenantTasks(state: StoreState, tenant: string): Map<string, MutableRecord> {
  let tasks = state.tenants.get(tenant);
  if (tasks === undefined) {
    tasks = new Map();
    state.tenants.set(tenant, tasks);
  }
  evict(state, tasks);
  return tasks;
}

function emit(state: StoreState, record: MutableRecord, event: WireStreamResponse): void {
  // A copy per event: listeners may hold on to it while the task keeps changing.
  for (const listener of [...record.listeners]) {
    listener(structuredClone(event), record);
  }
  for (const listener of [...state.everyTask]) {
    listener(structuredClone(event), record);
  }
}

function stamp(state: StoreState, record: MutableRecord): string {
  record.updatedAt = state.now();
  state.seq += 1;
  record.updateSeq = state.seq;
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
  // A2A spec §3.2.4: historyLength 0 means no history, and an empty list is left out like any empty repeated
  // field.
  if (kept.length > 0) {
    copy.history = structuredClone(kept);
  }
  // A2A spec §3.1.4: without includeArtifacts the field is left out entirely, never sent as [].
  if (shape.artifacts === 'always' || (shape.artifacts === 'when-present' && (artifacts?.length ?? 0) > 0)) {
    copy.artifacts = structuredClone(artifacts ?? []);
  }
  return copy;
}

function insert(state: StoreState, tenant: string, task: WireTask): TaskRecord {
  const tasks = tenantTasks(state, tenant);
  const record: MutableRecord = {
    tenant,
    task,
    updatedAt: 0,
    updateSeq: 0,
    pushConfigs: new Map(),
    pushConfigSeq: new Map(),
    listeners: new Set(),
  };
  task.status = { ...task.status, timestamp: stamp(state, record) };
  tasks.set(task.id, record);
  return record;
}

function setStatus(state: StoreState, record: TaskRecord, taskState: TaskState, message?: Message): void {
  const target = internal(record);
  const { task } = target;
  if (message !== undefined) {
    task.history = [...(task.history ?? []), message];
  }
  task.status = {
    state: taskState,
    ...(message === undefined ? {} : { message }),
    timestamp: stamp(state, target),
  };
  emit(state, target, {
    statusUpdate: { taskId: task.id, contextId: task.contextId, status: structuredClone(task.status) },
  });
}

function addArtifact(state: StoreState, record: TaskRecord, chunk: ArtifactChunk): void {
  const target = internal(record);
  const { task } = target;
  const artifacts = task.artifacts ?? [];
  const index = artifacts.findIndex((held) => held.artifactId === chunk.artifact.artifactId);
  const held = artifacts[index];
  if (chunk.append && held !== undefined) {
    held.parts.push(...structuredClone(chunk.artifact.parts));
  } else if (held !== undefined) {
    // The spec leaves `append: false` on a known artifact open; the reading of
    // docs/protocol-checks.md#stream-events (replace it) is what clients do.
    artifacts[index] = structuredClone(chunk.artifact);
  } else {
    artifacts.push(structuredClone(chunk.artifact));
  }
  task.artifacts = artifacts;
  emit(state, target, {
    artifactUpdate: {
      taskId: task.id,
      contextId: task.contextId,
      artifact: structuredClone(chunk.artifact),
      // ProtoJSON leaves out fields holding their default, so `false` flags are not sent
      // (docs/protocol-checks.md#protojson).
      ...(chunk.append ? { append: true } : {}),
      ...(chunk.lastChunk ? { lastChunk: true } : {}),
    },
  });
}

function appendHistory(record: TaskRecord, message: Message): void {
  const { task } = internal(record);
  task.history = [...(task.history ?? []), message];
}

function subscribe(record: TaskRecord, listener: TaskListener): () => void {
  const { listeners } = internal(record);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function subscribeAll(state: StoreState, listener: TaskListener): () => void {
  state.everyTask.add(listener);
  return () => {
    state.everyTask.delete(listener);
  };
}

function putPushConfig(
  state: StoreState,
  record: TaskRecord,
  config: TaskPushNotificationConfig & { readonly id: string },
): void {
  const target = internal(record);
  if (!target.pushConfigSeq.has(config.id)) {
    state.seq += 1;
    target.pushConfigSeq.set(config.id, state.seq);
  }
  target.pushConfigs.set(config.id, config);
}

function deletePushConfig(record: TaskRecord, id: string): boolean {
  const target = internal(record);
  target.pushConfigSeq.delete(id);
  return target.pushConfigs.delete(id);
}

/**
A task store. Page tokens are opaque handles to a cursor held by the store's pages (`pages.ts`): a token names
a position in the order, not an offset, so tasks created after it was issued never shift the pages that follow
(they sort before the cursor).

@example
```ts
const store = createTaskStore({ now: Date.now });
const record = store.insert('', { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_SUBMITTED' } });
store.setStatus(record, 'TASK_STATE_WORKING');
store.list('', { pageSize: 50, includeArtifacts: false }).tasks.length; // 1
```
*/
export function createTaskStore(options: TaskStoreOptions): TaskStore {
  const state: StoreState = {
    now: options.now,
    taskTtlMs: options.taskTtlMs,
    everyTask: new Set(),
    tenants: new Map(),
    pages: createPages(),
    seq: 0,
  };
  return {
    insert: (tenant, task) => insert(state, tenant, task),
    get: (tenant, id) => tenantTasks(state, tenant).get(id),
    setStatus: (record, taskState, message) => setStatus(state, record, taskState, message),
    addArtifact: (record, chunk) => addArtifact(state, record, chunk),
    appendHistory,
    subscribe,
    subscribeAll: (listener) => subscribeAll(state, listener),
    view,
    list: (tenant, query) => state.pages.tasks(tenant, tenantTasks(state, tenant).values(), query, view),
    putPushConfig: (record, config) => putPushConfig(state, record, config),
    deletePushConfig,
    listPushConfigs: (record, query) => state.pages.configs(internal(record), query),
  };
}
