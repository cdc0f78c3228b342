/**
The process `durable-heap-per-send` (bench/durable.ts) measures in: nothing but a client, a file ledger and a
durable agent, so that no other suite's code or data (compiled code V8 flushes once unused, strings of an
earlier workload) is freed while it measures and shows as a negative growth. Run with `--expose-gc`.

Arguments: `<card url> <ledger path> <warm-up sends> <measured sends>`. Prints one line of JSON:
`{ "plain": bytes, "durable": bytes }`, the heap each send leaves behind after a full GC, plain sends first,
then durable ones.
*/
import { durableAgent } from '../packages/client/src/durable/agent.js';
import { openLedger } from '../packages/client/src/ledger/file.js';
import { loopbackClient } from './loopback.js';

const [cardUrl = '', path = '', warmUp = '500', sends = '5000'] = process.argv.slice(2);

/**
The heap in use once garbage is gone: full GCs with turns of the event loop between them, since what a
`FinalizationRegistry` watches (fetch registers each request's signal) is only released after its cleanup
callbacks ran, as a task after the GC that found it unreachable. Read right after one GC, the heap still holds
the last sends' and frees them during the next measure, which then shows a negative growth.
*/
async function settledHeap(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) {
    throw new Error('bench/heap-worker: run with --expose-gc');
  }
  for (let round = 0; round < 4; round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  gc();
  return process.memoryUsage().heapUsed;
}

/** The heap growth per call of `count` calls, 16 at a time, between two settled heaps. */
async function heapGrowth(count: number, call: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const before = await settledHeap();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        next++;
        await call();
      }
    }),
  );
  return ((await settledHeap()) - before) / count;
}

const client = await loopbackClient(cardUrl);
const ledger = await openLedger({ name: path });
const agent = durableAgent({ client, ledger, delivery: 'at-most-once' });
const echo = () => ({ role: 'ROLE_USER' as const, parts: [{ text: 'echo hi' }] });
const durable = async () => {
  const outcome = await agent.send(echo());
  if (outcome.status !== 'committed') {
    throw new Error('bench/heap-worker: a durable send did not commit');
  }
};
const plain = () =>
  client.sendMessage({
    message: { ...echo(), messageId: crypto.randomUUID() },
    configuration: { returnImmediately: true },
  });
await heapGrowth(Number(warmUp), durable);
await heapGrowth(Number(warmUp), plain);
const plainBytes = await heapGrowth(Number(sends), plain);
const durableBytes = await heapGrowth(Number(sends), durable);
await ledger.close();
console.log(JSON.stringify({ plain: plainBytes, durable: durableBytes }));
