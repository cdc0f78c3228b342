import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Handle } from '../faults/fault-types.js';
import { createFaultLab } from '../faults/faults.js';
import { createHandlers, createMockHandle } from './handlers.js';

const origin = 'https://agent.test';

/**
A tiny stand-in for the agent: SendMessage counts an execution per messageId; a stream sends three frames.
*/
function fakeAgent() {
  const counts = new Map<string, number>();
  let total = 0;
  const executions = {
    total: () => total,
    of: (messageId: string, tenant = '') => counts.get(`${tenant}/${messageId}`) ?? 0,
    reset: () => {
      counts.clear();
      total = 0;
    },
  };
  const handle: Handle = async (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/.well-known/agent-card.json') {
      return Response.json({ name: 'fake' });
    }
    if (path !== '/a2a/jsonrpc') {
      return new Response('not found', { status: 404 });
    }
    const { id, method, params } = (await request.json()) as {
      id: number;
      method: string;
      params: { message: { messageId: string }; tenant?: string };
    };
    const key = `${params.tenant ?? ''}/${params.message.messageId}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    total += 1;
    if (method === 'SendMessage') {
      return Response.json({ jsonrpc: '2.0', id, result: { message: { messageId: 'reply' } } });
    }
    const frames = ['one', 'two', 'three'].map(
      (text) => `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { message: { text } } })}\n\n`,
    );
    return new Response(new Blob(frames).stream(), { headers: { 'content-type': 'text/event-stream' } });
  };
  return { handle, executions };
}

function send(method: string, messageId: string, tenant?: string): Promise<Response> {
  return fetch(`${origin}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { message: { messageId }, ...(tenant === undefined ? {} : { tenant }) },
    }),
  });
}

