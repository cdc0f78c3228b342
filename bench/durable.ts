/**
`npm run bench -- durable`: what a durable send costs over a plain one.

- `durable-overhead`: the median latency of a durable send (file ledger in `os.tmpdir()`, context-history recovery, so its contextId digest is paid too) minus that of a plain `client.sendMessage` with the same `returnImmediately: true`, sequential `echo` sends on loopback against the mock agent in this process, in ms. A durable send makes three durable ledger writes (prepared and executing before the request, the outcome after it), each an append and an `fdatasync`; beside it, the same run times three sequential appends of a ledger-sized line, each followed by an `fdatasync`, to a bare file in the same folder. The goal: the overhead is at most those three syncs plus 0.5 ms for everything else (validation, digests, the state machine). The anchor's text also shows, in ms, the plain send, the same durable send on a memory ledger (the agent's own cost, no disk), and the file ledger's three commits measured alone (no request between them), so a miss can be placed: in the ledger's commit path, or in the agent. Each side is the median of 200 calls, then the median of 5 runs in rotating order.
*/
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type A2aClient, cardDigest, createClient, type JsonValue } from '@surecall/client';
import { parseAgentCard } from '@surecall/client/protocol';
import { startMockAgent } from '../mocks/src/mounts/node.js';
import { durableAgent } from '../packages/client/src/durable/agent.js';
import { openLedger } from '../packages/client/src/ledger/file.js';
import { openLedger as openMemoryLedger } from '../packages/client/src/ledger/memory.js';
import { type BenchRow, median, timeMs } from './harness.js';

const runs = 5;
const sendsPerRun = 200;
const slackMs = 0.5;

function echo() {
  return { role: 'ROLE_USER' as const, parts: [{ text: 'echo hi' }] };
}

async function loopbackClient(cardUrl: string): Promise<A2aClient> {
  const raw = (await (await fetch(cardUrl)).json()) as JsonValue;
  const card = parseAgentCard(raw);
  const url = card.supportedInterfaces.find((entry) => entry.protocolBinding === 'JSONRPC')?.url ?? '';
  return createClient({
    card,
    cardDigest: await cardDigest(raw),
    pin: { binding: 'JSONRPC', url },
    security: { kind: 'anonymous' },
  });
}

/** The median ms of one call over `sendsPerRun` sequential calls. */
async function sample(call: () => Promise<unknown>): Promise<number> {
  const latencies: number[] = [];
  for (let index = 0; index < sendsPerRun; index++) {
    latencies.push(await timeMs(call));
  }
  return median(latencies);
}

/** Measures `durable-overhead`. */
export async function run(): Promise<BenchRow[]> {
  const directory = await mkdtemp(join(tmpdir(), 'surecall-bench-durable-'));
  const mock = await startMockAgent({ stepMs: 0 });
  const ledger = await openLedger({ name: join(directory, 'sends.jsonl') });
  const bare = await open(join(directory, 'bare.log'), 'a');
  try {
    const client = await loopbackClient(mock.cardUrl);
    const agent = durableAgent({
      client,
      ledger,
      recovery: { kind: 'context-history', maxPages: 4, historyLength: 64, retryAfterMs: 1000 },
    });
    const inMemory = durableAgent({
      client,
      ledger: await openMemoryLedger({ name: 'bench' }),
      recovery: { kind: 'context-history', maxPages: 4, historyLength: 64, retryAfterMs: 1000 },
    });
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
    const durable = async () => {
      const outcome = await agent.send(echo());
      if (outcome.status !== 'committed') {
        throw new Error('bench/durable: a durable send did not commit');
      }
    };
    const memory = async () => {
      await inMemory.send(echo());
    };
    // The ledger alone: the same three commits with no request between them, to show where the overhead goes.
    let ledgerOnly = 0;
    const commits = async () => {
      ledgerOnly += 1;
      const id = `ledger-only-${ledgerOnly}`;
      const { tenant, run: label, agent: identity, message, delivery } = first.record;
      const created = await ledger.create({ id, tenant, run: label, agent: identity, message, delivery });
      const started = await ledger.transition(id, created.revision, {
        type: 'start',
        attemptId: id,
        messageId: id,
      });
      await ledger.transition(id, started.revision, {
        type: 'commit',
        attemptId: id,
        result: { kind: 'message' },
      });
    };
    const syncs = async () => {
      for (let write = 0; write < 3; write++) {
        await bare.write(line);
        await bare.datasync();
      }
    };
    await sample(plain);
    const measured = {
      plain: [] as number[],
      durable: [] as number[],
      syncs: [] as number[],
      commits: [] as number[],
      memory: [] as number[],
    };
    for (let index = 0; index < runs; index++) {
      // Rotate the order so that no side always gets the warmer or the quieter slot.
      const order = [
        ['plain', plain],
        ['durable', durable],
        ['syncs', syncs],
        ['commits', commits],
        ['memory', memory],
      ] as const;
      for (let step = 0; step < order.length; step++) {
        const [name, call] = order[(index + step) % order.length] as (typeof order)[number];
        measured[name].push(await sample(call));
      }
    }
    const overhead = median(measured.durable) - median(measured.plain);
    const budget = median(measured.syncs) + slackMs;
    const round = (value: number) => Math.round(value * 1000) / 1000;
    return [
      {
        name: 'durable-overhead',
        unit: 'ms/send (median)',
        value: round(overhead),
        anchor: `3 × (append + fdatasync) + ${slackMs} ms [plain send ${round(median(measured.plain))}; durable on a memory ledger ${round(median(measured.memory))}; the file ledger's 3 commits alone ${round(median(measured.commits))}]`,
        anchorValue: round(budget),
        ratio: round(overhead / budget),
        goal: `overhead <= 3 syncs + ${slackMs} ms (ratio <= 1)`,
        met: overhead <= budget,
      },
    ];
  } finally {
    await bare.close();
    await ledger.close();
    await mock.close();
    await rm(directory, { recursive: true, force: true });
  }
}
