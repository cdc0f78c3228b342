/**
`npm run bench -- durable`: what a durable send costs over a plain one.

- `durable-overhead`: the median latency of a durable send (file ledger in `os.tmpdir()`, context-history
  recovery, so its contextId digest is paid too) minus that of a plain `client.sendMessage` with the same
  `returnImmediately: true`, sequential `echo` sends on loopback against the mock agent in this process, in
  ms. A durable send makes two durable ledger writes (the record and its executing attempt in one write before
  the request, the outcome after it), each one synchronized append (`O_DSYNC`,
  docs/durable-send.md#file-journal); beside it, the same run times two sequential appends of a ledger-sized
  line, each followed by an `fdatasync`, to a bare file in the same folder, placed as a durable send places
  them: each right after an exchange with the agent, from the thread pool (only the syncs timed). The goal:
  the overhead is at most those two syncs plus 0.2 ms for everything else (validation, digests, the state
  machine). The anchor's text also shows, in ms, the plain send, the same durable send on a memory ledger (the
  agent's own cost, no disk), the file ledger's two commits measured alone (no request between them), the two
  bare syncs back to back, and the overhead of the same durable send on a file ledger opened with
  `loneSync: 'event-loop'` (each sync made on the event-loop thread,
  docs/durable-send.md#what-a-durable-send-costs), so a miss can be placed: in the ledger's commit path, in
  the agent, in the disk, or in waking the file-system thread that went idle during the exchange. Each side is
  the median of 200 calls, then the median of 5 runs in rotating order.
- `durable-throughput-64`: durable sends per second with 64 concurrent senders on the file ledger, over the
  plain client's sends per second with 64 concurrent senders to the same loopback agent, alternating runs in
  the same process; goal ≥ 0.95 (group commit makes durability nearly free at scale).
- `durable-heap-per-send`: the heap a settled durable send leaves behind (file ledger, 5,000 sends after a
  warm-up of 500, 16 at a time, heap measured after a full GC), measured in a process of its own
  (`bench/heap-worker.ts`, so that nothing an earlier suite left is freed meanwhile) against a mock agent in
  another child process (what it keeps of each task stays out of this heap); a plain send's growth is shown
  beside it; goal ≤ 512 bytes. The ledger keeps settled records on disk and only an index entry in the heap.
*/
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { A2aClient } from '@surecall/client';
import { startMockAgent } from '../mocks/src/mounts/node.js';
import { type DurableAgent, durableAgent } from '../packages/client/src/durable/agent.js';
import { openLedger } from '../packages/client/src/ledger/file.js';
import type { Ledger } from '../packages/client/src/ledger/ledger.js';
import { openLedger as openMemoryLedger } from '../packages/client/src/ledger/memory.js';
import { sourceChild } from './child.js';
import { type BenchRow, median, row, sideBySide, timeMs } from './harness.js';
import { loopbackClient } from './loopback.js';

const runs = 5;
const sendsPerRun = 200;
const slackMs = 0.2;
/** Sends per run of `durable-throughput-64`, and its concurrency. */
const throughputSends = 1024;
const concurrency = 64;
/** Sends of `durable-heap-per-send`, after a warm-up of `heapWarmUp`. */
const heapSends = 5000;
const heapWarmUp = 500;
const heapGoalBytes = 512;

function echo() {
  return { role: 'ROLE_USER' as const, parts: [{ text: 'echo hi' }] };
}

/** One durable echo send, which must commit: a send that did not measured something else. */
async function committedSend(agent: DurableAgent): Promise<void> {
  const outcome = await agent.send(echo());
  if (outcome.status !== 'committed') {
    throw new Error('bench/durable: a durable send did not commit');
  }
}

/** The median ms of one call over `sendsPerRun` sequential calls. */
async function sample(call: () => Promise<unknown>): Promise<number> {
  const latencies: number[] = [];
  for (let index = 0; index < sendsPerRun; index++) {
    latencies.push(await timeMs(call));
  }
  return median(latencies);
}

/** Runs `total` calls of `call`, `concurrency` at a time; returns calls per second. */
async function concurrently(total: number, call: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        await call();
      }
    }),
  );
  return total / ((performance.now() - start) / 1000);
}

