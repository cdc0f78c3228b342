import { type FaultSpec, restPath } from '@surecall/mocks';
import { createMockAgentServer } from '@surecall/mocks/node';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { Binding, StreamFrame } from '../../src/bindings/binding.js';
import { createJsonRpcBinding } from '../../src/bindings/jsonrpc.js';
import { createRestBinding } from '../../src/bindings/rest.js';
import { loadDeferred } from '../../src/client/loader.js';
import { isClientError } from '../../src/core/errors.js';
import { resolveLimits } from '../../src/core/limits.js';
import type { AgentCard } from '../../src/protocol/agent-card.js';
import type { Message } from '../../src/protocol/message.js';
import type { Task } from '../../src/protocol/task.js';
import { failure } from '../support/binding.js';

// The reference mock agent behind MSW: the transport proof of every operation and every malformed fault
// (docs/interop.md#peers-we-test-against).
const mock = createMockAgentServer({ stepMs: 0 });
const limits = resolveLimits();
const token = async (): Promise<string> => 'mock-token';

beforeAll(() => mock.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  mock.faults.clear();
  mock.executions.reset();
});
afterAll(() => mock.close());

type BindingName = 'JSONRPC' | 'HTTP+JSON';

function bindingOf(name: BindingName, tenant?: string): Binding {
  const extra = tenant === undefined ? {} : { tenant };
  if (name === 'JSONRPC') {
    let id = 0;
    return createJsonRpcBinding({
      url: `${mock.origin}/a2a/jsonrpc`,
      limits,
      nextId: () => ++id,
      load: loadDeferred,
      ...extra,
    });
  }
  return createRestBinding({ url: `${mock.origin}${restPath}/`, limits, ...extra });
}

let sequence = 0;
function message(text: string, extra: Partial<Message> = {}): Message {
  sequence += 1;
  return { messageId: `m-${sequence}`, role: 'ROLE_USER', parts: [{ text }], ...extra };
}

type Collected = { readonly frames: StreamFrame[]; readonly error: unknown };

async function collect(frames: AsyncIterableIterator<StreamFrame>, stopAfter = Number.POSITIVE_INFINITY) {
  const collected: Collected = { frames: [], error: undefined };
  try {
    for await (const frame of frames) {
      collected.frames.push(frame);
      if (collected.frames.length >= stopAfter) {
        break;
      }
    }
  } catch (error) {
    return { ...collected, error };
  }
  return collected;
}

function expectError(error: unknown, expected: Record<string, unknown>): void {
  expect(isClientError(error)).toBe(true);
  expect(error).toMatchObject({ dispatched: true, ...expected });
}

const names: readonly BindingName[] = ['JSONRPC', 'HTTP+JSON'];

