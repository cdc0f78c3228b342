/**
@module
The mock agent for Node: in-process behind MSW's `setupServer` (no real socket: MSW 3 answers over a simulated
one, for unit tests of code that calls `fetch`), or on a real loopback port (for anything that must see a
wire: other processes, the official SDK, Playwright).
*/
import { type SetupServer, setupServer } from 'msw/node';
import { type AgentOptions, createAgent, type Executions, type MockAgent } from '../agent/agent.js';
import { agentCardPath } from '../agent/card.js';
import { createFaultLab, type FaultLab } from '../faults/faults.js';
import { createHandlers } from '../http/handlers.js';

export type { LoopbackOptions, LoopbackServer, NodeListenerOptions } from '../http/server.js';
export { createNodeListener, listenLoopback, mockTokenHeader } from '../http/server.js';
export type { RunningMockAgent, StartMockAgentOptions } from './loopback.js';
export { startMockAgent } from './loopback.js';

/** Options of {@link createMockAgentServer}: the agent's, plus the origin it answers for. */
export type MockAgentServerOptions = AgentOptions & {
  /**
  The origin MSW answers for. `https` costs nothing here (no TLS happens in-process) and passes a client's
  TLS-only rule. @default 'https://agent.test'
  */
  readonly origin?: string;
};

/** The mock agent behind MSW in this process. */
export type MockAgentServer = {
  /** The MSW server: `use` and `resetHandlers` work as usual. */
  readonly server: SetupServer;
  readonly agent: MockAgent;
  readonly faults: FaultLab;
  readonly executions: Executions;
  readonly origin: string;
  /** `<origin>/.well-known/agent-card.json` */
  readonly cardUrl: string;
  /**
  Start intercepting; unhandled requests fail the test unless told otherwise. @default { onUnhandledFrame:
  'error' }
  */
  listen(options?: Parameters<SetupServer['listen']>[0]): void;
  /** Stop intercepting and stop the agent's timers. */
  close(): void;
};

/**
The mock agent behind MSW's `setupServer`: `fetch` to its origin is answered in-process, faults included.

@example
```ts
const mock = createMockAgentServer({ stepMs: 0 });
beforeAll(() => mock.listen());
afterEach(() => mock.faults.clear());
afterAll(() => mock.close());

it('survives a lost answer', async () => {
  mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
  // … call mock.cardUrl with the client under test …
});
```
*/
export function createMockAgentServer(options: MockAgentServerOptions = {}): MockAgentServer {
  const { origin: requested = 'https://agent.test', ...agentOptions } = options;
  const origin = new URL(requested).origin;
  const agent = createAgent(agentOptions);
  const faults = createFaultLab();
  const server = setupServer(...createHandlers({ agent, faults, origin }));
  return {
    server,
    agent,
    faults,
    executions: agent.executions,
    origin,
    cardUrl: `${origin}${agentCardPath}`,
    listen: (listenOptions = { onUnhandledFrame: 'error' }) => server.listen(listenOptions),
    close: () => {
      server.close();
      agent.close();
    },
  };
}