/** `durable-throughput-64`: a fresh file ledger per run, so each run writes the same journal from empty. */
async function throughput(client: A2aClient, directory: string): Promise<BenchRow> {
  let sample = 0;
  const plain = () =>
    concurrently(throughputSends, () =>
      client.sendMessage({
        message: { ...echo(), messageId: crypto.randomUUID() },
        configuration: { returnImmediately: true },
      }),
    );
  const durable = async () => {
    const ledger = await openLedger({ name: join(directory, `throughput-${sample++}.jsonl`) });
    try {
      // At-most-once, as these rows have always measured: a keyed send would add the key's bytes and checks.
      const agent = durableAgent({ client, ledger, delivery: 'at-most-once' });
      return await concurrently(throughputSends, () => committedSend(agent));
    } finally {
      await ledger.close();
    }
  };
  return row(
    'durable-throughput-64',
    'sends/s',
    await sideBySide(runs, durable, plain),
    `plain client.sendMessage, ${concurrency} concurrent senders, same loopback agent`,
    { op: '>=', ratio: 0.95 },
  );
}

/**
Starts the mock agent in a child process (`npm run mock-agent`), so that what it keeps of each task stays out
of this process's heap; resolves with its card URL and a stop function.
*/
async function childMockAgent(): Promise<{ cardUrl: string; stop: () => Promise<void> }> {
  const child = sourceChild('mocks/src/mounts/cli.ts', ['--port', '0', '--step-ms', '0']);
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench/durable: the mock agent exited with ${code}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const ready = /^READY (\d+) token=[A-Za-z0-9_-]+$/.exec(line);
      if (ready !== null) {
        resolve(Number(ready[1]));
      }
    });
  });
  return {
    cardUrl: `http://127.0.0.1:${port}/.well-known/agent-card.json`,
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
`durable-heap-per-send`: measured in a process of its own (bench/heap-worker.ts), warmed up first, against a
mock agent in another process.
*/
async function heapPerSend(directory: string): Promise<BenchRow> {
  const mock = await childMockAgent();
  try {
    const worker = sourceChild(
      'bench/heap-worker.ts',
      [mock.cardUrl, join(directory, 'heap.jsonl'), String(heapWarmUp), String(heapSends)],
      { nodeFlags: ['--expose-gc'] },
    );
    let output = '';
    worker.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => worker.once('exit', resolve));
    if (code !== 0) {
      throw new Error(`bench/durable: the heap worker exited with ${code}`);
    }
    const measured = JSON.parse(output) as { plain: number; durable: number };
    const round = (value: number) => Math.round(value * 10) / 10;
    return {
      name: 'durable-heap-per-send',
      unit: 'bytes/send',
      value: round(measured.durable),
      anchor: `${heapGoalBytes} bytes [a plain send beside it: ${round(measured.plain)} bytes/send; ${heapSends} sends each, measured in a process of its own, mock agent in another]`,
      anchorValue: heapGoalBytes,
      ratio: Math.round((measured.durable / heapGoalBytes) * 1000) / 1000,
      goal: `<= ${heapGoalBytes} bytes (ratio <= 1)`,
      // A heap that shrank over the sends measured something else than the sends: no goal is met by it.
      met: measured.durable >= 0 && measured.durable <= heapGoalBytes,
    };
  } finally {
    await mock.stop();
  }
}