describe.each(
  names.flatMap((name) => [
    { name, tenant: undefined },
    { name, tenant: 'acme/west' },
  ]),
)('all eleven operations over $name (tenant $tenant)', ({ name, tenant }) => {
  it('succeed against the reference agent', async () => {
    const binding = bindingOf(name, tenant);
    const sent = await binding.unary('sendMessage', { message: message('task alpha beta') }, {});
    if (!('task' in sent.value)) {
      throw new Error('expected a task');
    }
    const task = sent.value.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');

    const streamed = await collect(
      await binding.stream('sendStreamingMessage', { message: message('task x y') }, {}),
    );
    expect(streamed.error).toBeUndefined();
    expect(Object.keys(streamed.frames[0]?.event ?? {})).toEqual(['task']);
    expect(streamed.frames.at(-1)?.event).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
    });

    const got = await binding.unary('getTask', { id: task.id, historyLength: 1 }, {});
    expectTypeOf(got.value).toEqualTypeOf<Task>();
    expect(got.value.id).toBe(task.id);
    expect(got.value.history.length).toBeLessThanOrEqual(1);

    const page = await binding.unary('listTasks', { contextId: task.contextId }, {});
    expect(page.value.tasks.map((listed) => listed.id)).toEqual([task.id]);

    const slow = await binding.unary(
      'sendMessage',
      { message: message('slow 30'), configuration: { returnImmediately: true } },
      {},
    );
    const slowTask = 'task' in slow.value ? slow.value.task : undefined;
    if (slowTask === undefined) {
      throw new Error('expected a task');
    }
    const subscribed = await collect(await binding.stream('subscribeToTask', { id: slowTask.id }, {}), 1);
    expect(subscribed.frames[0]?.event).toMatchObject({ task: { id: slowTask.id } });
    const canceled = await binding.unary('cancelTask', { id: slowTask.id }, {});
    expect(canceled.value.status.state).toBe('TASK_STATE_CANCELED');

    const url = 'https://hooks.example/a2a';
    const created = await binding.unary('createTaskPushNotificationConfig', { taskId: task.id, url }, {});
    const configId = created.value.id ?? '';
    expect(created.value).toMatchObject({ taskId: task.id, url });
    expect(created.httpStatus).toBe(name === 'JSONRPC' ? 200 : 201);
    const config = await binding.unary(
      'getTaskPushNotificationConfig',
      { taskId: task.id, id: configId },
      {},
    );
    expect(config.value.id).toBe(configId);
    const configs = await binding.unary('listTaskPushNotificationConfigs', { taskId: task.id }, {});
    expect(configs.value.configs.map((entry) => entry.id)).toEqual([configId]);
    const deleted = await binding.unary(
      'deleteTaskPushNotificationConfig',
      { taskId: task.id, id: configId },
      {},
    );
    expect(deleted.value).toEqual({});
    expect(deleted.httpStatus).toBe(name === 'JSONRPC' ? 200 : 204);

    const card = await binding.unary('getExtendedAgentCard', {}, { authorize: token });
    expectTypeOf(card.value).toEqualTypeOf<AgentCard>();
    expect(card.value.name).toBe('surecall mock agent');
    expect(mock.executions.total()).toBe(3);
  });
});

type FaultCase = {
  readonly fault: FaultSpec;
  readonly expected: Record<string, unknown>;
  readonly only?: BindingName;
};

const unaryFaults: readonly FaultCase[] = [
  {
    fault: { kind: 'duplicate-keys', operation: 'SendMessage' },
    expected: { kind: 'invalid-response', reason: 'json', httpStatus: 200 },
  },
  {
    fault: { kind: 'wrong-jsonrpc-id', operation: 'SendMessage' },
    expected: { kind: 'invalid-response', reason: 'jsonrpc-envelope' },
    only: 'JSONRPC',
  },
  {
    fault: { kind: 'result-and-error', operation: 'SendMessage' },
    expected: { kind: 'invalid-response', reason: 'jsonrpc-envelope' },
    only: 'JSONRPC',
  },
  {
    fault: { kind: 'two-union-members', operation: 'SendMessage' },
    expected: { kind: 'invalid-response', reason: 'schema' },
  },
  {
    fault: { kind: 'wrong-media-type', operation: 'SendMessage' },
    expected: { kind: 'http-protocol', reason: 'media-type', httpStatus: 200 },
  },
  {
    fault: { kind: 'html-413', operation: 'SendMessage' },
    expected: { kind: 'http-protocol', reason: 'error-envelope', httpStatus: 413 },
  },
  {
    fault: { kind: 'redirect', operation: 'SendMessage' },
    expected: { kind: 'http-protocol', reason: 'redirect', httpStatus: 302 },
  },
  {
    fault: { kind: 'premature-eof', operation: 'SendMessage' },
    expected: { kind: 'invalid-response', reason: 'json' },
  },
  {
    fault: { kind: 'status-after', operation: 'SendMessage', body: 'empty' },
    expected: { kind: 'http-protocol', reason: 'status', httpStatus: 503 },
  },
  {
    fault: { kind: 'status-after', operation: 'SendMessage' },
    expected: { kind: 'http-protocol', reason: 'error-envelope', httpStatus: 503 },
  },
];

const streamFaults: readonly FaultCase[] = [
  {
    fault: { kind: 'duplicate-keys', operation: 'SendStreamingMessage', frame: 1 },
    expected: { kind: 'invalid-response', reason: 'json' },
  },
  {
    fault: { kind: 'wrong-jsonrpc-id', operation: 'SendStreamingMessage', frame: 1 },
    expected: { kind: 'invalid-response', reason: 'jsonrpc-envelope' },
    only: 'JSONRPC',
  },
  {
    fault: { kind: 'result-and-error', operation: 'SendStreamingMessage', frame: 1 },
    expected: { kind: 'invalid-response', reason: 'jsonrpc-envelope' },
    only: 'JSONRPC',
  },
  {
    fault: { kind: 'two-union-members', operation: 'SendStreamingMessage', frame: 1 },
    expected: { kind: 'invalid-response', reason: 'schema' },
  },
  {
    fault: { kind: 'oversized-sse-line', operation: 'SendStreamingMessage' },
    expected: { kind: 'invalid-response', reason: 'sse' },
  },
  {
    fault: { kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 1 },
    expected: { kind: 'transport', reason: 'read' },
  },
];

