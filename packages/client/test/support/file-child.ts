/**
@module
A child process for `test/ledger/file.test.ts`: it opens a file ledger the way another process on the same
machine would, so the lock and the crash tests can kill it for real. It reports on stdout, one JSON object per
line, and waits for `go` on stdin before it touches the ledger, so the test can start it (and pay for loading
it) ahead of time.

Modes: `hold <path>` opens and idles; `try <path>` opens and reports whether it could;
`stream <path> <prefix> <writers> [<loneSync>]` runs `writers` concurrent loops of create → start → commit |
unknown | fail on a ledger opened with that `loneSync`, reporting every acknowledged write.
*/
import { createInterface } from 'node:readline';
import { LedgerError } from '../../src/core/errors.js';
import { type LoneSync, openLedger } from '../../src/ledger/file.js';
import type { Ledger, LedgerRecord, LedgerTransition } from '../../src/ledger/ledger.js';
import { readLock } from '../../src/ledger/lock.js';

function report(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

const [mode, path = '', prefix = 'child', writers = '4', loneSync = 'thread-pool'] = process.argv.slice(2);

async function stream(ledger: Ledger): Promise<never> {
  const cause = { name: 'TransportError', kind: 'transport', reason: 'network', dispatched: true };
  const ack = (record: LedgerRecord) =>
    report({ event: 'ack', id: record.id, revision: record.revision, status: record.state.status });
  const loop = async (writer: number): Promise<never> => {
    for (let index = 0; ; index++) {
      const id = `${prefix}-${writer}-${index}`;
      let record = await ledger.create({
        id,
        tenant: 'acme',
        run: prefix,
        agent: {
          cardDigest: `sha256:${'c'.repeat(64)}`,
          binding: 'JSONRPC',
          url: 'https://agent.example/a2a',
        },
        message: { messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: `send ${index}` }] },
        delivery: 'at-most-once',
      });
      ack(record);
      record = await ledger.transition(id, 0, { type: 'start', attemptId: `a-${id}`, messageId: `m-${id}` });
      ack(record);
      const outcomes: LedgerTransition[] = [
        {
          type: 'commit',
          attemptId: `a-${id}`,
          result: { kind: 'task', taskId: `t-${id}`, contextId: 'ctx' },
        },
        { type: 'unknown', attemptId: `a-${id}`, cause, reason: 'ambiguous-outcome' },
        { type: 'fail', attemptId: `a-${id}`, cause, effect: 'not-applied' },
      ];
      // Every fourth send stays executing for a moment, as a send awaiting its answer would.
      if (index % 4 !== 3) {
        ack(await ledger.transition(id, 1, outcomes[index % 3] as LedgerTransition));
      }
    }
  };
  return Promise.any(Array.from({ length: Number(writers) }, (_, writer) => loop(writer)));
}

async function main(): Promise<void> {
  const lines = createInterface({ input: process.stdin });
  report({ event: 'loaded' });
  let go = false;
  for await (const line of lines) {
    if (line === 'go') {
      go = true;
      break;
    }
  }
  // The test went away without starting this process: never touch the ledger.
  if (!go) {
    process.exit(0);
  }
  let ledger: Ledger;
  try {
    ledger = await openLedger({ name: path, loneSync: loneSync as LoneSync });
  } catch (error) {
    report({ event: 'refused', reason: error instanceof LedgerError ? error.reason : 'unexpected' });
    process.exit(0);
  }
  report({ event: 'opened', fence: (await readLock(`${path}.lock`))?.fence });
  if (mode === 'try') {
    await ledger.close();
    process.exit(0);
  }
  if (mode === 'stream') {
    await stream(ledger);
  }
  // `hold`: keep the ledger, and its lock, until killed.
  setInterval(() => undefined, 60_000);
}

await main();
