/**
@module
A child process for `test/ledger/lock-restart.test.ts` and `test/ledger/lock-namespace.test.ts`, run as pid 1
of a fresh PID namespace (`unshare --pid --fork`, with or without `--mount-proc`): it opens the file ledger at
the path it is given, records one send, and reports what it got on stdout as one JSON object, with the pid the
mounted `/proc` knows it by (the host's, without `--mount-proc`), so the test can kill it. A `locked` open is
tried again every 25 ms until `waitMs` has passed (the wait docs/durable-send.md#file-journal documents for a
holder judged by its heartbeat); the report counts those refusals and keeps their rules and the last message.
Then, with `exit` (the default), it exits without closing the ledger, as a process that is killed does; with
`hold` it keeps the ledger, its lock and the lock's heartbeat until it is killed. Run again in a new namespace
it is pid 1 again: the restarted container's app.
*/
import { readlink } from 'node:fs/promises';
import { LedgerError } from '../../src/core/errors.js';
import { openLedger } from '../../src/ledger/file.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { readLock } from '../../src/ledger/lock.js';

const [path = '', id = 'send', mode = 'exit', waitMs = '0'] = process.argv.slice(2);
const began = Date.now();
const deadline = began + Number(waitMs);
const rules = new Set<string>();
let refusals = 0;
let message: string | undefined;

/** Opens the ledger, trying again while it is `locked` and the deadline has not passed. */
async function opened(): Promise<Ledger> {
  for (;;) {
    try {
      return await openLedger({ name: path });
    } catch (error) {
      if (!(error instanceof LedgerError) || error.reason !== 'locked') {
        throw error;
      }
      refusals++;
      rules.add(error.rule ?? '');
      message = error.message;
      if (Date.now() >= deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

const hostPid = Number(await readlink('/proc/self').catch(() => 'NaN'));
const waited = () => ({ refusals, rules: [...rules], waitedMs: Date.now() - began, message });
let holding = false;
try {
  const ledger = await opened();
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
    `${JSON.stringify({ outcome: 'held', pid: process.pid, hostPid, fence: lock?.fence, lock, records, ...waited() })}\n`,
  );
  holding = mode === 'hold';
} catch (error) {
  process.stdout.write(
    `${JSON.stringify({ outcome: 'refused', pid: process.pid, hostPid, reason: error instanceof LedgerError ? error.reason : String(error), rule: error instanceof LedgerError ? error.rule : undefined, ...waited() })}\n`,
  );
}
if (holding) {
  // Until SIGKILL: the ledger stays open, and its lock's heartbeat goes on.
  setInterval(() => undefined, 60_000);
} else {
  // Never closed: the lock file stays behind, as a SIGKILL would leave it.
  process.exit(0);
}
