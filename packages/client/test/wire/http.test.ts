import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ExchangeError, isClientError } from '../../src/core/errors.js';
import { resolveLimits } from '../../src/core/limits.js';
import { startDeadline } from '../../src/wire/deadline.js';
import { exchange, type HttpExchangeRequest } from '../../src/wire/http.js';
import { type HttpStreamResponse, openStream } from '../../src/wire/http-stream.js';
import { readAll } from '../../src/wire/response-body.js';

// Markers that must never appear in an error: the URL path, a header value and the bearer token.
const pathMarker = 'path-marker-5e1b';
const headerMarker = 'header-marker-93c0';
const token = 'tok.SECRET-77~x';
const url = `http://agent.test/${pathMarker}/rpc`;
const timeoutMs = 1000;
const limits = resolveLimits({ requestBodyBytes: 64, responseBodyBytes: 64, requestTimeoutMs: timeoutMs });
const encoder = new TextEncoder();

const server = setupServer();
const seen: Request[] = [];
server.events.on('request:start', ({ request }) => {
  seen.push(request);
});

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(() => {
  seen.length = 0;
});
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

function useFakeTime(): void {
  // Only the timers: MSW's interceptors rely on the real microtask and I/O machinery.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
}

function request(overrides: Partial<HttpExchangeRequest> = {}): HttpExchangeRequest {
  return { method: 'POST', url, body: '{}', accept: 'json', limits, ...overrides };
}

function bodiless(overrides: Partial<HttpExchangeRequest> = {}): HttpExchangeRequest {
  const { body: _, ...rest } = request({ method: 'GET', ...overrides });
  return rest;
}

function answer(body: BodyInit | null, init: ResponseInit = {}): () => Response {
  return () => {
    const headers = new Headers(init.headers ?? { 'content-type': 'application/json' });
    // A streamed body of unknown length goes chunked, as a server sends it: MSW 3 would end one by closing
    // its simulated connection, and Node's fetch then fails an assertion of its own when the client aborted
    // it first.
    if (body instanceof ReadableStream && !headers.has('content-length')) {
      headers.set('transfer-encoding', 'chunked');
    }
    return new Response(body, { status: 200, ...init, headers });
  };
}

function onRpc(resolver: Parameters<typeof http.post>[1]): void {
  server.use(http.post(url, resolver), http.get(url, resolver), http.delete(url, resolver));
}

/**
An exchange whose `fetch` hands back `respond()`'s Response itself, without MSW: MSW 3 serves a mocked answer
through a simulated socket, which sends the head only with the first body chunk and turns a body that breaks
into a socket error. These cases are about what the exchange does with the Response it is given;
test/wire/http-loopback.test.ts runs the same over a real socket.
*/
function direct(respond: () => Response, overrides: Partial<HttpExchangeRequest> = {}): HttpExchangeRequest {
  return request({ fetch: async () => respond(), ...overrides });
}

/** A body that sends `chunks` and then never ends. */
function stalling(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(chunk);
      }
    },
  });
}

function controlled(): {
  stream: ReadableStream<Uint8Array>;
  controller: ReadableStreamDefaultController<Uint8Array>;
} {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  if (controller === undefined) {
    throw new Error('ReadableStream start runs synchronously');
  }
  return { stream, controller };
}

/**
Awaits a rejection that must be one of ours, and that must not leak the URL, a header value or the token.
*/
async function failure(promise: Promise<unknown>): Promise<ExchangeError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isClientError(caught)) {
    throw new Error(`expected a client error, got ${String(caught)}`);
  }
  const text = `${JSON.stringify(caught)}${caught.message}${caught.stack ?? ''}`;
  for (const secret of [pathMarker, headerMarker, token, 'agent.test']) {
    expect(text).not.toContain(secret);
  }
  expect(caught.cause).toBeUndefined();
  return caught;
}

function liveBody(response: HttpStreamResponse): ReadableStream<Uint8Array> {
  if (!(response.body instanceof ReadableStream)) {
    throw new Error('expected a live body');
  }
  return response.body;
}

