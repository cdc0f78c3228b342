/**
@module
The devtools server of `surecall devtools` (README.md#the-surecall-command): the built devtools app and a
read-only JSON endpoint over one ledger, so a file or shared ledger is inspected in a browser without database
credentials in the page. Like every local server of the project it binds 127.0.0.1 only, refuses a request
whose Host header is not its own (DNS rebinding), serves the ledger only to a caller holding the random
per-run token (`Authorization: Bearer`), and never sends `Access-Control-Allow-Origin`, so no other origin can
read it.
*/
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { statusOf } from '@surecall/client/ledger';
import type { LedgerView } from './ledger-view.js';

/** The running server. */
export type DevtoolsServer = {
  readonly origin: string;
  /**
  The page to open: the token rides in the fragment, which the browser never sends to a server or in a
  Referer.
  */
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
};

const types: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.map': 'application/json',
  '.ico': 'image/x-icon',
};

const common = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

function send(
  response: ServerResponse,
  status: number,
  body: string | Uint8Array,
  type: string,
  store = false,
) {
  response.writeHead(status, {
    ...common,
    'content-type': type,
    ...(store ? {} : { 'cache-control': 'no-store' }),
  });
  response.end(body);
}

function json(response: ServerResponse, status: number, value: unknown) {
  send(response, status, JSON.stringify(value), 'application/json');
}

function authorized(request: IncomingMessage, token: Buffer): boolean {
  const header = request.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
  return given.length === token.length && timingSafeEqual(given, token);
}

/** Options of {@link startDevtoolsServer}. */
export type DevtoolsServerOptions = {
  readonly view: LedgerView;
  /** The built devtools app: a folder holding `index.html`. */
  readonly root: string;
  /** 0 picks a free port. */
  readonly port: number;
};

/**
Starts the server on 127.0.0.1.

@example
```ts
const server = await startDevtoolsServer({ view, root, port: 0 });
console.log(server.url); // http://127.0.0.1:<port>/#ledger=<token>
```
*/
export async function startDevtoolsServer(options: DevtoolsServerOptions): Promise<DevtoolsServer> {
  const { view, root } = options;
  const token = randomBytes(32).toString('base64url');
  const tokenBytes = Buffer.from(token);
  let hosts = new Set<string>();

  async function api(path: string, url: URL, response: ServerResponse) {
    if (path === '/api/ledger/records') {
      const records = await view.list();
      json(response, 200, { records: records.map((record) => ({ record, status: statusOf(record) })) });
      return;
    }
    if (path === '/api/ledger/history') {
      const id = url.searchParams.get('id');
      if (id === null || id === '') {
        json(response, 400, { error: 'id is required' });
        return;
      }
      json(response, 200, { revisions: await view.history(id) });
      return;
    }
    json(response, 404, { error: 'not found' });
  }

  async function file(path: string, response: ServerResponse) {
    const relative = normalize(path === '/' ? '/index.html' : path).replace(/^[/\\]+/, '');
    const full = join(root, relative);
    if (relative.startsWith('..') || !full.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) {
      send(response, 404, 'not found', 'text/plain; charset=utf-8');
      return;
    }
    try {
      const body = await readFile(full);
      send(
        response,
        200,
        body,
        types[extname(full)] ?? 'application/octet-stream',
        relative !== 'index.html',
      );
    } catch {
      send(response, 404, 'not found', 'text/plain; charset=utf-8');
    }
  }

  const server = createServer((request, response) => {
    // RFC 9110 §7.2: the Host a browser sends names the origin it meant; any other is a rebound name or a
    // stranger. RFC 9112 §3.2: one Host only (Node keeps the first of several in `headers`, so they are
    // counted raw).
    const hostLines = request.rawHeaders.filter(
      (_, index) => index % 2 === 0 && /^host$/i.test(request.rawHeaders[index] ?? ''),
    );
    if (hostLines.length !== 1 || !hosts.has(request.headers.host ?? '')) {
      send(response, 421, 'misdirected request', 'text/plain; charset=utf-8');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...common, allow: 'GET, HEAD' });
      response.end();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (path.startsWith('/api/')) {
      if (!authorized(request, tokenBytes)) {
        json(response, 401, { error: 'the devtools token is required' });
        return;
      }
      api(path, url, response).catch(() => json(response, 500, { error: 'the ledger could not be read' }));
      return;
    }
    void file(path, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: `${origin}/#ledger=${token}`,
    token,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