const establishFaults: readonly FaultCase[] = [
  {
    fault: { kind: 'wrong-media-type', operation: 'SendStreamingMessage' },
    expected: { kind: 'http-protocol', reason: 'media-type', httpStatus: 200 },
  },
  {
    fault: { kind: 'html-413', operation: 'SendStreamingMessage' },
    expected: { kind: 'http-protocol', reason: 'error-envelope', httpStatus: 413 },
  },
  {
    fault: { kind: 'redirect', operation: 'SendStreamingMessage' },
    expected: { kind: 'http-protocol', reason: 'redirect', httpStatus: 302 },
  },
];

function casesFor(cases: readonly FaultCase[]) {
  return names.flatMap((name) =>
    cases
      .filter((entry) => entry.only === undefined || entry.only === name)
      .map((entry) => ({ name, ...entry })),
  );
}

describe('the fault lab', () => {
  it.each(casesFor(unaryFaults))(
    '$name unary $fault.kind → $expected.kind',
    async ({ name, fault, expected }) => {
      mock.faults.set(fault);
      const error = await failure(bindingOf(name).unary('sendMessage', { message: message('task a b') }, {}));
      expectError(error, expected);
      expect(mock.executions.total()).toBe(1);
    },
  );

  it.each(casesFor(streamFaults))(
    '$name stream $fault.kind → $expected.kind',
    async ({ name, fault, expected }) => {
      mock.faults.set(fault);
      const frames = await bindingOf(name).stream(
        'sendStreamingMessage',
        { message: message('task a b') },
        {},
      );
      const { error } = await collect(frames);
      expectError(error, expected);
      // The first error ends the stream: nothing follows it.
      await expect(frames.next()).resolves.toEqual({ done: true, value: undefined });
    },
  );

  it.each(casesFor(establishFaults))(
    '$name stream establishment $fault.kind → $expected.kind',
    async ({ name, fault, expected }) => {
      mock.faults.set(fault);
      const error = await failure(
        bindingOf(name).stream('sendStreamingMessage', { message: message('task a b') }, {}),
      );
      expectError(error, expected);
    },
  );

  it.each(names)(
    '%s premature-eof on a stream ends it cleanly one frame short, for the lifecycle validator to refuse',
    async (name) => {
      const whole = await collect(
        await bindingOf(name).stream('sendStreamingMessage', { message: message('task a b') }, {}),
      );
      mock.faults.set({ kind: 'premature-eof', operation: 'SendStreamingMessage' });
      const cut = await collect(
        await bindingOf(name).stream('sendStreamingMessage', { message: message('task a b') }, {}),
      );
      expect(whole.error).toBeUndefined();
      expect(cut.error).toBeUndefined();
      expect(cut.frames).toHaveLength(whole.frames.length - 1);
      expect(cut.frames.at(-1)?.event).not.toMatchObject({
        statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
      });
    },
  );

  it.each(names)(
    '%s drop-after: a lost answer is a dispatched transport error, and the agent ran the send exactly once',
    async (name) => {
      mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
      const error = await failure(bindingOf(name).unary('sendMessage', { message: message('task a b') }, {}));
      expectError(error, { kind: 'transport', reason: 'network' });
      expect(mock.executions.total()).toBe(1);
    },
  );

  it.each(names)(
    '%s drop-after on a stream: the stream is consumed by the agent, the client sees a transport error',
    async (name) => {
      mock.faults.set({ kind: 'drop-after', operation: 'SendStreamingMessage' });
      const error = await failure(
        bindingOf(name).stream('sendStreamingMessage', { message: message('task a b') }, {}),
      );
      expectError(error, { kind: 'transport', reason: 'network' });
      expect(mock.executions.total()).toBe(1);
    },
  );
});
