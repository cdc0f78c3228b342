/**
@module
The loopback mount: a `node:http` server on 127.0.0.1 that turns each Node request into a WHATWG `Request`,
calls a handler, and streams its `Response` back chunk by chunk (so SSE frames arrive as they are produced). A
network-error `Response` (`Response.error()`) destroys the socket without an answer, and a body that errors
mid-way resets the connection: the client sees exactly what a lost answer looks like on a real wire.

The server keeps websites the user happens to visit out (docs/interop.md#loopback-server-security):
- a `Host` other than its own loopback authority gets 421 (a DNS-rebinding page reaches 127.0.0.1 under its
  own host name);
- the request target is read once (`request-target.ts`): an absolute form naming another authority gets 421,
  one that does not normalise cleanly (a backslash, a fragment, a character RFC 3986 keeps out of a path) 400,
  and the token check and the handler both get the same normalised path, dot segments removed;
- a request or preflight whose `Origin` is not trusted gets 403: trusted are the loopback origins
  (`http://127.0.0.1:<any port>`, `http://localhost:<any port>`, `http://[::1]:<any port>`, read as URLs by
  `origin.ts`) and those in `corsOrigins`; a trusted `Origin` is reflected with `Vary: Origin`, never `*`;
- every path under `/__` (the fault lab's control routes) needs the per-run token in `x-surecall-mock-token`,
  else 401. A custom header cannot ride on a cross-site "simple" request, so a foreign page cannot even try
  without a preflight, which it fails.

Only a real wire has connections, so this mount alone adds a control route of its own, `GET /__requests`:
`{ "requests": [{ "number": n, "connection": c, "method": "POST", "path": "/a2a/jsonrpc" }, …] }`, the last
{@link requestLogLength} requests it admitted, oldest first, each numbered in the order they came and with the
serial of the TCP connection that carried it (both counted from 1 per listener). A test of a runtime's `fetch`
reads from it whether a request left on a warm connection or a fresh one (docs/interop.md#runtimes), which
decides whether that runtime may re-send it.
*/
// Its declarations name Node's types: a consumer's TypeScript loads them without a `types` setting
// (ARCHITECTURE.md#runtimes).
/// <reference types="node" preserve="true" />
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handle } from '../faults/fault-types.js';
import { isLoopbackOrigin, trustedOrigins } from './origin.js';
import { type RoutedTarget, readRequestTarget } from './request-target.js';

/** Options of {@link listenLoopback}. */
export type LoopbackOptions = {
  /** The handler that answers every request, e.g. `createMockHandle({ agent, faults })`. */
  readonly handle: Handle;
  /** The TCP port; 0 picks a free one. @default 0 */
  readonly port?: number;
  /**
  Answer CORS preflights of trusted origins and label answers readable by them, so a page on another port (the
  devtools) can call the agent. Without it, no answer carries CORS headers and every preflight is
  refused. @default true
  */
  readonly cors?: boolean;
  /**
  Origins trusted besides the loopback ones (`http://127.0.0.1:*`, `http://localhost:*`, `http://[::1]:*`),
  each a serialized origin such as `https://devtools.example`. @default []
  */
  readonly corsOrigins?: readonly string[];
  /**
  The token the control routes (`/__…`) demand in `x-surecall-mock-token`: at least 32 characters of
  `[A-Za-z0-9_-]`. @default 32 random bytes, base64url
  */
  readonly token?: string;
  /**
  Larger request bodies get a 413: the mock only guards its own memory, above anything a client may send (its
  ceiling is 32 MiB). @default 67108864 (64 MiB)
  */
  readonly maxRequestBodyBytes?: number;
};

/** A listening loopback server. */
export type LoopbackServer = {
  /** The bound port. */
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /**
  The per-run token of the control routes: send it as `x-surecall-mock-token` to reach any path under `/__`.
  */
  readonly token: string;
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
  init: { readonly url: string; readonly body: Uint8Array<ArrayBuffer>; readonly signal: AbortSignal },
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
  return new Request(init.url, {
    method,
    headers,
    signal: init.signal,
    ...(bodyless ? {} : { body: init.body }),
  });
}

/** The header that carries the control routes' token. */
export const mockTokenHeader = 'x-surecall-mock-token';

const tokenPattern = /^[A-Za-z0-9_-]{32,256}$/;

