import { useId } from 'react';

/** Props of {@link FilterBox}. */
export type FilterBoxProps = {
  /** What is filtered, for the label: `tasks`, `sends`, `frames`. */
  readonly what: string;
  readonly query: string;
  onQuery(query: string): void;
  /** How many items the query keeps, of how many. */
  readonly shown: number;
  readonly total: number;
};

/**
A search box over a panel's items (`model/filter.ts`: every word must appear in the item's id, state, context
or text), with how many it keeps.

@example
```tsx
<FilterBox what="tasks" query={query} onQuery={setQuery} shown={kept.length} total={all.length} />
```
*/
export function FilterBox({ what, query, onQuery, shown, total }: FilterBoxProps) {
  const id = useId();
  return (
    <search className="filter-box" aria-label={`Filter ${what}`}>
      <label htmlFor={id}>Filter {what}</label>{' '}
      <input
        id={id}
        type="search"
        value={query}
        placeholder="id, state, context or text"
        onChange={(event) => onQuery(event.target.value)}
      />{' '}
      <output className="muted small" data-testid="filter-count" htmlFor={id}>
        {shown} of {total}
      </output>
    </search>
  );
}
