/**
@module
A child process for `test/ledger/lock-restart.test.ts`, run as pid 1 of a fresh PID namespace (`unshare --pid --fork --mount-proc`): it opens the file ledger at the path it is given, records one send, reports what it got on stdout as one JSON object, and exits without closing the ledger, as a process that is killed does. Run again in a new namespace it is pid 1 again: the restarted container's app.
*/
import { LedgerError } from '../../src/core/errors.js';
import { openLedger } from '../../src/ledger/file.js';
import { readLock } from '../../src/ledger/lock.js';

const [path = '', id = 'send'] = process.argv.slice(2);
try {
  const ledger = await openLedger({ name: path });
  await ledger.create({
    id,
    tenant: 'acme',
    run: 'restart',
    agent: { cardDigest: `sha256:${'c'.repeat(64)}`, binding: 'JSONRPC', url: 'https://agent.example/a2a' },
    message: { messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: id }] },
    delivery: 'at-most-once',
  });
  const lock = await readLock(`${path}.lock`);
  const records = (await ledger.list()).map((record) => record.id);
  process.stdout.write(
    `${JSON.stringify({ outcome: 'held', pid: process.pid, fence: lock?.fence, lock, records })}\n`,
  );
} catch (error) {
  process.stdout.write(
    `${JSON.stringify({ outcome: 'refused', pid: process.pid, reason: error instanceof LedgerError ? error.reason : String(error) })}\n`,
  );
}
// Never closed: the lock file stays behind, as a SIGKILL would leave it.
process.exit(0);
