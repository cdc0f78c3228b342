import { useId } from 'react';
import type { TaskList } from '../hooks/use-task-list.js';
import { formatState } from '../model/format.js';
import { filterableStates } from '../model/task-filters.js';

/** Props of {@link TaskListFilters}. */
export type TaskListFiltersProps = { readonly list: TaskList };

/**
The ListTasks form: context id, status, status since and page size, the field at fault marked, and the call's
error.

@example
```tsx
<TaskListFilters list={useTaskList(client, dispatch)} />
```
*/
export function TaskListFilters({ list }: TaskListFiltersProps) {
  const id = useId();
  const problemFor = (field: string) =>
    list.problem?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${id}-problem` } : {};
  return (
    <form
      className="filters"
      aria-label="Task filters"
      onSubmit={(event) => {
        event.preventDefault();
        void list.search();
      }}
    >
      <span className="field">
        <label htmlFor={`${id}-context`}>Context id</label>
        <input
          id={`${id}-context`}
          value={list.form.contextId}
          onChange={(event) => list.setForm({ ...list.form, contextId: event.target.value })}
          {...problemFor('contextId')}
        />
      </span>
      <span className="field">
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          value={list.form.status}
          onChange={(event) => list.setForm({ ...list.form, status: event.target.value })}
          {...problemFor('status')}
        >
          <option value="">any</option>
          {filterableStates.map((state) => (
            <option key={state} value={state}>
              {formatState(state)}
            </option>
          ))}
        </select>
      </span>
      <span className="field">
        <label htmlFor={`${id}-since`}>Status since</label>
        <input
          id={`${id}-since`}
          type="datetime-local"
          step={1}
          value={list.form.since}
          onChange={(event) => list.setForm({ ...list.form, since: event.target.value })}
          {...problemFor('since')}
        />
      </span>
      <span className="field">
        <label htmlFor={`${id}-page-size`}>Page size</label>
        <input
          id={`${id}-page-size`}
          inputMode="numeric"
          size={4}
          value={list.form.pageSize}
          onChange={(event) => list.setForm({ ...list.form, pageSize: event.target.value })}
          {...problemFor('pageSize')}
        />
      </span>
      <button type="submit" disabled={list.loading}>
        {list.loading ? 'Listing…' : 'List tasks'}
      </button>
      {list.problem === undefined ? null : (
        <p className="error" id={`${id}-problem`} role="alert">
          {list.problem.message}
        </p>
      )}
      {list.error === undefined ? null : (
        <p className="error" role="alert">
          {list.error}
        </p>
      )}
    </form>
  );
}
