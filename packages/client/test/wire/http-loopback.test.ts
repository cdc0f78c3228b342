import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ExchangeError, isClientError } from '../../src/core/errors.js';
import { resolveLimits } from '../../src/core/limits.js';
import { exchange, type HttpExchangeRequest } from '../../src/wire/http.js';
import { type HttpStreamResponse, openStream } from '../../src/wire/http-stream.js';

// Real sockets on 127.0.0.1: what MSW cannot show (a genuine redirect, a refused connection, a torn-down
// body).
const pathMarker = 'path-marker-c41d';
const token = 'tok.SECRET-node~1';
const timeoutMs = 1000;
const limits = resolveLimits({
  requestBodyBytes: 1024,
  responseBodyBytes: 1024,
  requestTimeoutMs: timeoutMs,
});
const encoder = new TextEncoder();

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let origin = '';
let handler: Handler = (_, response) => response.end();
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push(request.url ?? '');
    // One connection per request: no test inherits a pooled socket that an earlier test tore down.
    response.shouldKeepAlive = false;
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  vi.useRealTimers();
  hits.length = 0;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function request(overrides: Partial<HttpExchangeRequest> = {}): HttpExchangeRequest {
  return {
    method: 'POST',
    url: `${origin}/${pathMarker}/rpc`,
    body: '{}',
    accept: 'json',
    authorize: async () => token,
    limits,
    ...overrides,
  };
}

/** Resolves when the server's side of the current response closes: the client tore the connection down. */
function serve(write: (response: ServerResponse) => void): Promise<void> {
  return new Promise((resolve) => {
    handler = (_, response) => {
      response.on('close', () => resolve());
      write(response);
    };
  });
}

async function failure(promise: Promise<unknown>): Promise<ExchangeError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isClientError(caught)) {
    throw new Error(`expected a client error, got ${String(caught)}`);
  }
  const text = `${JSON.stringify(caught)}${caught.message}${caught.stack ?? ''}`;
  for (const secret of [pathMarker, token, '127.0.0.1']) {
    expect(text).not.toContain(secret);
  }
  // The cause is at most the platform's error code (ARCHITECTURE.md#errors), never its text.
  if (caught.cause !== undefined) {
    expect(caught.cause).toStrictEqual({ code: expect.stringMatching(/^[A-Z][A-Z0-9_]+$/) });
  }
  return caught;
}

