/**
@module
The mock agent in a browser, behind MSW's `setupWorker`: the devtools (and e2e pages) talk to it with plain
`fetch`, and flip faults through `POST /__faults` on the page's own origin. Imports nothing from `node:*`.
`mockServiceWorker.js` must be served from the page's public folder (`npx msw init <publicDir> --no-save`).
*/
import { type SetupWorker, setupWorker } from 'msw/browser';
import { type AgentOptions, createAgent, type Executions, type MockAgent } from '../agent/agent.js';
import { agentCardPath } from '../agent/card.js';
import { createFaultLab, type FaultLab } from '../faults/faults.js';
import { createHandlers } from '../http/handlers.js';

/** Options of {@link createMockAgentWorker}: the agent's, plus the origin it answers for. */
export type MockAgentWorkerOptions = AgentOptions & {
  /**
  The origin the worker answers for; requests to any other origin go to the network. A service worker sees a
  page's cross-origin requests too, so answering the agent's paths everywhere would stand in for a real agent
  the page talks to. @default the page's origin
  */
  readonly origin?: string;
};

/** The mock agent behind a service worker. */
export type MockAgentWorker = {
  /** The MSW worker: `use` and `resetHandlers` work as usual. */
  readonly worker: SetupWorker;
  readonly agent: MockAgent;
  readonly faults: FaultLab;
  readonly executions: Executions;
  /** The agent card's URL on `origin`. */
  readonly cardUrl: string;
  /**
  Register the worker. A page loads its own assets too, so unmatched requests go to the network. @default {
  onUnhandledFrame: 'bypass' }
  */
  start(options?: Parameters<SetupWorker['start']>[0]): Promise<void>;
  /** Unregister the interception and stop the agent's timers. */
  stop(): void;
};

/**
The mock agent behind MSW's `setupWorker`.

@example
```ts
const mock = createMockAgentWorker({ stepMs: 200 });
await mock.start();
const client = await discover({ cardUrl: mock.cardUrl, loopback: true });
mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
```
*/
export function createMockAgentWorker(options: MockAgentWorkerOptions = {}): MockAgentWorker {
  const { origin: requested = globalThis.location.origin, ...agentOptions } = options;
  const origin = new URL(requested).origin;
  const agent = createAgent(agentOptions);
  const faults = createFaultLab();
  const worker = setupWorker(...createHandlers({ agent, faults, origin }));
  return {
    worker,
    agent,
    faults,
    executions: agent.executions,
    cardUrl: `${origin}${agentCardPath}`,
    start: async (startOptions = { onUnhandledFrame: 'bypass' }) => {
      await worker.start(startOptions);
    },
    stop: () => {
      worker.stop();
      agent.close();
    },
  };
}