function checkedToken(token: string | undefined): string {
  if (token === undefined) {
    return randomBytes(32).toString('base64url');
  }
  if (!tokenPattern.test(token)) {
    throw new TypeError('token: expected 32 to 256 characters of A-Z, a-z, 0-9, _ and -');
  }
  return token;
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) {
    return false;
  }
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function corsHeaders(incoming: IncomingMessage, origin: string): Record<string, string> {
  const headers: Record<string, string> = {
    'access-control-allow-origin': origin,
    vary: 'Origin',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-expose-headers': '*',
    'access-control-max-age': '600',
  };
  const requested = incoming.headers['access-control-request-headers'];
  if (requested !== undefined) {
    // `*` does not cover Authorization, so echo what the trusted page asks for.
    headers['access-control-allow-headers'] = requested;
  }
  // Chromium's Private Network Access preflight: a public page asking to reach loopback; only trusted pages
  // get a yes.
  if (incoming.headers['access-control-request-private-network'] === 'true') {
    headers['access-control-allow-private-network'] = 'true';
  }
  return headers;
}

/** A refusal: a status and one plain line, nothing of the agent. */
function refuse(outgoing: ServerResponse, status: number, line: string): void {
  outgoing.writeHead(status, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(`${line}\n`);
}

function header(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name];
  return typeof value === 'string' ? value : undefined;
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
  /** The request's trusted `Origin` to reflect, or `undefined` for no CORS headers. */
  readonly allowOrigin: string | undefined;
};

async function send(response: Response, { incoming, outgoing, allowOrigin }: Exchange): Promise<void> {
  if (response.type === 'error') {
    // The network error of the Fetch standard: no status line at all, the connection just goes.
    outgoing.destroy();
    return;
  }
  const headers: OutgoingHttpHeaders = allowOrigin === undefined ? {} : corsHeaders(incoming, allowOrigin);
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

/** How many admitted requests `GET /__requests` keeps: the oldest goes first. */
export const requestLogLength = 64;

/** One admitted request, as `GET /__requests` lists it. */
type LoggedRequest = {
  readonly number: number;
  readonly connection: number;
  readonly method: string;
  readonly path: string;
};

/** The request log of one listener: which connection carried each request it admitted. */
type RequestLog = {
  readonly serials: WeakMap<object, number>;
  connections: number;
  admitted: number;
  readonly requests: LoggedRequest[];
};

function logRequest(log: RequestLog, incoming: IncomingMessage, path: string): void {
  let connection = log.serials.get(incoming.socket);
  if (connection === undefined) {
    log.connections += 1;
    connection = log.connections;
    log.serials.set(incoming.socket, connection);
  }
  log.admitted += 1;
  log.requests.push({ number: log.admitted, connection, method: incoming.method ?? 'GET', path });
  if (log.requests.length > requestLogLength) {
    log.requests.shift();
  }
}

/** A listener's options, checked and resolved once. */
type ListenerState = {
  readonly log: RequestLog;
  readonly handle: Handle;
  readonly origin: () => string;
  readonly hosts: () => readonly string[];
  readonly token: string;
  readonly cors: boolean;
  readonly trusted: ReadonlySet<string>;
  readonly maxBytes: number;
};

/**
A request past every check: the target it is routed by, and the trusted `Origin` to reflect (`undefined`: no
CORS headers).
*/
type Admitted = { readonly target: RoutedTarget; readonly allowOrigin: string | undefined };

/**
The request's one `Host` (RFC 9112 §3.2: a request with more than one is invalid), or `undefined`. Node keeps
only the first of repeated `Host` lines in `headers`, so a second one, say a foreign name after our own, is
counted in `rawHeaders`.
*/
function soleHost(incoming: IncomingMessage): string | undefined {
  let count = 0;
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
    if (incoming.rawHeaders[index]?.toLowerCase() === 'host') {
      count += 1;
    }
  }
  return count === 1 ? incoming.headers.host : undefined;
}

