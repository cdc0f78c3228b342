/**
@module
The gRPC mount of the mock agent (A2A spec §10): a grpc-js `Server` serving `lf.a2a.v1.A2AService`
(`service.ts`) over the same agent core, task store, execution counter and idempotency keys as the agent's
HTTP bindings, with the same fault lab, on 127.0.0.1 only. grpc-js takes each connection from a `node:net`
server of our own (its connection injector), so that a fault that drops or cuts an answer can end the one
connection that carried the call, as the loopback HTTP mount destroys the socket of a lost answer.
*/
// Its declarations name Node's types: a consumer's TypeScript loads them without a `types` setting
// (ARCHITECTURE.md#runtimes).
/// <reference types="node" preserve="true" />
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { Server, ServerCredentials, type ServerInterceptor } from '@grpc/grpc-js';
import { OptionsError } from '@surecall/client';
import { agentInternals, type MockAgent } from '../agent/agent.js';
import type { FaultLab } from '../faults/faults.js';
import { createGrpcCodec } from './codec.js';
import { createA2aService } from './service.js';

/** Options of {@link listenGrpc}. */
export type GrpcMountOptions = {
  /** The agent to serve, made by `createAgent`; its cards list the gRPC interface while the mount runs. */
  readonly agent: MockAgent;
  /** The fault lab whose specs apply to gRPC calls too (a spec's `binding: 'GRPC'` selects them alone). */
  readonly faults: FaultLab;
  /** The TCP port on 127.0.0.1; 0 picks a free one. @default 0 */
  readonly port?: number;
  /**
  The origin of the agent's HTTP interfaces, for the URLs of the extended card. @default the gRPC URL
  */
  readonly origin?: string;
  /**
  grpc-js server interceptors, run around every call before the fault lab and the agent (to record or hold a
  call in a test). @default []
  */
  readonly interceptors?: readonly ServerInterceptor[];
};

/** A running gRPC mount. */
export type GrpcMount = {
  readonly port: number;
  /** `http://127.0.0.1:<port>`: the GRPC interface URL the agent's cards list. */
  readonly url: string;
  /** Stop serving: every connection is cut, and the cards no longer list the interface. */
  close(): Promise<void>;
};

/**
The ceiling of a request message, as the HTTP mount's body bound: only the mock's own memory is guarded.
*/
const maxRequestBytes = 64 * 1024 * 1024;

/**
Serve `agent` over gRPC on 127.0.0.1, with the fault lab `faults`.

@example
```ts
import { createAgent, createFaultLab } from '@surecall/mocks';
import { listenGrpc } from '@surecall/mocks/grpc';

const agent = createAgent({ stepMs: 0 });
const faults = createFaultLab();
const grpc = await listenGrpc({ agent, faults });
faults.set({ kind: 'drop-after', operation: 'SendMessage', binding: 'GRPC' });
await grpc.close();
```
*/
export async function listenGrpc(options: GrpcMountOptions): Promise<GrpcMount> {
  if (options.agent.protocol === '0.3') {
    // The gRPC service is v1.0's (`lf.a2a.v1`); a v0.3-only agent serves JSON-RPC alone.
    throw new OptionsError('protocol', 'inconsistent');
  }
  const internals = agentInternals(options.agent);
  const sockets = new Map<string, Socket>();
  const server = new Server({
    interceptors: [...(options.interceptors ?? [])],
    'grpc.max_receive_message_length': maxRequestBytes,
  });
  let url = '';
  const { definition, implementation } = createA2aService({
    agent: internals,
    faults: options.faults,
    codec: createGrpcCodec(),
    origin: () => options.origin ?? url,
    reset: (peer) => sockets.get(peer)?.destroy(),
  });
  server.addService(definition, implementation);
  const injector = server.createConnectionInjector(ServerCredentials.createInsecure());
  const listener = createServer((socket) => {
    // grpc-js names a call's peer by the socket's remote address and port (`call.getPeer()`).
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    sockets.set(peer, socket);
    socket.once('close', () => sockets.delete(peer));
    injector.injectConnection(socket);
  });
  listener.listen(options.port ?? 0, '127.0.0.1');
  await once(listener, 'listening');
  const port = (listener.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
  internals.serveGrpc(url);
  return {
    port,
    url,
    close: async () => {
      internals.serveGrpc(undefined);
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
      for (const socket of sockets.values()) {
        socket.destroy();
      }
      injector.destroy();
      server.forceShutdown();
      await closed;
    },
  };
}
