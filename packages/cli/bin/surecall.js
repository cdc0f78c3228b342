#!/usr/bin/env node
// The `surecall` command. Installed from the package it runs the built `dist/`; in a clone of the repository, where
// nothing is built, it runs the TypeScript source through tsx under the workspace's source condition
// (CONTRIBUTING.md#source-condition), in a child process that gets this one's stdio, signals and exit code.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/main.js', import.meta.url);
if (existsSync(fileURLToPath(built))) {
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
