/**
@module
The part of `zod/mini` the built client calls, bundled once into `dist/vendor/zod-mini.js` by the client's
`build` (`packages/client/package.json`), with every emitted module's `import * as z from 'zod/mini'` pointed
at it. Why (ARCHITECTURE.md#decisions, "zod's subset ships pre-shaken"): zod's own modules reach one another
through namespace objects (`import * as util`, `export * as regexes`, `core.regexes[format]`); esbuild,
Rollup and webpack shake them member by member, but Turbopack and Parcel keep each namespace whole, so a page
built by Next's default bundler carried about 36 kB more zod than one built by Vite. Bundled here by esbuild,
the same subset reaches every bundler as one flat module whose exports each can drop one by one. The source
keeps importing `zod/mini` (CONTRIBUTING.md#library-boundaries), the declarations keep naming it, and
`zod` stays a dependency for those types.

Run as `node --import tsx ../../scripts/zod-subset.ts dist` in `packages/client`; `zod-subset.test.ts` holds
the readers to tables and builds a small dist with the real zod.
*/
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from '@babel/parser';
import { build } from 'esbuild';

/**
The one specifier the built modules import zod by (the schema modules' `import * as z from 'zod/mini'`).
*/
export const zodSpecifier = 'zod/mini';

/** Where, under `dist/`, the subset is written. */
export const subsetPath = join('vendor', 'zod-mini.js');

type Node = { type: string } & Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

function walk(node: Node, visit: (node: Node, parent: Node | undefined) => void, parent?: Node): void {
  visit(node, parent);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key.endsWith('Comments')) {
      continue;
    }
    for (const child of Array.isArray(value) ? value : [value]) {
      if (isNode(child)) {
        walk(child, visit, node);
      }
    }
  }
}

/**
What one emitted module takes from `zod/mini`: the members it reads off its namespace import and the names it
imports. `undefined` when it does not import zod. Throws when the module uses zod in a way a subset cannot
serve: the namespace as a value (`f(z)`, `z[name]`), another zod entry, or a re-export.
*/
export function zodMembers(file: string, source: string): ReadonlySet<string> | undefined {
  const program = parse(source, { sourceType: 'module' }).program as unknown as Node;
  const members = new Set<string>();
  const namespaces = new Set<string>();
  let imports = false;
  walk(program, (node) => {
    const from = (node['source'] as { value?: unknown } | null | undefined)?.value;
    if (typeof from === 'string' && (from === 'zod' || from.startsWith('zod/'))) {
      if (node.type !== 'ImportDeclaration' || from !== zodSpecifier) {
        throw new Error(
          `${file}: ${node.type} of '${from}'; the built client reaches zod only as '${zodSpecifier}'`,
        );
      }
      imports = true;
      for (const specifier of node['specifiers'] as Node[]) {
        const local = (specifier['local'] as { name: string }).name;
        if (specifier.type === 'ImportNamespaceSpecifier') {
          namespaces.add(local);
        } else if (specifier.type === 'ImportSpecifier') {
          members.add((specifier['imported'] as { name: string }).name);
        } else {
          throw new Error(`${file}: zod/mini has no default export`);
        }
      }
    }
  });
  if (!imports) {
    return undefined;
  }
  walk(program, (node, parent) => {
    if (node.type !== 'Identifier' || !namespaces.has(node['name'] as string)) {
      return;
    }
    // A name that is not a reference: the specifier itself, a member's or a key's name (`o.z`, `{ z: 1 }`).
    const named =
      parent?.type === 'ImportNamespaceSpecifier' ||
      (parent?.type === 'MemberExpression' && parent['property'] === node && parent['computed'] === false) ||
      (parent?.type === 'ObjectProperty' && parent['key'] === node && parent['shorthand'] === false);
    if (named) {
      return;
    }
    const read =
      parent?.type === 'MemberExpression' && parent['object'] === node && parent['computed'] === false;
    if (!read) {
      throw new Error(
        `${file}: zod's namespace \`${node['name']}\` is used as a value; only \`z.member\` reads can be served`,
      );
    }
    members.add((parent['property'] as { name: string }).name);
  });
  return members;
}

/** `source` with its one `from 'zod/mini'` pointed at `target` (a relative specifier). */
export function pointAt(file: string, source: string, target: string): string {
  const pattern = /(from\s*)(['"])zod\/mini\2/g;
  const found = source.match(pattern)?.length ?? 0;
  if (found !== 1) {
    throw new Error(`${file}: ${found} imports of '${zodSpecifier}', expected one`);
  }
  return source.replace(pattern, (_match, from: string, quote: string) => `${from}${quote}${target}${quote}`);
}

function moduleFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      return moduleFiles(path);
    }
    return path.endsWith('.js') ? [path] : [];
  });
}

/** The relative specifier from `file` to `target`, POSIX-separated and starting with `./` or `../`. */
export function relativeSpecifier(file: string, target: string): string {
  const path = relative(dirname(file), target).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/**
Bundles what the modules under `dist` take from `zod/mini` into `dist/vendor/zod-mini.js` (tree-shaken, not
minified: the app's bundler minifies) and points each of them at it. Returns the members and the modules.
*/
export async function subsetZod(given: string): Promise<{ members: string[]; modules: string[] }> {
  const dist = resolve(given);
  const members = new Set<string>();
  const users: string[] = [];
  for (const file of moduleFiles(dist)) {
    const found = zodMembers(file, readFileSync(file, 'utf8'));
    if (found !== undefined) {
      users.push(file);
      for (const member of found) {
        members.add(member);
      }
    }
  }
  if (users.length === 0) {
    throw new Error(`${dist}: no module imports '${zodSpecifier}'`);
  }
  const sorted = [...members].sort();
  const require = createRequire(join(dist, 'package.json'));
  const zodRoot = dirname(require.resolve('zod/package.json'));
  const { version } = JSON.parse(readFileSync(join(zodRoot, 'package.json'), 'utf8')) as { version: string };
  const license = readFileSync(join(zodRoot, 'LICENSE'), 'utf8').trim();
  const target = join(dist, subsetPath);
  mkdirSync(dirname(target), { recursive: true });
  await build({
    stdin: {
      contents: `export { ${sorted.join(', ')} } from '${zodSpecifier}';\n`,
      resolveDir: dist,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    treeShaking: true,
    outfile: target,
    banner: {
      js: `/*\nzod ${version}: ${sorted.join(', ')} of ${zodSpecifier}, bundled by scripts/zod-subset.ts.\n\n${license}\n*/`,
    },
    logLevel: 'error',
  });
  for (const file of users) {
    writeFileSync(file, pointAt(file, readFileSync(file, 'utf8'), relativeSpecifier(file, target)));
  }
  return { members: sorted, modules: users };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dist = process.argv[2];
  if (dist === undefined) {
    throw new Error('usage: node --import tsx scripts/zod-subset.ts <dist>');
  }
  await subsetZod(dist);
}
