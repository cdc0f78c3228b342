/**
@module
ARCHITECTURE.md#import-rules, checked: the floors of `packages/client/src` and what each may import, and the
owner of each dependency, are read from the two tables of that section, and every import of every source file
(tests aside, type-only imports included) is held to them. The rules are this test's data, so the document
cannot drift from the code; a new folder, an arrow up or a second owner fails here until the document says so.
*/
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, repositoryRoot, type SourceFile, sourceFiles } from '../../../scripts/source-facts.js';

const sourceRoot = 'packages/client/src/';

type Floor = {
  readonly name: string;
  readonly paths: readonly string[];
  readonly imports: readonly string[];
};
type Rules = {
  readonly floors: readonly Floor[];
  /** Dependency → the paths that alone may import it. */
  readonly owners: ReadonlyMap<string, readonly string[]>;
  /** The one internal `import()`: from → to. */
  readonly load: readonly [string, string];
};

/** The code spans of a table cell: `a/`, `b.ts`. */
const spans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');

/** The body rows of the first Markdown table after `heading` and before the next `#`-heading. */
function tableAfter(text: string, heading: string, nth = 0): string[][] {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) {
    throw new Error(`ARCHITECTURE.md has no ${heading}`);
  }
  const section = text.slice(start + heading.length + 2).split(/\n#{1,3} /)[0] ?? '';
  const tables = section.split(/\n\s*\n/).filter((block) => block.startsWith('|'));
  const table = tables[nth];
  if (table === undefined) {
    throw new Error(`ARCHITECTURE.md ${heading} has no table ${nth + 1}`);
  }
  return table
    .trim()
    .split('\n')
    .slice(2)
    .map((row) =>
      row
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

function readRules(text: string): Rules {
  const floors = tableAfter(text, '## Import rules').map(([name = '', paths = '', imports = '']) => ({
    name,
    paths: spans(paths),
    imports: imports === '—' ? [] : imports.split(',').map((floor) => floor.trim()),
  }));
  const owners = new Map(
    tableAfter(text, '## Import rules', 1).map(([dependency = '', paths = '']) => [
      spans(dependency)[0] ?? '',
      spans(paths),
    ]),
  );
  const load = /The one load that runs up: `([^`]+)` → `([^`]+)`/.exec(text);
  if (load?.[1] === undefined || load[2] === undefined) {
    throw new Error('ARCHITECTURE.md#import-rules names no load');
  }
  return { floors, owners, load: [load[1], load[2]] };
}

/**
Whether `path` (relative to `src/`) is named by a rule's `folder/` or `file.ts`, or by `node:*`-style
patterns.
*/
const covers = (rule: string, path: string): boolean =>
  rule.endsWith('/') ? path.startsWith(rule) : path === rule;

function floorOf(rules: Rules, path: string): Floor | undefined {
  return rules.floors.find((floor) => floor.paths.some((rule) => covers(rule, path)));
}

/**
Every import that breaks a rule, as `from → to`: an arrow to a floor the row does not name, an unowned
dependency, another load.
*/
function violations(rules: Rules, files: readonly SourceFile[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const from = file.path.slice(sourceRoot.length);
    const floor = floorOf(rules, from);
    if (floor === undefined) {
      found.push(`${from}: in no floor`);
      continue;
    }
    for (const entry of file.imports) {
      if (entry.target === undefined) {
        const dependency = entry.specifier.startsWith('node:') ? 'node:*' : entry.specifier;
        const owners = rules.owners.get(dependency);
        if (owners !== undefined && !owners.some((rule) => covers(rule, from))) {
          found.push(`${from} → ${dependency}: not its owner`);
        }
        continue;
      }
      const to = entry.target.slice(sourceRoot.length);
      if (entry.dynamic) {
        if (from !== rules.load[0] || to !== rules.load[1]) {
          found.push(`${from} → ${to}: a load`);
        }
        continue;
      }
      const target = floorOf(rules, to);
      if (target !== floor && (target === undefined || !floor.imports.includes(target.name))) {
        found.push(`${from} → ${to}: ${floor.name} may not import ${target?.name ?? 'a file in no floor'}`);
      }
    }
  }
  return found;
}

const architecture = readFileSync(join(repositoryRoot, 'ARCHITECTURE.md'), 'utf8');
const rules = readRules(architecture);
const files = sourceFiles([sourceRoot.slice(0, -1)]);

/** A source file with relative imports only, for the cases below. */
const file = (path: string, targets: readonly string[], dynamic = false): SourceFile => ({
  path: `${sourceRoot}${path}`,
  lines: 1,
  functions: [],
  exports: [],
  imports: targets.map((target) => ({
    specifier: target.startsWith('node:') || !target.endsWith('.ts') ? target : `./${target}`,
    target: target.endsWith('.ts') ? `${sourceRoot}${target}` : undefined,
    typeOnly: false,
    dynamic,
    line: 1,
  })),
});

describe('ARCHITECTURE.md#import-rules', () => {
  it('reads as floors from the top down, each importing only floors below it', () => {
    const names = rules.floors.map((floor) => floor.name);
    expect(names.length).toBeGreaterThan(5);
    for (const [index, floor] of rules.floors.entries()) {
      for (const name of floor.imports) {
        expect(names.indexOf(name), `${floor.name} → ${name}`).toBeGreaterThan(index);
      }
    }
    expect(rules.owners.get('ky')).toEqual(['wire/http.ts']);
  });

  it('names the same floors, in the same order, as the layer table', () => {
    const layers = tableAfter(architecture, '## Layers of the client').map(([name = '']) => name);
    expect(layers).toEqual(rules.floors.map((floor) => floor.name));
  });

  it('catches an arrow up, an unowned dependency, a second load and a file in no floor', () => {
    expect(violations(rules, [file('core/limits.ts', ['client/client.ts'])])).toEqual([
      'core/limits.ts → client/client.ts: core may not import client',
    ]);
    expect(violations(rules, [file('bindings/jsonrpc.ts', ['ledger/ledger.ts', 'wire/json.ts'])])).toEqual([
      'bindings/jsonrpc.ts → ledger/ledger.ts: bindings may not import ledger',
    ]);
    expect(violations(rules, [file('protocol/task.ts', ['ky', 'node:fs'])])).toEqual([
      'protocol/task.ts → ky: not its owner',
      'protocol/task.ts → node:*: not its owner',
    ]);
    expect(violations(rules, [file('bindings/rest-loader.ts', ['deferred.ts'], true)])).toEqual([
      'bindings/rest-loader.ts → deferred.ts: a load',
    ]);
    expect(violations(rules, [file('elsewhere/thing.ts', [])])).toEqual(['elsewhere/thing.ts: in no floor']);
  });
});

describe('packages/client/src', () => {
  it('is read whole', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((entry) => entry.imports.some((imported) => imported.dynamic))).toBe(true);
  });

  it('imports only down, each dependency from its owner, and loads one module', () => {
    expect(violations(rules, files)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(importCycles(files)).toEqual([]);
  });
});
