/**
@module
The mock agent of the partition tests (`test/durable/fleet-partition.test.ts`) on loopback: it honours
idempotency keys, counts every SendMessage request by its messageId (an at-most-once attempt must arrive
once), and, while held, does each SendMessage's work at once and keeps its answer until the test lets it go,
so a test can cut a worker off in the middle of a send by waiting for a state rather than a time.
*/
import { createAgent, createFaultLab, createMockHandle, type MockAgent } from '@surecall/mocks';
import { listenLoopback } from '@surecall/mocks/node';

/** The agent, its counts and its hold. */
export type HeldAgent = {
  readonly agent: MockAgent;
  readonly port: number;
  readonly cardUrl: string;
  /** SendMessage requests received, per messageId. */
  readonly requests: Map<string, number>;
  /** Holds every SendMessage answer from now on; the function it returns lets them all go. */
  hold(): () => void;
  /** Resolves once `count` answers are held, their work done. */
  untilHeld(count: number): Promise<void>;
  close(): Promise<void>;
};

export async function startHeldAgent(): Promise<HeldAgent> {
  const agent = createAgent({ stepMs: 0, mode: 'honouring' });
  const inner = createMockHandle({ agent, faults: createFaultLab() });
  const requests = new Map<string, number>();
  let gate: Promise<void> | undefined;
  let held = 0;
  const waiters: (() => void)[] = [];
  const server = await listenLoopback({
    handle: async (request) => {
      const body = request.method === 'POST' ? await request.clone().text() : '';
      const parsed =
        body === ''
          ? {}
          : (JSON.parse(body) as { method?: string; params?: { message?: { messageId?: string } } });
      const messageId = parsed.params?.message?.messageId;
      if (parsed.method !== 'SendMessage' || messageId === undefined) {
        return inner(request);
      }
      requests.set(messageId, (requests.get(messageId) ?? 0) + 1);
      const answer = await inner(request);
      const waiting = gate;
      if (waiting !== undefined) {
        held++;
        for (const wake of waiters.splice(0)) {
          wake();
        }
        await waiting;
      }
      return answer;
    },
  });
  return {
    agent,
    port: server.port,
    cardUrl: `${server.origin}/.well-known/agent-card.json`,
    requests,
    hold() {
      let open: () => void = () => undefined;
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      held = 0;
      return () => {
        gate = undefined;
        open();
      };
    },
    untilHeld: (count) =>
      new Promise((resolve) => {
        const check = () => (held >= count ? resolve() : waiters.push(check));
        check();
      }),
    async close() {
      await server.close();
      agent.close();
    },
  };
}
