/**
@module
Test support for the crash and lock tests, which start many child Node processes: compile a child fixture and
every source it imports to JavaScript with esbuild's `transform` (types erased, imports kept as written,
nothing else changed). Starting a process under tsx costs about half a second of CPU; plain Node on the
compiled files costs a sixth of that, which is what lets those tests kill dozens of children in seconds.
*/
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

// Paths are relative to the package root, so a child under test/ reaches its sources under src/ inside `out`
// too.
const sources = fileURLToPath(new URL('../..', import.meta.url));

/**
Compiles `entry` (a path under `packages/client`) and its relative imports into `out`; returns the compiled
entry's path.
*/
export async function compileForChild(entry: string, out: string): Promise<string> {
  const pending = [entry];
  const done = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (done.has(file)) {
      continue;
    }
    done.add(file);
    const { code: outputText } = await transform(await readFile(join(sources, file), 'utf8'), {
      loader: 'ts',
      format: 'esm',
      target: 'es2022',
      // As tsconfig.json: an import is kept unless it is marked `type`.
      tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
    });
    const target = join(out, file.replace(/\.ts$/, '.js'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, outputText);
    // Static imports and `import('./x.js')` alike: the stream machinery is loaded dynamically
    // (ARCHITECTURE.md#decisions).
    for (const [, specifier] of outputText.matchAll(/(?:from|import) ?\(?['"](\.{1,2}\/[^'"]+)\.js['"]/g)) {
      pending.push(join(dirname(file), `${specifier}.ts`));
    }
  }
  await writeFile(join(out, 'package.json'), '{ "type": "module" }');
  // Bare imports (ky, zod) resolve through the repository's node_modules.
  await symlink(join(sources, '../../node_modules'), join(out, 'node_modules'));
  return join(out, entry.replace(/\.ts$/, '.js'));
}
