/**
The gRPC binding against a real gRPC server on loopback that answers in bytes (test/support/grpc-peer.ts):
what it sends (the RPC path, the message with the interface's tenant, the metadata of A2A spec §10.2), when a
failure is dispatched, the message bounds, answers that are no protobuf, and statuses mapped to the closed
union (docs/protocol-checks.md#grpc). The statuses' full table is `src/bindings/grpc/status.test.ts`.
*/
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGrpcBinding } from '../../src/bindings/grpc/binding.js';
import { createGrpcCodec } from '../../src/bindings/grpc/codec.js';
import { resolveLimits } from '../../src/core/limits.js';
import { errorDomain, errorInfoType } from '../../src/protocol/error-codes.js';
import type { Message } from '../../src/protocol/message.js';
import { drain, failure } from '../support/binding.js';
import { type GrpcPeer, startGrpcPeer } from '../support/grpc-peer.js';

const codec = createGrpcCodec();
let peer: GrpcPeer;

beforeAll(async () => {
  peer = await startGrpcPeer();
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await peer.close();
});

const task = {
  id: 'task-1',
  contextId: 'ctx-1',
  status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-02T03:04:05Z' },
};
const message: Message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
const taskBytes = codec.encode('lf.a2a.v1.Task', task);

function bindingOf(limits = resolveLimits(), tenant?: string) {
  return createGrpcBinding({ url: peer.url, limits, ...(tenant === undefined ? {} : { tenant }) });
}

