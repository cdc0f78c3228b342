import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Handle } from '../src/faults/fault-types.js';
import { type LoopbackServer, listenLoopback, requestLogLength } from '../src/http/server.js';

function deferred<T = void>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
let running: LoopbackServer | undefined;

type ServeOptions = {
  maxRequestBodyBytes?: number;
  cors?: boolean;
  corsOrigins?: readonly string[];
  token?: string;
};

async function serve(handle: Handle, options: ServeOptions = {}) {
  running = await listenLoopback({ handle, port: 0, ...options });
  return running;
}

/** A GET with a chosen `Host` header, which `fetch` does not let a caller set. */
function rawGet(
  port: number,
  path: string,
  host: string,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, headers: response.headers }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('listenLoopback', () => {
  it('listens on 127.0.0.1 and hands the handler a WHATWG Request with URL, headers and body', async () => {
    let seen: { url: string; method: string; version: string | null; body: string } | undefined;
    const server = await serve(async (request) => {
      seen = {
        url: request.url,
        method: request.method,
        version: request.headers.get('a2a-version'),
        body: await request.text(),
      };
      return Response.json({ ok: true }, { status: 201, headers: { 'x-extra': 'yes' } });
    });
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    const response = await fetch(`${server.origin}/a2a/rest/message:send?x=1`, {
      method: 'POST',
      headers: { 'A2A-Version': '1.0', 'content-type': 'application/json' },
      body: '{"message":{}}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-extra')).toBe('yes');
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toEqual({
      url: `${server.origin}/a2a/rest/message:send?x=1`,
      method: 'POST',
      version: '1.0',
      body: '{"message":{}}',
    });
  });

  it('streams a body chunk by chunk, each frame before the next exists', async () => {
    const second = deferred();
    const server = await serve(async () => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode('data: 1\n\n'));
          await second.promise;
          controller.enqueue(encoder.encode('data: 2\n\n'));
          controller.close();
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const response = await fetch(server.origin);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(decoder.decode(first?.value)).toBe('data: 1\n\n');
    second.resolve();
    expect(decoder.decode((await reader?.read())?.value)).toBe('data: 2\n\n');
    expect((await reader?.read())?.done).toBe(true);
  });

  it('answers a network-error Response by closing the socket without an answer', async () => {
    const server = await serve(async () => Response.error());
    const failure = await fetch(server.origin).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).cause).toMatchObject({ code: 'UND_ERR_SOCKET' });
  });

  it('resets the connection when the body errors mid-way', async () => {
    const server = await serve(async () => {
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.enqueue(encoder.encode('data: 1\n\n'));
          controller.error(new Error('cut'));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const response = await fetch(server.origin);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it('aborts the request signal when the client goes away', async () => {
    const aborted = deferred();
    const started = deferred();
    const server = await serve(async (request) => {
      request.signal.addEventListener('abort', () => aborted.resolve());
      started.resolve();
      return new Response(new ReadableStream({}), { headers: { 'content-type': 'text/event-stream' } });
    });
    const abort = new AbortController();
    const response = await fetch(server.origin, { signal: abort.signal });
    await started.promise;
    expect(response.status).toBe(200);
    abort.abort();
    await aborted.promise;
  });

  it('answers 500 when the handler throws', async () => {
    const server = await serve(async () => {
      throw new Error('boom');
    });
    const response = await fetch(server.origin);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('boom');
  });

  it('answers 413 for a body above the bound, without calling the handler', async () => {
    let calls = 0;
    const server = await serve(
      async () => {
        calls += 1;
        return new Response('ok');
      },
      { maxRequestBodyBytes: 8 },
    );
    expect((await fetch(server.origin, { method: 'POST', body: '12345678' })).status).toBe(200);
    expect((await fetch(server.origin, { method: 'POST', body: '123456789' })).status).toBe(413);
    expect(calls).toBe(1);
  });

  it('answers preflights of a trusted loopback origin itself, reflecting that origin with Vary, never *', async () => {
    let calls = 0;
    const server = await serve(async () => {
      calls += 1;
      return new Response('ok');
    });
    const preflight = await fetch(`${server.origin}/a2a/jsonrpc`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, a2a-version, content-type',
        'access-control-request-private-network': 'true',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect(preflight.headers.get('vary')).toBe('Origin');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'authorization, a2a-version, content-type',
    );
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
    expect(calls).toBe(0);
    const response = await fetch(server.origin, { headers: { origin: 'http://localhost:4179' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:4179');
    expect(response.headers.get('vary')).toBe('Origin');
    expect(calls).toBe(1);
  });

  it.each([
    'https://evil.example',
    'http://127.0.0.1.evil.example',
    'http://localhost.evil.example:8080',
    'https://127.0.0.1:5173',
    'null',
    // Read as URLs, not matched as text (issue 30, item 6): no such port, userinfo, a path.
    'http://127.0.0.1:99999',
    'http://[::1]:65536',
    'http://127.0.0.1:80@evil.example',
    'http://user@127.0.0.1:5173',
    'http://127.0.0.1:5173/x',
  ])('refuses %s: no CORS headers, no answer of the handler, preflight or not', async (origin) => {
    let calls = 0;
    const server = await serve(async () => {
      calls += 1;
      return new Response('secret');
    });
    const preflight = await fetch(`${server.origin}/a2a/jsonrpc`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-private-network': 'true',
      },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-private-network')).toBeNull();
    const simple = await fetch(`${server.origin}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { origin, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(simple.status).toBe(403);
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    expect(await simple.text()).not.toContain('secret');
    expect(calls).toBe(0);
  });

  it('trusts the origins it is told to, exactly, beside the loopback ones', async () => {
    const server = await serve(async () => new Response('ok'), {
      corsOrigins: ['https://devtools.example'],
    });
    const trusted = await fetch(server.origin, { headers: { origin: 'https://devtools.example' } });
    expect(trusted.headers.get('access-control-allow-origin')).toBe('https://devtools.example');
    const other = await fetch(server.origin, { headers: { origin: 'https://devtools.example:8443' } });
    expect(other.status).toBe(403);
  });

  it.each([['https://devtools.example/'], ['devtools.example'], ['null'], ['*']])(
    'refuses to start with %j as a trusted origin',
    async (origin) => {
      await expect(serve(async () => new Response('ok'), { corsOrigins: [origin] })).rejects.toThrow(
        /corsOrigins/,
      );
    },
  );

  it('leaves CORS out when told to, and then refuses every cross-origin request', async () => {
    const server = await serve(async () => new Response('ok'), { cors: false });
    expect((await fetch(server.origin)).headers.get('access-control-allow-origin')).toBeNull();
    const loopback = await fetch(server.origin, { headers: { origin: 'http://127.0.0.1:5173' } });
    expect(loopback.status).toBe(403);
    expect(loopback.headers.get('access-control-allow-origin')).toBeNull();
  });

  it.each([
    ['a rebinding name', (port: number) => `evil.example:${port}`],
    ['another port', (port: number) => `127.0.0.1:${port + 1}`],
    ['no port', () => '127.0.0.1'],
    ['a loopback name spelt otherwise', (port: number) => `127.1:${port}`],
  ])('answers 421 to a foreign Host (%s), without calling the handler', async (_name, host) => {
    let calls = 0;
    const server = await serve(async () => {
      calls += 1;
      return new Response('secret');
    });
    const answer = await rawGet(server.port, '/.well-known/agent-card.json', host(server.port));
    expect(answer.status).toBe(421);
    expect(answer.body).not.toContain('secret');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(calls).toBe(0);
  });

  // RFC 9112 §3.2: a request with two Host lines is invalid; Node keeps the first, so our own name first must
  // not pass.
  it.each([
    ['its own, then a foreign one', (port: number) => [`127.0.0.1:${port}`, 'evil.example']],
    ['a foreign one, then its own', (port: number) => ['evil.example', `127.0.0.1:${port}`]],
    ['its own twice', (port: number) => [`127.0.0.1:${port}`, `127.0.0.1:${port}`]],
  ])('answers 421 to two Host headers (%s), without calling the handler', async (_name, hosts) => {
    let calls = 0;
    const server = await serve(async () => {
      calls += 1;
      return new Response('secret');
    });
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        const lines = hosts(server.port).map((host) => `Host: ${host}`);
        socket.end(
          `GET /.well-known/agent-card.json HTTP/1.1\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`,
        );
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(head.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 (400|421) /);
    expect(head).not.toContain('secret');
    expect(calls).toBe(0);
  });

  it('answers its own loopback authorities, localhost included, in any case', async () => {
    const server = await serve(async () => new Response('ok'));
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `LOCALHOST:${server.port}`]) {
      expect((await rawGet(server.port, '/', host)).status).toBe(200);
    }
  });

  it('guards every path under /__ with the per-run token, and only those', async () => {
    const seen: string[] = [];
    const server = await serve(async (request) => {
      seen.push(new URL(request.url).pathname);
      return new Response('ok');
    });
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await fetch(`${server.origin}/__faults`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await fetch(`${server.origin}/__executions`)).status).toBe(401);
    const wrong = { 'x-surecall-mock-token': `${server.token.slice(0, -1)}x` };
    expect((await fetch(`${server.origin}/__faults`, { headers: wrong })).status).toBe(401);
    expect((await fetch(`${server.origin}/__faults?x=${server.token}`)).status).toBe(401);
    expect(seen).toEqual([]);
    const right = { 'x-surecall-mock-token': server.token };
    expect((await fetch(`${server.origin}/__faults`, { headers: right })).status).toBe(200);
    expect((await fetch(`${server.origin}/a2a/jsonrpc`)).status).toBe(200);
    expect(seen).toEqual(['/__faults', '/a2a/jsonrpc']);
  });

  it('draws a new token per server, or takes a well-formed one it is given', async () => {
    const first = await serve(async () => new Response('ok'));
    const second = await listenLoopback({ handle: async () => new Response('ok') });
    try {
      expect(second.token).not.toBe(first.token);
    } finally {
      await second.close();
    }
    await expect(serve(async () => new Response('ok'), { token: 'short' })).rejects.toThrow(/token/);
    await first.close();
    const given = 'a'.repeat(40);
    const third = await serve(async () => new Response('ok'), { token: given });
    expect(third.token).toBe(given);
    const headers = { 'x-surecall-mock-token': given };
    expect((await fetch(`${third.origin}/__faults`, { headers })).status).toBe(200);
  });

  it('cuts open streams on close, so nothing waits on a hanging stream', async () => {
    const server = await serve(
      async () => new Response(new ReadableStream({}), { headers: { 'content-type': 'text/event-stream' } }),
    );
    const response = await fetch(server.origin);
    const reading = response.text();
    await server.close();
    running = undefined;
    await expect(reading).rejects.toThrow(TypeError);
    await expect(fetch(server.origin)).rejects.toThrow(TypeError);
  });

  it('names the connection that carried each request in GET /__requests, behind the token', async () => {
    const seen: string[] = [];
    const server = await serve(async (request) => {
      seen.push(new URL(request.url).pathname);
      return new Response('ok');
    });
    // Two keep-alive connections, each held by one agent: every request of an agent rides its connection.
    const agents = [
      new Agent({ keepAlive: true, maxSockets: 1 }),
      new Agent({ keepAlive: true, maxSockets: 1 }),
    ];
    const get = (agent: Agent, path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = httpRequest(
          { host: '127.0.0.1', port: server.port, path, agent, headers },
          (answer) => {
            let body = '';
            answer.setEncoding('utf8');
            answer.on('data', (chunk: string) => {
              body += chunk;
            });
            answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
          },
        );
        request.on('error', reject);
        request.end();
      });
    const [first, second] = agents as [Agent, Agent];
    try {
      await get(first, '/a');
      await get(second, '/b');
      await get(first, '/x/../c');
      expect((await get(second, '/__requests')).status).toBe(401);
      const logged = await get(second, '/__requests', { 'x-surecall-mock-token': server.token });
      expect(logged.status).toBe(200);
      // The refused read is not logged (it never passed the token check), this one is, by its connection.
      expect(JSON.parse(logged.body)).toEqual({
        requests: [
          { number: 1, connection: 1, method: 'GET', path: '/a' },
          { number: 2, connection: 2, method: 'GET', path: '/b' },
          { number: 3, connection: 1, method: 'GET', path: '/c' },
          { number: 4, connection: 2, method: 'GET', path: '/__requests' },
        ],
      });
      // The log reaches the handler never: it is the mount's own route.
      expect(seen).toEqual(['/a', '/b', '/c']);
      for (let index = 0; index < requestLogLength + 5; index += 1) {
        await get(first, `/n${index}`);
      }
      const bounded = JSON.parse(
        (await get(first, '/__requests', { 'x-surecall-mock-token': server.token })).body,
      ) as { requests: { number: number; path: string }[] };
      expect(bounded.requests).toHaveLength(requestLogLength);
      expect(bounded.requests.at(-1)?.path).toBe('/__requests');
      // 74 admitted in all: the four above and /n0 to /n5 went.
      expect(bounded.requests[0]).toMatchObject({ number: 11, path: '/n6' });
    } finally {
      for (const agent of agents) {
        agent.destroy();
      }
    }
  });
});
