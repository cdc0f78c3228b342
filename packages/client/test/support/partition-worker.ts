/**
@module
One worker of the partition tests (`test/durable/fleet-partition.test.ts`): a Node process, run inside a
network namespace or not, with two durable agents on the shared PostgreSQL ledger (sends whose index is even
keyed, with keyed recovery; odd ones at-most-once, reconciled by a context-history scan) that acts on the
lines of its stdin: `send` makes its sends all at once, `reconcile` starts both agents' reconciler loops. It
runs no reconciler until told, so the test decides who reconciles; closing stdin stops the loops, closes the
ledger and ends the process.

It reports, one JSON object per line on stdout: `ready`; `io-start` / `io-end` around each send's exchange
with the agent (from before fetch until its answer is read); `sent` with each send's `status` and, when it
ended `unknown` because the ledger refused or could not record its outcome, that `LedgerError`'s `reason`
(docs/durable-send.md#after-dispatch); `refused` for a send the ledger refused before it left.

Arguments: `<postgres url> <schema> <card url> <worker id> <lease ms> <id prefix> <count>`; send n has the
record id `<id prefix>-<n>`.
*/
import { setMaxListeners } from 'node:events';
import { createInterface } from 'node:readline';
import { LedgerError } from '../../src/core/errors.js';
import { discover } from '../../src/discovery/discovery.js';
import { durableAgent } from '../../src/durable/agent.js';
import { openPostgresLedger } from '../../src/ledger/postgres/entry.js';

function report(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ...event, t: Date.now() })}\n`);
}

const [url = '', schema = '', cardUrl = '', worker = '', leaseMs = '1000', prefix = 'p', count = '0'] =
  process.argv.slice(2);

const client = await discover({
  cardUrl,
  pins: [{ binding: 'JSONRPC', url: new URL('/a2a/jsonrpc', cardUrl).href }],
  loopback: true,
  trust: { kind: 'first-fetch' },
  security: { kind: 'anonymous' },
});
const ledger = await openPostgresLedger(
  { connectionString: url },
  { worker, schema, leaseMs: Number(leaseMs), poolSize: 4 },
);
const probing = { retryAfterMs: 50, maxProbes: 20 };
const keyed = durableAgent({ client, ledger, delivery: 'keyed', recovery: { kind: 'keyed', ...probing } });
const history = durableAgent({
  client,
  ledger,
  recovery: { kind: 'context-history', maxPages: 2, historyLength: 16, ...probing },
});

// A send's exchange, seen on the wire; the record is named by the message's text.
const fetched = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const body = typeof init?.body === 'string' ? init.body : '';
  const named = /"method":"SendMessage".*"text":"task [a-z]+ (\d+)"/.exec(body);
  const id = named === null ? undefined : `${prefix}-${named[1]}`;
  if (id !== undefined) {
    report({ event: 'io-start', id });
  }
  try {
    const response = await fetched(input, init);
    await response.clone().arrayBuffer();
    return response;
  } finally {
    if (id !== undefined) {
      report({ event: 'io-end', id });
    }
  }
};

async function send(index: number): Promise<void> {
  const id = `${prefix}-${index}`;
  try {
    const outcome = await (index % 2 === 0 ? keyed : history).send(
      { role: 'ROLE_USER', parts: [{ text: `task ${prefix} ${index}` }] },
      { id },
    );
    const reason = outcome.error instanceof LedgerError ? outcome.error.reason : undefined;
    report({ event: 'sent', id, status: outcome.status, ...(reason === undefined ? {} : { reason }) });
  } catch (error) {
    report({ event: 'refused', id, reason: error instanceof LedgerError ? error.reason : 'unexpected' });
  }
}

const stop = new AbortController();
setMaxListeners(256, stop.signal);
const work: Promise<unknown>[] = [];
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line === 'send') {
    work.push(...Array.from({ length: Number(count) }, (_, index) => send(index)));
  } else if (line === 'reconcile') {
    for (const agent of [keyed, history]) {
      work.push(agent.runReconciler({ signal: stop.signal, maxIdleMs: 100, onError: () => undefined }));
    }
  }
});
lines.on('close', () => {
  stop.abort();
  void Promise.allSettled(work).then(() => ledger.close());
});
report({ event: 'ready' });
