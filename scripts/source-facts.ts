/**
@module
What the repository's own structure tests read from the source (CONTRIBUTING.md#layout-and-naming): every
non-test TypeScript file under a package's `src/`, parsed with Babel's parser (syntax only; no types are
resolved), as its lines, its imports (relative ones resolved to files) and its functions with their line
spans.
*/
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { parse } from '@babel/parser';

/** The repository's root. */
export const repositoryRoot = join(import.meta.dirname, '..');

/** The source folders of the published packages: what the structure rules govern. */
export const packageSources = [
  'packages/client/src',
  'packages/cli/src',
  'packages/devtools/src',
  'mocks/src',
];

/** One import of a file: its specifier, the file it names when relative, whether it is a type or a load. */
export type SourceImport = {
  readonly specifier: string;
  /** The repository path of the file a relative specifier names (`./x.js` → `x.ts`), else `undefined`. */
  readonly target: string | undefined;
  readonly typeOnly: boolean;
  /** An `import()` expression: a load when the code runs, not a dependency when it is read. */
  readonly dynamic: boolean;
  readonly line: number;
};

/** A function, method or arrow with its span, whole lines counted. */
export type SourceFunction = { readonly name: string; readonly line: number; readonly lines: number };

export type SourceFile = {
  readonly path: string;
  readonly lines: number;
  readonly imports: readonly SourceImport[];
  readonly functions: readonly SourceFunction[];
  /** The names the file exports (types and values alike; `*` for an `export *`), in source order. */
  readonly exports: readonly string[];
};

type Node = { type: string; loc?: { start: { line: number }; end: { line: number } } } & Record<
  string,
  unknown
>;

function isNode(value: unknown): value is Node {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

/** The file a relative specifier names: the TypeScript source behind a `.js` specifier, or an index. */
function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) {
    return undefined;
  }
  const base = normalize(join(dirname(from), specifier));
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    base,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ];
  return candidates.find((candidate) => existsSync(join(repositoryRoot, candidate)));
}

function nameOf(node: Node, parent: Node | undefined): string {
  const id = node['id'] ?? node['key'];
  if (isNode(id) && typeof id['name'] === 'string') {
    return id['name'];
  }
  if (
    parent?.type === 'VariableDeclarator' &&
    isNode(parent['id']) &&
    typeof parent['id']['name'] === 'string'
  ) {
    return parent['id']['name'];
  }
  if (parent !== undefined && (parent.type === 'ObjectProperty' || parent.type === 'ClassProperty')) {
    const key = parent['key'];
    if (isNode(key) && typeof key['name'] === 'string') {
      return key['name'];
    }
  }
  return '<anonymous>';
}

const functionTypes = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
]);

/** The names one export statement gives: its specifiers' exported names, or its declaration's names. */
function exportedNames(node: Node): string[] {
  if (node.type === 'ExportAllDeclaration') {
    return ['*'];
  }
  const specifiers = Array.isArray(node['specifiers']) ? (node['specifiers'] as Node[]) : [];
  const named = specifiers.flatMap((entry) => {
    const exported = entry['exported'];
    return isNode(exported) && typeof exported['name'] === 'string' ? [exported['name']] : [];
  });
  const declaration = node['declaration'];
  if (!isNode(declaration)) {
    return named;
  }
  const declarators = Array.isArray(declaration['declarations'])
    ? (declaration['declarations'] as Node[])
    : [];
  const targets = declarators.length > 0 ? declarators : [declaration];
  return [
    ...named,
    ...targets.flatMap((target) => {
      const id = target['id'];
      return isNode(id) && typeof id['name'] === 'string' ? [id['name']] : [];
    }),
  ];
}

/** Reads one file of the repository. */
export function readSource(path: string): SourceFile {
  return parseSource(path, readFileSync(join(repositoryRoot, path), 'utf8'));
}

