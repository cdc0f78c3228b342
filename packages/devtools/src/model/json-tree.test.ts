import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childPointer, expandedTo, jsonRows, previewChars, treeKey } from './json-tree.js';

const card = {
  name: 'agent',
  capabilities: { streaming: true, extensions: [{ uri: 'https://x.example/ext', required: false }] },
  skills: [],
  note: null,
};

function allNodes(value: unknown): number {
  if (value === null || typeof value !== 'object') {
    return 1;
  }
  return 1 + Object.values(value).reduce<number>((sum, child) => sum + allNodes(child), 0);
}

describe('childPointer', () => {
  it.each([
    ['', 'name', '/name'],
    ['/a', 0, '/a/0'],
    ['', 'a/b', '/a~1b'],
    ['', 'm~n', '/m~0n'],
    ['', '~/', '/~0~1'],
  ] as const)('%j + %j is %j (RFC 6901 escaping)', (parent, key, pointer) => {
    expect(childPointer(parent, key)).toBe(pointer);
  });
});

describe('jsonRows', () => {
  it('shows only the root while nothing is expanded', () => {
    expect(jsonRows(card, new Set())).toEqual([
      {
        path: '',
        parent: undefined,
        depth: 0,
        label: undefined,
        kind: 'object',
        preview: '{4 keys}',
        expandable: true,
        expanded: false,
      },
    ]);
  });

  it('lists the members of an expanded node in order, with previews', () => {
    const rows = jsonRows(card, new Set(['', '/capabilities']));
    expect(rows.map((row) => [row.path, row.depth, row.kind, row.preview, row.expandable])).toEqual([
      ['', 0, 'object', '{4 keys}', true],
      ['/name', 1, 'string', '"agent"', false],
      ['/capabilities', 1, 'object', '{2 keys}', true],
      ['/capabilities/streaming', 2, 'boolean', 'true', false],
      ['/capabilities/extensions', 2, 'array', '[1 item]', true],
      ['/skills', 1, 'array', '[0 items]', false],
      ['/note', 1, 'null', 'null', false],
    ]);
  });

  it('leaves out members set to undefined, as JSON.stringify does', () => {
    const rows = jsonRows({ a: 1, b: undefined }, new Set(['']));
    expect(rows.map((row) => row.path)).toEqual(['', '/a']);
    expect(rows[0]?.preview).toBe('{1 key}');
  });

  it('cuts a long string in its preview', () => {
    const [row] = jsonRows('x'.repeat(previewChars + 10), new Set());
    expect(row?.preview).toBe(JSON.stringify(`${'x'.repeat(previewChars)}…`));
  });

  it('shows every node once when every container is expanded, each after its parent', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const rows = jsonRows(value, expandedTo(value, Number.POSITIVE_INFINITY));
        expect(rows).toHaveLength(allNodes(value));
        const seen = new Set<string>();
        for (const row of rows) {
          expect(seen.has(row.path)).toBe(false);
          if (row.parent !== undefined) {
            expect(seen.has(row.parent)).toBe(true);
          }
          seen.add(row.path);
        }
      }),
    );
  });
});

describe('expandedTo', () => {
  it('opens containers down to the given level only', () => {
    expect([...expandedTo({ a: { b: { c: 1 } }, d: [1] }, 1)]).toEqual(['', '/a', '/d']);
    expect([...expandedTo({ a: { b: { c: 1 } } }, 0)]).toEqual(['']);
    expect([...expandedTo('scalar', 3)]).toEqual([]);
  });
});

describe('treeKey', () => {
  const expanded = new Set(['', '/capabilities']);
  const rows = jsonRows(card, expanded);

  it.each([
    ['/name', 'ArrowDown', '/capabilities'],
    ['/name', 'ArrowUp', ''],
    ['', 'ArrowUp', ''],
    ['/note', 'ArrowDown', '/note'],
    ['/skills', 'Home', ''],
    ['', 'End', '/note'],
    ['/capabilities', 'ArrowRight', '/capabilities/streaming'],
    ['/capabilities/streaming', 'ArrowLeft', '/capabilities'],
    ['/name', 'ArrowRight', '/name'],
  ])('from %j, %s moves to %j', (from, key, to) => {
    expect(treeKey(rows, from, key, expanded)).toEqual({ active: to, expanded });
  });

  it('opens a closed node on ArrowRight and closes an open one on ArrowLeft, keeping the focus', () => {
    const opened = treeKey(rows, '/capabilities/extensions', 'ArrowRight', expanded);
    expect(opened?.active).toBe('/capabilities/extensions');
    expect(opened?.expanded.has('/capabilities/extensions')).toBe(true);
    const closed = treeKey(rows, '/capabilities', 'ArrowLeft', expanded);
    expect(closed?.active).toBe('/capabilities');
    expect(closed?.expanded.has('/capabilities')).toBe(false);
    expect(expanded.has('/capabilities')).toBe(true);
  });

  it.each(['Enter', ' '])('%j toggles an expandable node', (key) => {
    expect(treeKey(rows, '/capabilities', key, expanded)?.expanded.has('/capabilities')).toBe(false);
    expect(
      treeKey(rows, '/capabilities/extensions', key, expanded)?.expanded.has('/capabilities/extensions'),
    ).toBe(true);
  });

  it('ignores keys that mean nothing in a tree', () => {
    expect(treeKey(rows, '/name', 'a', expanded)).toBeUndefined();
    expect(treeKey(rows, '/name', 'Tab', expanded)).toBeUndefined();
  });

  it('recovers a focus that fell into a closed node by moving to the first row', () => {
    expect(treeKey(rows, '/capabilities/extensions/0', 'ArrowDown', expanded)).toEqual({
      active: '',
      expanded,
    });
  });
});
