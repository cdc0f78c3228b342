/**
@module
One worker of the fleet tests (`test/durable/fleet.test.ts`): a Node process with a durable agent on the
shared PostgreSQL ledger, making its share of the durable sends to a loopback mock agent while its reconciler
loops run, until the test kills it (SIGKILL, SIGSTOP) or closes its stdin. Sends whose index is even are keyed
(keyed recovery replays them); odd ones are at-most-once (a context-history scan reconciles them, never a
re-send).

It reports, one JSON object per line on stdout: `open-refused` with the `reason` and `rule` of the
`LedgerError` its open was refused with (another live process holding its worker id:
docs/durable-send.md#one-live-process-per-worker-id), after which it exits 1; `ready`; `io-start` / `io-end`
around every network exchange it makes for a record under its lease (a send's request on the wire; a probe,
from `probe-start` to `probe`), with the time; `sent` for each send's outcome (with the `reason` of the
store's refusal when the send ended `unknown` because the ledger could not record it:
docs/durable-send.md#after-dispatch), `refused` for a send the ledger refused before it left (its `reason`),
`retry` before a send the ledger refused as `io` goes again; `done` once its share is sent.

Arguments:
`<postgres url> <schema> <card url> <worker id> <lease ms> <first index> <stride> <count> <senders> <id prefix> <io retries>`;
send n has the record id `<id prefix>-<n>`. A send the ledger refused as `io` (its database dropped the
connection) goes again with the same id up to `<io retries>` times (default 0): a record that exists by then
comes back as it stands, without sending.
*/
import { setMaxListeners } from 'node:events';
import { createInterface } from 'node:readline';
import { LedgerError } from '../../src/core/errors.js';
import { discover } from '../../src/discovery/discovery.js';
import { type DurableAgent, durableAgent } from '../../src/durable/agent.js';
import { openPostgresLedger } from '../../src/ledger/postgres/entry.js';

function report(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ...event, t: Date.now() })}\n`);
}

const [
  url = '',
  schema = '',
  cardUrl = '',
  worker = '',
  leaseMs = '3000',
  first = '0',
  stride = '1',
  count = '0',
  senders = '4',
  prefix = 'fleet',
  retries = '0',
] = process.argv.slice(2);

async function main(): Promise<void> {
  // The mock agent on loopback, taken as first fetched (README.md#local-development), over its JSON-RPC
  // interface.
  const client = await discover({
    cardUrl,
    pins: [{ binding: 'JSONRPC', url: new URL('/a2a/jsonrpc', cardUrl).href }],
    loopback: true,
    trust: { kind: 'first-fetch' },
    security: { kind: 'anonymous' },
  });
  let ledger: Awaited<ReturnType<typeof openPostgresLedger>>;
  try {
    ledger = await openPostgresLedger(
      { connectionString: url },
      { worker, schema, leaseMs: Number(leaseMs), poolSize: 8 },
    );
  } catch (error) {
    if (!(error instanceof LedgerError)) {
      throw error;
    }
    report({
      event: 'open-refused',
      reason: error.reason,
      ...(error.rule === undefined ? {} : { rule: error.rule }),
    });
    process.exitCode = 1;
    return;
  }
  const probing = { retryAfterMs: 50, maxProbes: 8 };
  const keyed = durableAgent({ client, ledger, delivery: 'keyed', recovery: { kind: 'keyed', ...probing } });
  const history = durableAgent({
    client,
    ledger,
    recovery: { kind: 'context-history', maxPages: 2, historyLength: 16, ...probing },
  });
  // A probe's network exchanges run from its `probe-start` to its `probe` event (which comes before the
  // transition it leads to).
  for (const agent of [keyed, history]) {
    agent.events.subscribe((event) => {
      if (event.type === 'probe-start') {
        report({ event: 'io-start', id: event.id, kind: 'probe' });
      } else if (event.type === 'probe') {
        report({ event: 'io-end', id: event.id, kind: 'probe', result: event.result });
      }
    });
  }
  // A send's exchange, seen on the wire: from just before fetch until its answer is read or fails, before the
  // ledger writes the outcome (and so ends the lease). The record is named by the message's text.
  const send = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    // The client hands fetch the URL and the body as a string in `init` (wire/http.ts).
    const body = typeof init?.body === 'string' ? init.body : '';
    const named = /"method":"SendMessage".*"text":"task [a-z]+ (\d+)"/.exec(body);
    const id = named === null ? undefined : `${prefix}-${named[1]}`;
    if (id !== undefined) {
      report({ event: 'io-start', id, kind: 'send' });
    }
    try {
      const response = await send(input, init);
      await response.clone().arrayBuffer();
      return response;
    } finally {
      if (id !== undefined) {
        report({ event: 'io-end', id, kind: 'send' });
      }
    }
  };
  const stop = new AbortController();
  // Every probe of a pass listens to the loop's signal.
  setMaxListeners(256, stop.signal);
  createInterface({ input: process.stdin }).on('close', () => stop.abort());
  const loops = [keyed, history].map((agent) =>
    agent.runReconciler({
      signal: stop.signal,
      maxIdleMs: 100,
      onPass: (pass) => report({ event: 'pass', ...pass }),
      onError: (error) =>
        report({ event: 'loop-error', reason: error instanceof LedgerError ? error.reason : 'unexpected' }),
    }),
  );
  report({ event: 'ready' });

  const indexes: number[] = [];
  for (let index = Number(first); index < Number(count); index += Number(stride)) {
    indexes.push(index);
  }
  const agentOf = (index: number): DurableAgent => (index % 2 === 0 ? keyed : history);
  const sender = async () => {
    for (let index = indexes.shift(); index !== undefined; index = indexes.shift()) {
      const id = `${prefix}-${index}`;
      for (let attempt = 0; ; attempt++) {
        try {
          // A restarted worker goes through its share again: a send whose record exists comes back as it
          // stands, without sending.
          const outcome = await agentOf(index).send(
            { role: 'ROLE_USER', parts: [{ text: `task ${prefix} ${index}` }] },
            { id },
          );
          const refusal = outcome.error instanceof LedgerError ? outcome.error.reason : undefined;
          if (refusal === 'io' && attempt < Number(retries)) {
            report({ event: 'retry', id, reason: refusal });
            continue;
          }
          report({
            event: 'sent',
            id,
            status: outcome.status,
            ...(refusal === undefined ? {} : { reason: refusal }),
          });
        } catch (error) {
          const reason = error instanceof LedgerError ? error.reason : 'unexpected';
          if (reason === 'io' && attempt < Number(retries)) {
            report({ event: 'retry', id, reason });
            continue;
          }
          report({ event: 'refused', id, reason });
        }
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: Number(senders) }, sender));
  report({ event: 'done' });
  await Promise.all(loops);
  await ledger.close();
}

await main();
