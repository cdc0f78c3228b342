/**
@module
The Tasks panel's filters and paging: the form a person fills in, checked and turned into ListTasks parameters
(A2A spec, §3.1.4: `contextId`, `status`, `statusTimestampAfter`, `pageSize` 1..100, `pageToken`), and the
stack of page tokens that lets them go back.
*/
import type { OperationParams, TaskState } from '@surecall/client';
import { contractBounds } from '@surecall/client/protocol';

/** The filter form, as the inputs hold it: strings. */
export type TaskFilterForm = {
  readonly contextId: string;
  /** A task state, or `''` for any: a select's value. */
  readonly status: string;
  /** A `datetime-local` value (local time) or an RFC 3339 timestamp; `''` for no lower bound. */
  readonly since: string;
  readonly pageSize: string;
};

/** The form a panel opens with. */
export const defaultTaskFilter: TaskFilterForm = Object.freeze({
  contextId: '',
  status: '',
  since: '',
  pageSize: '20',
});

/**
The states a person can filter by, in lifecycle order (`TASK_STATE_UNSPECIFIED` is never a task's state).
*/
export const filterableStates: readonly TaskState[] = Object.freeze([
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/** Why the form cannot be sent: the field and what to fix. */
export type FilterProblem = { readonly field: keyof TaskFilterForm; readonly message: string };

/** The ListTasks parameters of a valid form, or the first problem. */
export type FilterResult =
  | { readonly ok: true; readonly params: OperationParams<'listTasks'>; readonly problem?: never }
  | { readonly ok: false; readonly problem: FilterProblem; readonly params?: never };

// A zone-less `datetime-local` value, with or without seconds, or an RFC 3339 timestamp with a zone.
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?$/;
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
Checks the form and builds the parameters of one ListTasks page. The `since` time becomes
`statusTimestampAfter` in UTC.

@example
```ts
const result = listTasksParams({ ...defaultTaskFilter, status: 'TASK_STATE_WORKING' }, '');
if (result.ok) await client.listTasks(result.params); // { status: 'TASK_STATE_WORKING', pageSize: 20 }
```
*/
export function listTasksParams(form: TaskFilterForm, pageToken: string): FilterResult {
  const fail = (field: keyof TaskFilterForm, message: string): FilterResult => ({
    ok: false,
    problem: { field, message },
  });
  const contextId = form.contextId.trim();
  const pageSize = form.pageSize.trim() === '' ? Number.NaN : Number(form.pageSize);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > contractBounds.taskPageSize) {
    return fail('pageSize', `Page size must be a whole number from 1 to ${contractBounds.taskPageSize}`);
  }
  const status = form.status === '' ? undefined : filterableStates.find((state) => state === form.status);
  if (form.status !== '' && status === undefined) {
    return fail('status', 'Choose a task state, or any');
  }
  const since = form.since.trim();
  let statusTimestampAfter: string | undefined;
  if (since !== '') {
    const time = LOCAL.test(since) || ZONED.test(since) ? new Date(since).getTime() : Number.NaN;
    if (Number.isNaN(time)) {
      return fail('since', 'Since must be a date and time, such as 2026-01-31T09:30');
    }
    statusTimestampAfter = new Date(time).toISOString();
  }
  return {
    ok: true,
    params: {
      pageSize,
      ...(contextId === '' ? {} : { contextId }),
      ...(status === undefined ? {} : { status }),
      ...(statusTimestampAfter === undefined ? {} : { statusTimestampAfter }),
      ...(pageToken === '' ? {} : { pageToken }),
    },
  };
}

/** Where the list is: the token of every page visited so far (the first page's is `''`) and the one shown. */
export type Paging = { readonly tokens: readonly string[]; readonly index: number };

/** The first page. */
export const firstPage: Paging = Object.freeze({ tokens: Object.freeze(['']), index: 0 });

/** The token of the page shown. */
export function currentToken(paging: Paging): string {
  return paging.tokens[paging.index] ?? '';
}

/**
The next page, given the `nextPageToken` of the page shown; `undefined` on the last page (an empty token: A2A
spec, §3.1.4).

@example
```ts
const next = nextPage(paging, page.nextPageToken);
if (next) setPaging(next);
```
*/
export function nextPage(paging: Paging, nextPageToken: string): Paging | undefined {
  if (nextPageToken === '') {
    return undefined;
  }
  return { tokens: [...paging.tokens.slice(0, paging.index + 1), nextPageToken], index: paging.index + 1 };
}

/** The page before, or `undefined` on the first page. */
export function previousPage(paging: Paging): Paging | undefined {
  return paging.index === 0 ? undefined : { tokens: paging.tokens, index: paging.index - 1 };
}
