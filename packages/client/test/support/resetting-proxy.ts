/**
@module
Test support: a real loopback HTTP proxy in front of one origin that resets every event stream after a number
of SSE events, as a proxy that cuts long-lived responses does. Requests and answers pass through byte for
byte; once an `text/event-stream` answer has carried `events` events, the next bytes the origin sends are not
forwarded and the client's connection is reset (TCP RST). It binds 127.0.0.1 and refuses a foreign Host
header.
*/
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the proxy forwarded: enough to count operations. */
export type ProxiedRequest = {
  readonly method: string;
  readonly path: string;
  /** The JSON-RPC `method` of the body, when it has one. */
  readonly rpcMethod: string | undefined;
};

/** The running proxy. */
export type ResettingProxy = {
  /** `http://127.0.0.1:<port>`: use it in place of the origin. */
  readonly origin: string;
  /** Every request forwarded, in arrival order. */
  readonly requests: readonly ProxiedRequest[];
  /** Event streams reset so far. */
  resets(): number;
  close(): Promise<void>;
};

/** A blank line ends an SSE event, whatever the line terminator (WHATWG HTML, §9.2.5). */
const frameEnd = /\r\n\r\n|\n\n|\r\r/;

function rpcMethodOf(body: Buffer): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    const method =
      typeof parsed === 'object' && parsed !== null ? (parsed as { method?: unknown }).method : undefined;
    return typeof method === 'string' ? method : undefined;
  } catch {
    return undefined;
  }
}

/**
Starts a proxy to `target` (an `http://127.0.0.1:<port>` origin) that resets each event stream after `events`
SSE events.

@example
```ts
const proxy = await startResettingProxy(sdk.origin, { events: 2 });
const client = createClient({ ..., pin: { binding: 'JSONRPC', url: `${proxy.origin}/a2a/jsonrpc` } });
```
*/
export async function startResettingProxy(
  target: string,
  options: { readonly events: number },
): Promise<ResettingProxy> {
  const upstream = new URL(target);
  const requests: ProxiedRequest[] = [];
  let resets = 0;
  let expectedHost = '';
  const sockets = new Set<Socket>();

  function relayStream(answer: IncomingMessage, response: ServerResponse): void {
    let forwarded = 0;
    let pending = '';
    let cut = false;
    answer.setEncoding('utf8');
    answer.on('data', (chunk: string) => {
      if (cut) {
        return;
      }
      pending += chunk;
      let out = '';
      for (let match = frameEnd.exec(pending); match !== null; match = frameEnd.exec(pending)) {
        const end = match.index + match[0].length;
        const frame = pending.slice(0, end);
        pending = pending.slice(end);
        if (forwarded === options.events) {
          cut = true;
          break;
        }
        out += frame;
        if (/^data:/m.test(frame)) {
          forwarded += 1;
        }
      }
      if (out !== '') {
        response.write(out);
      }
      if (cut) {
        resets += 1;
        answer.destroy();
        // What was written reaches the client first; then the connection is reset, not closed.
        response.write('', () => response.socket?.resetAndDestroy());
      }
    });
    answer.on('end', () => {
      if (!cut) {
        response.end(pending);
      }
    });
  }

  const server = createServer((incoming, response) => {
    if (incoming.headers.host !== expectedHost) {
      response.writeHead(421).end();
      return;
    }
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        rpcMethod: rpcMethodOf(body),
      });
      const outgoing = forward(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: upstream.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          if ((answer.headers['content-type'] ?? '').startsWith('text/event-stream')) {
            relayStream(answer, response);
          } else {
            answer.pipe(response);
          }
        },
      );
      outgoing.on('error', () => response.destroy());
      outgoing.end(body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  expectedHost = `127.0.0.1:${port}`;
  return {
    origin: `http://${expectedHost}`,
    requests,
    resets: () => resets,
    close: async () => {
      for (const socket of sockets) {
        socket.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