function control(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${origin}${path}`, {
    method,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

let agent = fakeAgent();
let faults = createFaultLab();
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  agent = fakeAgent();
  faults = createFaultLab();
});
afterAll(() => server.close());

function mount(withOrigin = true) {
  server.resetHandlers(...createHandlers(withOrigin ? { agent, faults, origin } : { agent, faults }));
}

describe('the fault routes', () => {
  it('arms, lists and clears faults over HTTP', async () => {
    mount();
    expect(await (await control('GET', '/__faults')).json()).toEqual({ faults: [] });
    const created = await control('POST', '/__faults', {
      kind: 'drop-after',
      operation: 'SendMessage',
      count: 2,
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ id: 'fault-1' });
    await control('POST', '/__faults', { kind: 'html-413', operation: '*' });
    const listed = await control('GET', '/__faults');
    expect(listed.headers.get('content-type')).toBe('application/json');
    expect(await listed.json()).toEqual({
      faults: [
        { id: 'fault-1', spec: { kind: 'drop-after', operation: 'SendMessage', count: 2 }, remaining: 2 },
        { id: 'fault-2', spec: { kind: 'html-413', operation: '*' }, remaining: 1 },
      ],
    });
    expect((await control('DELETE', '/__faults/fault-1')).status).toBe(204);
    expect(faults.list().map((fault) => fault.id)).toEqual(['fault-2']);
    expect((await control('DELETE', '/__faults')).status).toBe(204);
    expect(faults.list()).toEqual([]);
  });

  it.each<[string, string, unknown, number, unknown]>([
    ['a body that is not JSON', 'POST', '{kind:', 400, { code: 'invalid-json' }],
    [
      'an invalid spec',
      'POST',
      { kind: 'delay', operation: 'GetTask' },
      400,
      { code: 'invalid-fault', field: 'ms' },
    ],
    [
      'an unknown kind',
      'POST',
      { kind: 'boom', operation: '*' },
      400,
      { code: 'invalid-fault', field: 'kind' },
    ],
    ['another method', 'PUT', { kind: 'drop-before', operation: '*' }, 405, { code: 'method-not-allowed' }],
  ])('answers %s with a clear JSON error', async (_name, method, body, status, error) => {
    mount();
    const response = await control(method, '/__faults', body);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ error });
    expect(faults.list()).toEqual([]);
  });

  it('answers 404 for an unknown fault id, and 405 for anything but DELETE on one', async () => {
    mount();
    expect(await (await control('DELETE', '/__faults/fault-9')).json()).toMatchObject({
      error: { code: 'unknown-fault' },
    });
    faults.set({ kind: 'drop-before', operation: '*' });
    expect((await control('GET', '/__faults/fault-1')).status).toBe(405);
    expect(faults.list()).toHaveLength(1);
  });

  it('applies a fault armed over HTTP to the next A2A request, never to itself', async () => {
    mount();
    await control('POST', '/__faults', { kind: 'drop-after', operation: '*' });
    expect((await control('GET', '/__faults')).status).toBe(200);
    await expect(send('SendMessage', 'm-1')).rejects.toThrow(TypeError);
    expect(agent.executions.of('m-1')).toBe(1);
    expect((await send('SendMessage', 'm-1')).status).toBe(200);
  });
});

describe('the executions route', () => {
  it('reads the total, counts per messageId in a tenant, and resets', async () => {
    mount();
    await send('SendMessage', 'm-1');
    await send('SendMessage', 'm-1', 'acme');
    await send('SendMessage', 'm-1', 'acme');
    expect(await (await control('GET', '/__executions')).json()).toEqual({ total: 3 });
    expect(await (await control('GET', '/__executions?messageId=m-1&messageId=m-2')).json()).toEqual({
      total: 3,
      byMessageId: { 'm-1': 1, 'm-2': 0 },
    });
    expect(await (await control('GET', '/__executions?messageId=m-1&tenant=acme')).json()).toEqual({
      total: 3,
      byMessageId: { 'm-1': 2 },
    });
    expect((await control('POST', '/__executions')).status).toBe(405);
    expect((await control('DELETE', '/__executions')).status).toBe(204);
    expect(await (await control('GET', '/__executions')).json()).toEqual({ total: 0 });
  });
});

describe('the MSW mount', () => {
  it('streams an SSE answer and breaks it where a fault cuts it', async () => {
    mount();
    const whole = await (await send('SendStreamingMessage', 'm-1')).text();
    expect(whole.split('\n\n').filter(Boolean)).toHaveLength(3);
    faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 1 });
    const response = await send('SendStreamingMessage', 'm-2');
    await expect(response.text()).rejects.toThrow();
    expect(agent.executions.of('m-2')).toBe(1);
  });

  it('answers only its own paths on its origin when given one', async () => {
    mount();
    expect((await fetch(`${origin}/.well-known/agent-card.json`)).status).toBe(200);
    // A page's own assets on that origin (a chunk it imports later) go to the network, here a host that does
    // not exist.
    await expect(fetch(`${origin}/assets/frames.js`)).rejects.toThrow();
    await expect(fetch('https://other.test/.well-known/agent-card.json')).rejects.toThrow();
  });

  it("answers the agent's paths on any origin, and nothing else, without one", async () => {
    mount(false);
    expect((await fetch('https://other.test/.well-known/agent-card.json')).status).toBe(200);
    expect((await fetch('https://other.test/__faults')).status).toBe(200);
    await expect(fetch('https://other.test/elsewhere')).rejects.toThrow();
  });
});

describe('createMockHandle', () => {
  it('serves the same routes without MSW', async () => {
    const handle = createMockHandle({ agent, faults });
    const response = await handle(
      new Request(`${origin}/__faults`, { method: 'POST', body: '{"kind":"drop-before","operation":"*"}' }),
    );
    expect(response.status).toBe(201);
    expect((await handle(new Request(`${origin}/.well-known/agent-card.json`))).status).toBe(200);
    const dropped = await handle(
      new Request(`${origin}/a2a/jsonrpc`, {
        method: 'POST',
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'GetTask',
          params: { message: { messageId: 'x' } },
        }),
      }),
    );
    expect(dropped.type).toBe('error');
  });
});
