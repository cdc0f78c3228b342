/**
Keyed sends against the mock agent in its three modes (`honouring`, `refusing`, `foreign`), over both
bindings, with fake timers for every backoff: the scenarios of docs/idempotency.md#what-the-tests-prove, items
19–33, 55–58 and 68, from the client's side.
*/
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientRetryEvent } from '../../src/client/events.js';
import { isClientError, RemoteError, TransportError } from '../../src/core/errors.js';
import { idempotencyExtensionUri, newIdempotencyKey } from '../../src/idempotency/key.js';
import type { StreamResponse } from '../../src/protocol/stream.js';
import type { Task } from '../../src/protocol/task.js';
import {
  bindings,
  collect,
  drive,
  mountAgent,
  record,
  rejection,
  server,
  userMessage,
} from '../support/retry-agents.js';

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(() => vi.useRealTimers());
afterEach(() => {
  vi.useRealTimers();
  server.resetHandlers();
});
afterAll(() => server.close());

// Jitter pinned to the bottom of its range: the first backoff is 250 ms.
const policy = { random: () => 0 } as const;

function taskOf(result: { readonly task?: Task } | object): Task {
  if (!('task' in result) || result.task === undefined) {
    throw new Error('expected a task');
  }
  return result.task as Task;
}

function retries(events: readonly { readonly type: string }[]): ClientRetryEvent[] {
  return events.filter((event): event is ClientRetryEvent => event.type === 'retry');
}

