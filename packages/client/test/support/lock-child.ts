/**
@module
A child process for `test/ledger/lock-restart.test.ts`, run as pid 1 of a fresh PID namespace (`unshare --pid --fork --mount-proc`): it takes the lock at the path it is given, reports what it got on stdout as one JSON object, and exits without releasing, as a process that is killed does. Run again in a new namespace it is pid 1 again: the restarted container's app.
*/
import { LedgerError } from '../../src/core/errors.js';
import { acquireLock, readLock } from '../../src/ledger/lock.js';

const [path = ''] = process.argv.slice(2);
try {
  const lock = await acquireLock(path);
  process.stdout.write(
    `${JSON.stringify({ outcome: 'held', pid: process.pid, fence: lock.fence, lock: await readLock(path) })}\n`,
  );
} catch (error) {
  process.stdout.write(
    `${JSON.stringify({ outcome: 'refused', pid: process.pid, reason: error instanceof LedgerError ? error.reason : String(error) })}\n`,
  );
}
// Never released: the lock file stays behind, as a SIGKILL would leave it.
process.exit(0);
