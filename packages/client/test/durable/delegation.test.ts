/**
`startDelegation` against the mock agent, over both bindings, with fake timers: the key it adds or keeps,
every outcome of the union, the cancel on a parent's abort or a lost stream, and a lost start retried by the
client's policy. Two cases no conformant client produces use a scripted client.
*/
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { A2aClient } from '../../src/client/client.js';
import { InvalidResponseError, RequestError, TransportError } from '../../src/core/errors.js';
import { startDelegation } from '../../src/durable/delegation.js';
import {
  idempotencyExtensionUri,
  idempotencyMetadataKey,
  keyOf,
  newIdempotencyKey,
} from '../../src/idempotency/key.js';
import type { StreamResponse } from '../../src/protocol/stream.js';
import type { Task } from '../../src/protocol/task.js';
import { bindings, drive, mountAgent, rejection, server, userMessage } from '../support/retry-agents.js';

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(() => vi.useRealTimers());
afterEach(() => {
  vi.useRealTimers();
  server.resetHandlers();
});
afterAll(() => server.close());

const policy = { random: () => 0 } as const;

async function sentMessageOf(client: A2aClient, taskId: string) {
  const task: Task = await drive(client.getTask({ id: taskId }));
  return task.history[0];
}

describe.each(bindings)('startDelegation over %s', (binding) => {
  it('gives the child a fresh key when the peer honours keys, and leaves the caller’s message alone', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding);
    vi.useFakeTimers();
    const message = userMessage('task a b');

    const delegation = await drive(startDelegation(client, { message }));

    expect(delegation.idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
    expect(delegation.taskId).toBeDefined();
    expect(await drive(delegation.outcome)).toMatchObject({
      kind: 'completed',
      taskId: delegation.taskId,
      status: { state: 'TASK_STATE_COMPLETED' },
    });
    const sent = await sentMessageOf(client, delegation.taskId ?? '');
    expect(sent?.metadata).toEqual({ [idempotencyMetadataKey]: delegation.idempotencyKey });
    expect(sent?.extensions).toEqual([idempotencyExtensionUri]);
    expect('metadata' in message).toBe(false);
  });

  it('keeps a key the caller set', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding);
    vi.useFakeTimers();
    const key = newIdempotencyKey();

    const delegation = await drive(startDelegation(client, { message: userMessage('task a', key) }));

    expect(delegation.idempotencyKey).toBe(key);
    expect(keyOf((await sentMessageOf(client, delegation.taskId ?? '')) ?? {})).toEqual({
      ok: true,
      value: key,
    });
  });

  it('adds no key for a peer not known to honour keys', async () => {
    const mock = await mountAgent({ mode: 'foreign' });
    const client = mock.client(binding);
    vi.useFakeTimers();

    const delegation = await drive(startDelegation(client, { message: userMessage('task a') }));

    expect(delegation.idempotencyKey).toBeUndefined();
    expect((await sentMessageOf(client, delegation.taskId ?? ''))?.metadata).toBeUndefined();
  });

  it('refuses a malformed caller key before anything is sent', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding);
    const message = userMessage('task a', undefined, { metadata: { [idempotencyMetadataKey]: 'short' } });

    await expect(startDelegation(client, { message })).rejects.toBeInstanceOf(RequestError);
    expect(mock.requests()).toBe(0);
  });

  it.each([
    ['fail', 'failed', 'TASK_STATE_FAILED'],
    ['reject', 'failed', 'TASK_STATE_REJECTED'],
    ['input', 'interrupted', 'TASK_STATE_INPUT_REQUIRED'],
    ['auth', 'interrupted', 'TASK_STATE_AUTH_REQUIRED'],
  ])('a child that ends %s resolves %s', async (text, kind, state) => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding);
    vi.useFakeTimers();

    const delegation = await drive(startDelegation(client, { message: userMessage(text) }));

    expect(await drive(delegation.outcome)).toMatchObject({ kind, status: { state } });
    // A settled child is never canceled: an interrupted one waits for the parent.
    expect((await drive(client.getTask({ id: delegation.taskId ?? '' }))).status.state).not.toBe(
      'TASK_STATE_CANCELED',
    );
  });

  it('a child answering with a direct message resolves `message`, with no task', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding);
    vi.useFakeTimers();

    const delegation = await drive(startDelegation(client, { message: userMessage('echo hi') }));

    expect(delegation.taskId).toBeUndefined();
    expect(await delegation.outcome).toMatchObject({ kind: 'message', message: { role: 'ROLE_AGENT' } });
  });

  it('a child canceled by someone else resolves `canceled`', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding);
    vi.useFakeTimers();
    const delegation = await drive(startDelegation(client, { message: userMessage('slow 30') }));

    await drive(client.cancelTask({ id: delegation.taskId ?? '' }));

    expect(await drive(delegation.outcome)).toMatchObject({
      kind: 'canceled',
      status: { state: 'TASK_STATE_CANCELED' },
    });
  });

  it('the parent’s abort cancels the child: `cancel-requested`', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding);
    vi.useFakeTimers();
    const parent = new AbortController();
    const delegation = await drive(startDelegation(client, { message: userMessage('slow 30') }, parent));

    parent.abort();

    const outcome = await drive(delegation.outcome);
    expect(outcome).toMatchObject({ kind: 'cancel-requested', taskId: delegation.taskId });
    expect(outcome.kind === 'cancel-requested' && outcome.task.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('the parent’s abort with a CancelTask that fails: `cancel-failed`, the child may still run', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding);
    vi.useFakeTimers();
    const parent = new AbortController();
    const delegation = await drive(startDelegation(client, { message: userMessage('slow 30') }, parent));
    mock.faults.set({ kind: 'drop-before', operation: 'CancelTask' });

    parent.abort();

    const outcome = await drive(delegation.outcome);
    expect(outcome).toMatchObject({ kind: 'cancel-failed', taskId: delegation.taskId });
    expect(outcome.kind === 'cancel-failed' && outcome.error).toBeInstanceOf(TransportError);
    expect((await drive(client.getTask({ id: delegation.taskId ?? '' }))).status.state).toBe(
      'TASK_STATE_WORKING',
    );
  });

  it('a stream lost before the child settled cancels it: `lost`', async () => {
    const mock = await mountAgent({ mode: 'honouring', stepMs: 100 });
    const client = mock.client(binding);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 1 });
    // The client resumes a cut stream by SubscribeToTask (docs/protocol-checks.md#stream-resumption): the
    // stream is lost only when every resumption fails too.
    mock.faults.set({ kind: 'drop-before', operation: 'SubscribeToTask', count: 3 });
    const delegation = await drive(startDelegation(client, { message: userMessage('slow 30') }));

    const outcome = await drive(delegation.outcome);

    expect(outcome).toMatchObject({ kind: 'lost', taskId: delegation.taskId, cancel: 'requested' });
    expect(outcome.kind === 'lost' && outcome.error).toBeInstanceOf(TransportError);
    expect((await drive(client.getTask({ id: delegation.taskId ?? '' }))).status.state).toBe(
      'TASK_STATE_CANCELED',
    );
  });

  it('a stream cut after the child named its task is resumed by the client: `completed`, the child run once', async () => {
    const mock = await mountAgent({ mode: 'honouring', stepMs: 100 });
    const client = mock.client(binding);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 1 });
    const message = userMessage('task a b');
    const delegation = await drive(startDelegation(client, { message }));

    expect(await drive(delegation.outcome)).toMatchObject({ kind: 'completed', taskId: delegation.taskId });
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
  });

  it('a lost stream whose cancel fails too: `lost`, with `cancel: failed`', async () => {
    const mock = await mountAgent({ mode: 'honouring', stepMs: 100 });
    const client = mock.client(binding);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 1 });
    mock.faults.set({ kind: 'drop-before', operation: 'SubscribeToTask', count: 3 });
    mock.faults.set({ kind: 'drop-before', operation: 'CancelTask' });
    const delegation = await drive(startDelegation(client, { message: userMessage('slow 30') }));

    expect(await drive(delegation.outcome)).toMatchObject({ kind: 'lost', cancel: 'failed' });
  });

  it('a start whose stream is lost is retried by a client with a policy: the agent runs the child once', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    mock.faults.set({ kind: 'drop-after', operation: 'SendStreamingMessage' });
    const message = userMessage('task a b');

    const delegation = await drive(startDelegation(client, { message }));

    expect(await drive(delegation.outcome)).toMatchObject({ kind: 'completed' });
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
    expect(mock.requests()).toBe(2);
  });

  it('a failed start rejects, and returns no handle', async () => {
    const mock = await mountAgent({ mode: 'foreign' });
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    mock.faults.set({ kind: 'drop-after', operation: 'SendStreamingMessage' });

    const error = await rejection(startDelegation(client, { message: userMessage('task a') }));

    expect(error).toMatchObject({ kind: 'transport', dispatched: true });
    expect(mock.requests()).toBe(1);
  });
});