describe.each(bindings)('against an honouring agent over %s', (binding) => {
  it('a keyed send whose answer was lost after commit is retried and answered with the first task, run once', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding, { retry: policy });
    expect(client.honoursIdempotency).toBe(true);
    const events = record(client);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const message = userMessage('task a b', newIdempotencyKey(), { contextId: crypto.randomUUID() });

    const result = await drive(client.sendMessage({ message }));

    const task = taskOf(result);
    expect(result.replayed).toBe(true);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
    expect(mock.requests()).toBe(2);
    // The only task of the context is the one the first attempt created.
    const page = await drive(client.listTasks({ contextId: message.contextId ?? '' }));
    expect(page.tasks.map(({ id }) => id)).toEqual([task.id]);
    expect(retries(events)).toMatchObject([
      { attempt: 1, delayMs: 250, error: { kind: 'transport', reason: 'network', dispatched: true } },
    ]);
  });

  it('a blocking replay may be a task still SUBMITTED: accepted for the replay, and flagged', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    // The retry's answer is rewritten to SUBMITTED, as a2a-rust answers a replay that overtakes its first
    // attempt.
    mock.faults.set({ kind: 'blocking-submitted', operation: 'SendMessage' });
    const message = userMessage('task a', newIdempotencyKey());

    const result = await drive(client.sendMessage({ message }));

    expect(taskOf(result).status.state).toBe('TASK_STATE_SUBMITTED');
    expect(result.replayed).toBe(true);
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
  });

  it('the first answer of a keyed send still must be settled: SUBMITTED fails the lifecycle check and is not retried', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    mock.faults.set({ kind: 'blocking-submitted', operation: 'SendMessage' });

    const error = await rejection(
      client.sendMessage({ message: userMessage('task a', newIdempotencyKey()) }),
    );

    expect(isClientError(error) && [error.kind, error.reason]).toEqual(['invalid-response', 'lifecycle']);
    expect(mock.requests()).toBe(1);
  });

  it('an answer that needed no retry carries no `replayed`', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    const result = await drive(client.sendMessage({ message: userMessage('task a', newIdempotencyKey()) }));
    expect('replayed' in result).toBe(false);
  });

  it('a keyed send is not retried when the peer is denied to honour keys (`peerHonoursIdempotency: false`)', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding, { retry: policy, peerHonoursIdempotency: false });
    expect(client.honoursIdempotency).toBe(false);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });

    const error = await rejection(
      client.sendMessage({ message: userMessage('task a', newIdempotencyKey()) }),
    );

    expect(error).toBeInstanceOf(TransportError);
    expect(mock.requests()).toBe(1);
  });

  it('without a retry policy a keyed send is never re-sent, even to an honouring peer', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });

    const error = await rejection(
      client.sendMessage({ message: userMessage('task a', newIdempotencyKey()) }),
    );

    expect(isClientError(error) && error.dispatched).toBe(true);
    expect(mock.requests()).toBe(1);
  });

  it('a key reused by another message is a conflict (-32602), and is not retried', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    const key = newIdempotencyKey();
    await drive(client.sendMessage({ message: userMessage('task a', key) }));
    const reused = userMessage('task b', key);

    const error = await rejection(client.sendMessage({ message: reused }));

    expect(error).toBeInstanceOf(RemoteError);
    expect(error).toMatchObject({ remoteCode: -32602, reason: 'INVALID_PARAMS', dispatched: true });
    expect(mock.requests()).toBe(2);
    expect(mock.agent.executions.of(reused.messageId)).toBe(0);
  });

  it('sixteen concurrent identical keyed sends run once and all answer the same task', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    const message = userMessage('task a b c', newIdempotencyKey());

    const results = await drive(
      Promise.all(Array.from({ length: 16 }, () => client.sendMessage({ message }))),
    );

    expect(new Set(results.map((result) => taskOf(result).id)).size).toBe(1);
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
  });

  it('a keyed streaming send retried after a lost establishment attaches to the live task', async () => {
    const mock = await mountAgent({ mode: 'honouring', stepMs: 1000 });
    const client = mock.client(binding, { retry: policy, limits: { requestTimeoutMs: 1000 } });
    const events = record(client);
    vi.useFakeTimers();
    // The agent starts the task, but its stream comes too late: the establishment deadline passes first.
    mock.faults.set({ kind: 'delay', operation: 'SendStreamingMessage', when: 'after', ms: 60_000 });
    const message = userMessage('task a b c', newIdempotencyKey(), { contextId: crypto.randomUUID() });

    const stream: StreamResponse[] = await drive(collect(client.sendStreamingMessage({ message })));

    const [first, ...rest] = stream;
    const task = first !== undefined && 'task' in first ? first.task : undefined;
    // The replay's first event is the running task, then its live events to the end
    // (docs/idempotency.md#replays).
    expect(task?.status.state).toBe('TASK_STATE_WORKING');
    expect(rest.filter((event) => 'artifactUpdate' in event)).toHaveLength(3);
    const last = rest.at(-1);
    expect(last !== undefined && 'statusUpdate' in last && last.statusUpdate.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
    const page = await drive(client.listTasks({ contextId: message.contextId ?? '' }));
    expect(page.tasks.map(({ id }) => id)).toEqual([task?.id]);
    expect(retries(events)).toMatchObject([{ attempt: 1, error: { reason: 'timeout', dispatched: true } }]);
  });

  it('a keyed stream is never re-sent once it is established: with resumption off, a cut after a frame ends it', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 1 });
    const message = userMessage('task a b', newIdempotencyKey());
    const delivered: StreamResponse[] = [];

    const error = await rejection(
      (async () => {
        for await (const event of client.sendStreamingMessage({ message }, { resume: false })) {
          delivered.push(event);
        }
      })(),
    );

    expect(error).toBeInstanceOf(TransportError);
    expect(delivered).toHaveLength(1);
    expect(mock.requests()).toBe(1);
  });

  it('a 503 with Retry-After waits exactly that long, then the keyed retry replays', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding, { retry: policy });
    const events = record(client);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'status-after', operation: 'SendMessage', status: 503, retryAfterSeconds: 2 });
    const message = userMessage('task a', newIdempotencyKey());

    const result = await drive(client.sendMessage({ message }));

    expect(result.replayed).toBe(true);
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
    expect(retries(events)).toMatchObject([
      { attempt: 1, delayMs: 2000, error: { httpStatus: 503, retryAfterMs: 2000 } },
    ]);
    const sent = events.filter((event) => event.type === 'request').map((event) => event.time);
    expect(sent).toHaveLength(2);
    expect((sent[1] ?? 0) - (sent[0] ?? 0)).toBeGreaterThanOrEqual(2000);
  });

  it('a Retry-After beyond the cap ends the retries: the peer asked for more patience than the policy has', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding, { retry: { ...policy, maxBackoffMs: 5000 } });
    const events = record(client);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'status-after', operation: 'SendMessage', status: 503, retryAfterSeconds: 3600 });

    const error = await drive(
      client.sendMessage({ message: userMessage('task a', newIdempotencyKey()) }),
    ).then(
      () => undefined,
      (caught: unknown) => caught,
    );

    expect(error).toMatchObject({ httpStatus: 503, retryAfterMs: 3_600_000, dispatched: true });
    expect(retries(events)).toEqual([]);
    expect(mock.requests()).toBe(1);
  });

  it('a Retry-After within the cap is waited out exactly', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client(binding, { retry: { ...policy, maxBackoffMs: 5000 } });
    const events = record(client);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'status-after', operation: 'SendMessage', status: 503, retryAfterSeconds: 5 });

    await drive(client.sendMessage({ message: userMessage('task a', newIdempotencyKey()) }));

    expect(retries(events).map(({ delayMs }) => delayMs)).toEqual([5000]);
  });

  it('a retry that arrives after the key expired is a new send: the limit the seed documents', async () => {
    // The client cannot see the peer's TTL; with a2a-rust's 24 h against at most a few minutes of retries,
    // this cannot happen.
    const mock = await mountAgent({ mode: 'honouring', keyTtlMs: 100 });
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const message = userMessage('task a', newIdempotencyKey(), { contextId: crypto.randomUUID() });

    const result = await drive(client.sendMessage({ message }));

    expect(mock.agent.executions.of(message.messageId)).toBe(2);
    const page = await drive(client.listTasks({ contextId: message.contextId ?? '' }));
    expect(page.tasks).toHaveLength(2);
    expect(page.tasks.map(({ id }) => id)).toContain(taskOf(result).id);
  });

  it('a retry that finds the key outlived its task gets TaskNotFound (-32001), which is final', async () => {
    const mock = await mountAgent({ mode: 'honouring', taskTtlMs: 100 });
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const message = userMessage('task a', newIdempotencyKey());

    const error = await rejection(client.sendMessage({ message }));

    expect(error).toMatchObject({ kind: 'remote', remoteCode: -32001, dispatched: true });
    expect(mock.requests()).toBe(2);
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
  });
});

