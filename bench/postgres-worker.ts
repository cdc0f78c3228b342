/**
One worker process of `durable-throughput-postgres-64` (bench/postgres.ts): a client and a durable agent on
the shared PostgreSQL ledger. It prints `ready`, then for each line `<durable | plain> <ms>` on stdin runs its
senders for that long, sending `echo` messages durably or plainly, and prints
`{ "sends": n, "errors": n, "ms": elapsed }` (a send that failed or did not commit counts as an error, not a
send).

Arguments: `<postgres url> <schema> <card url> <worker id> <senders>`.
*/
import { createInterface } from 'node:readline';
import { durableAgent } from '../packages/client/src/durable/agent.js';
import { openPostgresLedger } from '../packages/client/src/ledger/postgres/entry.js';
import { loopbackClient } from './loopback.js';

const [url = '', schema = '', cardUrl = '', worker = '', senders = '16'] = process.argv.slice(2);

const client = await loopbackClient(cardUrl);
const ledger = await openPostgresLedger(
  { connectionString: url },
  { schema, worker, poolSize: Number(senders) },
);
const agent = durableAgent({
  client,
  ledger,
  recovery: { kind: 'context-history', maxPages: 4, historyLength: 64, retryAfterMs: 1000 },
});
const echo = () => ({ role: 'ROLE_USER' as const, parts: [{ text: 'echo hi' }] });

async function burst(mode: string, ms: number): Promise<{ sends: number; errors: number; ms: number }> {
  let sends = 0;
  // A send that failed or did not commit (a connection reset under load) is counted apart, never as
  // throughput.
  let errors = 0;
  const start = performance.now();
  const deadline = start + ms;
  await Promise.all(
    Array.from({ length: Number(senders) }, async () => {
      while (performance.now() < deadline) {
        try {
          if (mode === 'durable') {
            const outcome = await agent.send(echo());
            if (outcome.status !== 'committed') {
              errors += 1;
              continue;
            }
          } else {
            await client.sendMessage({
              message: { ...echo(), messageId: crypto.randomUUID() },
              configuration: { returnImmediately: true },
            });
          }
          sends += 1;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  return { sends, errors, ms: performance.now() - start };
}

console.log('ready');
for await (const line of createInterface({ input: process.stdin })) {
  const [mode = 'plain', ms = '1000'] = line.split(' ');
  console.log(JSON.stringify(await burst(mode, Number(ms))));
}
await ledger.close();
