/**
@module
A JSON value as a keyboard-navigable tree (the WAI-ARIA tree view pattern): the visible rows for a set of
expanded nodes, and what each navigation key does. Nodes are named by their RFC 6901 JSON Pointer, so
expansion survives a new value of the same shape.
*/

/** The type of a JSON value, as the tree shows it. */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/** One visible row of the tree. */
export type JsonRow = {
  /** The node's JSON Pointer (RFC 6901); `''` for the root. */
  readonly path: string;
  /** The parent's pointer; `undefined` for the root. */
  readonly parent: string | undefined;
  /** 0 for the root. */
  readonly depth: number;
  /** The member name or array index; `undefined` for the root. */
  readonly label: string | undefined;
  readonly kind: JsonKind;
  /** A one-line rendering: the value of a scalar, the size of a container. */
  readonly preview: string;
  /** True for a non-empty object or array. */
  readonly expandable: boolean;
  readonly expanded: boolean;
};

/** Strings longer than this are cut in the preview, so one huge artifact cannot stall the page. */
export const previewChars = 2000;

/**
The JSON Pointer of `key` under `parent` (RFC 6901, §3: `~` is written `~0` and `/` is written `~1`).

@example
```ts
childPointer('/capabilities', 'a/b'); // '/capabilities/a~1b'
```
*/
export function childPointer(parent: string, key: string | number): string {
  return `${parent}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

function kindOf(value: unknown): JsonKind {
  if (value === null || value === undefined) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'array';
  }
  switch (typeof value) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'null';
  }
}

function entriesOf(value: unknown): [string | number, unknown][] {
  if (Array.isArray(value)) {
    return value.map((item, index) => [index, item]);
  }
  // A member set to `undefined` is not JSON: JSON.stringify leaves it out, and so does the tree.
  return Object.entries(value as Record<string, unknown>).filter(([, member]) => member !== undefined);
}

function previewOf(value: unknown, kind: JsonKind): string {
  switch (kind) {
    case 'object': {
      const count = entriesOf(value).length;
      return `{${count} ${count === 1 ? 'key' : 'keys'}}`;
    }
    case 'array': {
      const count = (value as unknown[]).length;
      return `[${count} ${count === 1 ? 'item' : 'items'}]`;
    }
    case 'string': {
      const text = value as string;
      const cut = text.length > previewChars ? `${text.slice(0, previewChars)}…` : text;
      return JSON.stringify(cut);
    }
    case 'null':
      return 'null';
    default:
      return String(value);
  }
}

/**
The rows a person sees: the root, and the children of every expanded node, depth first in member order.

@example
```ts
jsonRows({ name: 'agent', skills: [1, 2] }, new Set(['']));
// root '{2 keys}', then '/name' '"agent"', then '/skills' '[2 items]' (collapsed)
```
*/
export function jsonRows(value: unknown, expanded: ReadonlySet<string>): JsonRow[] {
  const rows: JsonRow[] = [];
  const visit = (
    node: unknown,
    path: string,
    parent: string | undefined,
    label: string | undefined,
    depth: number,
  ): void => {
    const kind = kindOf(node);
    const children = kind === 'object' || kind === 'array' ? entriesOf(node) : [];
    const expandable = children.length > 0;
    const open = expandable && expanded.has(path);
    rows.push({
      path,
      parent,
      depth,
      label,
      kind,
      preview: previewOf(node, kind),
      expandable,
      expanded: open,
    });
    if (open) {
      for (const [key, child] of children) {
        visit(child, childPointer(path, key), path, String(key), depth + 1);
      }
    }
  };
  visit(value, '', undefined, undefined, 0);
  return rows;
}

/**
The pointers of every container down to `depth` levels below the root (the root is level 0), for a tree that
opens showing its outline.

@example
```ts
expandedTo({ a: { b: { c: 1 } } }, 1); // Set { '', '/a' }
```
*/
export function expandedTo(value: unknown, depth: number): Set<string> {
  const open = new Set<string>();
  const visit = (node: unknown, path: string, level: number): void => {
    const kind = kindOf(node);
    if ((kind !== 'object' && kind !== 'array') || level > depth) {
      return;
    }
    open.add(path);
    for (const [key, child] of entriesOf(node)) {
      visit(child, childPointer(path, key), level + 1);
    }
  };
  visit(value, '', 0);
  return open;
}

/** Where the focus is and what is open, after a key. */
export type TreeFocus = { readonly active: string; readonly expanded: ReadonlySet<string> };

function toggled(expanded: ReadonlySet<string>, path: string, open: boolean): ReadonlySet<string> {
  const next = new Set(expanded);
  if (open) {
    next.add(path);
  } else {
    next.delete(path);
  }
  return next;
}

/**
What a key does in the tree (WAI-ARIA APG, tree view keyboard interaction): Down/Up move between visible rows,
Right opens a closed node or enters an open one, Left closes an open node or goes to the parent, Enter and
Space toggle, Home and End go to the first and last row. `undefined` when the key means nothing here, so the
caller lets the browser have it.

@example
```ts
const next = treeKey(rows, '/skills', 'ArrowRight', expanded); // opens /skills
```
*/
export function treeKey(
  rows: readonly JsonRow[],
  active: string,
  key: string,
  expanded: ReadonlySet<string>,
): TreeFocus | undefined {
  const index = rows.findIndex((row) => row.path === active);
  const row = rows[index];
  if (row === undefined) {
    const first = rows[0];
    return first === undefined ? undefined : { active: first.path, expanded };
  }
  const move = (target: JsonRow | undefined): TreeFocus => ({ active: target?.path ?? active, expanded });
  switch (key) {
    case 'ArrowDown':
      return move(rows[index + 1]);
    case 'ArrowUp':
      return move(rows[index - 1]);
    case 'Home':
      return move(rows[0]);
    case 'End':
      return move(rows[rows.length - 1]);
    case 'ArrowRight':
      if (!row.expandable) {
        return move(row);
      }
      return row.expanded ? move(rows[index + 1]) : { active, expanded: toggled(expanded, active, true) };
    case 'ArrowLeft':
      if (row.expanded) {
        return { active, expanded: toggled(expanded, active, false) };
      }
      return { active: row.parent ?? active, expanded };
    case 'Enter':
    case ' ':
      return row.expandable ? { active, expanded: toggled(expanded, active, !row.expanded) } : move(row);
    default:
      return undefined;
  }
}
