import { type KeyboardEvent, type MouseEvent, useMemo, useRef, useState } from 'react';
import { expandedTo, jsonRows, treeKey } from '../model/json-tree.js';

/** Props of {@link JsonTree}. */
export type JsonTreeProps = {
  readonly value: unknown;
  /** The tree's accessible name. */
  readonly label: string;
  /** Levels open at first (the root is level 0). @default 1 */
  readonly openDepth?: number;
};

/**
A JSON value as a tree (WAI-ARIA tree view): one tab stop, arrows to move, open and close, Enter or Space to
toggle.

@example
```tsx
<JsonTree value={card} label="Agent card" />
```
*/
export function JsonTree({ value, label, openDepth = 1 }: JsonTreeProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => expandedTo(value, openDepth));
  const [active, setActive] = useState('');
  const rows = useMemo(() => jsonRows(value, expanded), [value, expanded]);
  const tree = useRef<HTMLDivElement>(null);
  const current = rows.some((row) => row.path === active) ? active : '';

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const next = treeKey(rows, current, event.key, expanded);
    if (next === undefined) {
      return;
    }
    event.preventDefault();
    setExpanded(next.expanded);
    setActive(next.active);
    tree.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(next.active)}"]`)?.focus();
  };

  // One click handler on the tree: a click on a row focuses it and opens or closes it.
  const onClick = (event: MouseEvent<HTMLDivElement>): void => {
    const item = (event.target as Element).closest<HTMLElement>('[data-path]');
    const row = rows.find((entry) => entry.path === item?.getAttribute('data-path'));
    if (row === undefined) {
      return;
    }
    setActive(row.path);
    if (row.expandable) {
      const next = new Set(expanded);
      if (row.expanded) {
        next.delete(row.path);
      } else {
        next.add(row.path);
      }
      setExpanded(next);
    }
  };

  return (
    <div
      className="json-tree"
      role="tree"
      aria-label={label}
      ref={tree}
      onKeyDown={onKeyDown}
      onClick={onClick}
    >
      {rows.map((row) => (
        <div
          key={row.path}
          role="treeitem"
          aria-level={row.depth + 1}
          aria-expanded={row.expandable ? row.expanded : undefined}
          aria-selected={row.path === current}
          tabIndex={row.path === current ? 0 : -1}
          data-path={row.path}
          style={{ paddingInlineStart: `${row.depth * 1.1 + 0.25}rem` }}
        >
          <span className="json-tree-twisty" aria-hidden="true">
            {row.expandable ? (row.expanded ? '▾' : '▸') : ''}
          </span>
          {row.label === undefined ? null : <span className="json-tree-key">{row.label}: </span>}
          <span className={`json-tree-value json-${row.kind}`}>{row.preview}</span>
        </div>
      ))}
    </div>
  );
}
