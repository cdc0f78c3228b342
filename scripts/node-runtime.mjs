#!/usr/bin/env node
// Runs a command on a given Node.js major (ARCHITECTURE.md#runtimes): `node scripts/node-runtime.mjs 24 npm run x`.
//
// The repository develops, tests and benchmarks on Node 24 and tests again on Node 22, while a machine may come with
// another Node (these machines have 20). When the running Node is already of that major, the command runs as it is;
// otherwise this script installs the official Node binary of the pinned version below from the npm registry (the
// `node-<platform>-<arch>` packages, whose `bin/node` is the release binary), once, into `.toolchain/` beside the
// repository's files, and runs the command with that binary first on PATH, so `node`, `npm` (a script run by the
// `node` on PATH) and everything they start use it. Plain JavaScript with no dependency, so the machine's own Node runs
// it before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The releases the repository runs on; raise them here, and in the README's quick start, to move to a newer release.
const pinned = { 22: '22.23.5', 24: '24.22.3' };

const repository = dirname(dirname(fileURLToPath(import.meta.url)));
const [major, command, ...args] = process.argv.slice(2);

function fail(message) {
  process.stderr.write(`node-runtime: ${message}\n`);
  process.exit(2);
}

if (!Object.hasOwn(pinned, major ?? '') || command === undefined) {
  fail(`usage: node scripts/node-runtime.mjs <${Object.keys(pinned).join('|')}> <command> [args…]`);
}

/** The folder whose `node` is of that major: the running one, or the pinned release, installed when missing. */
function binFolder() {
  if (process.versions.node.split('.')[0] === major) {
    return dirname(process.execPath);
  }
  // The registry publishes the release binaries for these platforms only; elsewhere the machine must bring its own.
  const platforms = {
    'linux-x64': 'linux-x64',
    'linux-arm64': 'linux-arm64',
    'darwin-x64': 'darwin-x64',
    'darwin-arm64': 'darwin-arm64',
  };
  const platform = platforms[`${process.platform}-${process.arch}`];
  if (platform === undefined) {
    fail(
      `no Node ${major} release for ${process.platform}-${process.arch} on the npm registry: install Node ${major} and run again`,
    );
  }
  const version = pinned[major];
  const folder = join(repository, '.toolchain', `node-${version}`);
  const bin = join(folder, 'node_modules', `node-${platform}`, 'bin');
  if (existsSync(join(bin, 'node'))) {
    return bin;
  }
  process.stderr.write(`node-runtime: installing Node ${version} from the npm registry into .toolchain/\n`);
  mkdirSync(join(repository, '.toolchain'), { recursive: true });
  // Installed beside its final place, then renamed into it: two runs at once never see half an install.
  const staging = mkdtempSync(join(repository, '.toolchain', `.node-${version}-`));
  const installed = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      staging,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `node-${platform}@${version}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (
    installed.status !== 0 ||
    !existsSync(join(staging, 'node_modules', `node-${platform}`, 'bin', 'node'))
  ) {
    rmSync(staging, { recursive: true, force: true });
    fail(
      `could not install node-${platform}@${version} with npm (exit ${installed.status ?? installed.signal})`,
    );
  }
  try {
    renameSync(staging, folder);
  } catch {
    // Another run installed it first.
    rmSync(staging, { recursive: true, force: true });
  }
  return bin;
}

const bin = binFolder();
const child = spawn(command, args, {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
});
// A terminal's Ctrl-C reaches the whole foreground process group, the command included, so SIGINT is only waited out
// here (a second copy would make a command that stops on the first one exit at once); a SIGTERM or SIGHUP sent to this
// process alone is passed on.
process.on('SIGINT', () => undefined);
for (const signal of ['SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (error) => fail(`could not start ${command}: ${error.message}`));
child.on('exit', (code, signal) => {
  if (signal !== null) {
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
