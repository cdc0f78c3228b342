import { afterEach, describe, expect, it } from 'vitest';
import type { Handle } from '../src/faults/faults.js';
import { type LoopbackServer, listenLoopback } from '../src/http/server.js';

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

async function serve(handle: Handle, options: { maxRequestBodyBytes?: number; cors?: boolean } = {}) {
  running = await listenLoopback({ handle, port: 0, ...options });
  return running;
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

  it('answers CORS preflights itself and labels answers readable cross-origin', async () => {
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
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'authorization, a2a-version, content-type',
    );
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(calls).toBe(0);
    const response = await fetch(server.origin);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('leaves CORS out when told to', async () => {
    const server = await serve(async () => new Response('ok'), { cors: false });
    expect((await fetch(server.origin)).headers.get('access-control-allow-origin')).toBeNull();
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
});