/** A client whose stream yields exactly `events` and then ends; nothing else is called. */
function scripted(events: readonly StreamResponse[]): A2aClient {
  return {
    honoursIdempotency: false,
    sendStreamingMessage: () =>
      (async function* () {
        yield* events;
      })(),
    cancelTask: async () => Promise.reject(new TransportError('network', { dispatched: true })),
  } as unknown as A2aClient;
}

describe('startDelegation with a client that lets a broken stream through', () => {
  const working = {
    task: { id: 't-1', contextId: 'c', status: { state: 'TASK_STATE_WORKING' as const }, history: [] },
  };

  it('refuses a stream that does not start with the task or a message', async () => {
    const update = {
      statusUpdate: { taskId: 't-1', contextId: 'c', status: { state: 'TASK_STATE_WORKING' as const } },
    };
    await expect(startDelegation(scripted([update]), { message: userMessage('x') })).rejects.toBeInstanceOf(
      InvalidResponseError,
    );
    await expect(startDelegation(scripted([]), { message: userMessage('x') })).rejects.toBeInstanceOf(
      InvalidResponseError,
    );
  });

  it('reads an end before the child settled as a lost stream', async () => {
    const delegation = await startDelegation(scripted([working]), { message: userMessage('x') });
    const outcome = await delegation.outcome;
    expect(outcome).toMatchObject({ kind: 'lost', taskId: 't-1', cancel: 'failed' });
    expect(outcome.kind === 'lost' && outcome.error).toMatchObject({
      kind: 'invalid-response',
      reason: 'lifecycle',
    });
  });
});