/**
The checks before the handler, in order: Host, request target, Origin, a trusted preflight answered here, the
token. Answers the request itself and returns `undefined` when one ends it.
*/
function admit(
  state: ListenerState,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Admitted | undefined {
  const host = soleHost(incoming)?.toLowerCase();
  if (host === undefined || !state.hosts().includes(host)) {
    // DNS rebinding: a page whose name now resolves to 127.0.0.1 still says its own name in Host (RFC 9110,
    // section 15.5.20).
    refuse(outgoing, 421, 'Misdirected Request');
    return undefined;
  }
  // One reading of the target for the token check and the router alike (request-target.ts).
  const target = readRequestTarget(incoming.url ?? '/', state.hosts());
  if (!target.ok) {
    refuse(
      outgoing,
      target.error.status,
      target.error.status === 421 ? 'Misdirected Request' : 'Bad Request',
    );
    return undefined;
  }
  const requestOrigin = incoming.headers.origin;
  const allowed =
    requestOrigin !== undefined && (isLoopbackOrigin(requestOrigin) || state.trusted.has(requestOrigin));
  if (requestOrigin !== undefined && !(state.cors && allowed)) {
    // A browser sends Origin on every cross-origin request: an untrusted page neither reads nor changes
    // anything here.
    refuse(outgoing, 403, 'Forbidden');
    return undefined;
  }
  const allowOrigin = state.cors && allowed ? requestOrigin : undefined;
  if (
    allowOrigin !== undefined &&
    incoming.method === 'OPTIONS' &&
    incoming.headers['access-control-request-method'] !== undefined
  ) {
    outgoing.writeHead(204, corsHeaders(incoming, allowOrigin)).end();
    return undefined;
  }
  if (target.value.path.startsWith('/__') && !sameToken(header(incoming, mockTokenHeader), state.token)) {
    refuse(outgoing, 401, 'The control routes need the per-run token');
    return undefined;
  }
  return { target: target.value, allowOrigin };
}

/**
One request: admitted, its body read within the bound, handed to the handler as a WHATWG `Request` addressed
to the routed target, and the answer streamed back.
*/
async function serve(
  state: ListenerState,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  const admitted = admit(state, incoming, outgoing);
  if (admitted === undefined) {
    return;
  }
  logRequest(state.log, incoming, admitted.target.path);
  if (admitted.target.path === '/__requests' && incoming.method === 'GET') {
    // Past admit(), so behind the token like every control route.
    outgoing
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify({ requests: state.log.requests }));
    return;
  }
  const abort = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) {
      abort.abort();
    }
  });
  const body = await readBody(incoming, state.maxBytes);
  if (body === undefined) {
    outgoing
      .writeHead(413, { 'content-type': 'text/plain', connection: 'close' })
      .end('Request body too large\n');
    return;
  }
  // The origin and the routed target joined as text, never resolved as a reference: the handler's URL has
  // exactly the path the token check read.
  const url = `${state.origin()}${admitted.target.path}${admitted.target.query}`;
  let response: Response;
  try {
    response = await state.handle(toRequest(incoming, { url, body, signal: abort.signal }));
  } catch {
    response = new Response('The mock agent failed on this request\n', {
      status: 500,
      headers: { 'content-type': 'text/plain' },
    });
  }
  await send(response, { incoming, outgoing, allowOrigin: admitted.allowOrigin });
}

/** Options of {@link createNodeListener}. */
export type NodeListenerOptions = Pick<
  LoopbackOptions,
  'handle' | 'cors' | 'corsOrigins' | 'maxRequestBodyBytes'
> & {
  /** The origin requests are addressed to, read per request (a server knows its port only once listening). */
  readonly origin: () => string;
  /** The `Host` values this server answers to, lower case, read per request; any other gets 421. */
  readonly hosts: () => readonly string[];
  /** The control routes' token (paths under `/__`). */
  readonly token: string;
};

/**
A `node:http` request listener that serves `handle`. Requests get the URL `origin` + path, and a signal that
aborts when the client goes away.

@example
```ts
const server = createServer(
  createNodeListener({
    handle,
    origin: () => 'http://127.0.0.1:4100',
    hosts: () => ['127.0.0.1:4100', 'localhost:4100'],
    token: randomBytes(32).toString('base64url'),
  }),
);
```
*/
export function createNodeListener(
  options: NodeListenerOptions,
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  const state: ListenerState = {
    log: { serials: new WeakMap(), connections: 0, admitted: 0, requests: [] },
    handle: options.handle,
    origin: options.origin,
    hosts: options.hosts,
    token: checkedToken(options.token),
    cors: options.cors ?? true,
    trusted: trustedOrigins(options.corsOrigins ?? []),
    maxBytes: options.maxRequestBodyBytes ?? defaultMaxRequestBodyBytes,
  };
  return (incoming, outgoing) => {
    serve(state, incoming, outgoing).catch(() => {
      outgoing.destroy();
    });
  };
}

/**
Serve `handle` on 127.0.0.1. Resolves once listening; `close()` also cuts open streams, so a test never waits
on a hanging one.

@example
```ts
const server = await listenLoopback({ handle: createMockHandle({ agent, faults }), port: 0 });
console.log(`${server.origin}/.well-known/agent-card.json`);
await fetch(`${server.origin}/__faults`, { headers: { 'x-surecall-mock-token': server.token } });
await server.close();
```
*/
export async function listenLoopback(options: LoopbackOptions): Promise<LoopbackServer> {
  const { port = 0, ...listenerOptions } = options;
  const token = checkedToken(options.token);
  let origin = '';
  let hosts: readonly string[] = [];
  const server = createServer(
    createNodeListener({ ...listenerOptions, token, origin: () => origin, hosts: () => hosts }),
  );
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${bound}`;
  hosts = [`127.0.0.1:${bound}`, `localhost:${bound}`];
  return {
    port: bound,
    origin,
    token,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
