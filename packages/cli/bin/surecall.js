#!/usr/bin/env node
// The `surecall` command. Installed (under a node_modules folder) it runs the built `dist/`; in a working copy of the
// repository it always runs the TypeScript source through tsx under the workspace's source condition
// (CONTRIBUTING.md#source-condition), in a child process that gets this one's stdio, signals and exit code, so that a
// `dist/` left by an earlier build never runs code older than the source beside it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
const built = new URL('../dist/main.js', import.meta.url);
if (here.split(sep).includes('node_modules') && existsSync(fileURLToPath(built))) {
  await import(built.href);
} else {
  const source = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    [
      '--conditions=@surecall/source',
      '--import',
      import.meta.resolve('tsx'),
      source,
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit' },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal === null ? 1 : 128 + 2);
  });
}
