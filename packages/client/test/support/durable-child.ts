/**
@module
A child process for `test/durable/crash.test.ts`: a durable agent on the file ledger making sends to a
loopback mock agent, until the test kills it with SIGKILL. It reads the card and builds its client first,
reports `loaded`, and waits for `go` on stdin before it touches the ledger, so the test can start it ahead of
time. It then reports, one JSON object per line on stdout, every transition the ledger made durable (from the
agent's events), so the test knows what must survive the kill.

Arguments:
`<ledger path> <card url> <binding: JSONRPC | HTTP+JSON> <delivery: history | keyed> <id prefix> <concurrent senders>`.
*/
import { createInterface } from 'node:readline';
import { createClient } from '../../src/client/client.js';
import { LedgerError } from '../../src/core/errors.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { durableAgent } from '../../src/durable/agent.js';
import { openLedger } from '../../src/ledger/file.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonValue } from '../../src/protocol/json-value.js';

function report(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

const [path = '', cardUrl = '', binding = 'JSONRPC', delivery = 'history', prefix = 'child', senders = '3'] =
  process.argv.slice(2);

async function main(): Promise<void> {
  const raw = (await (await fetch(cardUrl)).json()) as JsonValue;
  const card = parseAgentCard(raw);
  const pinned = card.supportedInterfaces.find((entry) => entry.protocolBinding === binding);
  const client = createClient({
    card,
    cardDigest: await cardDigest(raw),
    pin: { binding: binding === 'HTTP+JSON' ? 'HTTP+JSON' : 'JSONRPC', url: pinned?.url ?? '' },
    security: { kind: 'anonymous' },
  });
  const lines = createInterface({ input: process.stdin });
  report({ event: 'loaded' });
  let go = false;
  for await (const line of lines) {
    if (line === 'go') {
      go = true;
      break;
    }
  }
  if (!go) {
    process.exit(0);
  }
  let ledger: Ledger;
  try {
    ledger = await openLedger({ name: path });
  } catch (error) {
    report({ event: 'refused', reason: error instanceof LedgerError ? error.reason : 'unexpected' });
    process.exit(0);
  }
  report({ event: 'opened' });
  const agent = durableAgent(
    delivery === 'keyed'
      ? { client, ledger, delivery: 'keyed', recovery: { kind: 'keyed' } }
      : {
          client,
          ledger,
          delivery: 'at-most-once',
          recovery: { kind: 'context-history', maxPages: 2, historyLength: 16, retryAfterMs: 1 },
        },
  );
  agent.events.subscribe((event) => {
    if (event.type === 'transition') {
      report({ event: 'ack', id: event.id, revision: event.revision, to: event.to, cause: event.cause });
    }
  });
  const sender = async (index: number): Promise<never> => {
    for (let send = 0; ; send++) {
      const outcome = await agent.send(
        { role: 'ROLE_USER', parts: [{ text: `task ${prefix} ${index} ${send}` }] },
        { id: `${prefix}-${index}-${send}` },
      );
      report({ event: 'sent', id: outcome.id, status: outcome.status });
    }
  };
  await Promise.any(Array.from({ length: Number(senders) }, (_, index) => sender(index)));
}

await main();