describe('against an honouring agent at its key cap', () => {
  it('HTTP+JSON: a new key past the cap is refused with 503 and nothing runs; the retry after a key expired runs once', async () => {
    const mock = await mountAgent({ mode: 'honouring', keyCapPerTenant: 1, keyTtlMs: 200 });
    const client = mock.client('HTTP+JSON', { retry: policy });
    const events = record(client);
    vi.useFakeTimers();
    await drive(client.sendMessage({ message: userMessage('task a', newIdempotencyKey()) }));
    const second = userMessage('task b', newIdempotencyKey());

    const result = await drive(client.sendMessage({ message: second }));

    expect(taskOf(result).status.state).toBe('TASK_STATE_COMPLETED');
    expect(mock.agent.executions.of(second.messageId)).toBe(1);
    expect(retries(events)).toMatchObject([{ attempt: 1, error: { kind: 'remote', httpStatus: 503 } }]);
  });

  it('JSON-RPC: the same refusal is -32603 in a 200 answer, which no policy retries', async () => {
    // docs/idempotency.md#errors-on-the-wire: JSON-RPC defines no throttling code; the binding answers every
    // error with 200.
    const mock = await mountAgent({ mode: 'honouring', keyCapPerTenant: 1, keyTtlMs: 200 });
    const client = mock.client('JSONRPC', { retry: policy });
    vi.useFakeTimers();
    await drive(client.sendMessage({ message: userMessage('task a', newIdempotencyKey()) }));
    const second = userMessage('task b', newIdempotencyKey());

    const error = await rejection(client.sendMessage({ message: second }));

    expect(error).toMatchObject({ kind: 'remote', remoteCode: -32603 });
    expect(mock.requests()).toBe(2);
    expect(mock.agent.executions.of(second.messageId)).toBe(0);
  });
});