/** Parses one file's text: `path` names it, and relative imports resolve from it. */
export function parseSource(path: string, text: string): SourceFile {
  const ast = parse(text, {
    sourceType: 'module',
    plugins: ['typescript', ...(path.endsWith('.tsx') ? (['jsx'] as const) : [])],
  });
  const imports: SourceImport[] = [];
  const functions: SourceFunction[] = [];
  const exports: string[] = [];
  const add = (specifier: unknown, node: Node, typeOnly: boolean, dynamic: boolean) => {
    if (typeof specifier === 'string') {
      imports.push({
        specifier,
        target: resolveRelative(path, specifier),
        typeOnly,
        dynamic,
        line: node.loc?.start.line ?? 0,
      });
    }
  };
  const visit = (node: Node, parent: Node | undefined): void => {
    const source = node['source'];
    if (
      (node.type === 'ImportDeclaration' ||
        node.type === 'ExportNamedDeclaration' ||
        node.type === 'ExportAllDeclaration') &&
      isNode(source)
    ) {
      const specifiers = Array.isArray(node['specifiers']) ? (node['specifiers'] as Node[]) : [];
      const typeOnly =
        node['importKind'] === 'type' ||
        node['exportKind'] === 'type' ||
        (specifiers.length > 0 &&
          specifiers.every((entry) => entry['importKind'] === 'type' || entry['exportKind'] === 'type'));
      add(source['value'], node, typeOnly, false);
    }
    if (node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') {
      exports.push(...exportedNames(node));
    }
    if (node.type === 'ImportExpression' && isNode(node['source'])) {
      add(node['source']['value'], node, false, true);
    }
    if (node.type === 'CallExpression' && isNode(node['callee']) && node['callee'].type === 'Import') {
      const [argument] = node['arguments'] as Node[];
      add(argument?.['value'], node, false, true);
    }
    if (node.type === 'TSImportType') {
      // Babel 8 names the module `source`; older shapes wrapped it as `argument`.
      const named = node['source'] ?? node['argument'];
      const literal = isNode(named) && named.type === 'TSLiteralType' ? named['literal'] : named;
      add(isNode(literal) ? literal['value'] : undefined, node, true, false);
    }
    if (functionTypes.has(node.type) && node.loc !== undefined) {
      functions.push({
        name: nameOf(node, parent),
        line: node.loc.start.line,
        lines: node.loc.end.line - node.loc.start.line + 1,
      });
    }
    for (const [key, value] of Object.entries(node)) {
      if (
        key === 'loc' ||
        key === 'leadingComments' ||
        key === 'trailingComments' ||
        key === 'innerComments'
      ) {
        continue;
      }
      if (Array.isArray(value)) {
        for (const child of value) {
          if (isNode(child)) {
            visit(child, node);
          }
        }
      } else if (isNode(value)) {
        visit(value, node);
      }
    }
  };
  visit(ast.program as unknown as Node, undefined);
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return { path, lines, imports, functions, exports };
}

/** Every non-test source file of `folders`, as git lists them (tracked, or new and not ignored). */
export function sourceFiles(folders: readonly string[] = packageSources): SourceFile[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...folders],
    {
      cwd: repositoryRoot,
      encoding: 'utf8',
    },
  );
  return listed
    .split('\n')
    .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) && !path.endsWith('.d.ts'))
    .filter((path) => existsSync(join(repositoryRoot, path)))
    .sort()
    .map(readSource);
}

/**
The import cycles among `files`, each as the files on it in order: the strongly connected components of more
than one file (or one that imports itself), by Tarjan's algorithm over the relative imports that are not
loads.
*/
export function importCycles(files: readonly SourceFile[]): string[][] {
  const edges = new Map(
    files.map((file) => [
      file.path,
      [
        ...new Set(
          file.imports.flatMap((entry) =>
            entry.dynamic || entry.target === undefined ? [] : [entry.target],
          ),
        ),
      ],
    ]),
  );
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) {
        continue;
      }
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (edges.get(node) ?? []).includes(node)) {
        cycles.push(component.sort());
      }
    }
  };
  for (const node of edges.keys()) {
    if (!index.has(node)) {
      connect(node);
    }
  }
  return cycles;
}
