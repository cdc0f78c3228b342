import type { A2aClient, ListTasksResponse } from '@surecall/client';
import { type ActionDispatch, useCallback, useState } from 'react';
import type { FeedAction } from '../model/feed.js';
import { errorRecord, formatError } from '../model/format.js';
import {
  currentToken,
  defaultTaskFilter,
  type FilterProblem,
  firstPage,
  listTasksParams,
  nextPage,
  type Paging,
  previousPage,
  type TaskFilterForm,
} from '../model/task-filters.js';

/** The Tasks panel's list: its form, the page shown, and how to move. */
export type TaskList = {
  readonly form: TaskFilterForm;
  setForm(form: TaskFilterForm): void;
  readonly paging: Paging;
  readonly page: ListTasksResponse | undefined;
  readonly loading: boolean;
  /** The form's problem, or the call's error as one line. */
  readonly problem: FilterProblem | undefined;
  readonly error: string | undefined;
  /** Lists the first page for the form. */
  search(): Promise<void>;
  next(): Promise<void>;
  previous(): Promise<void>;
};

/**
ListTasks with the panel's filters and paging. Every task of a page is also handed to the feed as a snapshot,
so its detail starts from what the list showed.

@example
```ts
const list = useTaskList(client, dispatch);
await list.search();
```
*/
export function useTaskList(
  client: Pick<A2aClient, 'listTasks'>,
  dispatch: ActionDispatch<[FeedAction]>,
): TaskList {
  const [form, setForm] = useState<TaskFilterForm>(defaultTaskFilter);
  const [paging, setPaging] = useState<Paging>(firstPage);
  const [page, setPage] = useState<ListTasksResponse | undefined>(undefined);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<FilterProblem | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  const load = useCallback(
    async (target: Paging) => {
      const result = listTasksParams(form, currentToken(target));
      setProblem(result.problem);
      if (!result.ok) {
        return;
      }
      setLoading(true);
      setError(undefined);
      try {
        const answer = await client.listTasks(result.params);
        const at = Date.now();
        for (const task of answer.tasks) {
          dispatch({ type: 'task-snapshot', task, at });
        }
        setPage(answer);
        setPaging(target);
      } catch (thrown) {
        setError(formatError(errorRecord(thrown)));
      } finally {
        setLoading(false);
      }
    },
    [client, dispatch, form],
  );

  return {
    form,
    setForm,
    paging,
    page,
    loading,
    problem,
    error,
    search: () => load(firstPage),
    next: async () => {
      const target = page === undefined ? undefined : nextPage(paging, page.nextPageToken);
      if (target !== undefined) {
        await load(target);
      }
    },
    previous: async () => {
      const target = previousPage(paging);
      if (target !== undefined) {
        await load(target);
      }
    },
  };
}