/** Measures `durable-overhead`, `durable-throughput-64` and `durable-heap-per-send`. */
export async function run(): Promise<BenchRow[]> {
  const directory = await mkdtemp(join(tmpdir(), 'surecall-bench-durable-'));
  const mock = await startMockAgent({ stepMs: 0 });
  const ledger = await openLedger({ name: join(directory, 'sends.jsonl') });
  const loneLedger = await openLedger({ name: join(directory, 'lone.jsonl'), loneSync: 'event-loop' });
  const bare = await open(join(directory, 'bare.log'), 'a');
  try {
    const client = await loopbackClient(mock.cardUrl);
    // The agent every latency side sends with, on the ledger the side measures.
    const agentOn = (on: Ledger) =>
      durableAgent({
        client,
        ledger: on,
        delivery: 'at-most-once',
        recovery: { kind: 'context-history', maxPages: 4, historyLength: 64, retryAfterMs: 1000 },
      });
    const agent = agentOn(ledger);
    // The same agent on a file ledger whose lone syncs are made on the event-loop thread.
    const lone = agentOn(loneLedger);
    const inMemory = agentOn(await openMemoryLedger({ name: 'bench' }));
    // One journal line of a durable echo send, about the size the ledger writes.
    const first = await agent.send(echo());
    if (first.status !== 'committed') {
      throw new Error('bench/durable: the warm-up durable send did not commit');
    }
    const line = new TextEncoder().encode(
      `${JSON.stringify({ fence: 1, revision: (await ledger.history(first.id))[1] })}\n`,
    );
    const plain = () =>
      client.sendMessage({
        message: { ...echo(), messageId: crypto.randomUUID() },
        configuration: { returnImmediately: true },
      });
    const durable = () => committedSend(agent);
    const onLoop = () => committedSend(lone);
    const memory = async () => {
      await inMemory.send(echo());
    };
    // The ledger alone: the same two durable writes with no request between them, to show where the overhead
    // goes.
    let ledgerOnly = 0;
    const commits = async () => {
      ledgerOnly += 1;
      const id = `ledger-only-${ledgerOnly}`;
      const { tenant, run: label, agent: identity, message, delivery } = first.record;
      const started = await ledger.create(
        { id, tenant, run: label, agent: identity, message, delivery },
        { attemptId: id, messageId: id },
      );
      await ledger.transition(id, started.revision, {
        type: 'commit',
        attemptId: id,
        result: { kind: 'message' },
      });
    };
    // One append of a ledger-sized line and its fdatasync, from the thread pool as the ledger makes it.
    const sync = async () => {
      await bare.write(line);
      await bare.datasync();
    };
    const syncs = async () => {
      await sync();
      await sync();
    };
    // Two syncs placed as a durable send places them, each right after an exchange with the agent; only the
    // syncs are timed. On some disks, and on a virtual machine whose file-system thread went idle during the
    // exchange, a sync that follows network traffic costs more than one that follows another sync, and this
    // shows how much.
    const placedSyncs = async () => {
      let total = 0;
      for (let write = 0; write < 2; write++) {
        await plain();
        total += await timeMs(sync);
      }
      return total;
    };
    const samplePlaced = async () => {
      const totals: number[] = [];
      for (let index = 0; index < sendsPerRun; index++) {
        totals.push(await placedSyncs());
      }
      return median(totals);
    };
    await sample(plain);
    const measured = {
      plain: [] as number[],
      durable: [] as number[],
      syncs: [] as number[],
      commits: [] as number[],
      memory: [] as number[],
      placed: [] as number[],
      onLoop: [] as number[],
    };
    for (let index = 0; index < runs; index++) {
      // Rotate the order so that no side always gets the warmer or the quieter slot.
      const order = [
        ['plain', () => sample(plain)],
        ['durable', () => sample(durable)],
        ['syncs', () => sample(syncs)],
        ['commits', () => sample(commits)],
        ['memory', () => sample(memory)],
        ['placed', samplePlaced],
        ['onLoop', () => sample(onLoop)],
      ] as const;
      for (let step = 0; step < order.length; step++) {
        const [name, measure] = order[(index + step) % order.length] as (typeof order)[number];
        measured[name].push(await measure());
      }
    }
    const overhead = median(measured.durable) - median(measured.plain);
    // The floor: the two syncs placed as a durable send places them, each right after an exchange, from the
    // thread pool as the default `loneSync` makes them.
    const budget = median(measured.placed) + slackMs;
    const onLoopOverhead = median(measured.onLoop) - median(measured.plain);
    const round = (value: number) => Math.round(value * 1000) / 1000;
    return [
      {
        name: 'durable-overhead',
        unit: 'ms/send (median)',
        value: round(overhead),
        anchor: `2 × (append + fdatasync), each right after an exchange, + ${slackMs} ms [plain send ${round(median(measured.plain))}; durable on a memory ledger ${round(median(measured.memory))}; the file ledger's 2 commits alone ${round(median(measured.commits))}; the 2 syncs back to back ${round(median(measured.syncs))}; with loneSync 'event-loop' the overhead is ${round(onLoopOverhead)}, ratio ${round(onLoopOverhead / budget)}]`,
        anchorValue: round(budget),
        ratio: round(overhead / budget),
        goal: `overhead <= 2 placed syncs + ${slackMs} ms (ratio <= 1)`,
        met: overhead <= budget,
      },
      await throughput(client, directory),
      await heapPerSend(directory),
    ];
  } finally {
    await bare.close();
    await ledger.close();
    await loneLedger.close();
    await mock.close();
    await rm(directory, { recursive: true, force: true });
  }
}
