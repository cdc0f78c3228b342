/**
The durable agent killed with SIGKILL (docs/durable-send.md#what-the-tests-prove): a child Node process
(`test/support/durable-child.ts`) makes durable sends with the file ledger against a loopback mock agent and
is killed at seeded random points. After every kill this process opens the same ledger and checks: it always
opens; no acknowledged transition is lost; no record is left executing (the ledger turns it unknown, never
"send again"); nothing was sent twice; and once reconciled, every intent is committed exactly once, or stays
unknown (at most once, for a person), or was never sent.

The default run makes 20 kills to keep CI fast; `SURECALL_FULL=1` makes 200 (the full run of
docs/durable-send.md#what-the-tests-prove). `SURECALL_SEED` changes the seed.

Also here, because it needs the file ledger and a real socket: the durable-before-dispatch check of
docs/durable-send.md#what-the-tests-prove (PGTEST), which reads the journal from disk while the request is
held at the server.
*/
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createAgent, createFaultLab, createMockHandle } from '@surecall/mocks';
import { listenLoopback, type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type A2aClient, createClient } from '../../src/client/client.js';
import type { ProtocolBinding } from '../../src/client/security.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { type DurableAgent, durableAgent } from '../../src/durable/agent.js';
import { openLedger } from '../../src/ledger/file.js';
import { type Ledger, type LedgerRecord, verifyHistory } from '../../src/ledger/ledger.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import { compileForChild } from '../support/child-build.js';

const { SURECALL_FULL, SURECALL_SEED } = process.env;
const full = SURECALL_FULL === '1';
const iterations = full ? 200 : 20;
const seed = Number(SURECALL_SEED ?? 20_261_129);

let directory = '';
let fixture = '';
let mock: RunningMockAgent;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-durable-crash-'));
  fixture = await compileForChild('test/support/durable-child.ts', join(directory, 'build'));
  mock = await startMockAgent({ stepMs: 0, mode: 'honouring' });
});
afterAll(async () => {
  await mock?.close();
  await rm(directory, { recursive: true, force: true });
});

/** What the child reports, one object per line. */
type Report = {
  readonly event: string;
  readonly id?: string;
  readonly revision?: number;
  readonly to?: string;
  readonly cause?: string;
};

type Child = {
  readonly process: ChildProcess;
  readonly reports: Report[];
  /** Resolves with the first report of that name, even one that came before the call. */
  next(event: string): Promise<Report>;
  /** Resolves once `count` transitions were acknowledged. */
  acks(count: number): Promise<void>;
  go(): void;
};

const children = new Set<ChildProcess>();
afterEach(async () => {
  await Promise.all([...children].map(killed));
  children.clear();
});

function child(args: readonly string[]): Child {
  const process_ = spawn(process.execPath, [fixture, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.add(process_);
  const reports: Report[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: process_.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    reports.push(JSON.parse(line) as Report);
    for (const wake of waiters.splice(0)) {
      wake();
    }
  });
  const until = (ready: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      const check = () => (ready() || process_.exitCode !== null ? resolve() : waiters.push(check));
      check();
    });
  return {
    process: process_,
    reports,
    next: async (event) => {
      await until(() => reports.some((report) => report.event === event));
      return reports.find((report) => report.event === event) as Report;
    },
    acks: (count) => until(() => reports.filter((report) => report.event === 'ack').length >= count),
    go: () => process_.stdin?.write('go\n'),
  };
}

function killed(process_: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (process_.exitCode !== null || process_.signalCode !== null) {
      resolve();
      return;
    }
    process_.once('exit', () => resolve());
    process_.kill('SIGKILL');
  });
}

