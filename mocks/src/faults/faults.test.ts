import type { JsonValue } from '@surecall/client/protocol';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FaultSpec, Handle } from './fault-types.js';
import { createFaultLab } from './faults.js';

const origin = 'https://agent.test';

const task = {
  id: 't-1',
  contextId: 'c-1',
  status: { state: 'TASK_STATE_COMPLETED' },
  history: [
    { messageId: 'm-1', role: 'ROLE_USER', taskId: 't-1', contextId: 'c-1', parts: [{ text: 'task a b' }] },
    { messageId: 'm-2', role: 'ROLE_AGENT', taskId: 't-1', contextId: 'c-1', parts: [{ text: 'done' }] },
  ],
};

const streamEvents = [
  { task: { ...task, status: { state: 'TASK_STATE_SUBMITTED' } } },
  { statusUpdate: { taskId: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_WORKING' } } },
  { statusUpdate: { taskId: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_COMPLETED' } } },
];

/** A tiny stand-in for the agent: enough of both bindings to see what each fault does to an answer. */
function fakeAgent(chunking: (text: string) => readonly string[] = (text) => [text]) {
  const state = { executed: 0, streamed: 0, finished: 0, cancelled: 0 };
  const encoder = new TextEncoder();
  const sse = (frames: readonly unknown[]) => {
    const chunks = chunking(frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join(''));
    let index = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          const chunk = chunks[index];
          index += 1;
          if (chunk === undefined) {
            state.finished += 1;
            controller.close();
          } else {
            state.streamed += 1;
            controller.enqueue(encoder.encode(chunk));
          }
        },
        cancel() {
          state.cancelled += 1;
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
  };
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', 'content-length': String(JSON.stringify(body).length) },
    });
  const handle: Handle = async (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/a2a/jsonrpc') {
      const { id, method } = (await request.json().catch(() => ({ id: null, method: '' }))) as {
        id: number;
        method: string;
      };
      switch (method) {
        case 'SendMessage':
          state.executed += 1;
          return json({ jsonrpc: '2.0', id, result: { task } });
        case 'SendStreamingMessage':
          state.executed += 1;
          return sse(streamEvents.map((result) => ({ jsonrpc: '2.0', id, result })));
        case 'GetTask':
          return json({ jsonrpc: '2.0', id, result: task });
        default:
          return json({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
      }
    }
    if (path.endsWith('/message:send')) {
      state.executed += 1;
      return json({ task });
    }
    if (path.endsWith('/message:stream')) {
      state.executed += 1;
      return sse(streamEvents);
    }
    if (path.endsWith('/tasks/t-1')) {
      return json(task);
    }
    return json({ error: { code: 404, status: 'NOT_FOUND', message: 'Not found' } }, 404);
  };
  return { handle, state };
}

function rpc(method: string, init: { signal?: AbortSignal; id?: number } = {}): Request {
  return new Request(`${origin}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: init.id ?? 7, method, params: {} }),
    ...(init.signal === undefined ? {} : { signal: init.signal }),
  });
}

function rest(method: string, path: string): Request {
  const body = method === 'POST' ? '{}' : null;
  return new Request(`${origin}/a2a/rest${path}`, {
    method,
    body,
    headers: { 'content-type': 'application/json' },
  });
}

function frames(text: string): string[] {
  return text.split('\n\n').filter((frame) => frame !== '');
}

function dataOf(frame: string): unknown {
  return JSON.parse(frame.replace(/^data: /, ''));
}

function setUp(spec: FaultSpec, chunking?: (text: string) => readonly string[]) {
  const agent = fakeAgent(chunking);
  const faults = createFaultLab();
  faults.set(spec);
  return { ...agent, faults, handle: faults.wrap(agent.handle) };
}

/**
A lab around an agent that answers each JSON-RPC method with the given result (a list is a stream of results).
*/
function withAnswers(results: Readonly<Record<string, unknown>>, spec: FaultSpec) {
  const handle: Handle = async (request) => {
    const { id, method } = (await request.json()) as { id: number; method: string };
    const result = results[method];
    if (Array.isArray(result)) {
      const body = result.map(
        (event) => `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: event })}\n\n`,
      );
      return new Response(body.join(''), { headers: { 'content-type': 'text/event-stream' } });
    }
    return Response.json({ jsonrpc: '2.0', id, result });
  };
  const faults = createFaultLab();
  faults.set(spec);
  return { faults, handle: faults.wrap(handle) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the lab', () => {
  it('arms a fault for the next request only by default, then disarms it', async () => {
    const { handle, faults, state } = setUp({ kind: 'drop-before', operation: 'SendMessage' });
    expect((await handle(rpc('SendMessage'))).type).toBe('error');
    expect(state.executed).toBe(0);
    expect(faults.list()).toEqual([]);
    expect((await handle(rpc('SendMessage'))).status).toBe(200);
    expect(state.executed).toBe(1);
  });

  it('counts down `count` matching requests and reports what remains', async () => {
    const { handle, faults } = setUp({ kind: 'drop-before', operation: 'GetTask', count: 2 });
    expect(faults.list()).toMatchObject([{ id: 'fault-1', remaining: 2 }]);
    expect((await handle(rpc('GetTask'))).type).toBe('error');
    expect(faults.list()).toMatchObject([{ id: 'fault-1', remaining: 1 }]);
    expect((await handle(rpc('GetTask'))).type).toBe('error');
    expect((await handle(rpc('GetTask'))).status).toBe(200);
  });

  it('leaves other operations, other bindings and non-operations alone without spending the fault', async () => {
    const { handle, faults } = setUp({ kind: 'drop-before', operation: 'SendMessage', binding: 'HTTP+JSON' });
    expect((await handle(rpc('SendMessage'))).status).toBe(200);
    expect((await handle(rpc('GetTask'))).status).toBe(200);
    expect((await handle(new Request(`${origin}/.well-known/agent-card.json`))).status).toBe(404);
    expect(
      (await handle(new Request(`${origin}/a2a/jsonrpc`, { method: 'POST', body: 'not json' }))).type,
    ).not.toBe('error');
    expect(faults.list()).toHaveLength(1);
    expect((await handle(rest('POST', '/message:send'))).type).toBe('error');
  });

  it("matches any of the eleven operations with '*'", async () => {
    const { handle } = setUp({ kind: 'drop-before', operation: '*', count: 2 });
    expect((await handle(rest('GET', '/tasks/t-1'))).type).toBe('error');
    expect((await handle(rpc('ListTasks'))).type).toBe('error');
  });

  it('applies the oldest matching fault first, one per request', async () => {
    const agent = fakeAgent();
    const faults = createFaultLab();
    faults.set({ kind: 'status-after', operation: '*', status: 500 });
    faults.set({ kind: 'status-after', operation: 'GetTask', status: 502 });
    const handle = faults.wrap(agent.handle);
    expect((await handle(rpc('GetTask'))).status).toBe(500);
    expect((await handle(rpc('GetTask'))).status).toBe(502);
  });

  it('clears one fault by id, or all of them', () => {
    const faults = createFaultLab();
    const first = faults.set({ kind: 'drop-before', operation: '*' });
    const second = faults.set({ kind: 'drop-after', operation: '*' });
    faults.clear(first);
    expect(faults.list().map((fault) => fault.id)).toEqual([second]);
    faults.set({ kind: 'html-413', operation: '*' });
    faults.clear();
    expect(faults.list()).toEqual([]);
  });

  it('keeps its own copy of a spec', async () => {
    const spec = { kind: 'status-after', operation: 'GetTask', status: 500 } as {
      kind: 'status-after';
      operation: 'GetTask';
      status: number;
    };
    const { handle, faults } = setUp(spec);
    spec.status = 599;
    expect(faults.list()[0]?.spec).toEqual({ kind: 'status-after', operation: 'GetTask', status: 500 });
    expect((await handle(rpc('GetTask'))).status).toBe(500);
  });

  it('refuses an invalid spec from code too', () => {
    const faults = createFaultLab();
    // @ts-expect-error: `ms` is required for a delay
    expect(() => faults.set({ kind: 'delay', operation: 'GetTask' })).toThrow(TypeError);
    expect(faults.list()).toEqual([]);
  });

  it('reads the JSON-RPC method from a clone, leaving the body for the agent', async () => {
    const { handle, state } = setUp({ kind: 'delay', operation: 'SendMessage', ms: 0 });
    const response = await handle(rpc('SendMessage'));
    expect(await response.json()).toMatchObject({ result: { task: { id: 't-1' } } });
    expect(state.executed).toBe(1);
  });

  it.each<[string, string, string]>([
    ['POST', '/message:send', 'SendMessage'],
    ['POST', '/acme/message:stream', 'SendStreamingMessage'],
    ['GET', '/tasks/t-1', 'GetTask'],
    ['GET', '/acme/tasks', 'ListTasks'],
    ['POST', '/tasks/t-1:cancel', 'CancelTask'],
    ['GET', '/tasks/t-1:subscribe', 'SubscribeToTask'],
    ['POST', '/acme/tasks/t-1:subscribe', 'SubscribeToTask'],
    ['POST', '/tasks/t-1/pushNotificationConfigs', 'CreateTaskPushNotificationConfig'],
    ['GET', '/tasks/t-1/pushNotificationConfigs/p-1', 'GetTaskPushNotificationConfig'],
    ['GET', '/acme/tasks/t-1/pushNotificationConfigs', 'ListTaskPushNotificationConfigs'],
    ['DELETE', '/tasks/t-1/pushNotificationConfigs/p-1', 'DeleteTaskPushNotificationConfig'],
    ['GET', '/extendedAgentCard', 'GetExtendedAgentCard'],
  ])('recognises REST %s %s as %s', async (method, path, operation) => {
    const agent = fakeAgent();
    const faults = createFaultLab();
    faults.set({ kind: 'drop-before', operation: operation as FaultSpec['operation'], binding: 'HTTP+JSON' });
    const handle = faults.wrap(agent.handle);
    expect((await handle(rest(method, path))).type).toBe('error');
  });

  it.each<[string, string]>([
    ['DELETE', '/tasks/t-1'],
    ['PUT', '/message:send'],
    ['GET', '/message:send'],
    ['POST', '/tasks'],
  ])('recognises no operation in REST %s %s', async (method, path) => {
    const { handle, faults } = setUp({ kind: 'drop-before', operation: '*' });
    expect((await handle(rest(method, path))).type).not.toBe('error');
    expect(faults.list()).toHaveLength(1);
  });
});

describe('losing answers', () => {
  it('drop-after: does the work, reading a stream to its end, then answers with a network error', async () => {
    const { handle, state } = setUp({ kind: 'drop-after', operation: 'SendStreamingMessage' });
    const response = await handle(rpc('SendStreamingMessage'));
    expect(response.type).toBe('error');
    expect(state).toMatchObject({ executed: 1, finished: 1 });
  });

  it('delay: answers only once the time has passed', async () => {
    vi.useFakeTimers();
    const { handle, state } = setUp({ kind: 'delay', operation: 'SendMessage', ms: 1000 });
    let answered = false;
    const pending = handle(rpc('SendMessage')).then((response) => {
      answered = true;
      return response;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(answered).toBe(false);
    expect(state.executed).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
    expect(state.executed).toBe(1);
  });

  it('delay: never runs the work when the client gives up first', async () => {
    vi.useFakeTimers();
    const { handle, state } = setUp({ kind: 'delay', operation: 'SendMessage', ms: 1000 });
    const abort = new AbortController();
    const pending = handle(rpc('SendMessage', { signal: abort.signal }));
    await vi.advanceTimersByTimeAsync(500);
    abort.abort();
    expect((await pending).type).toBe('error');
    await vi.advanceTimersByTimeAsync(1000);
    expect(state.executed).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("delay 'after': does the work at once and answers late", async () => {
    vi.useFakeTimers();
    const { handle, state } = setUp({ kind: 'delay', operation: 'SendMessage', ms: 1000, when: 'after' });
    const pending = handle(rpc('SendMessage'));
    await vi.advanceTimersByTimeAsync(1);
    expect(state.executed).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect((await pending).status).toBe(200);
  });

  it("delay 'after': drops the answer, and stops its stream, when the client gives up meanwhile", async () => {
    vi.useFakeTimers();
    const { handle, state } = setUp({ kind: 'delay', operation: '*', ms: 1000, when: 'after' });
    const abort = new AbortController();
    const pending = handle(rpc('SendStreamingMessage', { signal: abort.signal }));
    await vi.advanceTimersByTimeAsync(10);
    abort.abort();
    expect((await pending).type).toBe('error');
    expect(state).toMatchObject({ executed: 1, cancelled: 1 });
  });

  it('status-after: does the work, then answers a plain 5xx with Retry-After', async () => {
    const { handle, state } = setUp({
      kind: 'status-after',
      operation: 'SendMessage',
      status: 503,
      retryAfterSeconds: 2,
    });
    const response = await handle(rpc('SendMessage'));
    expect(state.executed).toBe(1);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await response.text()).toBe('503 injected by the fault lab\n');
  });

  it('status-after: can answer with no body at all', async () => {
    const { handle } = setUp({ kind: 'status-after', operation: 'GetTask', body: 'empty' });
    const response = await handle(rest('GET', '/tasks/t-1'));
    expect(response.status).toBe(503);
    expect(await response.text()).toBe('');
  });
});

describe('breaking streams', () => {
  it('cut-stream: delivers N frames, then the read fails, while the agent finishes its work', async () => {
    const { handle, state } = setUp({
      kind: 'cut-stream',
      operation: 'SendStreamingMessage',
      afterFrames: 2,
    });
    const response = await handle(rest('POST', '/message:stream'));
    const reader = response.body?.getReader();
    const decoder = new TextDecoder();
    let received = '';
    await expect(
      (async () => {
        for (let next = await reader?.read(); next !== undefined && !next.done; next = await reader?.read()) {
          received += decoder.decode(next.value);
        }
      })(),
    ).rejects.toThrow(TypeError);
    expect(frames(received).map(dataOf)).toEqual(streamEvents.slice(0, 2));
    await vi.waitFor(() => expect(state.finished).toBe(1));
  });

  it('cut-stream: leaves a unary answer alone', async () => {
    const { handle } = setUp({ kind: 'cut-stream', operation: 'SendMessage', afterFrames: 0 });
    expect(await (await handle(rpc('SendMessage'))).json()).toMatchObject({ result: { task } });
  });

  it('premature-eof: closes a stream cleanly without its terminal frame', async () => {
    const { handle, state } = setUp({ kind: 'premature-eof', operation: 'SendStreamingMessage' });
    const text = await (await handle(rest('POST', '/message:stream'))).text();
    expect(frames(text).map(dataOf)).toEqual(streamEvents.slice(0, 2));
    expect(state.finished).toBe(1);
  });

  it('premature-eof with afterFrames: closes a stream cleanly after N frames, while the agent finishes its work', async () => {
    const { handle, state } = setUp({
      kind: 'premature-eof',
      operation: 'SendStreamingMessage',
      afterFrames: 1,
    });
    const text = await (await handle(rest('POST', '/message:stream'))).text();
    expect(frames(text).map(dataOf)).toEqual(streamEvents.slice(0, 1));
    await vi.waitFor(() => expect(state.finished).toBe(1));
  });

  it('premature-eof: cuts a unary body at half its bytes and drops its declared length', async () => {
    const { handle } = setUp({ kind: 'premature-eof', operation: 'GetTask' });
    const response = await handle(rest('GET', '/tasks/t-1'));
    const full = JSON.stringify(task);
    expect(response.headers.get('content-length')).toBeNull();
    expect(await response.text()).toBe(full.slice(0, Math.floor(full.length / 2)));
  });

  it('oversized-sse-line: sends a comment line of 600 KiB before the first frame, by default', async () => {
    const { handle } = setUp({ kind: 'oversized-sse-line', operation: 'SendStreamingMessage' });
    const text = await (await handle(rpc('SendStreamingMessage'))).text();
    const line = text.slice(0, text.indexOf('\n'));
    expect(line).toMatch(/^:x+$/);
    expect(line.length).toBe(600 * 1024);
    expect(text.slice(line.length, line.length + 2)).toBe('\n\n');
    const events = frames(text.slice(line.length + 2)).map(
      (frame) => (dataOf(frame) as { result: unknown }).result,
    );
    expect(events).toEqual(streamEvents);
  });

  it('oversized-sse-line: takes its size in bytes', async () => {
    const { handle } = setUp({ kind: 'oversized-sse-line', operation: 'SendStreamingMessage', bytes: 10 });
    const text = await (await handle(rpc('SendStreamingMessage'))).text();
    expect(text.split('\n')[0]).toBe(':xxxxxxxxx');
  });

  it('stops the agent stream when the client cancels a rewritten one', async () => {
    const { handle, state } = setUp({ kind: 'premature-eof', operation: 'SendStreamingMessage' }, (text) =>
      text.split('\n\n').map((frame) => `${frame}\n\n`),
    );
    const response = await handle(rest('POST', '/message:stream'));
    const reader = response.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    expect(state.cancelled).toBe(1);
    expect(state.finished).toBe(0);
  });

  it('finds frames whatever the chunk boundaries (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 12 }), async (cuts) => {
        const chunking = (text: string) => {
          const points = [...new Set(cuts.map((cut) => cut % text.length))].sort((a, b) => a - b);
          return [0, ...points].map((start, index) => text.slice(start, points[index] ?? text.length));
        };
        const { handle } = setUp(
          { kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 3 },
          chunking,
        );
        const text = await (await handle(rest('POST', '/message:stream'))).text();
        expect(frames(text).map(dataOf)).toEqual(streamEvents);
      }),
    );
  });
});

describe('malformed answers (the work happens)', () => {
  it('duplicate-keys: writes the first member of a JSON-RPC result twice', async () => {
    const { handle, state } = setUp({ kind: 'duplicate-keys', operation: 'SendMessage' });
    const text = await (await handle(rpc('SendMessage'))).text();
    const taskText = JSON.stringify(task);
    expect(text).toBe(`{"jsonrpc":"2.0","id":7,"result":{"task":${taskText},"task":${taskText}}}`);
    expect(state.executed).toBe(1);
  });

  it('duplicate-keys: writes the first member of a bare REST result twice', async () => {
    const { handle } = setUp({ kind: 'duplicate-keys', operation: 'GetTask' });
    const text = await (await handle(rest('GET', '/tasks/t-1'))).text();
    expect(text.startsWith('{"id":"t-1","id":"t-1","contextId":"c-1"')).toBe(true);
  });

  it('duplicate-keys: keeps the value a lenient parser sees (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), (result) => {
        const faults = createFaultLab();
        faults.set({ kind: 'duplicate-keys', operation: 'GetTask', binding: 'HTTP+JSON' });
        const handle = faults.wrap(async () => Response.json(result));
        return handle(rest('GET', '/tasks/t-1'))
          .then((response) => response.text())
          .then((text) => {
            expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(result)));
            const [key] = Object.keys(result);
            expect(text.startsWith(`{${JSON.stringify(key)}:`)).toBe(true);
            expect(text.length).toBeGreaterThan(JSON.stringify(result).length);
          });
      }),
    );
  });

  it('duplicate-keys: rewrites the chosen stream frame only', async () => {
    const { handle } = setUp({ kind: 'duplicate-keys', operation: 'SendStreamingMessage', frame: 1 });
    const [first, second, third] = frames(await (await handle(rest('POST', '/message:stream'))).text());
    expect(first).toBe(`data: ${JSON.stringify(streamEvents[0])}`);
    expect(second).toBe(
      `data: {"statusUpdate":${JSON.stringify(streamEvents[1]?.statusUpdate)},${JSON.stringify(streamEvents[1]).slice(1)}`,
    );
    expect(third).toBe(`data: ${JSON.stringify(streamEvents[2])}`);
  });

  it('wrong-jsonrpc-id: answers with another id, unary and streamed', async () => {
    const unary = setUp({ kind: 'wrong-jsonrpc-id', operation: 'GetTask' });
    expect(await (await unary.handle(rpc('GetTask', { id: 7 }))).json()).toMatchObject({ id: 1_000_007 });
    const streamed = setUp({ kind: 'wrong-jsonrpc-id', operation: 'SendStreamingMessage' });
    const [first, second] = frames(
      await (await streamed.handle(rpc('SendStreamingMessage', { id: 7 }))).text(),
    );
    expect(first === undefined ? undefined : dataOf(first)).toMatchObject({ id: 1_000_007 });
    expect(second === undefined ? undefined : dataOf(second)).toMatchObject({ id: 7 });
  });

  it('wrong-jsonrpc-id and result-and-error: leave HTTP+JSON answers alone', async () => {
    for (const kind of ['wrong-jsonrpc-id', 'result-and-error'] as const) {
      const { handle } = setUp({ kind, operation: 'GetTask' });
      expect(await (await handle(rest('GET', '/tasks/t-1'))).json()).toEqual(task);
    }
  });

  it('result-and-error: sends both members', async () => {
    const { handle } = setUp({ kind: 'result-and-error', operation: 'SendMessage' });
    expect(await (await handle(rpc('SendMessage'))).json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { task },
      error: { code: -32603, message: 'Internal error' },
    });
  });

  it('result-and-error: adds a result to an error answer', async () => {
    const { handle } = setUp({ kind: 'result-and-error', operation: 'CancelTask' });
    expect(await (await handle(rpc('CancelTask'))).json()).toMatchObject({
      result: {},
      error: { code: -32601 },
    });
  });

  it('two-union-members: adds a message next to a task', async () => {
    const { handle } = setUp({ kind: 'two-union-members', operation: 'SendMessage' });
    const body = (await (await handle(rest('POST', '/message:send'))).json()) as { message?: unknown };
    expect(Object.keys(body)).toEqual(['task', 'message']);
    expect(body.message).toMatchObject({ role: 'ROLE_AGENT', taskId: 't-1', contextId: 'c-1' });
  });

  it('two-union-members: adds a task next to a status update in a stream', async () => {
    const { handle } = setUp({ kind: 'two-union-members', operation: 'SendStreamingMessage', frame: 1 });
    const second = frames(await (await handle(rpc('SendStreamingMessage'))).text())[1];
    expect(second === undefined ? undefined : dataOf(second)).toMatchObject({
      result: { statusUpdate: { taskId: 't-1' }, task: { id: 't-1', contextId: 'c-1' } },
    });
  });

  it('two-union-members: leaves a bare Task alone', async () => {
    const { handle } = setUp({ kind: 'two-union-members', operation: 'GetTask' });
    expect(await (await handle(rpc('GetTask'))).json()).toEqual({ jsonrpc: '2.0', id: 7, result: task });
  });

  it('wrong-media-type: labels the same body text/plain', async () => {
    const { handle, state } = setUp({ kind: 'wrong-media-type', operation: 'SendStreamingMessage' });
    const response = await handle(rest('POST', '/message:stream'));
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(frames(await response.text()).map(dataOf)).toEqual(streamEvents);
    expect(state.executed).toBe(1);
  });

  it('html-413: answers an HTML page after doing the work', async () => {
    const { handle, state } = setUp({ kind: 'html-413', operation: 'SendMessage' });
    const response = await handle(rpc('SendMessage'));
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('<!DOCTYPE html>');
    expect(state.executed).toBe(1);
  });

  it('redirect: answers 302 to a path on the same origin, or to a URL', async () => {
    const local = setUp({ kind: 'redirect', operation: 'SendMessage' });
    const response = await local.handle(rpc('SendMessage'));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${origin}/__redirected`);
    expect(local.state.executed).toBe(1);
    const away = setUp({ kind: 'redirect', operation: 'SendMessage', location: 'https://other.test/a2a' });
    expect((await away.handle(rpc('SendMessage'))).headers.get('location')).toBe('https://other.test/a2a');
  });

  it('blocking-submitted: turns a blocking send into a SUBMITTED task, streams untouched', async () => {
    const unary = setUp({ kind: 'blocking-submitted', operation: '*' });
    expect(await (await unary.handle(rpc('SendMessage'))).json()).toMatchObject({
      result: { task: { id: 't-1', status: { state: 'TASK_STATE_SUBMITTED' }, history: task.history } },
    });
    const streamed = setUp({ kind: 'blocking-submitted', operation: '*' });
    const text = await (await streamed.handle(rest('POST', '/message:stream'))).text();
    expect(frames(text).map(dataOf)).toEqual(streamEvents);
  });

  it('different-task-id: moves the task and its messages to another id', async () => {
    const { handle } = setUp({ kind: 'different-task-id', operation: 'GetTask' });
    const body = (await (await handle(rest('GET', '/tasks/t-1'))).json()) as typeof task;
    expect(body.id).toBe('t-1-substituted');
    expect(body.history.map((message) => message.taskId)).toEqual(['t-1-substituted', 't-1-substituted']);
  });

  it('different-task-id: takes the replacement id, and rewrites a status update in a stream', async () => {
    const { handle } = setUp({ kind: 'different-task-id', operation: '*', taskId: 't-9', frame: 2 });
    const third = frames(await (await handle(rpc('SendStreamingMessage'))).text())[2];
    expect(third === undefined ? undefined : dataOf(third)).toMatchObject({
      result: { statusUpdate: { taskId: 't-9', status: { state: 'TASK_STATE_COMPLETED' } } },
    });
  });

  it("altered-history: changes the user's text and keeps its messageId", async () => {
    const { handle } = setUp({ kind: 'altered-history', operation: 'SendMessage' });
    const body = (await (await handle(rpc('SendMessage'))).json()) as { result: { task: typeof task } };
    expect(body.result.task.history[0]).toEqual({
      ...task.history[0],
      parts: [{ text: 'task a b (altered)' }],
    });
    expect(body.result.task.history[1]).toEqual(task.history[1]);
  });

  it('altered-history: takes the replacement text, in the first frame of a stream', async () => {
    const { handle } = setUp({ kind: 'altered-history', operation: 'SendStreamingMessage', text: 'task z' });
    const first = frames(await (await handle(rest('POST', '/message:stream'))).text())[0];
    const event = (first === undefined ? undefined : dataOf(first)) as { task: typeof task } | undefined;
    expect(event?.task.history[0]).toEqual({ ...task.history[0], parts: [{ text: 'task z' }] });
  });

  it("altered-data: replaces a reply's data parts, and only them, by default", async () => {
    const reply = {
      messageId: 'm-3',
      role: 'ROLE_AGENT',
      parts: [{ data: { sum: 3 }, mediaType: 'application/json' }, { text: 'sum' }],
    };
    const { handle } = withAnswers(
      { SendMessage: { message: reply } },
      { kind: 'altered-data', operation: '*' },
    );
    expect(await (await handle(rpc('SendMessage'))).json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: {
        message: {
          ...reply,
          parts: [{ data: { 'fault-lab': 'altered' }, mediaType: 'application/json' }, { text: 'sum' }],
        },
      },
    });
  });

  it("altered-data: replaces a task's artifacts, never its history, with any JSON value, any key included", async () => {
    const data = JSON.parse('{"__proto__":"x","a.b":[0],"\\n":null}') as JsonValue;
    const { handle } = withAnswers(
      {
        GetTask: {
          ...task,
          history: [{ ...task.history[0], parts: [{ data: { a: 1 } }] }],
          artifacts: [{ artifactId: 'r', parts: [{ data: 1 }, { data: 2 }] }],
        },
      },
      { kind: 'altered-data', operation: 'GetTask', data },
    );
    const text = await (await handle(rpc('GetTask'))).text();
    const body = JSON.parse(text) as {
      result: { artifacts: { parts: unknown[] }[]; history: { parts: unknown[] }[] };
    };
    expect(body.result.artifacts[0]?.parts).toEqual([{ data }, { data }]);
    expect(body.result.history[0]?.parts).toEqual([{ data: { a: 1 } }]);
    expect(text).toContain('{"__proto__":"x","a.b":[0],"\\n":null}');
  });

  it('altered-data: rewrites the artifact update of the chosen stream frame', async () => {
    const update = {
      taskId: 't-1',
      contextId: 'c-1',
      artifact: { artifactId: 'r', parts: [{ data: { sum: 3 } }] },
    };
    const { handle } = withAnswers(
      { SendStreamingMessage: [streamEvents[0], { artifactUpdate: update }] },
      { kind: 'altered-data', operation: 'SendStreamingMessage', frame: 1, data: [] },
    );
    const [first, second] = frames(await (await handle(rpc('SendStreamingMessage'))).text()).map(dataOf);
    expect(first).toEqual({ jsonrpc: '2.0', id: 7, result: streamEvents[0] });
    expect(second).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { artifactUpdate: { ...update, artifact: { artifactId: 'r', parts: [{ data: [] }] } } },
    });
  });

  it('altered-data: leaves an answer without data parts alone, and is spent', async () => {
    const { handle, faults } = setUp({ kind: 'altered-data', operation: 'GetTask' });
    expect(await (await handle(rest('GET', '/tasks/t-1'))).json()).toEqual(task);
    expect(faults.list()).toEqual([]);
  });

  it('altered-data: keeps its own copy of the data', async () => {
    const data = { sum: 'three' };
    const { handle } = withAnswers(
      { SendMessage: { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ data: { sum: 3 } }] } } },
      { kind: 'altered-data', operation: 'SendMessage', data },
    );
    data.sum = 'four';
    expect(await (await handle(rpc('SendMessage'))).json()).toMatchObject({
      result: { message: { parts: [{ data: { sum: 'three' } }] } },
    });
  });

  it("foreign-message-ids: moves every message's context, by default", async () => {
    const { handle } = setUp({ kind: 'foreign-message-ids', operation: 'GetTask' });
    const body = (await (await handle(rest('GET', '/tasks/t-1'))).json()) as typeof task;
    expect(body.contextId).toBe('c-1');
    expect(body.history.map((message) => [message.contextId, message.taskId])).toEqual([
      ['c-1-foreign', 't-1'],
      ['c-1-foreign', 't-1'],
    ]);
  });

  it('foreign-message-ids: names a task where a reply had none, and only where it says', async () => {
    const reply = { messageId: 'm-3', contextId: 'c-1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] };
    const { handle } = withAnswers(
      { SendMessage: { message: reply } },
      { kind: 'foreign-message-ids', operation: '*', member: 'taskId', where: 'reply' },
    );
    expect(await (await handle(rpc('SendMessage'))).json()).toMatchObject({
      result: { message: { ...reply, taskId: 'fault-lab-foreign' } },
    });
    const history = setUp({ kind: 'foreign-message-ids', operation: 'GetTask', where: 'status' });
    expect(await (await history.handle(rest('GET', '/tasks/t-1'))).json()).toEqual(task);
    expect(history.faults.list()).toEqual([]);
  });

  it("foreign-message-ids: rewrites a status update's message in the chosen frame", async () => {
    const message = { messageId: 'm-4', role: 'ROLE_AGENT', parts: [{ text: 'working' }] };
    const update = { taskId: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_WORKING', message } };
    const { handle } = withAnswers(
      { SendStreamingMessage: [streamEvents[0], { statusUpdate: update }] },
      { kind: 'foreign-message-ids', operation: 'SendStreamingMessage', frame: 1, where: 'status' },
    );
    const [, second] = frames(await (await handle(rpc('SendStreamingMessage'))).text()).map(dataOf);
    expect(second).toMatchObject({
      result: { statusUpdate: { status: { message: { ...message, contextId: 'fault-lab-foreign' } } } },
    });
  });

  it('leaves an HTTP+JSON error answer alone', async () => {
    const { handle } = setUp({ kind: 'two-union-members', operation: 'GetTask' });
    const response = await handle(rest('GET', '/tasks/t-404'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: 404, status: 'NOT_FOUND', message: 'Not found' },
    });
  });
});
