import { describe, expect, it, vi } from 'vitest';
import type { CallContext, StreamFrame } from '../bindings/binding.js';
import { TransportError } from '../core/errors.js';
import { parseAgentCard } from '../protocol/decode.js';
import type { StreamResponse } from '../protocol/stream.js';
import { createCaller } from './call.js';
import { type ClientEvent, createEventHub } from './events.js';
import { resolveClientOptions } from './options.js';

// A scripted binding in place of the JSON-RPC one: it draws its id and dispatches synchronously, as the real
// one does.
const script = vi.hoisted(() => ({
  frames: [] as unknown[],
  failAfter: undefined as number | undefined,
  returned: 0,
}));

vi.mock('../bindings/jsonrpc.js', () => ({
  createJsonRpcBinding: (options: { readonly nextId: () => number }) => ({
    protocolBinding: 'JSONRPC',
    async unary(_operation: string, request: { readonly id?: string }, context: CallContext) {
      options.nextId();
      context.onDispatch?.('POST');
      await Promise.resolve();
      return {
        value: { id: request.id, contextId: 'c', status: { state: 'TASK_STATE_WORKING' }, history: [] },
        raw: {},
        httpStatus: 200,
      };
    },
    async stream(_operation: string, _request: unknown, context: CallContext) {
      options.nextId();
      context.onDispatch?.('POST');
      let index = 0;
      const iterator: AsyncIterableIterator<StreamFrame> = {
        async next() {
          if (script.failAfter === index) {
            throw new TransportError('read', { dispatched: true });
          }
          const event = script.frames[index];
          index += 1;
          return event === undefined
            ? { done: true, value: undefined }
            : { done: false, value: { event: event as StreamResponse, raw: {}, wireBytes: 10 } };
        },
        async return() {
          script.returned += 1;
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return iterator;
        },
      };
      return iterator;
    },
  }),
}));

const card = parseAgentCard({
  name: 'Agent',
  description: 'An agent.',
  supportedInterfaces: [
    { url: 'https://agent.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  version: '1.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 'S', description: 'A skill.', tags: ['t'] }],
});

function setup(frames: readonly unknown[], failAfter?: number) {
  script.frames = [...frames];
  script.failAfter = failAfter;
  script.returned = 0;
  const hub = createEventHub();
  const events: ClientEvent[] = [];
  hub.events.subscribe((event) => events.push(event));
  const resolved = resolveClientOptions({
    card,
    cardDigest: `sha256:${'0'.repeat(64)}`,
    pin: { binding: 'JSONRPC', url: 'https://agent.example/rpc' },
    security: { kind: 'anonymous' },
  });
  return { caller: createCaller(resolved, hub), events };
}

const working = { task: { id: 't-1', contextId: 'c', status: { state: 'TASK_STATE_WORKING' }, history: [] } };
const done = { statusUpdate: { taskId: 't-1', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } };
const foreign = {
  statusUpdate: { taskId: 't-2', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } },
};

async function run(stream: AsyncIterable<StreamResponse>, stopAfter = Number.POSITIVE_INFINITY) {
  const delivered: StreamResponse[] = [];
  try {
    for await (const event of stream) {
      delivered.push(event);
      if (delivered.length >= stopAfter) {
        break;
      }
    }
    return { delivered, error: undefined };
  } catch (error) {
    return { delivered, error };
  }
}

