/**
@module
The `surecall` bin (`packages/cli/bin/surecall.js`, which runs the TypeScript source in a clone of the
repository) in a child process, for the tests that drive the command end to end.
*/
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/surecall.js', import.meta.url));

/** How a run ended. */
export type Run = { readonly code: number | null; readonly stdout: string; readonly stderr: string };

/** A running bin whose output so far can be read while it runs. */
export type Running = {
  readonly child: ChildProcess;
  /** What it wrote to stdout so far. */
  stdout(): string;
  /** Resolves when it exits and its output is closed. */
  readonly done: Promise<Run>;
  /**
  Kills the bin and the process it runs the source in (its process group) with SIGKILL: a crash, nothing
  cleaned up.
  */
  crash(): void;
};

/**
Starts the bin with `args`; `stdin`, when given, is written and closed; `cwd` is its working directory (this
process's when absent), against which a relative `--ledger` is resolved.
*/
export function start(
  args: readonly string[],
  env: Record<string, string> = {},
  stdin?: string,
  cwd?: string,
): Running {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...env },
    ...(cwd === undefined ? {} : { cwd }),
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    // Its own process group, so a crash reaches the child the bin runs the TypeScript source in.
    detached: true,
  });
  child.stdin?.end(stdin);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  const crash = () => {
    if (child.pid !== undefined) {
      process.kill(-child.pid, 'SIGKILL');
    }
  };
  return { child, stdout: () => stdout, done, crash };
}

/** Runs the bin with `args` to its end. */
export function surecall(
  args: readonly string[],
  env: Record<string, string> = {},
  stdin?: string,
  cwd?: string,
): Promise<Run> {
  return start(args, env, stdin, cwd).done;
}

/** The JSON documents of a `--json` run, one per line. */
export const documents = (stdout: string): unknown[] =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
