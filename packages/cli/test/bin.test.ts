/**
Which code the `surecall` bin runs: the built `dist/` once installed under a node_modules folder, the
TypeScript source in a working copy of the repository even when an earlier build left a `dist/` there. Each
case copies the bin into a throwaway package whose `dist/main.js` and `src/main.ts` print which one ran.
*/
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../bin/surecall.js', import.meta.url));
const tsx = dirname(fileURLToPath(import.meta.resolve('tsx/package.json')));
let directory = '';

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-bin-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/**
A package at `root/relative` with the bin, a built `dist/` and the source, each saying which one ran; tsx
resolvable from it.
*/
async function fakePackage(root: string, relative: string): Promise<string> {
  const folder = join(root, relative);
  await mkdir(join(folder, 'bin'), { recursive: true });
  await mkdir(join(folder, 'dist'), { recursive: true });
  await mkdir(join(folder, 'src'), { recursive: true });
  await mkdir(join(root, 'node_modules'), { recursive: true });
  await symlink(tsx, join(root, 'node_modules', 'tsx'), 'dir');
  await copyFile(bin, join(folder, 'bin', 'surecall.js'));
  await writeFile(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(join(folder, 'dist', 'main.js'), "console.log('dist', process.argv.slice(2).join(' '));\n");
  await writeFile(
    join(folder, 'src', 'main.ts'),
    "console.log('source', process.argv.slice(2).join(' '));\n",
  );
  return join(folder, 'bin', 'surecall.js');
}

describe('the surecall bin', () => {
  it('runs the source in a working copy, even beside a dist/ an earlier build left', async () => {
    const copy = await fakePackage(join(directory, 'clone'), join('packages', 'cli'));
    const { stdout } = await run(process.execPath, [copy, 'card', 'x']);
    expect(stdout.trim()).toBe('source card x');
  });

  it('runs the built dist/ once installed under node_modules', async () => {
    const installed = await fakePackage(join(directory, 'app'), join('node_modules', '@surecall', 'cli'));
    const { stdout } = await run(process.execPath, [installed, 'card', 'x']);
    expect(stdout.trim()).toBe('dist card x');
  });
});