/** mulberry32: a small seeded generator, so the kill points are the same on every run with one seed. */
function seeded(start: number): () => number {
  let state = start;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function clientOf(binding: ProtocolBinding, cardUrl: string): Promise<A2aClient> {
  const raw = (await (await fetch(cardUrl)).json()) as JsonValue;
  const card = parseAgentCard(raw);
  const url = card.supportedInterfaces.find((entry) => entry.protocolBinding === binding)?.url ?? '';
  return createClient({
    card,
    cardDigest: await cardDigest(raw),
    pin: { binding, url },
    security: { kind: 'anonymous' },
  });
}

const bindingsOf: readonly ProtocolBinding[] = ['JSONRPC', 'HTTP+JSON'];

describe('a durable agent killed with SIGKILL', () => {
  it(
    `reopens with every acknowledged transition, re-sends nothing, and reconciles each intent to once or unknown (${iterations} kills, seed ${seed})`,
    async () => {
      const path = join(directory, 'crash.jsonl');
      const random = seeded(seed);
      const clients = new Map<ProtocolBinding, A2aClient>();
      // SendMessage requests this process makes while reconciling: keyed replays may send (that is their
      // probe), a scan never.
      const sent = new Map<ProtocolBinding, number>();
      const sendsOf = (binding: ProtocolBinding) => sent.get(binding) ?? 0;
      for (const binding of bindingsOf) {
        const client = await clientOf(binding, mock.cardUrl);
        client.events.subscribe((event) => {
          if (event.type === 'request' && event.operation === 'SendMessage') {
            sent.set(binding, sendsOf(binding) + 1);
          }
        });
        clients.set(binding, client);
      }
      let scanSends = 0;
      const plan = (iteration: number) => ({
        binding: bindingsOf[iteration % 2] as ProtocolBinding,
        delivery: Math.floor(iteration / 2) % 2 === 0 ? 'history' : 'keyed',
      });
      const start = (iteration: number) => {
        const { binding, delivery } = plan(iteration);
        return child([path, mock.cardUrl, binding, delivery, `k${iteration}`, '3']);
      };
      const settled = new Set<string>();
      let next = start(0);
      let acknowledged = 0;
      let reconciled = 0;
      for (let iteration = 0; iteration < iterations; iteration++) {
        const current = next;
        await current.next('loaded');
        // Every third run loses the answer of its first send after the agent ran it.
        if (iteration % 3 === 0) {
          mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
        }
        // A seeded kill point: after 0 to 44 acknowledged transitions (0: while the ledger opens or the first
        // send starts).
        const killAfter = Math.floor(random() * 45);
        current.go();
        if (iteration + 1 < iterations) {
          next = start(iteration + 1);
        }
        await current.acks(killAfter);
        await killed(current.process);
        mock.faults.clear();

        // The ledger always opens, and every acknowledged transition is in it.
        const ledger = await openLedger({ name: path });
        const acks = current.reports.filter((report) => report.event === 'ack');
        acknowledged += acks.length;
        for (const ack of acks) {
          const history = await ledger.history(ack.id ?? '');
          expect(history[ack.revision ?? -1]?.transition.type, `${ack.id}@${ack.revision}`).toBe(ack.cause);
        }
        const records = await ledger.list();
        // No record is left executing: the ledger turned each into unknown on open.
        expect(records.filter((record) => record.state.status === 'executing')).toEqual([]);
        const agents = agentsOver(ledger, clients);
        for (const record of records) {
          if (settled.has(record.id)) {
            continue;
          }
          const messageId = record.attempts[0]?.messageId ?? '';
          // Nothing was ever sent twice, crash or not.
          expect(mock.executions.of(messageId), record.id).toBeLessThanOrEqual(1);
          const state = record.state;
          if (state.status === 'unknown' && state.pending === undefined) {
            const agent = agents.get(`${record.agent.binding} ${record.delivery}`) as DurableAgent;
            const before = sendsOf(record.agent.binding);
            const outcome = await agent.reconcile(record.id);
            reconciled++;
            if (record.delivery !== 'keyed') {
              scanSends += sendsOf(record.agent.binding) - before;
            }
            expect(['committed', 'unresolved']).toContain(outcome.status);
          }
          checkFinal((await ledger.get(record.id)) as LedgerRecord);
          if ((await ledger.get(record.id))?.state.status !== 'prepared') {
            settled.add(record.id);
          }
        }
        expect(scanSends).toBe(0);
        await ledger.close();
      }

      // The whole journal replays and verifies, record by record.
      const ledger = await openLedger({ name: path });
      const records = await ledger.list();
      for (const record of records) {
        expect((await verifyHistory(await ledger.history(record.id))).ok, record.id).toBe(true);
        checkFinal(record);
      }
      expect(acknowledged).toBeGreaterThan(iterations);
      expect(reconciled).toBeGreaterThan(0);
      expect(records.some((record) => record.state.status === 'committed')).toBe(true);
      await ledger.close();
    },
    full ? 900_000 : 60_000,
  );

  /**
  The agents this process reconciles with: per binding, one scanning (for at-most-once records) and one
  replaying keys.
  */
  function agentsOver(
    ledger: Ledger,
    clients: ReadonlyMap<ProtocolBinding, A2aClient>,
  ): Map<string, DurableAgent> {
    const agents = new Map<string, DurableAgent>();
    for (const [binding, client] of clients) {
      const history = {
        kind: 'context-history',
        maxPages: 2,
        historyLength: 16,
        retryAfterMs: 1,
        maxProbes: 1,
      } as const;
      agents.set(
        `${binding} at-most-once`,
        durableAgent({ client, ledger, delivery: 'at-most-once', recovery: history }),
      );
      agents.set(
        `${binding} keyed`,
        durableAgent({ client, ledger, delivery: 'keyed', recovery: { kind: 'keyed', maxProbes: 1 } }),
      );
    }
    return agents;
  }

  /**
  What the agent did matches what the ledger says: committed once, failed or never sent not at all, unknown at
  most once.
  */
  function checkFinal(record: LedgerRecord): void {
    const runs = mock.executions.of(record.attempts[0]?.messageId ?? '');
    switch (record.state.status) {
      case 'committed':
        expect(runs, record.id).toBe(1);
        break;
      case 'failed':
      case 'prepared':
        expect(runs, record.id).toBe(0);
        break;
      default:
        expect(runs, record.id).toBeLessThanOrEqual(1);
    }
  }
});

describe('durable before dispatch, and never dispatched again (docs/durable-send.md#what-the-tests-prove)', () => {
  it('has executing on disk while the request is held at the server; the lost send is unknown; sending it again sends nothing', async () => {
    const agentMock = createAgent({ stepMs: 0 });
    const faults = createFaultLab();
    const inner = createMockHandle({ agent: agentMock, faults });
    let arrived: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sends = 0;
    const server = await listenLoopback({
      handle: async (request) => {
        const body = request.method === 'POST' ? await request.clone().text() : '';
        if (body.includes('"SendMessage"')) {
          sends++;
          arrived();
          await released;
          // The server closes the connection with no answer.
          return Response.error();
        }
        return inner(request);
      },
    });
    const path = join(directory, 'before-dispatch.jsonl');
    try {
      const client = await clientOf('JSONRPC', `${server.origin}/.well-known/agent-card.json`);
      const ledger = await openLedger({ name: path });
      // No recovery: this test is about what `send` does with an unknown record, and a keyed replay would
      // send it again by design.
      const agent = durableAgent({ client, ledger, recovery: { kind: 'disabled' } });
      const sending = agent.send({ role: 'ROLE_USER', parts: [{ text: 'task held' }] }, { id: 'held-1' });
      await held;
      // Read from disk, not from the ledger object: the start transition is fdatasync'd before the request
      // left.
      const lines = readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { body: { id: string; transition: { type: string } } });
      expect(
        lines.filter((line) => line.body.id === 'held-1').map((line) => line.body.transition.type),
      ).toEqual(['create', 'start']);
      release();
      const outcome = await sending;
      expect(outcome.record.state).toMatchObject({ status: 'unknown', reason: 'ambiguous-outcome' });
      expect(sends).toBe(1);
      const again = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'task held' }] }, { id: 'held-1' });
      expect(again.status).toBe('unknown');
      expect(sends).toBe(1);
      await ledger.close();
      // A new process (here: a new ledger and agent) sees it unknown, and sending it again still sends
      // nothing.
      const reopened = await openLedger({ name: path });
      const later = durableAgent({ client, ledger: reopened, recovery: { kind: 'disabled' } });
      expect(
        (await later.send({ role: 'ROLE_USER', parts: [{ text: 'task held' }] }, { id: 'held-1' })).status,
      ).toBe('unknown');
      expect((await later.reconcile('held-1')).status).toBe('unknown');
      expect(sends).toBe(1);
      expect(agentMock.executions.total()).toBe(0);
      await reopened.close();
    } finally {
      release();
      await server.close();
      agentMock.close();
    }
  });
});
