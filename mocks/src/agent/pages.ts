/**
@module
Paging of the store's listings: ListTasks, newest status first, and ListTaskPushNotificationConfigs, in
creation order. Page tokens are opaque handles to a cursor held here: a token names a position in the order,
not an offset, so tasks created after it was issued never shift the pages that follow (they sort before the
cursor).
*/
import { randomId } from './ids.js';
import { AgentError } from './remote-errors.js';
import type { TaskRecord, TaskView } from './task-record.js';
import type {
  ListTaskPushNotificationConfigsResponse,
  TaskState,
  WireListTasksResponse,
  WireTask,
} from './wire.js';

/** A validated ListTasks request (A2A spec §3.1.4). */
export type ListTasksQuery = {
  readonly contextId?: string | undefined;
  readonly status?: TaskState | undefined;
  /**
  Milliseconds; tasks whose status timestamp is at or after it (inclusive, proto comment of
  `status_timestamp_after`).
  */
  readonly statusTimestampAfter?: number | undefined;
  readonly pageSize: number;
  readonly pageToken?: string | undefined;
  readonly historyLength?: number | undefined;
  readonly includeArtifacts: boolean;
};

/** A validated ListTaskPushNotificationConfigs request. */
export type ListPushConfigsQuery = { readonly pageSize: number; readonly pageToken?: string | undefined };

/** A task as ListTasks orders it: by the time of its last status change, then by the order of the changes. */
export type PagedTask = TaskRecord & { readonly updateSeq: number };

/** A task as its push configs are paged: each config by the order in which it was first added. */
export type PagedConfigs = TaskRecord & { readonly pushConfigSeq: ReadonlyMap<string, number> };

/** The listings of one store, and the page tokens they issued. */
export type Pages = {
  /** One page of `records` (a tenant's tasks) matching `query`, each task shaped by `view`. */
  tasks(
    tenant: string,
    records: Iterable<PagedTask>,
    query: ListTasksQuery,
    view: (record: TaskRecord, shape: TaskView) => WireTask,
  ): WireListTasksResponse;
  /** One page of a task's push configs. */
  configs(record: PagedConfigs, query: ListPushConfigsQuery): ListTaskPushNotificationConfigsResponse;
};

type TaskCursor = {
  readonly kind: 'tasks';
  readonly tenant: string;
  readonly filter: string;
  readonly updatedAt: number;
  readonly updateSeq: number;
};
type ConfigCursor = {
  readonly kind: 'configs';
  readonly tenant: string;
  readonly taskId: string;
  readonly seq: number;
};

// Tokens are handles into this agent's memory, so a forged or foreign token is recognised; the oldest are
// forgotten past this many.
const maxPageTokens = 4096;

/**
Creates the listings of one store.

@example
```ts
const pages = createPages();
pages.tasks('', tasks.values(), { pageSize: 50, includeArtifacts: false }, view).nextPageToken; // '' on the last page
```
*/
export function createPages(): Pages {
  const tokens = new Map<string, TaskCursor | ConfigCursor>();

  function issue(cursor: TaskCursor | ConfigCursor): string {
    if (tokens.size >= maxPageTokens) {
      const oldest = tokens.keys().next();
      if (oldest.done !== true) {
        tokens.delete(oldest.value);
      }
    }
    const token = randomId();
    tokens.set(token, cursor);
    return token;
  }

  function newestFirst(a: PagedTask, b: PagedTask): number {
    return b.updatedAt - a.updatedAt || b.updateSeq - a.updateSeq;
  }

  return {
    tasks(tenant, records, query, view) {
      const filter = JSON.stringify([query.contextId, query.status, query.statusTimestampAfter]);
      const matching = [...records]
        .filter(
          (record) =>
            (query.contextId === undefined || record.task.contextId === query.contextId) &&
            (query.status === undefined || record.task.status.state === query.status) &&
            (query.statusTimestampAfter === undefined || record.updatedAt >= query.statusTimestampAfter),
        )
        .sort(newestFirst);
      let start = 0;
      if (query.pageToken !== undefined) {
        const cursor = tokens.get(query.pageToken);
        if (cursor?.kind !== 'tasks' || cursor.tenant !== tenant) {
          throw new AgentError('InvalidParams', 'pageToken was not issued by this agent for this tenant');
        }
        if (cursor.filter !== filter) {
          // AIP-158: a page token continues the listing it came from; other filters need a new listing.
          throw new AgentError('InvalidParams', 'pageToken belongs to a listing with other filters');
        }
        const after = matching.findIndex(
          (record) =>
            record.updatedAt < cursor.updatedAt ||
            (record.updatedAt === cursor.updatedAt && record.updateSeq < cursor.updateSeq),
        );
        start = after === -1 ? matching.length : after;
      }
      const page = matching.slice(start, start + query.pageSize);
      const last = page.at(-1);
      const more = start + page.length < matching.length;
      return {
        tasks: page.map((record) =>
          view(record, {
            historyLength: query.historyLength,
            artifacts: query.includeArtifacts ? 'always' : 'omit',
          }),
        ),
        // A2A spec §3.1.4: nextPageToken is always present, and empty on the last page.
        nextPageToken:
          more && last !== undefined
            ? issue({ kind: 'tasks', tenant, filter, updatedAt: last.updatedAt, updateSeq: last.updateSeq })
            : '',
        pageSize: query.pageSize,
        totalSize: matching.length,
      };
    },

    configs(target, query) {
      const taskId = target.task.id;
      let after = 0;
      if (query.pageToken !== undefined) {
        const cursor = tokens.get(query.pageToken);
        if (cursor?.kind !== 'configs' || cursor.tenant !== target.tenant || cursor.taskId !== taskId) {
          throw new AgentError('InvalidParams', 'pageToken was not issued by this agent for this task');
        }
        after = cursor.seq;
      }
      const remaining = [...target.pushConfigs.values()].filter(
        (config) => (target.pushConfigSeq.get(config.id ?? '') ?? 0) > after,
      );
      const page = remaining.slice(0, query.pageSize);
      const last = page.at(-1);
      return {
        configs: structuredClone(page),
        nextPageToken:
          remaining.length > page.length && last !== undefined
            ? issue({
                kind: 'configs',
                tenant: target.tenant,
                taskId,
                seq: target.pushConfigSeq.get(last.id ?? '') ?? 0,
              })
            : '',
      };
    },
  };
}
