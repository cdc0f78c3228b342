/**
@module
The semantic checks of the answers of ListTasks and of the push-config operations
(docs/protocol-checks.md#unary-answers: task-page contract and filters, push-config identity), on top of
`checks.ts`. They load with the first call of such an operation (ARCHITECTURE.md#decisions, "Code loads with
its first use"), are pure, and throw `InvalidResponseError` with `dispatched: true` and a violation that names
a rule and a path, never a value.
*/

import type { TaskPushNotificationConfig } from '../protocol/push.js';
import type {
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
} from '../protocol/requests.js';
import type { Task } from '../protocol/task.js';
import { compareTimestamps } from '../protocol/timestamp-order.js';
import { type CheckOptions, checkTaskAt, fail } from './checks.js';

// A2A spec §3.1.4: a page holds 1..100 tasks.
const TASK_PAGE_MAX = 100;

/**
Checks a ListTasks page (docs/protocol-checks.md#pages: contract and filters), with reason `page`:

- contract: echoed `pageSize` in 1..100, no more tasks than it, `totalSize` ≥ 0 and ≥ the tasks, unique task
  ids, newest status timestamp first among the tasks that have one (compared as instants: fraction lengths
  differ between peers);
- filters: echoed `pageSize` ≤ the requested one; every task in the requested context and state; with
  `statusTimestampAfter`, every task has a timestamp ≥ the bound (inclusive, A2A spec §3.1.4); without
  `includeArtifacts: true`, no task has an `artifacts` field at all, not even `[]`.

Each task also passes Task identity with the requested `historyLength`; those failures keep reason `identity`.

@example
```ts
const { value } = await binding.unary('listTasks', request, context);
checkTaskPage(request, value);
```
*/
export function checkTaskPage(
  request: ListTasksRequest,
  page: ListTasksResponse,
  options: CheckOptions = {},
): void {
  const { tasks } = page;
  if (page.pageSize < 1 || page.pageSize > TASK_PAGE_MAX) {
    fail('page', 'page-size', '$.pageSize', options);
  }
  if (request.pageSize !== undefined && page.pageSize > request.pageSize) {
    fail('page', 'page-size-echo', '$.pageSize', options);
  }
  if (tasks.length > page.pageSize) {
    fail('page', 'page-overflow', '$.tasks', options);
  }
  if (page.totalSize < tasks.length) {
    fail('page', 'total-size', '$.totalSize', options);
  }
  const seen = new Set<string>();
  let newer: string | undefined;
  tasks.forEach((task, index) => {
    const path = `$.tasks[${index}]`;
    if (seen.has(task.id)) {
      fail('page', 'duplicate-task-id', `${path}.id`, options);
    }
    seen.add(task.id);
    const { timestamp } = task.status;
    // A2A spec §3.1.4: newest first; a task without a timestamp has no place in that order and is skipped.
    if (timestamp !== undefined) {
      if (newer !== undefined && compareTimestamps(timestamp, newer) > 0) {
        fail('page', 'page-order', `${path}.status.timestamp`, options);
      }
      newer = timestamp;
    }
    checkFilters(request, task, path, options);
    checkTaskAt(task, { historyLength: request.historyLength }, path, options);
  });
}

function checkFilters(request: ListTasksRequest, task: Task, path: string, options: CheckOptions): void {
  if (request.contextId !== undefined && task.contextId !== request.contextId) {
    fail('page', 'context-filter', `${path}.contextId`, options);
  }
  if (request.status !== undefined && task.status.state !== request.status) {
    fail('page', 'status-filter', `${path}.status.state`, options);
  }
  const bound = request.statusTimestampAfter;
  if (bound !== undefined) {
    const { timestamp } = task.status;
    if (timestamp === undefined) {
      fail('page', 'status-timestamp-missing', `${path}.status.timestamp`, options);
    }
    // A2A spec §3.1.4: `statusTimestampAfter` keeps tasks whose timestamp is ≥ the bound, despite its name.
    if (compareTimestamps(timestamp, bound) < 0) {
      fail('page', 'status-timestamp-before', `${path}.status.timestamp`, options);
    }
  }
  // A2A spec §3.1.4: without includeArtifacts the field MUST be left out entirely, not sent as [].
  if (request.includeArtifacts !== true && task.artifacts !== undefined) {
    fail('page', 'artifacts-not-requested', `${path}.artifacts`, options);
  }
}

/**
Checks one push-notification config against the task it was asked for (docs/protocol-checks.md#unary-answers,
push config identity), with reason `identity`: `taskId` equals the request's, `id` is present, and equals the
request's `id` when one was given (Get, or a Create that chose its id).

@example
```ts
const { value } = await binding.unary('getTaskPushNotificationConfig', request, context);
checkPushConfig({ taskId: request.taskId, id: request.id }, value);
```
*/
export function checkPushConfig(
  request: { readonly taskId: string; readonly id?: string | undefined },
  config: TaskPushNotificationConfig,
  options: CheckOptions = {},
): void {
  checkConfigAt(request, config, '$', options);
}

function checkConfigAt(
  request: { readonly taskId: string; readonly id?: string | undefined },
  config: TaskPushNotificationConfig,
  path: string,
  options: CheckOptions,
): string {
  if (config.taskId !== request.taskId) {
    fail('identity', 'push-config-task-id', `${path}.taskId`, options);
  }
  if (config.id === undefined || (request.id !== undefined && config.id !== request.id)) {
    fail('identity', 'push-config-id', `${path}.id`, options);
  }
  return config.id;
}

/**
Checks a page of push-notification configs: each on the requested task with an id (reason `identity`), ids
unique (reason `page`). A page longer than the requested `pageSize` is accepted: A2A spec §3.1.9 says the
server MUST return all active configurations and MAY paginate, so `pageSize` is a wish, not a bound, and both
official SDK servers answer every config (docs/protocol-checks.md#pages). The schema's size bound
(ARCHITECTURE.md#bounds, 256 configs) is the only limit.

@example
```ts
const { value } = await binding.unary('listTaskPushNotificationConfigs', request, context);
checkPushConfigPage(request, value);
```
*/
export function checkPushConfigPage(
  request: ListTaskPushNotificationConfigsRequest,
  page: ListTaskPushNotificationConfigsResponse,
  options: CheckOptions = {},
): void {
  const seen = new Set<string>();
  page.configs.forEach((config, index) => {
    const path = `$.configs[${index}]`;
    const id = checkConfigAt({ taskId: request.taskId }, config, path, options);
    if (seen.has(id)) {
      fail('page', 'duplicate-config-id', `${path}.id`, options);
    }
    seen.add(id);
  });
}