describe('request headers', () => {
  it('sends A2A-Version 1.0, the Accept for JSON, the Content-Type and the caller headers', async () => {
    onRpc(answer('{}'));
    await exchange(request({ headers: { 'A2A-Extensions': 'urn:a, urn:b' } }));
    const [sent] = seen;
    expect(sent?.headers.get('a2a-version')).toBe('1.0');
    expect(sent?.headers.get('accept')).toBe('application/a2a+json, application/json');
    expect(sent?.headers.get('content-type')).toBe('application/json');
    expect(sent?.headers.get('a2a-extensions')).toBe('urn:a, urn:b');
    expect(sent?.headers.has('authorization')).toBe(false);
    expect(await sent?.text()).toBe('{}');
  });

  it.each([
    [{ accept: 'sse' }, 'accept', 'text/event-stream'],
    [{ contentType: 'application/a2a+json' }, 'content-type', 'application/a2a+json'],
  ] as const)('follows %o', async (overrides, header, value) => {
    onRpc(answer('{}'));
    await openStream(request(overrides));
    expect(seen[0]?.headers.get(header)).toBe(value);
  });

  it('sends no Content-Type without a body', async () => {
    onRpc(answer('{}'));
    await exchange(bodiless({ contentType: 'application/a2a+json' }));
    expect(seen[0]?.headers.has('content-type')).toBe(false);
    expect(seen[0]?.headers.get('a2a-version')).toBe('1.0');
  });

  it('leaves A2A-Version out only when asked, and then whatever the caller headers say', async () => {
    onRpc(answer('{}'));
    await exchange(bodiless({ a2aVersion: false, headers: { 'A2A-Version': '0.3' } }));
    expect(seen[0]?.headers.has('a2a-version')).toBe(false);
  });

  it('keeps the protocol headers out of the caller headers', async () => {
    onRpc(answer('{}'));
    await exchange(
      request({
        headers: {
          'A2A-Version': '0.3',
          Accept: '*/*',
          'Content-Type': 'text/plain',
          Authorization: 'Basic eDp5',
        },
      }),
    );
    const [sent] = seen;
    expect(sent?.headers.get('a2a-version')).toBe('1.0');
    expect(sent?.headers.get('accept')).toBe('application/a2a+json, application/json');
    expect(sent?.headers.get('content-type')).toBe('application/json');
    expect(sent?.headers.has('authorization')).toBe(false);
  });

  it('drops a caller Content-Type when there is no body', async () => {
    onRpc(answer('{}'));
    await exchange(bodiless({ headers: { 'Content-Type': 'application/json' } }));
    expect(seen[0]?.headers.has('content-type')).toBe(false);
  });

  it.each([
    ['a header name that is not a token', request({ headers: { 'bad header': headerMarker } })],
    ['a header value with a line break', request({ headers: { 'x-extra': `${headerMarker}\r\nx: y` } })],
    ['a URL that does not parse', request({ url: `not a url ${pathMarker}` })],
    ['a GET with a body', request({ method: 'GET' })],
  ])('refuses %s before dispatch', async (_, input) => {
    const onDispatch = vi.fn();
    const error = await failure(exchange({ ...input, onDispatch }));
    expect(error.toJSON()).toEqual({
      name: 'RequestError',
      kind: 'request',
      reason: 'invalid-params',
      dispatched: false,
    });
    expect(onDispatch).not.toHaveBeenCalled();
    expect(seen).toHaveLength(0);
  });
});

