/**
@module
The house rules that can be measured (CONTRIBUTING.md#layout-and-naming), over every package's `src/` (tests
aside): no file over 500 lines, no function over 120, and no import cycle. The readers they rest on
(`source-facts.ts`) are tried first on sources written here, so a reader that stopped seeing functions or
imports fails too.
*/
import { describe, expect, it } from 'vitest';
import { importCycles, parseSource, sourceFiles } from './source-facts.js';

const maxFileLines = 500;
const maxFunctionLines = 120;

describe('the readers', () => {
  it('find functions of every shape, with their spans', () => {
    const body = (lines: number) =>
      Array.from({ length: lines - 2 }, (_, index) => `  const v${index} = ${index};`);
    const text = [
      'export function declared() {',
      ...body(4),
      '}',
      'const arrow = () => {',
      ...body(5),
      '};',
      'const object = { method() { return 1; } };',
      'class Holder { run(): void {} }',
    ].join('\n');
    const { functions } = parseSource('example.ts', text);
    expect(functions.map(({ name, line, lines }) => [name, line, lines])).toEqual([
      ['declared', 1, 4],
      ['arrow', 5, 5],
      ['method', 10, 1],
      ['run', 11, 1],
    ]);
  });

  it('find static, type-only, re-exported and dynamic imports', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import { type C } from './c.js';",
      "export { d } from './d.js';",
      "export * from './e.js';",
      "const f = () => import('./f.js');",
      "type G = typeof import('./g.js');",
      "import x from 'x';",
    ].join('\n');
    const { imports } = parseSource('example.ts', text);
    expect(imports.map(({ specifier, typeOnly, dynamic }) => [specifier, typeOnly, dynamic])).toEqual([
      ['./a.js', false, false],
      ['./b.js', true, false],
      ['./c.js', true, false],
      ['./d.js', false, false],
      ['./e.js', false, false],
      ['./f.js', false, true],
      ['./g.js', true, false],
      ['x', false, false],
    ]);
  });

  it('find the names a file exports, types and values, and an export *', () => {
    const text = [
      "export { a, b as c } from './a.js';",
      "export type { D } from './d.js';",
      "export * from './e.js';",
      'export const f = 1, g = 2;',
      'export function h() {}',
      'export type I = string;',
      'export interface J {}',
      'export class K {}',
      'const l = 1;',
      'export { l };',
    ].join('\n');
    expect(parseSource('example.ts', text).exports).toEqual([
      'a',
      'c',
      'D',
      '*',
      'f',
      'g',
      'h',
      'I',
      'J',
      'K',
      'l',
    ]);
  });

  it('find a cycle of imports, and none where the arrows only go one way', () => {
    const file = (path: string, targets: string[]) => ({
      path,
      lines: 1,
      functions: [],
      exports: [],
      imports: targets.map((target) => ({
        specifier: target,
        target,
        typeOnly: false,
        dynamic: false,
        line: 1,
      })),
    });
    expect(importCycles([file('a.ts', ['b.ts']), file('b.ts', ['c.ts']), file('c.ts', ['a.ts'])])).toEqual([
      ['a.ts', 'b.ts', 'c.ts'],
    ]);
    expect(importCycles([file('a.ts', ['b.ts']), file('b.ts', ['c.ts']), file('c.ts', [])])).toEqual([]);
  });
});

describe("every package's source", () => {
  const files = sourceFiles();

  it('is read whole: every package, and its imports', () => {
    for (const folder of [
      'packages/client/src/',
      'packages/cli/src/',
      'packages/devtools/src/',
      'mocks/src/',
    ]) {
      expect(files.some((file) => file.path.startsWith(folder))).toBe(true);
    }
    expect(files.flatMap((file) => file.imports).some((entry) => entry.target !== undefined)).toBe(true);
  });

  it(`has no file over ${maxFileLines} lines`, () => {
    expect(
      files.filter((file) => file.lines > maxFileLines).map((file) => `${file.path}: ${file.lines}`),
    ).toEqual([]);
  });

  it(`has no function over ${maxFunctionLines} lines`, () => {
    const long = files.flatMap((file) =>
      file.functions
        .filter((entry) => entry.lines > maxFunctionLines)
        .map((entry) => `${file.path}:${entry.line} ${entry.name}: ${entry.lines}`),
    );
    expect(long).toEqual([]);
  });

  // CONTRIBUTING.md#layout-and-naming: an entry lists what it exports, so its surface is read in one place.
  it('has no export *', () => {
    expect(files.filter((file) => file.exports.includes('*')).map((file) => file.path)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(importCycles(files)).toEqual([]);
  });
});
