/**
@module
Test support: a real loopback TCP proxy in front of one gRPC server that breaks the first connection it
carries, as a load balancer or a dying node does. Bytes pass through unchanged, the server's read as HTTP/2
frames (RFC 9113 §4.1) so the break falls where a test wants it: `answer` resets the connection when the
server starts its first answer (the first HEADERS frame of a stream: the server has done the work), `messages`
closes it after the server has sent that many whole gRPC messages (gRPC over HTTP/2,
"Length-Prefixed-Message"). Every later connection passes untouched. It binds 127.0.0.1.
*/
import { connect, createServer, type Socket } from 'node:net';

/** Where the first connection breaks. */
export type GrpcBreak = { readonly at: 'answer' } | { readonly at: 'messages'; readonly count: number };

/** The running proxy. */
export type GrpcProxy = {
  /** `http://127.0.0.1:<port>`: an interface URL in place of the server's. */
  readonly url: string;
  /** Connections reset so far (at most one). */
  resets(): number;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
};

const frameHeaderBytes = 9;
const headersFrame = 1;
const dataFrame = 0;
const padded = 0x8;

/**
Starts a proxy to `target` (`host:port`) whose first connection breaks at `breakAt`.

@example
```ts
const proxy = await startGrpcProxy('127.0.0.1:50051', { at: 'messages', count: 2 });
createClient({ ..., grpc: grpcBinding, pin: { binding: 'GRPC', url: proxy.url } });
```
*/
export async function startGrpcProxy(target: string, breakAt: GrpcBreak): Promise<GrpcProxy> {
  const [host = '', port = ''] = target.split(':');
  const sockets = new Set<Socket>();
  let accepted = 0;
  let resets = 0;

  function relay(client: Socket, faulty: boolean): void {
    const upstream = connect(Number(port), host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.on('data', (chunk) => upstream.write(chunk));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => {
      if (!broken) {
        client.destroy();
      }
    });
    let pending = Buffer.alloc(0);
    let messages = 0;
    const streams = new Map<number, Buffer>();
    let broken = false;
    // An answer is dropped by a reset (TCP RST), nothing of it forwarded; a stream is cut by closing the
    // connection once the messages it carried were written, so they reach the client before the end.
    const cut = () => {
      broken = true;
      resets += 1;
      if (breakAt.at === 'answer') {
        client.resetAndDestroy();
      } else {
        client.end();
      }
      upstream.destroy();
    };
    upstream.on('data', (chunk: Buffer) => {
      if (broken) {
        return;
      }
      if (!faulty) {
        client.write(chunk);
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      while (!broken && pending.length >= frameHeaderBytes) {
        const length = pending.readUIntBE(0, 3);
        if (pending.length < frameHeaderBytes + length) {
          return;
        }
        const frame = pending.subarray(0, frameHeaderBytes + length);
        pending = pending.subarray(frameHeaderBytes + length);
        const type = frame[3];
        const stream = frame.readUInt32BE(5) & 0x7fffffff;
        if (breakAt.at === 'answer' && type === headersFrame && stream !== 0) {
          cut();
          return;
        }
        client.write(frame);
        if (breakAt.at === 'messages' && type === dataFrame && stream !== 0) {
          const payload = frame.subarray(frameHeaderBytes);
          // RFC 9113 §6.1: a PADDED frame starts with its pad length, and the padding ends it.
          const isPadded = ((frame[4] ?? 0) & padded) !== 0;
          const content = isPadded ? payload.subarray(1, payload.length - (payload[0] ?? 0)) : payload;
          let data = Buffer.concat([streams.get(stream) ?? Buffer.alloc(0), content]);
          while (data.length >= 5 && data.length >= 5 + data.readUInt32BE(1)) {
            data = data.subarray(5 + data.readUInt32BE(1));
            messages += 1;
          }
          streams.set(stream, data);
          if (messages >= breakAt.count) {
            // What was written reaches the client first; then the connection is reset, not closed.
            broken = true;
            client.write('', cut);
            return;
          }
        }
      }
    });
  }

  const server = createServer((client) => {
    accepted += 1;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    relay(client, accepted === 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${bound}`,
    resets: () => resets,
    connections: () => accepted,
    close: async () => {
      for (const socket of sockets) {
        socket.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
