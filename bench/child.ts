/**
The child processes of `npm run bench` (a mock agent, the heap worker, the PostgreSQL workers): a file of the
repository run from source, as the bench itself runs, through tsx under the `@surecall/source` condition.
*/
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
Runs `file` (relative to the repository) with `args`, `nodeFlags` before it; its stdout is piped, its stderr
is this process's, its stdin piped only when asked.
*/
export function sourceChild(
  file: string,
  args: readonly string[],
  options: { readonly nodeFlags?: readonly string[]; readonly stdin?: 'pipe' } = {},
): ChildProcess {
  return spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), '--conditions=@surecall/source', '--import', 'tsx', file, ...args],
    { cwd: root, stdio: [options.stdin ?? 'ignore', 'pipe', 'inherit'] },
  );
}