describe('a stream call', () => {
  it('releases the binding’s stream when the caller leaves early', async () => {
    const { caller, events } = setup([working, done]);
    const { delivered } = await run(caller.stream('subscribeToTask', { id: 't-1' }, undefined), 1);
    expect(delivered).toEqual([working]);
    expect(script.returned).toBe(1);
    expect(events.at(-1)).toMatchObject({ type: 'stream-end', reason: 'released', frames: 1, wireBytes: 10 });
  });

  it('releases the binding’s stream when an event fails its check, and ends there', async () => {
    const { caller, events } = setup([working, foreign, done]);
    const { delivered, error } = await run(caller.stream('subscribeToTask', { id: 't-1' }, undefined));
    expect(delivered).toEqual([working]);
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'identity', dispatched: true });
    expect(script.returned).toBe(1);
    expect(events.map((event) => event.type)).toEqual(['request', 'response', 'stream-frame', 'error']);
  });

  it('passes the binding’s own failure through, once', async () => {
    const { caller, events } = setup([working, done], 1);
    const { delivered, error } = await run(
      caller.stream('subscribeToTask', { id: 't-1' }, { resume: false }),
    );
    expect(delivered).toEqual([working]);
    expect(error).toMatchObject({ kind: 'transport', reason: 'read', dispatched: true });
    expect(events.filter((event) => event.type === 'error' || event.type === 'stream-end')).toHaveLength(1);
  });

  it('a peer that breaks every resumed subscription right after its snapshot: the attempts run out, then the break', async () => {
    vi.useFakeTimers();
    try {
      const { caller, events } = setup([working, done], 1);
      const running = run(caller.stream('subscribeToTask', { id: 't-1' }, { resume: { random: () => 0 } }));
      await vi.advanceTimersByTimeAsync(10_000);
      const { delivered, error } = await running;
      // The first snapshot and one per attempt: a snapshot alone is no progress, so the three attempts are
      // shared.
      expect(delivered).toEqual([working, working, working, working]);
      expect(error).toMatchObject({ kind: 'transport', reason: 'read', dispatched: true });
      expect(
        events.flatMap((event) => (event.type === 'stream-resume' ? [[event.attempt, event.delayMs]] : [])),
      ).toEqual([
        [1, 125],
        [2, 250],
        [3, 500],
      ]);
      expect(
        events
          .filter((event) => event.type === 'stream-break')
          .map((event) => 'resumable' in event && event.resumable),
      ).toEqual([true, true, true, false]);
      expect(events.at(-1)).toMatchObject({ type: 'error' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('completes where the lifecycle allows and refuses a premature end', async () => {
    const complete = setup([working, done]);
    expect(
      (await run(complete.caller.stream('subscribeToTask', { id: 't-1' }, undefined))).error,
    ).toBeUndefined();
    expect(complete.events.at(-1)).toMatchObject({
      type: 'stream-end',
      reason: 'complete',
      frames: 2,
      wireBytes: 20,
    });
    const premature = setup([working]);
    const { error } = await run(premature.caller.stream('subscribeToTask', { id: 't-1' }, { resume: false }));
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'lifecycle', dispatched: true });
  });

  it('sends nothing before iteration starts', async () => {
    const { caller, events } = setup([working, done]);
    const stream = caller.stream('subscribeToTask', { id: 't-1' }, undefined);
    await Promise.resolve();
    expect(events).toHaveLength(0);
    await run(stream);
    expect(events[0]).toMatchObject({ type: 'request', rpcId: 1 });
  });
});

describe('a unary call', () => {
  it('records on each request the JSON-RPC id the binding drew for it, even for concurrent calls', async () => {
    const { caller, events } = setup([]);
    const check = vi.fn();
    await Promise.all(['a', 'b', 'c'].map((id) => caller.unary('getTask', { id }, undefined, check)));
    const requests = events.filter((event) => event.type === 'request');
    expect(requests.map((event) => [event.callId, event.rpcId, event.taskId])).toEqual([
      [1, 1, 'a'],
      [2, 2, 'b'],
      [3, 3, 'c'],
    ]);
    expect(check).toHaveBeenCalledTimes(3);
  });

  it('reports a failed check as the call’s error, with no response event', async () => {
    const { caller, events } = setup([]);
    const refused = new TransportError('read', { dispatched: true });
    await expect(
      caller.unary('getTask', { id: 'a' }, undefined, () => {
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(events.map((event) => event.type)).toEqual(['request', 'error']);
  });
});