describe.each(bindings)('against a foreign agent over %s', (binding) => {
  it('its card does not advertise the extension, so a keyed send is as non-retryable as an unkeyed one', async () => {
    const mock = await mountAgent({ mode: 'foreign' });
    const client = mock.client(binding, { retry: policy });
    expect(client.honoursIdempotency).toBe(false);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const message = userMessage('task a', newIdempotencyKey());

    const error = await rejection(client.sendMessage({ message }));

    // The outcome is unknown: the foreign agent ran the send, and a retry would have run it again.
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ reason: 'network', dispatched: true });
    expect(mock.requests()).toBe(1);
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
  });

  it('asserting `peerHonoursIdempotency: true` for a foreign agent is what would run the send twice', async () => {
    const mock = await mountAgent({ mode: 'foreign' });
    const client = mock.client(binding, { retry: policy, peerHonoursIdempotency: true });
    expect(client.honoursIdempotency).toBe(true);
    vi.useFakeTimers();
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const message = userMessage('task a', newIdempotencyKey());

    await drive(client.sendMessage({ message }));

    expect(mock.agent.executions.of(message.messageId)).toBe(2);
  });

  it('an idempotent operation is still retried against it', async () => {
    const mock = await mountAgent({ mode: 'foreign' });
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    const task = taskOf(await drive(client.sendMessage({ message: userMessage('task a') })));
    mock.faults.set({ kind: 'drop-after', operation: 'GetTask' });

    const read = await drive(client.getTask({ id: task.id }));

    expect(read.id).toBe(task.id);
    expect(mock.requests()).toBe(3);
  });
});

describe.each(bindings)('against a refusing agent over %s', (binding) => {
  it('a keyed send is refused with -32004, runs nothing and is not retried, even when honouring is asserted', async () => {
    const mock = await mountAgent({ mode: 'refusing' });
    expect(mock.client(binding).honoursIdempotency).toBe(false);
    const client = mock.client(binding, { retry: policy, peerHonoursIdempotency: true });
    vi.useFakeTimers();
    const message = userMessage('task a', newIdempotencyKey());

    const error = await rejection(client.sendMessage({ message }));

    expect(error).toBeInstanceOf(RemoteError);
    expect(error).toMatchObject({ remoteCode: -32004, reason: 'UNSUPPORTED_OPERATION' });
    expect(mock.requests()).toBe(1);
    expect(mock.agent.executions.total()).toBe(0);
  });

  it('an unkeyed send still works', async () => {
    const mock = await mountAgent({ mode: 'refusing' });
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    const result = await drive(client.sendMessage({ message: userMessage('task a') }));
    expect(taskOf(result).status.state).toBe('TASK_STATE_COMPLETED');
  });
});

describe('the key on the wire', () => {
  it('travels in message.metadata with the URI declared, exactly as set', async () => {
    const mock = await mountAgent({ mode: 'honouring' });
    const client = mock.client('HTTP+JSON');
    const key = newIdempotencyKey();
    const result = await client.sendMessage({ message: userMessage('task a', key) });
    const [sent] = taskOf(result).history;
    expect(sent?.metadata).toEqual({ 'a2a-rust.com/idempotency-key': key });
    expect(sent?.extensions).toEqual([idempotencyExtensionUri]);
  });
});
