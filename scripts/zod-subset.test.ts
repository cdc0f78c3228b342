/**
@module
`zod-subset.ts`: what a built module takes from `zod/mini` (tables, with the uses a subset cannot serve
refused), the import it is pointed at instead, and the whole step on a small dist with the real zod and
esbuild, whose modules then run in Node against the subset alone.
*/
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { repositoryRoot } from './source-facts.js';
import { pointAt, relativeSpecifier, subsetPath, subsetZod, zodMembers } from './zod-subset.js';

describe('zodMembers', () => {
  it.each([
    ['no zod', "import { a } from './a.js';\nexport const b = a;", undefined],
    [
      'namespace reads',
      "import * as z from 'zod/mini';\nexport const S = z.object({ a: z.string(), b: z.optional(z.number()) });",
      ['number', 'object', 'optional', 'string'],
    ],
    [
      'named imports',
      "import { literal, union } from 'zod/mini';\nexport const U = union([literal(1)]);",
      ['literal', 'union'],
    ],
    [
      'a comment naming a member is no read',
      "import * as z from 'zod/mini';\n// z.record is not used\nexport const S = z.string();",
      ['string'],
    ],
    [
      'a local `z` elsewhere is not the namespace',
      "import * as z from 'zod/mini';\nexport const S = z.string();\nexport const f = (o) => o.z;",
      ['string'],
    ],
  ])('%s', (_name, source, expected) => {
    const found = zodMembers('m.js', source);
    expect(found === undefined ? undefined : [...found].sort()).toEqual(expected);
  });

  it.each([
    [
      'the namespace passed as a value',
      "import * as z from 'zod/mini';\nexport const f = () => use(z);",
      /used as a value/,
    ],
    ['a computed read', "import * as z from 'zod/mini';\nexport const f = (k) => z[k];", /used as a value/],
    ['another zod entry', "import * as z from 'zod';\nexport const S = z.string();", /only as 'zod\/mini'/],
    ['a re-export', "export { string } from 'zod/mini';", /ExportNamedDeclaration/],
    ['a default import', "import z from 'zod/mini';\nexport const S = z.string();", /no default export/],
  ])('refuses %s', (_name, source, message) => {
    expect(() => zodMembers('m.js', source)).toThrow(message);
  });
});

describe('pointAt', () => {
  it.each([
    [
      "import * as z from 'zod/mini';\nz.string();",
      "import * as z from '../vendor/zod-mini.js';\nz.string();",
    ],
    ['import { string } from "zod/mini";', 'import { string } from "../vendor/zod-mini.js";'],
  ])('%j', (source, expected) => {
    expect(pointAt('m.js', source, '../vendor/zod-mini.js')).toBe(expected);
  });

  it('refuses a module with no import or two', () => {
    expect(() => pointAt('m.js', 'export {};', './z.js')).toThrow(/0 imports/);
    expect(() =>
      pointAt('m.js', "import * as z from 'zod/mini';\nimport { string } from 'zod/mini';", './z.js'),
    ).toThrow(/2 imports/);
  });

  it.each([
    ['dist/index.js', 'dist/vendor/zod-mini.js', './vendor/zod-mini.js'],
    ['dist/protocol/task.js', 'dist/vendor/zod-mini.js', '../vendor/zod-mini.js'],
    ['dist/ledger/postgres/entry.js', 'dist/vendor/zod-mini.js', '../../vendor/zod-mini.js'],
  ])('relativeSpecifier(%s)', (file, target, expected) => {
    expect(relativeSpecifier(file, target)).toBe(expected);
  });
});

describe('subsetZod', () => {
  let dist: string | undefined;
  afterEach(() => {
    if (dist !== undefined) {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('bundles only the members the modules read, and the modules run on the subset', async () => {
    // Under the repository, so that zod resolves from the dist as it does from packages/client/dist.
    dist = mkdtempSync(join(repositoryRoot, 'node_modules', '.zod-subset-'));
    await mkdir(join(dist, 'protocol'));
    writeFileSync(join(dist, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(dist, 'protocol', 'task.js'),
      "import * as z from 'zod/mini';\nexport const Task = z.object({ id: z.string() });\n",
    );
    writeFileSync(
      join(dist, 'index.js'),
      "import { safeParse } from 'zod/mini';\nimport { Task } from './protocol/task.js';\nexport const ok = (v) => safeParse(Task, v).success;\n",
    );
    writeFileSync(join(dist, 'plain.js'), 'export const plain = 1;\n');
    const { members, modules } = await subsetZod(dist);
    expect(members).toEqual(['object', 'safeParse', 'string']);
    expect(modules.map((file) => file.slice(dist?.length)).sort()).toEqual([
      '/index.js',
      '/protocol/task.js',
    ]);
    expect(readFileSync(join(dist, 'protocol', 'task.js'), 'utf8')).toContain("from '../vendor/zod-mini.js'");
    expect(readFileSync(join(dist, 'index.js'), 'utf8')).toContain("from './vendor/zod-mini.js'");
    const subset = readFileSync(join(dist, subsetPath), 'utf8');
    // zod's license travels with its code; what no module reads stays out.
    expect(subset).toMatch(/^\/\*\nzod \d+\.\d+\.\d+: object, safeParse, string of zod\/mini/);
    expect(subset).toContain('MIT License');
    expect(subset).not.toContain('ZodMiniBigInt');
    expect(subset).not.toMatch(/from ['"]zod/);
    const built = (await import(pathToFileURL(join(dist, 'index.js')).href)) as {
      ok: (v: unknown) => boolean;
    };
    expect(built.ok({ id: 't-1' })).toBe(true);
    expect(built.ok({ id: 1 })).toBe(false);
  });
});
