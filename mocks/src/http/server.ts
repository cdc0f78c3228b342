/**
@module
The loopback mount: a `node:http` server on 127.0.0.1 that turns each Node request into a WHATWG `Request`, calls a handler, and streams its `Response` back chunk by chunk (so SSE frames arrive as they are produced). A network-error `Response` (`Response.error()`) destroys the socket without an answer, and a body that errors mid-way resets the connection: the client sees exactly what a lost answer looks like on a real wire.
*/
import { once } from 'node:events';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handle } from '../faults/faults.js';

/** Options of {@link listenLoopback}. */
export type LoopbackOptions = {
  /** The handler that answers every request, e.g. `createMockHandle({ agent, faults })`. */
  readonly handle: Handle;
  /** The TCP port; 0 picks a free one. @default 0 */
  readonly port?: number;
  /** Answer CORS preflights and label every answer readable cross-origin, so a page on another port (the devtools) can call the agent. @default true */
  readonly cors?: boolean;
  /** Larger request bodies get a 413: the mock only guards its own memory, above anything a client may send (its ceiling is 32 MiB). @default 67108864 (64 MiB) */
  readonly maxRequestBodyBytes?: number;
};

/** A listening loopback server. */
export type LoopbackServer = {
  /** The bound port. */
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Stop listening and cut every open connection, streams included. */
  close(): Promise<void>;
};

const defaultMaxRequestBodyBytes = 64 * 1024 * 1024;

// Hop-by-hop headers describe one connection and never travel into a `Request` or out of a `Response`.
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'host',
]);

async function readBody(
  request: IncomingMessage,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end even past the bound, so that the 413 reaches a client still sending.
  for await (const chunk of request) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size <= maxBytes) {
      chunks.push(bytes);
    }
  }
  return size > maxBytes ? undefined : new Uint8Array(Buffer.concat(chunks));
}

function toRequest(
  incoming: IncomingMessage,
  init: { readonly origin: string; readonly body: Uint8Array<ArrayBuffer>; readonly signal: AbortSignal },
): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] ?? '';
    if (!hopByHop.has(name.toLowerCase())) {
      headers.append(name, raw[index + 1] ?? '');
    }
  }
  const method = incoming.method ?? 'GET';
  const bodyless = method === 'GET' || method === 'HEAD';
  return new Request(new URL(incoming.url ?? '/', init.origin), {
    method,
    headers,
    signal: init.signal,
    ...(bodyless ? {} : { body: init.body }),
  });
}

function corsHeaders(incoming: IncomingMessage): Record<string, string> {
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    // `*` does not cover Authorization, so echo what the browser asks for.
    'access-control-allow-headers': incoming.headers['access-control-request-headers'] ?? '*',
    'access-control-expose-headers': '*',
    'access-control-max-age': '600',
  };
}

async function write(outgoing: ServerResponse, chunk: Uint8Array): Promise<void> {
  if (!outgoing.write(chunk)) {
    // Wait for the socket to drain, or give up when it closes.
    await Promise.race([once(outgoing, 'drain'), once(outgoing, 'close')]);
  }
}

/** One request and its answer on the Node side. */
type Exchange = {
  readonly incoming: IncomingMessage;
  readonly outgoing: ServerResponse;
  readonly cors: boolean;
};

async function send(response: Response, { incoming, outgoing, cors }: Exchange): Promise<void> {
  if (response.type === 'error') {
    // The network error of the Fetch standard: no status line at all, the connection just goes.
    outgoing.destroy();
    return;
  }
  const headers: OutgoingHttpHeaders = cors ? corsHeaders(incoming) : {};
  response.headers.forEach((value, name) => {
    if (!hopByHop.has(name) || name === 'content-length') {
      headers[name] = value;
    }
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) {
    headers['set-cookie'] = cookies;
  }
  outgoing.writeHead(response.status, response.statusText || undefined, headers);
  // Streams start with their headers, before the first frame exists.
  outgoing.flushHeaders();
  if (response.body === null) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  outgoing.once('close', () => {
    void reader.cancel().catch(() => undefined);
  });
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      await write(outgoing, next.value);
    }
    outgoing.end();
  } catch {
    // A body that breaks mid-way is a reset connection for the client (`TypeError: terminated` in undici).
    outgoing.destroy();
  }
}

/** Options of {@link createNodeListener}. */
export type NodeListenerOptions = Pick<LoopbackOptions, 'handle' | 'cors' | 'maxRequestBodyBytes'> & {
  /** The origin requests are addressed to, read per request (a server knows its port only once listening). */
  readonly origin: () => string;
};

/**
A `node:http` request listener that serves `handle`. Requests get the URL `origin` + path, and a signal that aborts when the client goes away.

@example
```ts
const server = createServer(createNodeListener({ handle, origin: () => 'http://127.0.0.1:4100' }));
```
*/
export function createNodeListener(
  options: NodeListenerOptions,
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  const { handle, origin } = options;
  const cors = options.cors ?? true;
  const maxBytes = options.maxRequestBodyBytes ?? defaultMaxRequestBodyBytes;
  return (incoming, outgoing) => {
    void (async () => {
      if (
        cors &&
        incoming.method === 'OPTIONS' &&
        incoming.headers['access-control-request-method'] !== undefined
      ) {
        outgoing.writeHead(204, corsHeaders(incoming)).end();
        return;
      }
      const abort = new AbortController();
      outgoing.once('close', () => {
        if (!outgoing.writableFinished) {
          abort.abort();
        }
      });
      const body = await readBody(incoming, maxBytes);
      if (body === undefined) {
        outgoing
          .writeHead(413, { 'content-type': 'text/plain', connection: 'close' })
          .end('Request body too large\n');
        return;
      }
      let response: Response;
      try {
        response = await handle(toRequest(incoming, { origin: origin(), body, signal: abort.signal }));
      } catch {
        response = new Response('The mock agent failed on this request\n', {
          status: 500,
          headers: { 'content-type': 'text/plain' },
        });
      }
      await send(response, { incoming, outgoing, cors });
    })().catch(() => {
      outgoing.destroy();
    });
  };
}

/**
Serve `handle` on 127.0.0.1. Resolves once listening; `close()` also cuts open streams, so a test never waits on a hanging one.

@example
```ts
const server = await listenLoopback({ handle: createMockHandle({ agent, faults }), port: 0 });
console.log(`${server.origin}/.well-known/agent-card.json`);
await server.close();
```
*/
export async function listenLoopback(options: LoopbackOptions): Promise<LoopbackServer> {
  const { port = 0, ...listenerOptions } = options;
  let origin = '';
  const server = createServer(createNodeListener({ ...listenerOptions, origin: () => origin }));
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${bound}`;
  return {
    port: bound,
    origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
