/**
The retry policy of a client against the mock agent, over both bindings, with fake timers: what is retried
without a key (idempotent operations on any transient failure; an unkeyed send never once it may have left, a
429 or 503 included), the retry matrix of docs/idempotency.md#what-the-tests-prove, item 66, stream
establishment, exhaustion and the caller's abort during a backoff.
*/
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { A2aClient } from '../../src/client/client.js';
import type { ClientEvent, ClientRetryEvent } from '../../src/client/events.js';
import { HttpProtocolError, TransportError } from '../../src/core/errors.js';
import type { Task } from '../../src/protocol/task.js';
import {
  bindings,
  collect,
  drive,
  type MountedAgent,
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

const policy = { random: () => 0 } as const;

/**
The next `statuses.length` A2A requests to the agent are answered with these statuses (empty bodies); later
ones reach it.
*/
function answerWith(mock: MountedAgent, statuses: readonly number[]): void {
  const queue = [...statuses];
  server.use(
    http.all(`${mock.origin}/a2a/*`, () => {
      const status = queue.shift();
      return status === undefined ? undefined : new HttpResponse(null, { status });
    }),
  );
}

async function startTask(client: A2aClient, text = 'task a', returnImmediately = false): Promise<Task> {
  const result = await drive(
    client.sendMessage({ message: userMessage(text), configuration: { returnImmediately } }),
  );
  if (!('task' in result)) {
    throw new Error('expected a task');
  }
  return result.task;
}

function retries(events: readonly ClientEvent[]): ClientRetryEvent[] {
  return events.filter((event): event is ClientRetryEvent => event.type === 'retry');
}

describe.each(bindings)('an unkeyed send over %s', (binding) => {
  it.each([429, 503, 502, 504, 500])(
    'answered %i is sent once: no status proves that nothing was applied',
    async (status) => {
      const mock = await mountAgent();
      const client = mock.client(binding, { retry: policy });
      vi.useFakeTimers();
      const events = record(client);
      answerWith(mock, [status]);
      const message = userMessage('task a');

      const error = await rejection(client.sendMessage({ message }));

      expect(mock.requests()).toBe(1);
      expect(retries(events)).toEqual([]);
      expect(error).toMatchObject({ kind: 'http-protocol', httpStatus: status, dispatched: true });
      expect(mock.agent.executions.of(message.messageId)).toBe(0);
    },
  );

  it('a proxy that answers 503 after the agent ran the send: sent once, run once, the outcome open', async () => {
    // What Envoy does when the upstream resets after receiving the request: the work is done, the answer
    // says 503.
    const mock = await mountAgent();
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    mock.faults.set({ kind: 'status-after', operation: 'SendMessage', status: 503, retryAfterSeconds: 1 });
    const message = userMessage('task a');

    const error = await rejection(client.sendMessage({ message }));

    expect(error).toMatchObject({ httpStatus: 503, dispatched: true });
    expect(mock.requests()).toBe(1);
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
  });

  it('a lost connection is ambiguous: the send is not retried and its error says it was dispatched', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const message = userMessage('task a');

    const error = await rejection(client.sendMessage({ message }));

    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ reason: 'network', dispatched: true });
    expect(mock.requests()).toBe(1);
    expect(mock.agent.executions.of(message.messageId)).toBe(1);
  });

  it('a streaming send is retried neither on a 503 establishment nor on a lost one', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    answerWith(mock, [503]);
    const refused = await rejection(collect(client.sendStreamingMessage({ message: userMessage('task a') })));
    expect(refused).toMatchObject({ httpStatus: 503, dispatched: true });
    expect(mock.requests()).toBe(1);

    mock.faults.set({ kind: 'drop-before', operation: 'SendStreamingMessage' });
    const error = await rejection(collect(client.sendStreamingMessage({ message: userMessage('task a') })));
    expect(error).toBeInstanceOf(TransportError);
    expect(mock.requests()).toBe(2);
  });
});

describe.each(bindings)(
  'the retry matrix over %s (docs/idempotency.md#what-the-tests-prove, item 66)',
  (binding) => {
    it.each([
      // a2a-rust retries this send; a 503 does not prove the first attempt was not applied
      // (docs/idempotency.md#retry-policy).
      ['send', [503, 503], 1, 'failure'],
      ['send', [400], 1, 'failure'],
      ['get', [502], 2, 'success'],
      ['get', [504], 2, 'success'],
      ['get', [500], 1, 'failure'],
      ['get', [503, 503, 503, 503, 503], 4, 'failure'],
    ] as const)('%s answered %j: %i request(s), %s', async (operation, statuses, sent, outcome) => {
      const mock = await mountAgent();
      const client = mock.client(binding, { retry: policy });
      vi.useFakeTimers();
      const task = operation === 'get' ? await startTask(client) : undefined;
      const before = mock.requests();
      answerWith(mock, statuses);

      const call: Promise<unknown> =
        task === undefined
          ? client.sendMessage({ message: userMessage('task a') })
          : client.getTask({ id: task.id });
      const settled = await drive(call).then(
        () => 'success',
        () => 'failure',
      );

      expect(settled).toBe(outcome);
      expect(mock.requests() - before).toBe(sent);
    });
  },
);