async function flushIo(): Promise<void> {
  for (let turn = 0; turn < 5; turn += 1) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('exchange over a real socket', () => {
  it('never follows a genuine 302 with a Location', async () => {
    handler = (incoming, response) => {
      if (incoming.url === '/elsewhere') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      response.writeHead(302, { location: `${origin}/elsewhere` }).end();
    };
    const error = await failure(exchange(request()));
    expect(error.toJSON()).toEqual({
      name: 'HttpProtocolError',
      kind: 'http-protocol',
      reason: 'redirect',
      dispatched: true,
      httpStatus: 302,
    });
    expect(hits).toEqual([`/${pathMarker}/rpc`]);
  });

  it('marks a refused connection as dispatched', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const onDispatch = vi.fn();
    const error = await failure(
      exchange(request({ url: `http://127.0.0.1:${port}/${pathMarker}`, onDispatch })),
    );
    expect(error.toJSON()).toEqual({
      name: 'TransportError',
      kind: 'transport',
      reason: 'network',
      dispatched: true,
    });
    expect(onDispatch).toHaveBeenCalledTimes(1);
  });

  it('sends exactly one request when the server answers 503 to a GET', async () => {
    handler = (_, response) => response.writeHead(503, { 'content-type': 'application/json' }).end('{}');
    const response = await exchange(getRequest());
    expect(response.status).toBe(503);
    expect(hits).toHaveLength(1);
  });

  it('sends exactly one request when the server drops a GET', async () => {
    handler = (incoming) => incoming.socket.destroy();
    const error = await failure(exchange(getRequest()));
    expect(error).toMatchObject({ name: 'TransportError', reason: 'network', dispatched: true });
    expect(hits).toHaveLength(1);
  });

  it('times out a body that stalls after the headers, and closes the connection', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let wrote: () => void = () => {};
    const written = new Promise<void>((resolve) => {
      wrote = resolve;
    });
    const closed = serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"a":', () => wrote());
    });
    const pending = failure(exchange(request()));
    await written;
    await flushIo();
    await vi.advanceTimersByTimeAsync(timeoutMs);
    expect((await pending).toJSON()).toEqual({
      name: 'TransportError',
      kind: 'transport',
      reason: 'timeout',
      dispatched: true,
    });
    await closed;
  });

  it('stops reading an endless chunked body at the ceiling, and closes the connection', async () => {
    const closed = serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const pump = (): void => {
        if (!response.destroyed) {
          response.write(new Uint8Array(256), () => setImmediate(pump));
        }
      };
      pump();
    });
    const error = await failure(exchange(request()));
    expect(error).toMatchObject({ name: 'InvalidResponseError', reason: 'body-too-large', httpStatus: 200 });
    await closed;
  });

  it('refuses a declared Content-Length over the ceiling without waiting for the body', async () => {
    const closed = serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      response.write('{"a":');
    });
    const error = await failure(exchange(request()));
    expect(error).toMatchObject({ name: 'InvalidResponseError', reason: 'body-too-large', httpStatus: 200 });
    await closed;
  });

  it.each([
    ['a redirect', 302, { location: '/elsewhere' }, 'redirect'],
    ['a wrong media type', 200, { 'content-type': 'text/plain' }, 'media-type'],
  ])('closes the connection of %s whose body never ends', async (_, status, headers, reason) => {
    const closed = serve((response) => {
      response.writeHead(status, headers);
      response.write('x');
    });
    const error = await failure(exchange(request()));
    expect(error).toMatchObject({ name: 'HttpProtocolError', reason, httpStatus: status, dispatched: true });
    await closed;
  });

  it('sees two Content-Type headers as no single media type', async () => {
    handler = (_, response) => {
      response.setHeader('content-type', ['application/json;charset=utf-8', 'application/json']);
      response.end('{}');
    };
    const error = await failure(exchange(request()));
    expect(error.toJSON()).toEqual({
      name: 'HttpProtocolError',
      kind: 'http-protocol',
      reason: 'media-type',
      dispatched: true,
      httpStatus: 200,
    });
  });

  it('sends the bearer token and the protocol headers on the wire', async () => {
    let seen: IncomingMessage['headers'] = {};
    handler = (incoming, response) => {
      seen = incoming.headers;
      response.writeHead(200, { 'content-type': 'application/a2a+json' }).end('{}');
    };
    const response = await exchange(request({ contentType: 'application/a2a+json' }));
    expect(response).toMatchObject({ status: 200, mediaType: 'json', body: encoder.encode('{}') });
    expect(seen).toMatchObject({
      authorization: `Bearer ${token}`,
      'a2a-version': '1.0',
      'content-type': 'application/a2a+json',
      accept: 'application/a2a+json, application/json',
    });
  });
});

describe('openStream over a real socket', () => {
  function streaming(response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: 1\n\n');
  }

  it('closes the connection when the caller aborts the live body', async () => {
    const closed = serve(streaming);
    const caller = new AbortController();
    const response = await openStream(request({ accept: 'sse', signal: caller.signal }));
    if (!(response.body instanceof ReadableStream)) {
      throw new Error('expected a live body');
    }
    const reader = response.body.getReader();
    expect(await reader.read()).toEqual({ done: false, value: encoder.encode('data: 1\n\n') });
    const next = failure(reader.read());
    caller.abort();
    expect(await next).toMatchObject({ name: 'TransportError', reason: 'aborted', dispatched: true });
    await closed;
  });

  it.each([
    ['release()', (response: HttpStreamResponse) => response.release()],
    [
      'cancelling the body',
      (response: HttpStreamResponse) => (response.body as ReadableStream<Uint8Array>).cancel(),
    ],
  ])('closes the connection on %s', async (_, close) => {
    const closed = serve(streaming);
    const response = await openStream(request({ accept: 'sse' }));
    expect(response.body).toBeInstanceOf(ReadableStream);
    await close(response);
    await closed;
  });
});

it('reaches an MSW server installed after this module was imported and used', async () => {
  handler = (_, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"via":"socket"}');
  expect((await exchange(request())).body).toEqual(encoder.encode('{"via":"socket"}'));
  const msw = setupServer(http.post('http://msw.test/rpc', () => HttpResponse.json({ via: 'msw' })));
  msw.listen({ onUnhandledFrame: 'error' });
  try {
    const response = await exchange(request({ url: 'http://msw.test/rpc' }));
    expect(response.body).toEqual(encoder.encode('{"via":"msw"}'));
  } finally {
    msw.close();
  }
});

function getRequest(): HttpExchangeRequest {
  const { body: _, ...rest } = request({ method: 'GET' });
  return rest;
}