describe('request body bound (UTF-8 bytes)', () => {
  it.each([
    ['a'.repeat(64), true],
    ['a'.repeat(65), false],
    ['é'.repeat(32), true],
    ['é'.repeat(33), false],
    ['😀'.repeat(16), true],
    ['😀'.repeat(17), false],
    ['€'.repeat(22), false],
  ])('%s fits: %s', async (body, fits) => {
    onRpc(answer('{}'));
    const onDispatch = vi.fn();
    const pending = exchange(request({ body, onDispatch }));
    if (fits) {
      await pending;
      expect(new Uint8Array(await (seen[0]?.arrayBuffer() ?? new ArrayBuffer(0)))).toEqual(
        encoder.encode(body),
      );
      return;
    }
    const error = await failure(pending);
    expect(error).toMatchObject({ name: 'RequestError', reason: 'body-too-large', dispatched: false });
    expect(onDispatch).not.toHaveBeenCalled();
    expect(seen).toHaveLength(0);
  });

  it('refuses exactly the bodies over the bound, and sends the others as their UTF-8', async () => {
    onRpc(answer('{}'));
    // One- to four-byte characters and a lone surrogate (three bytes of U+FFFD), in runs whose UTF-16 length
    // straddles limit/3 and whose UTF-8 size straddles the limit.
    const body = fc
      .array(fc.constantFrom('a', 'é', '€', '😀', '\ud800'), { minLength: 16, maxLength: 40 })
      .map((units) => units.join(''));
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        seen.length = 0;
        const bytes = encoder.encode(text);
        const outcome = await exchange(request({ body: text })).then(
          () => 'sent',
          (error: unknown) => (isClientError(error) ? error.reason : 'other'),
        );
        expect(outcome).toBe(bytes.byteLength <= limits.requestBodyBytes ? 'sent' : 'body-too-large');
        if (outcome === 'sent') {
          expect(new Uint8Array(await (seen[0]?.arrayBuffer() ?? new ArrayBuffer(0)))).toEqual(bytes);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('authorize', () => {
  it('is called once with a live signal and its token becomes a bearer header', async () => {
    onRpc(answer('{}'));
    const authorize = vi.fn(async (signal: AbortSignal) => (signal.aborted ? '' : token));
    await exchange(request({ authorize }));
    expect(authorize).toHaveBeenCalledTimes(1);
    expect(authorize.mock.calls[0]?.[0]).toBeInstanceOf(AbortSignal);
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${token}`);
  });

  it('sends no Authorization when there is no provider', async () => {
    onRpc(answer('{}'));
    await exchange(request());
    expect(seen[0]?.headers.has('authorization')).toBe(false);
  });

  it.each([
    ['rejects', () => Promise.reject(new Error(token))],
    [
      'throws',
      () => {
        throw new Error(token);
      },
    ],
    ['answers a token that could inject a header', async () => `${token}\r\nx-injected: 1`],
    ['answers a token with a line feed', async () => `${token}\n`],
    ['answers a token with a space', async () => `${token} more`],
    ['answers a token with a non-ASCII character', async () => `${token}é`],
    ['answers a token of padding only', async () => '=='],
    ['answers an empty token', async () => ''],
    ['answers undefined', async () => undefined as unknown as string],
    ['answers null', async () => null as unknown as string],
    ['answers a number', async () => 42 as unknown as string],
    ['answers a String object', async () => new String(token) as unknown as string],
  ])('is unavailable when the provider %s', async (_, authorize) => {
    const onDispatch = vi.fn();
    const error = await failure(exchange(request({ authorize, onDispatch })));
    expect(error.toJSON()).toEqual({
      name: 'AuthorizationError',
      kind: 'authorization',
      reason: 'unavailable',
      dispatched: false,
    });
    expect(onDispatch).not.toHaveBeenCalled();
    expect(seen).toHaveLength(0);
  });

  it('runs inside the deadline: a provider that never answers is unavailable at the deadline', async () => {
    useFakeTime();
    let given: AbortSignal | undefined;
    const pending = exchange(
      request({
        authorize: (signal) => {
          given = signal;
          return new Promise(() => {});
        },
      }),
    );
    let settled = false;
    const failed = failure(pending).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(timeoutMs - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await failed;
    expect(error).toMatchObject({ name: 'AuthorizationError', reason: 'unavailable', dispatched: false });
    expect(given?.aborted).toBe(true);
    expect(seen).toHaveLength(0);
  });

  it('is aborted, not unavailable, when the caller aborts while it runs', async () => {
    const controller = new AbortController();
    const pending = exchange(
      request({
        signal: controller.signal,
        authorize: () => {
          controller.abort();
          return new Promise(() => {});
        },
      }),
    );
    const error = await failure(pending);
    expect(error).toMatchObject({ name: 'RequestError', reason: 'aborted', dispatched: false });
    expect(seen).toHaveLength(0);
  });

  it('is never called when the caller signal is already aborted', async () => {
    const authorize = vi.fn(async () => token);
    const onDispatch = vi.fn();
    const error = await failure(exchange(request({ signal: AbortSignal.abort(), authorize, onDispatch })));
    expect(error).toMatchObject({ name: 'RequestError', reason: 'aborted', dispatched: false });
    expect(authorize).not.toHaveBeenCalled();
    expect(onDispatch).not.toHaveBeenCalled();
    expect(seen).toHaveLength(0);
  });
});

describe('dispatch', () => {
  it('calls onDispatch once, before the request leaves', async () => {
    const order: string[] = [];
    onRpc(() => {
      order.push('peer');
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    });
    await exchange(request({ onDispatch: () => order.push('dispatch') }));
    expect(order).toEqual(['dispatch', 'peer']);
  });

  it('ignores an observer that throws', async () => {
    onRpc(answer('{"ok":true}'));
    const response = await exchange(
      request({
        onDispatch: () => {
          throw new Error('observer');
        },
      }),
    );
    expect(response.status).toBe(200);
  });

  it('marks a lost connection as dispatched, with exactly one attempt', async () => {
    onRpc(() => HttpResponse.error());
    const error = await failure(exchange(bodiless()));
    expect(error.toJSON()).toEqual({
      name: 'TransportError',
      kind: 'transport',
      reason: 'network',
      dispatched: true,
    });
    expect(seen).toHaveLength(1);
  });

  it('never claims dispatch for a request the caller aborted first, whenever the abort lands', async () => {
    onRpc(answer('{}'));
    for (let ticks = 0; ticks < 40; ticks += 1) {
      const controller = new AbortController();
      const abortedAtDispatch: boolean[] = [];
      const pending = exchange(
        request({
          signal: controller.signal,
          authorize: async () => token,
          onDispatch: () => abortedAtDispatch.push(controller.signal.aborted),
        }),
      );
      for (let tick = 0; tick < ticks; tick += 1) {
        await Promise.resolve();
      }
      controller.abort();
      const outcome = await pending.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(abortedAtDispatch).not.toContain(true);
      if (isClientError(outcome)) {
        expect(outcome.dispatched).toBe(abortedAtDispatch.length === 1);
      }
    }
  });

  it('times out while waiting for the headers', async () => {
    useFakeTime();
    onRpc(() => new Promise<Response>(() => {}));
    const pending = failure(exchange(request()));
    await vi.advanceTimersByTimeAsync(timeoutMs);
    expect((await pending).toJSON()).toEqual({
      name: 'TransportError',
      kind: 'transport',
      reason: 'timeout',
      dispatched: true,
    });
    expect(seen).toHaveLength(1);
  });

  it('is aborted, dispatched, when the caller aborts while waiting for the headers', async () => {
    onRpc(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const pending = failure(
      exchange(request({ signal: controller.signal, onDispatch: () => controller.abort() })),
    );
    expect(await pending).toMatchObject({ name: 'TransportError', reason: 'aborted', dispatched: true });
  });

  it('reports a request no fetch handler accepted as a network failure, without its text', async () => {
    const error = await failure(exchange(request({ headers: { 'x-extra': headerMarker } })));
    expect(error).toMatchObject({ name: 'TransportError', reason: 'network', dispatched: true });
  });
});

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])('never follows a %i', async (status) => {
    const target = vi.fn(() => new Response('{}'));
    server.use(http.get('http://agent.test/elsewhere', target));
    onRpc(() => new Response(null, { status, headers: { location: 'http://agent.test/elsewhere' } }));
    const error = await failure(exchange(request()));
    expect(error.toJSON()).toEqual({
      name: 'HttpProtocolError',
      kind: 'http-protocol',
      reason: 'redirect',
      dispatched: true,
      httpStatus: status,
    });
    expect(target).not.toHaveBeenCalled();
    expect(seen).toHaveLength(1);
  });

  it('treats the status-0 answer a browser gives for a manual redirect as a redirect', async () => {
    const opaque = () => {
      const response = new Response(null, { status: 200 });
      // A browser's opaque-redirect response has status 0, which no Response constructor accepts.
      Object.defineProperty(response, 'status', { value: 0 });
      return response;
    };
    const error = await failure(openStream(direct(opaque)));
    expect(error.toJSON()).toEqual({
      name: 'HttpProtocolError',
      kind: 'http-protocol',
      reason: 'redirect',
      dispatched: true,
    });
  });
});

describe('response body bound', () => {
  it('refuses a declared Content-Length over the ceiling without reading the body', async () => {
    onRpc(
      answer(stalling(new Uint8Array(8)), {
        headers: { 'content-type': 'application/json', 'content-length': '65' },
      }),
    );
    const error = await failure(exchange(request()));
    expect(error.toJSON()).toEqual({
      name: 'InvalidResponseError',
      kind: 'invalid-response',
      reason: 'body-too-large',
      dispatched: true,
      httpStatus: 200,
      violation: { rule: 'responseBodyBytes' },
    });
  });

  it('stops counting as soon as an undeclared body passes the ceiling', async () => {
    onRpc(answer(stalling(new Uint8Array(40), new Uint8Array(40))));
    const error = await failure(exchange(request()));
    expect(error).toMatchObject({ name: 'InvalidResponseError', reason: 'body-too-large', httpStatus: 200 });
  });

  it('bounds an error answer too', async () => {
    onRpc(answer(new Uint8Array(65), { status: 500 }));
    const error = await failure(exchange(request()));
    expect(error).toMatchObject({ name: 'InvalidResponseError', reason: 'body-too-large', httpStatus: 500 });
  });

  it('returns a body of exactly the ceiling, whole', async () => {
    const bytes = encoder.encode(`"${'x'.repeat(62)}"`);
    const { stream, controller } = controlled();
    onRpc(answer(stream));
    controller.enqueue(bytes.slice(0, 10));
    controller.enqueue(bytes.slice(10));
    controller.close();
    const response = await exchange(request());
    expect(response.body).toEqual(bytes);
    expect(response.mediaType).toBe('json');
  });

  it('returns a body that arrives in one chunk as that chunk, a view inside a larger buffer included', async () => {
    const bytes = encoder.encode('{"ok":true}');
    // The chunk's bytes sit between others of the same buffer, as a slice of a socket read would.
    const buffer = new Uint8Array(bytes.length + 16).fill(0x5b);
    buffer.set(bytes, 7);
    const { stream, controller } = controlled();
    onRpc(answer(stream));
    controller.enqueue(buffer.subarray(7, 7 + bytes.length));
    controller.close();
    const response = await exchange(request());
    expect(response.body).toEqual(bytes);
    // Through fetch the chunk may arrive copied; read as it is, the view itself is the body.
    const deadline = startDeadline(undefined, timeoutMs);
    const view = buffer.subarray(7, 7 + bytes.length);
    const direct = await readAll(
      new Response(
        new ReadableStream({
          start(source) {
            source.enqueue(view);
            source.close();
          },
        }),
      ),
      64,
      deadline,
    );
    deadline.release();
    expect(direct).toEqual(bytes);
    expect(JSON.parse(new TextDecoder().decode(direct))).toEqual({ ok: true });
  });

  it('reports a body that breaks while read as a read failure', async () => {
    const { stream, controller } = controlled();
    controller.enqueue(new Uint8Array(4));
    controller.error(new Error(token));
    const error = await failure(exchange(direct(answer(stream))));
    expect(error.toJSON()).toEqual({
      name: 'TransportError',
      kind: 'transport',
      reason: 'read',
      dispatched: true,
    });
  });
});

describe('unary deadline', () => {
  it('covers the whole body, not only the headers', async () => {
    useFakeTime();
    onRpc(answer(stalling(encoder.encode('{"a":'))));
    let settled = false;
    const pending = failure(exchange(request()));
    void pending.finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(timeoutMs - 1);
    expect(seen).toHaveLength(1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ name: 'TransportError', reason: 'timeout', dispatched: true });
  });

  it('reports the caller aborting during the body read as aborted', async () => {
    const controller = new AbortController();
    let pulls = 0;
    // The second pull means the first chunk was taken and the client waits for more: it is reading the body.
    const body = new ReadableStream<Uint8Array>({
      pull(source) {
        pulls += 1;
        if (pulls === 1) {
          source.enqueue(encoder.encode('{"a":'));
        } else {
          controller.abort();
        }
      },
    });
    onRpc(answer(body));
    const pending = failure(exchange(request({ signal: controller.signal })));
    expect(await pending).toMatchObject({ name: 'TransportError', reason: 'aborted', dispatched: true });
  });

  it('waits for slow headers as long as the deadline allows, past ky 1.x default 10 s timeout', async () => {
    useFakeTime();
    let release: () => void = () => {};
    onRpc(async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    });
    const pending = exchange(request({ limits: { ...limits, requestTimeoutMs: 60_000 } }));
    await vi.advanceTimersByTimeAsync(30_000);
    release();
    expect(await pending).toMatchObject({ status: 200, mediaType: 'json' });
  });

  it('leaves no timer behind', async () => {
    useFakeTime();
    onRpc(answer('{}'));
    await exchange(request());
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('media type', () => {
  it.each([
    ['application/json', 'json'],
    ['application/a2a+json', 'json'],
    ['Application/JSON; charset=utf-8', 'json'],
    ['application/a2a+json ; version="1,0"', 'json'],
    ['application/json, application/json', 'media-type'],
    ['application/json;a="x", text/plain', 'media-type'],
    ['text/plain', 'media-type'],
    ['text/event-stream', 'media-type'],
    ['application/jsonl', 'media-type'],
    ['application/problem+json', 'media-type'],
    ['"application/json"', 'media-type'],
    ['', 'media-type'],
  ])('a 2xx JSON answer typed %j is %s', async (contentType, expected) => {
    onRpc(answer('{}', { headers: { 'content-type': contentType } }));
    if (expected === 'json') {
      expect((await exchange(request())).mediaType).toBe('json');
      return;
    }
    const error = await failure(exchange(request()));
    expect(error.toJSON()).toEqual({
      name: 'HttpProtocolError',
      kind: 'http-protocol',
      reason: 'media-type',
      dispatched: true,
      httpStatus: 200,
    });
  });

  it('sees a repeated Content-Type, which fetch joins into one value', async () => {
    onRpc(
      () =>
        new Response('{}', {
          headers: [
            ['content-type', 'application/json'],
            ['content-type', 'application/json'],
          ],
        }),
    );
    expect(await failure(exchange(request()))).toMatchObject({ reason: 'media-type', httpStatus: 200 });
  });

  it.each([204, 200, 202])('admits an empty %i without a Content-Type as none', async (status) => {
    onRpc(() => new Response(null, { status }));
    const response = await exchange(bodiless({ method: 'DELETE' }));
    expect(response).toMatchObject({ status, mediaType: 'none', body: new Uint8Array(0) });
  });

  it('refuses a 2xx body without a Content-Type', async () => {
    onRpc(() => new Response(new Uint8Array([123, 125])));
    expect(await failure(exchange(request()))).toMatchObject({ reason: 'media-type', httpStatus: 200 });
  });

  it.each([
    [404, 'text/plain', 'other'],
    [500, 'application/json', 'json'],
    [503, null, 'none'],
    [400, 'application/a2a+json', 'json'],
  ] as const)(
    'returns a %i answer typed %s for the binding to read',
    async (status, contentType, mediaType) => {
      const headers: Record<string, string> = contentType === null ? {} : { 'content-type': contentType };
      // A byte body, because a string body would get a default text/plain Content-Type.
      onRpc(() => new Response(encoder.encode('{"error":1}'), { status, headers }));
      const response = await exchange(request());
      expect(response).toMatchObject({ status, mediaType, body: encoder.encode('{"error":1}') });
    },
  );

  it('requires text/event-stream of a unary SSE request, and reads it whole', async () => {
    onRpc(answer('data: 1\n\n', { headers: { 'content-type': 'text/event-stream' } }));
    const response = await exchange(request({ accept: 'sse' }));
    expect(response).toMatchObject({ mediaType: 'sse', body: encoder.encode('data: 1\n\n') });
    onRpc(answer('{}'));
    expect(await failure(exchange(request({ accept: 'sse' })))).toMatchObject({ reason: 'media-type' });
    onRpc(() => new Response(null, { status: 204 }));
    expect(await failure(exchange(request({ accept: 'sse' })))).toMatchObject({ reason: 'media-type' });
  });
});

describe('openStream', () => {
  const sse = { headers: { 'content-type': 'text/event-stream' } };

  it('hands over a live body, chunk by chunk', async () => {
    const { stream, controller } = controlled();
    const response = await openStream(direct(answer(stream, sse), { accept: 'sse' }));
    expect(response).toMatchObject({ status: 200, mediaType: 'sse' });
    const reader = liveBody(response).getReader();
    controller.enqueue(encoder.encode('data: 1\n\n'));
    expect(await reader.read()).toEqual({ done: false, value: encoder.encode('data: 1\n\n') });
    controller.enqueue(encoder.encode('data: 2\n\n'));
    expect(await reader.read()).toEqual({ done: false, value: encoder.encode('data: 2\n\n') });
    controller.close();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    response.release();
  });

  it('bounds only the establishment: the live body outlives the deadline', async () => {
    useFakeTime();
    const { stream, controller } = controlled();
    const response = await openStream(direct(answer(stream, sse), { accept: 'sse' }));
    expect(vi.getTimerCount()).toBe(0);
    const reader = liveBody(response).getReader();
    await vi.advanceTimersByTimeAsync(timeoutMs * 5);
    controller.enqueue(encoder.encode('data: late\n\n'));
    expect(await reader.read()).toEqual({ done: false, value: encoder.encode('data: late\n\n') });
    response.release();
  });

  it('times out before the headers', async () => {
    useFakeTime();
    onRpc(() => new Promise<Response>(() => {}));
    const pending = failure(openStream(request({ accept: 'sse' })));
    await vi.advanceTimersByTimeAsync(timeoutMs);
    expect(await pending).toMatchObject({ name: 'TransportError', reason: 'timeout', dispatched: true });
  });

  it('ends the live body when the caller aborts, as aborted', async () => {
    const { stream } = controlled();
    const caller = new AbortController();
    const response = await openStream(direct(answer(stream, sse), { accept: 'sse', signal: caller.signal }));
    const read = failure(liveBody(response).getReader().read());
    caller.abort();
    expect((await read).toJSON()).toEqual({
      name: 'TransportError',
      kind: 'transport',
      reason: 'aborted',
      dispatched: true,
    });
  });

  it('reports a live body that breaks as a read failure', async () => {
    const { stream, controller } = controlled();
    const response = await openStream(direct(answer(stream, sse), { accept: 'sse' }));
    const reader = liveBody(response).getReader();
    controller.error(new Error(token));
    expect(await failure(reader.read())).toMatchObject({
      name: 'TransportError',
      reason: 'read',
      dispatched: true,
    });
  });

  it('release() ends a live body that is still open, and stops listening to the caller', async () => {
    const { stream } = controlled();
    const caller = new AbortController();
    const response = await openStream(direct(answer(stream, sse), { accept: 'sse', signal: caller.signal }));
    const reader = liveBody(response).getReader();
    const read = reader.read();
    response.release();
    expect(await read).toEqual({ done: true, value: undefined });
    caller.abort();
    response.release();
  });

  it('cancelling the live body ends it', async () => {
    const { stream } = controlled();
    const response = await openStream(direct(answer(stream, sse), { accept: 'sse' }));
    await liveBody(response).cancel();
    response.release();
  });

  it('hands over an empty live body for a 204 event stream', async () => {
    onRpc(() => new Response(null, { status: 204, headers: { 'content-type': 'text/event-stream' } }));
    const response = await openStream(request({ accept: 'sse' }));
    expect(await liveBody(response).getReader().read()).toEqual({ done: true, value: undefined });
  });

  it('reads a 2xx JSON answer whole (a JSON-RPC error envelope)', async () => {
    onRpc(answer('{"error":{}}'));
    const response = await openStream(request({ accept: 'sse' }));
    expect(response).toMatchObject({ status: 200, mediaType: 'json', body: encoder.encode('{"error":{}}') });
    response.release();
  });

  it('keeps the deadline over a JSON answer read whole', async () => {
    useFakeTime();
    onRpc(answer(stalling(encoder.encode('{'))));
    const pending = failure(openStream(request({ accept: 'sse' })));
    await vi.advanceTimersByTimeAsync(timeoutMs);
    expect(await pending).toMatchObject({ name: 'TransportError', reason: 'timeout', dispatched: true });
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['no media type', {}],
  ])('refuses a 2xx answer with %s', async (_, headers) => {
    onRpc(() => new Response(encoder.encode('data: 1\n\n'), { headers }));
    expect((await failure(openStream(request({ accept: 'sse' })))).toJSON()).toEqual({
      name: 'HttpProtocolError',
      kind: 'http-protocol',
      reason: 'media-type',
      dispatched: true,
      httpStatus: 200,
    });
  });

  it('returns a non-2xx answer whole and bounded', async () => {
    onRpc(answer('{"error":{"code":404}}', { status: 404 }));
    const response = await openStream(request({ accept: 'sse' }));
    expect(response).toMatchObject({
      status: 404,
      mediaType: 'json',
      body: encoder.encode('{"error":{"code":404}}'),
    });
    onRpc(answer(new Uint8Array(65), { status: 404 }));
    expect(await failure(openStream(request({ accept: 'sse' })))).toMatchObject({
      reason: 'body-too-large',
      httpStatus: 404,
    });
  });
});