describe.each(bindings)('idempotent operations over %s', (binding) => {
  it('are retried on a lost connection: GetTask, ListTasks, CancelTask', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    const done = await startTask(client);
    const slow = await startTask(client, 'slow 30', true);
    const before = mock.requests();
    mock.faults.set({ kind: 'drop-after', operation: 'GetTask' });
    mock.faults.set({ kind: 'drop-after', operation: 'ListTasks' });
    mock.faults.set({ kind: 'drop-before', operation: 'CancelTask' });

    expect((await drive(client.getTask({ id: done.id }))).id).toBe(done.id);
    expect((await drive(client.listTasks({ contextId: done.contextId }))).tasks).toHaveLength(1);
    expect((await drive(client.cancelTask({ id: slow.id }))).status.state).toBe('TASK_STATE_CANCELED');
    expect(mock.requests() - before).toBe(6);
  });

  it('a CancelTask retried after its answer was lost reports TaskNotCancelable: the first attempt canceled it', async () => {
    // Idempotent in effect (the task ends canceled once), not in answer: A2A spec §3.1.5 refuses to cancel a
    // terminal task.
    const mock = await mountAgent();
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    const slow = await startTask(client, 'slow 30', true);
    mock.faults.set({ kind: 'drop-after', operation: 'CancelTask' });

    const error = await rejection(client.cancelTask({ id: slow.id }));

    expect(error).toMatchObject({ kind: 'remote', remoteCode: -32002 });
    expect((await drive(client.getTask({ id: slow.id }))).status.state).toBe('TASK_STATE_CANCELED');
  });

  it('SubscribeToTask retries its establishment on a 503', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding, { retry: policy });
    vi.useFakeTimers();
    const slow = await startTask(client, 'slow 2', true);
    answerWith(mock, [503]);
    const before = mock.requests();

    const events = await drive(collect(client.subscribeToTask({ id: slow.id })));

    expect(events[0]).toMatchObject({ task: { id: slow.id } });
    expect(events.at(-1)).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });
    expect(mock.requests() - before).toBe(2);
  });

  it('without a policy, nothing is ever re-sent', async () => {
    const mock = await mountAgent();
    const client = mock.client(binding);
    vi.useFakeTimers();
    const task = await startTask(client);
    answerWith(mock, [503]);
    const before = mock.requests();

    const error = await rejection(client.getTask({ id: task.id }));

    expect(error).toBeInstanceOf(HttpProtocolError);
    expect(mock.requests() - before).toBe(1);
  });
});

describe('backoff and exhaustion', () => {
  it('waits 250, 500, 1000 ms (jitter at its floor), reports each retry, then fails with the last error', async () => {
    const mock = await mountAgent();
    const client = mock.client('HTTP+JSON', { retry: policy });
    vi.useFakeTimers();
    const task = await startTask(client);
    const events = record(client);
    answerWith(mock, [503, 503, 503, 503, 503]);

    const error = await rejection(client.getTask({ id: task.id }));

    expect(error).toMatchObject({ kind: 'http-protocol', httpStatus: 503 });
    expect(retries(events).map(({ attempt, delayMs }) => [attempt, delayMs])).toEqual([
      [1, 250],
      [2, 500],
      [3, 1000],
    ]);
    const times = events.filter((event) => event.type === 'request').map((event) => event.time);
    expect(times.slice(1).map((time, index) => time - (times[index] ?? 0))).toEqual([250, 500, 1000]);
    // One call: one callId throughout, and exactly one final error event.
    expect(new Set(events.map((event) => event.callId)).size).toBe(1);
    expect(events.filter((event) => event.type === 'error')).toHaveLength(1);
  });

  it('an abort during the backoff of an ambiguous failure ends the call as TransportError aborted, dispatched', async () => {
    const mock = await mountAgent();
    const client = mock.client('JSONRPC', { retry: policy });
    vi.useFakeTimers();
    const task = await startTask(client);
    answerWith(mock, [502]);
    const controller = new AbortController();
    client.events.subscribe((event) => {
      if (event.type === 'retry') {
        controller.abort();
      }
    });
    const before = mock.requests();

    const error = await rejection(client.getTask({ id: task.id }, { signal: controller.signal }));

    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ reason: 'aborted', dispatched: true });
    expect(mock.requests() - before).toBe(1);
  });
});
