/**
@module
What the fleet tests on PostgreSQL share (`test/durable/fleet.test.ts`,
`test/durable/fleet-failover.test.ts`): the loopback mock agent that counts the SendMessage requests of each
messageId, worker processes (`test/support/fleet-worker.ts`) whose reports are read line by line and waited
on, and a seeded random generator.
*/
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  createAgent,
  createFaultLab,
  createMockHandle,
  type FaultLab,
  type MockAgent,
} from '@surecall/mocks';
import { listenLoopback } from '@surecall/mocks/node';

/** One line a worker printed. */
export type Report = {
  readonly event: string;
  readonly id?: string;
  readonly kind?: string;
  readonly reason?: string;
  readonly rule?: string;
  readonly status?: string;
  readonly t: number;
};

/** A worker process and what it reported so far. */
export type Worker = {
  readonly name: string;
  readonly process: ChildProcess;
  readonly reports: Report[];
  /** Resolves once a report passes `test` (or the process ended). */
  until(test: (report: Report) => boolean): Promise<void>;
  /** When the process ended, by kill or exit. */
  endedAt(): number | undefined;
};

/** The loopback mock agent the workers send to. */
export type FleetAgent = {
  readonly agent: MockAgent;
  readonly faults: FaultLab;
  readonly cardUrl: string;
  /**
  SendMessage requests the mock agent received, per messageId: an at-most-once attempt must never arrive
  twice.
  */
  readonly requests: Map<string, number>;
  close(): Promise<void>;
};

/**
Starts the mock agent on loopback, honouring idempotency keys, counting every SendMessage request by its
messageId.
*/
export async function startFleetAgent(): Promise<FleetAgent> {
  const agent = createAgent({ stepMs: 0, mode: 'honouring' });
  const faults = createFaultLab();
  const requests = new Map<string, number>();
  const inner = createMockHandle({ agent, faults });
  const server = await listenLoopback({
    handle: async (request) => {
      if (request.method === 'POST') {
        const body = (await request.clone().json()) as {
          method?: string;
          params?: { message?: { messageId?: string } };
        };
        const messageId = body.params?.message?.messageId;
        if (body.method === 'SendMessage' && messageId !== undefined) {
          requests.set(messageId, (requests.get(messageId) ?? 0) + 1);
        }
      }
      return inner(request);
    },
  });
  return {
    agent,
    faults,
    requests,
    cardUrl: `${server.origin}/.well-known/agent-card.json`,
    async close() {
      await server.close();
      agent.close();
    },
  };
}

/**
Starts the compiled worker `script` with `args`, after the command prefix `through` when given (`ip netns
exec <namespace>`: test/support/netns.ts); the process is added to `children`, so the test can end it whatever
happens.
*/
export function startWorker(
  script: string,
  args: readonly string[],
  name: string,
  children: Set<ChildProcess>,
  through: readonly string[] = [],
): Worker {
  const [command = process.execPath, ...rest] = [...through, process.execPath, script, ...args];
  const child = spawn(command, rest, { stdio: ['pipe', 'pipe', 'inherit'] });
  children.add(child);
  const reports: Report[] = [];
  const waiters: (() => void)[] = [];
  let endedAt: number | undefined;
  child.once('exit', () => {
    endedAt = Date.now();
    for (const wake of waiters.splice(0)) {
      wake();
    }
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    reports.push(JSON.parse(line) as Report);
    for (const wake of waiters.splice(0)) {
      wake();
    }
  });
  return {
    name,
    process: child,
    reports,
    until: (test) =>
      new Promise((resolve) => {
        const check = () => (reports.some(test) || endedAt !== undefined ? resolve() : waiters.push(check));
        check();
      }),
    endedAt: () => endedAt,
  };
}

/** Resolves once `child` has exited, sending it `signal` first when it still runs. */
export function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/**
mulberry32: a small seeded generator, so kill points and faults are the same on every run with one seed.
*/
export function seeded(value: number): () => number {
  let state = value;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
