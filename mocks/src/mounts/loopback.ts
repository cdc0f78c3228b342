/**
@module
The mock agent on a real loopback port, for anything that must see a wire: other processes, the official SDK,
Playwright, the `surecall-mock-agent` command. It imports nothing from MSW, so it runs where MSW is not
installed (`@surecall/mocks/node` re-exports it beside the MSW mount).
*/
import { OptionsError } from '@surecall/client';
import { type AgentOptions, createAgent, type Executions, type MockAgent } from '../agent/agent.js';
import { agentCardPath } from '../agent/card.js';
import { createFaultLab, type FaultLab } from '../faults/faults.js';
import type { GrpcMount } from '../grpc/server.js';
import { createMockHandle } from '../http/handle.js';
import { type LoopbackOptions, listenLoopback } from '../http/server.js';

/** Options of {@link startMockAgent}: the agent's, plus the port and who may call it. */
export type StartMockAgentOptions = AgentOptions &
  Pick<LoopbackOptions, 'corsOrigins' | 'token'> & {
    /** The TCP port on 127.0.0.1; 0 picks a free one. @default 0 */
    readonly port?: number;
    /**
    Serve the agent over gRPC too, on this port of 127.0.0.1 (0 picks a free one), with the same tasks and
    fault lab (`@surecall/mocks/grpc`; needs `@grpc/grpc-js` and `@bufbuild/protobuf`); not with
    `protocol: '0.3'`, which has no gRPC service. @default no gRPC
    */
    readonly grpcPort?: number;
  };

/** A mock agent listening on loopback. */
export type RunningMockAgent = {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** `<origin>/.well-known/agent-card.json` */
  readonly cardUrl: string;
  readonly port: number;
  /**
  The per-run token of the control routes (`/__faults`, `/__executions`): send it as `x-surecall-mock-token`.
  */
  readonly token: string;
  readonly agent: MockAgent;
  readonly faults: FaultLab;
  readonly executions: Executions;
  /**
  `http://127.0.0.1:<port>` of the gRPC mount, which the card lists as its GRPC interface, when started.
  */
  readonly grpcUrl: string | undefined;
  /** Close the port (cutting open streams) and stop the agent. */
  close(): Promise<void>;
};

/**
Start the mock agent on 127.0.0.1, with its fault lab and the `/__faults` and `/__executions` control routes
(behind `token`). Only loopback pages and `corsOrigins` may call it from a browser
(docs/interop.md#loopback-server-security).

@example
```ts
const mock = await startMockAgent({ port: 0, stepMs: 5 });
const factory = new ClientFactory();
const client = await factory.createFromUrl(mock.cardUrl, '');
mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 1 });
await mock.close();
```
*/
export async function startMockAgent(options: StartMockAgentOptions = {}): Promise<RunningMockAgent> {
  const { port, corsOrigins, token, grpcPort, ...agentOptions } = options;
  if (grpcPort !== undefined && agentOptions.protocol === '0.3') {
    // Refused before anything listens: a v0.3-only agent has no gRPC service (`AgentOptions.protocol`).
    throw new OptionsError('grpcPort', 'inconsistent');
  }
  const agent = createAgent(agentOptions);
  const faults = createFaultLab();
  let grpc: GrpcMount | undefined;
  try {
    const server = await listenLoopback({
      handle: createMockHandle({ agent, faults }),
      port: port ?? 0,
      ...(corsOrigins === undefined ? {} : { corsOrigins }),
      ...(token === undefined ? {} : { token }),
    });
    if (grpcPort !== undefined) {
      // Loaded only when asked for, so the HTTP mount runs where the gRPC libraries are not installed.
      const { listenGrpc } = await import('../grpc/server.js');
      grpc = await listenGrpc({ agent, faults, port: grpcPort, origin: server.origin }).catch(
        async (error: unknown) => {
          await server.close();
          throw error;
        },
      );
    }
    const mounted = grpc;
    return {
      origin: server.origin,
      cardUrl: `${server.origin}${agentCardPath}`,
      port: server.port,
      token: server.token,
      agent,
      faults,
      executions: agent.executions,
      grpcUrl: mounted?.url,
      close: async () => {
        try {
          await Promise.all([server.close(), mounted?.close()]);
        } finally {
          agent.close();
        }
      },
    };
  } catch (error) {
    agent.close();
    throw error;
  }
}