describe('what the gRPC binding sends', () => {
  it('the RPC of the operation, the message with the tenant, and the A2A metadata', async () => {
    peer.answer({ kind: 'answer', bytes: taskBytes });
    const before = peer.calls.length;
    const { value, raw, httpStatus } = await bindingOf(resolveLimits(), 'acme').unary(
      'getTask',
      { id: 'task-1', historyLength: 2 },
      {
        authorize: async () => 'tok-123',
        headers: { 'a2a-extensions': 'https://ext.example/a,https://ext.example/b' },
        extraHeaders: async () => ({
          traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        }),
      },
    );
    expect(value).toMatchObject({ id: 'task-1', status: { state: 'TASK_STATE_COMPLETED' } });
    expect(raw).toEqual(task);
    expect(httpStatus).toBe(200);
    const call = peer.calls[before];
    expect(call?.method).toBe('GetTask');
    expect(codec.decode('lf.a2a.v1.GetTaskRequest', call?.body ?? new Uint8Array())).toEqual({
      id: 'task-1',
      historyLength: 2,
      tenant: 'acme',
    });
    expect(call?.metadata).toMatchObject({
      'a2a-version': '1.0',
      'a2a-extensions': 'https://ext.example/a,https://ext.example/b',
      authorization: 'Bearer tok-123',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
  });

  it('calls with no token and no extra headers on a connected channel: each its own A2A metadata', async () => {
    const binding = bindingOf();
    const onDispatch = vi.fn();
    // The first call connects the channel; the next ones find it ready. No call's metadata reaches another.
    for (const headers of [undefined, { 'a2a-extensions': 'https://ext.example/a' }, undefined]) {
      peer.answer({ kind: 'answer', bytes: taskBytes });
      await binding.unary(
        'getTask',
        { id: 'task-1' },
        { onDispatch, ...(headers === undefined ? {} : { headers }) },
      );
    }
    // A caller's own A2A-Version never replaces the binding's.
    peer.answer({ kind: 'answer', bytes: taskBytes });
    await binding.unary('getTask', { id: 'task-1' }, { headers: { 'a2a-version': '0.3' } });
    const sent = peer.calls.slice(-4).map((call) => call.metadata);
    expect(sent[0]).toMatchObject({ 'a2a-version': '1.0' });
    expect(sent[1]).toMatchObject({ 'a2a-version': '1.0', 'a2a-extensions': 'https://ext.example/a' });
    expect(sent[2]).toMatchObject({ 'a2a-version': '1.0' });
    expect(sent[2]).not.toHaveProperty('a2a-extensions');
    expect(sent[3]).toMatchObject({ 'a2a-version': '1.0' });
    expect(onDispatch).toHaveBeenCalledTimes(3);
  });

  it('a request over requestBodyBytes is refused before it leaves', async () => {
    const before = peer.calls.length;
    const onDispatch = vi.fn();
    const error = await failure(
      bindingOf(resolveLimits({ requestBodyBytes: 64 })).unary(
        'sendMessage',
        { message: { ...message, parts: [{ text: 'x'.repeat(100) }] } },
        { onDispatch },
      ),
    );
    expect(error).toMatchObject({ kind: 'request', reason: 'body-too-large', dispatched: false });
    expect(onDispatch).not.toHaveBeenCalled();
    expect(peer.calls.length).toBe(before);
  });

  it('a token provider that fails is unavailable, never dispatched', async () => {
    const error = await failure(
      bindingOf().unary('getTask', { id: 'task-1' }, { authorize: () => Promise.reject(new Error('no')) }),
    );
    expect(error).toMatchObject({ kind: 'authorization', reason: 'unavailable', dispatched: false });
  });

  it('a token provider that outlives requestTimeoutMs is timeout, never dispatched (fake time)', async () => {
    const before = peer.calls.length;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pending = failure(
      bindingOf(resolveLimits({ requestTimeoutMs: 5_000 })).unary(
        'getTask',
        { id: 'task-1' },
        { authorize: () => new Promise<string>(() => undefined) },
      ),
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await pending).toMatchObject({ kind: 'transport', reason: 'timeout', dispatched: false });
    expect(peer.calls.length).toBe(before);
  });

  it("the token provider's signal aborts with the caller's, and the call is aborted, never dispatched", async () => {
    const controller = new AbortController();
    let handed: AbortSignal | undefined;
    const pending = failure(
      bindingOf().unary(
        'getTask',
        { id: 'task-1' },
        {
          signal: controller.signal,
          authorize: (signal) => {
            handed = signal;
            controller.abort();
            return new Promise<string>(() => undefined);
          },
        },
      ),
    );
    expect(await pending).toMatchObject({ kind: 'request', reason: 'aborted', dispatched: false });
    expect(handed?.aborted).toBe(true);
  });

  it('a peer that cannot be reached fails before anything is sent: network, not dispatched', async () => {
    const closed = await startGrpcPeer();
    const url = closed.url;
    await closed.close();
    const onDispatch = vi.fn();
    const error = await failure(
      createGrpcBinding({ url, limits: resolveLimits({ requestTimeoutMs: 2_000 }) }).unary(
        'getTask',
        { id: 't' },
        { onDispatch },
      ),
    );
    expect(error).toMatchObject({ kind: 'transport', dispatched: false });
    expect(onDispatch).not.toHaveBeenCalled();
  });
});

describe('what the gRPC binding refuses in an answer', () => {
  it('a unary answer over responseBodyBytes is body-too-large, dispatched', async () => {
    peer.answer({ kind: 'answer', bytes: taskBytes });
    const error = await failure(
      bindingOf(resolveLimits({ responseBodyBytes: 8 })).unary('getTask', { id: 'task-1' }, {}),
    );
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'body-too-large', dispatched: true });
  });

  it('bytes that are no message of the answer type: schema, rule protobuf', async () => {
    peer.answer({ kind: 'answer', bytes: new Uint8Array([0x0a, 0xff, 0x01]) });
    const error = await failure(bindingOf().unary('getTask', { id: 'task-1' }, {}));
    expect(error).toMatchObject({
      kind: 'invalid-response',
      reason: 'schema',
      dispatched: true,
      violation: { rule: 'protobuf' },
    });
  });

  it('a valid message that breaks the contract goes through the same schema checks', async () => {
    peer.answer({ kind: 'answer', bytes: codec.encode('lf.a2a.v1.Task', { ...task, id: '' }) });
    const error = await failure(bindingOf().unary('getTask', { id: 'task-1' }, {}));
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'schema', dispatched: true });
  });

  it('an A2A error: its ErrorInfo names it, the agreeing status code makes the code authoritative', async () => {
    const statusDetails = codec.encode('google.rpc.Status', {
      code: 5,
      message: 'peer words',
      details: [{ '@type': errorInfoType, reason: 'TASK_NOT_FOUND', domain: errorDomain }],
    });
    peer.answer({ kind: 'fail', code: 5, statusDetails });
    const error = await failure(bindingOf().unary('getTask', { id: 'task-1' }, {}));
    expect(error).toMatchObject({
      kind: 'remote',
      reason: 'TASK_NOT_FOUND',
      remoteCode: -32001,
      dispatched: true,
    });
    expect(JSON.stringify(error)).not.toContain('peer words');
  });

  it('a stream: each message decoded in order, the end after them', async () => {
    const statusUpdate = { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } };
    peer.answer({
      kind: 'stream',
      messages: [
        codec.encode('lf.a2a.v1.StreamResponse', {
          task: { ...task, status: { state: 'TASK_STATE_WORKING' } },
        }),
        codec.encode('lf.a2a.v1.StreamResponse', { statusUpdate }),
      ],
    });
    const frames = await bindingOf().stream('sendStreamingMessage', { message }, {});
    const { events, error } = await drain(frames);
    expect(error).toBeUndefined();
    expect(events.map((event) => Object.keys(event as object))).toEqual([['task'], ['statusUpdate']]);
  });

  it('a stream message over sseEventBytes is body-too-large', async () => {
    peer.answer({
      kind: 'stream',
      messages: [codec.encode('lf.a2a.v1.StreamResponse', { task })],
    });
    const frames = await bindingOf(resolveLimits({ sseEventBytes: 16, sseLineBytes: 16 })).stream(
      'subscribeToTask',
      { id: 'task-1' },
      {},
    );
    const { error } = await drain(frames);
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'body-too-large', dispatched: true });
  });

  it('a stream message that is an empty StreamResponse is oneof-none', async () => {
    peer.answer({ kind: 'stream', messages: [new Uint8Array()] });
    const frames = await bindingOf().stream('subscribeToTask', { id: 'task-1' }, {});
    const { error } = await drain(frames);
    expect(error).toMatchObject({
      kind: 'invalid-response',
      reason: 'schema',
      violation: { rule: 'oneof-none' },
    });
  });

  it('an answer that never comes ends at requestTimeoutMs: timeout, dispatched (fake time)', async () => {
    const binding = bindingOf(resolveLimits({ requestTimeoutMs: 5_000 }));
    // The channel connects first, in real time; the call that hangs then runs on the fake clock.
    peer.answer({ kind: 'answer', bytes: taskBytes });
    await binding.unary('getTask', { id: 'task-1' }, {});
    peer.answer({ kind: 'hang' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pending = failure(binding.unary('getTask', { id: 'task-1' }, {}));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await pending).toMatchObject({ kind: 'transport', reason: 'timeout', dispatched: true });
  });

  it("the caller's signal after dispatch: aborted, dispatched", async () => {
    const binding = bindingOf();
    peer.answer({ kind: 'answer', bytes: taskBytes });
    await binding.unary('getTask', { id: 'task-1' }, {});
    peer.answer({ kind: 'hang' });
    const controller = new AbortController();
    const pending = failure(
      binding.unary(
        'getTask',
        { id: 'task-1' },
        { signal: controller.signal, onDispatch: () => controller.abort() },
      ),
    );
    expect(await pending).toMatchObject({ kind: 'transport', reason: 'aborted', dispatched: true });
  });
});
