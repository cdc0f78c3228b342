/**
@module
The `surecall` process: runs {@link run} over the process's streams and sets the exit code. The first Ctrl-C
(SIGINT) or SIGTERM stops a stream, a watch or the devtools server cleanly; a second one exits at once.
*/
import { run } from './run.js';

const controller = new AbortController();
const stop = () => {
  if (controller.signal.aborted) {
    process.exit(130);
  }
  controller.abort();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

process.exitCode = await run(
  process.argv.slice(2),
  { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env },
  controller.signal,
);
process.off('SIGINT', stop);
process.off('SIGTERM', stop);
