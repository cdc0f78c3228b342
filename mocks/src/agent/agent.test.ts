import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OptionsError } from '@surecall/client';
import { safeParseAgentCard, safeParseTask } from '@surecall/client/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
// The wire schemas are internal to the client package; the tests borrow them to prove every answer decodes.
import { decode } from '../../../packages/client/src/protocol/decode.js';
import { TaskPushNotificationConfig } from '../../../packages/client/src/protocol/push.js';
import { ListTasksResponse } from '../../../packages/client/src/protocol/requests.js';
import { SendMessageResponse } from '../../../packages/client/src/protocol/send-message.js';
import { StreamResponse } from '../../../packages/client/src/protocol/stream.js';
import {
  a2aHeaders,
  artifactChunks,
  bindings,
  eventKinds,
  firstTask,
  jsonRpcBinding,
  origin,
  restBinding,
  resultOf,
  taskOf,
  texts,
  userMessage,
} from '../../test/support/helpers.js';
import { type AgentOptions, createAgent, type MockAgent } from './agent.js';
import type {
  ListTaskPushNotificationConfigsResponse,
  Message,
  TaskPushNotificationConfig as PushConfig,
  WireAgentCard,
  WireListTasksResponse,
  WireStreamResponse,
  WireTask,
} from './wire.js';

const agents: MockAgent[] = [];
function agentWith(options: AgentOptions = {}): MockAgent {
  const agent = createAgent({ stepMs: 0, ...options });
  agents.push(agent);
  return agent;
}

afterEach(() => {
  for (const agent of agents.splice(0)) {
    agent.close();
  }
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function expectDecodes(events: readonly WireStreamResponse[]): void {
  for (const event of events) {
    expect(decode(StreamResponse, event).ok).toBe(true);
  }
}

const ids = (tasks: readonly WireTask[]): string[] => tasks.map((task) => task.id);

describe('createAgent', () => {
  it.each<[string, AgentOptions]>([
    ['stepMs', { stepMs: -1 }],
    ['stepMs', { stepMs: 1.5 }],
    ['keyTtlMs', { keyTtlMs: 0 }],
    ['keyCapPerTenant', { keyCapPerTenant: 0 }],
    ['taskTtlMs', { taskTtlMs: 0 }],
    ['mode', { mode: 'sometimes' as AgentOptions['mode'] & string }],
  ])('refuses a bad %s', (option, options) => {
    expect(() => createAgent(options)).toThrow(OptionsError);
    expect(() => createAgent(options)).toThrow(option);
  });

  it.each(['/', '/a2a', '/a2a/jsonrpc/x', '/a2a/restful', '/.well-known/agent.json'])(
    'answers 404 at %s',
    async (path) => {
      const response = await agentWith().handle(new Request(`${origin}${path}`, { headers: a2aHeaders }));
      expect(response.status).toBe(404);
    },
  );

  it('answers a revalidation of the card with 304', async () => {
    const agent = agentWith();
    const url = `${origin}/.well-known/agent-card.json`;
    const etag = (await agent.handle(new Request(url))).headers.get('etag') ?? '';
    const again = await agent.handle(new Request(url, { headers: { 'if-none-match': etag } }));
    expect(again.status).toBe(304);
  });

  it('reports its mode', () => {
    expect(agentWith().mode).toBe('honouring');
    expect(agentWith({ mode: 'foreign' }).mode).toBe('foreign');
  });

  it('serves the card at the well-known path with URLs of the request origin', async () => {
    const response = await agentWith().handle(
      new Request('http://127.0.0.1:4123/.well-known/agent-card.json'),
    );
    const card: WireAgentCard = await response.json();
    expect(safeParseAgentCard(card).ok).toBe(true);
    expect(card.supportedInterfaces.map((entry) => entry.url)).toEqual([
      'http://127.0.0.1:4123/a2a/jsonrpc',
      'http://127.0.0.1:4123/a2a/rest',
    ]);
  });
});

describe.each(bindings)('$name binding', (binding) => {
  const send = (agent: MockAgent, text: string, extra: Readonly<Record<string, unknown>> = {}) =>
    binding.call(agent, 'SendMessage', { message: userMessage(text), ...extra });
  const list = async (agent: MockAgent, params: Readonly<Record<string, unknown>> = {}) =>
    resultOf<WireListTasksResponse>(await binding.call(agent, 'ListTasks', params));
  const get = async (agent: MockAgent, params: Readonly<Record<string, unknown>>) =>
    resultOf<WireTask>(await binding.call(agent, 'GetTask', params));

  describe('behaviours', () => {
    it('task: SUBMITTED, WORKING, one chunk per word, COMPLETED', async () => {
      const events = await binding.stream(agentWith(), 'SendStreamingMessage', {
        message: userMessage('task alpha beta gamma'),
      });
      expect(eventKinds(events)).toEqual([
        'task:SUBMITTED',
        'statusUpdate:WORKING',
        'artifactUpdate',
        'artifactUpdate',
        'artifactUpdate',
        'statusUpdate:COMPLETED',
      ]);
      expectDecodes(events);
      const [first, second, third] = artifactChunks(events);
      expect(first).not.toHaveProperty('append');
      expect(first).not.toHaveProperty('lastChunk');
      expect(second).toMatchObject({ append: true });
      expect(second).not.toHaveProperty('lastChunk');
      expect(third).toMatchObject({ append: true, lastChunk: true });
      const words = artifactChunks(events).flatMap((chunk) => texts(chunk.artifact.parts));
      expect(words.join('')).toBe('alpha beta gamma');
    });

    it('task, blocking: the completed task with the whole artifact and the history', async () => {
      const result = await send(agentWith(), 'task a b');
      expect(decode(SendMessageResponse, resultOf(result)).ok).toBe(true);
      const task = taskOf(result);
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts).toEqual([
        { artifactId: 'text', name: 'text', parts: [{ text: 'a ' }, { text: 'b' }] },
      ]);
      expect(task.history?.map((message) => [message.role, ...texts(message.parts)])).toEqual([
        ['ROLE_USER', 'task a b'],
        ['ROLE_AGENT', 'working'],
        ['ROLE_AGENT', 'done'],
      ]);
    });

    it('returnImmediately answers right after creating the task', async () => {
      const task = taskOf(
        await send(agentWith(), 'task a b', { configuration: { returnImmediately: true } }),
      );
      expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
      expect(task.history).toHaveLength(1);
      expect(task).not.toHaveProperty('artifacts');
    });

    it('echo: a direct Message in the same context, and no task', async () => {
      const agent = agentWith();
      const message = userMessage('echo hello there', { contextId: 'ctx-echo' });
      const reply = resultOf<{ message: Message }>(
        await binding.call(agent, 'SendMessage', { message }),
      ).message;
      expect(reply).toMatchObject({
        role: 'ROLE_AGENT',
        contextId: 'ctx-echo',
        parts: [{ text: 'echo hello there' }],
      });
      expect(reply).not.toHaveProperty('taskId');
      expect((await list(agent)).tasks).toEqual([]);
      expect(agent.executions.of(message.messageId)).toBe(1);
    });

    it('echo, streaming: exactly one message event', async () => {
      const events = await binding.stream(agentWith(), 'SendStreamingMessage', {
        message: userMessage('Echo x'),
      });
      expect(eventKinds(events)).toEqual(['message']);
      expectDecodes(events);
    });

    it('input: stops in INPUT_REQUIRED; a follow-up with the taskId completes it', async () => {
      const agent = agentWith();
      const asked = taskOf(await send(agent, 'input'));
      expect(asked.status).toMatchObject({
        state: 'TASK_STATE_INPUT_REQUIRED',
        message: { role: 'ROLE_AGENT', taskId: asked.id, contextId: asked.contextId },
      });
      const answer = userMessage('Ada', { taskId: asked.id });
      const done = taskOf(await binding.call(agent, 'SendMessage', { message: answer }));
      expect(done.id).toBe(asked.id);
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      expect(done.artifacts).toEqual([
        { artifactId: 'answer', name: 'answer', parts: [{ text: 'Hello, Ada!' }] },
      ]);
      // The answer joins the history unchanged, apart from the contextId the server adds.
      expect(done.history).toContainEqual({ ...answer, contextId: asked.contextId });
      expect(agent.executions.of(answer.messageId)).toBe(1);
    });

    it('input, streaming: the stream closes at INPUT_REQUIRED, the follow-up streams to COMPLETED', async () => {
      const agent = agentWith();
      const first = await binding.stream(agent, 'SendStreamingMessage', { message: userMessage('input') });
      expect(eventKinds(first)).toEqual([
        'task:SUBMITTED',
        'statusUpdate:WORKING',
        'statusUpdate:INPUT_REQUIRED',
      ]);
      const second = await binding.stream(agent, 'SendStreamingMessage', {
        message: userMessage('Grace', { taskId: firstTask(first).id }),
      });
      expect(eventKinds(second)).toEqual(['task:WORKING', 'artifactUpdate', 'statusUpdate:COMPLETED']);
      expectDecodes([...first, ...second]);
    });

    it('auth: AUTH_REQUIRED with a status message, then completes by itself', async () => {
      vi.useFakeTimers();
      const agent = agentWith({ stepMs: 10 });
      const pending = send(agent, 'auth');
      await vi.advanceTimersByTimeAsync(20);
      const task = taskOf(await pending);
      expect(task.status).toMatchObject({
        state: 'TASK_STATE_AUTH_REQUIRED',
        message: { role: 'ROLE_AGENT' },
      });
      expect(safeParseTask(task).ok).toBe(true);
      await vi.advanceTimersByTimeAsync(100);
      expect((await get(agent, { id: task.id })).status.state).toBe('TASK_STATE_COMPLETED');
    });

    it('auth, streaming: the stream closes at AUTH_REQUIRED', async () => {
      const events = await binding.stream(agentWith(), 'SendStreamingMessage', {
        message: userMessage('auth'),
      });
      expect(eventKinds(events)).toEqual([
        'task:SUBMITTED',
        'statusUpdate:WORKING',
        'statusUpdate:AUTH_REQUIRED',
      ]);
    });

    it('slow N: one progress chunk per second, then COMPLETED', async () => {
      vi.useFakeTimers();
      const agent = agentWith({ stepMs: 25 });
      const streaming = binding.stream(agent, 'SendStreamingMessage', { message: userMessage('slow 3') });
      await vi.advanceTimersByTimeAsync(25 + 1000 + 1000 + 500);
      const [midway] = (await list(agent, { includeArtifacts: true })).tasks;
      expect(midway?.artifacts?.[0]?.parts).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1000 + 25);
      const events = await streaming;
      expect(eventKinds(events)).toEqual([
        'task:SUBMITTED',
        'statusUpdate:WORKING',
        'artifactUpdate',
        'artifactUpdate',
        'artifactUpdate',
        'statusUpdate:COMPLETED',
      ]);
      expect(artifactChunks(events).flatMap((chunk) => texts(chunk.artifact.parts))).toEqual([
        'tick 1/3\n',
        'tick 2/3\n',
        'tick 3/3\n',
      ]);
    });

    it.each([
      ['fail', 'TASK_STATE_FAILED'],
      ['reject', 'TASK_STATE_REJECTED'],
      ['FAIL loudly', 'TASK_STATE_FAILED'],
    ])('%s ends in %s with an agent status message', async (text, state) => {
      const task = taskOf(await send(agentWith(), text));
      expect(task.status).toMatchObject({ state, message: { role: 'ROLE_AGENT' } });
    });

    it('big N: a completed task with one text part of N KiB', async () => {
      const task = taskOf(await send(agentWith(), 'big 3'));
      const parts = texts(task.artifacts?.[0]?.parts);
      expect(parts).toHaveLength(1);
      expect(new TextEncoder().encode(parts[0]).length).toBe(3 * 1024);
    });

    it('any other text works like task with all its words', async () => {
      const task = taskOf(await send(agentWith(), 'hello  wide world'));
      expect(texts(task.artifacts?.[0]?.parts).join('')).toBe('hello wide world');
    });

    it.each(['slow', 'slow 0', 'slow 3601', 'slow x', 'big', 'big 0', 'big 32769', 'big 1.5'])(
      '%s is refused with InvalidParams and runs nothing',
      async (text) => {
        const agent = agentWith();
        expect(await send(agent, text)).toMatchObject({ ok: false, reason: 'INVALID_PARAMS' });
        expect(agent.executions.total()).toBe(0);
      },
    );

    it('refuses a send whose acceptedOutputModes exclude text', async () => {
      const agent = agentWith();
      const refused = await send(agent, 'task a', {
        configuration: { acceptedOutputModes: ['application/json'] },
      });
      expect(refused).toMatchObject({ ok: false, reason: 'CONTENT_TYPE_NOT_SUPPORTED' });
      const accepted = await send(agent, 'task a', {
        configuration: { acceptedOutputModes: ['text/*; q=1'] },
      });
      expect(taskOf(accepted).status.state).toBe('TASK_STATE_COMPLETED');
    });
  });

  describe('messages and history', () => {
    it('keeps a client contextId exactly and stores the user message unchanged but for taskId', async () => {
      const agent = agentWith();
      const message = userMessage('task a', {
        contextId: 'ctx-Ünïcode/1',
        metadata: { trace: { depth: [1, 2] } },
        extensions: ['https://example.test/ext'],
        referenceTaskIds: ['older'],
        vendorField: { kept: true },
      });
      const task = taskOf(await binding.call(agent, 'SendMessage', { message }));
      expect(task.contextId).toBe('ctx-Ünïcode/1');
      expect((await get(agent, { id: task.id })).history?.[0]).toEqual({ ...message, taskId: task.id });
    });

    it('adds a generated contextId to a message that has none', async () => {
      const message = userMessage('task a');
      const task = taskOf(await binding.call(agentWith(), 'SendMessage', { message }));
      expect(task.history?.[0]).toEqual({ ...message, contextId: task.contextId, taskId: task.id });
    });

    it.each([
      [0, 0],
      [1, 1],
      [2, 2],
      [undefined, 3],
    ])('historyLength %s on send returns %s messages', async (historyLength, count) => {
      const configuration = historyLength === undefined ? {} : { historyLength };
      const task = taskOf(await send(agentWith(), 'task a', { configuration }));
      if (count === 0) {
        expect(task).not.toHaveProperty('history');
      } else {
        expect(task.history).toHaveLength(count);
      }
    });

    it.each([
      [0, 0],
      [2, 2],
      [99, 3],
      [undefined, 3],
    ])('historyLength %s on GetTask returns %s messages, the newest', async (historyLength, count) => {
      const agent = agentWith();
      const { id } = taskOf(await send(agent, 'task a'));
      const task = await get(agent, { id, ...(historyLength === undefined ? {} : { historyLength }) });
      expect(task.history ?? []).toHaveLength(count);
      if (count > 0) {
        expect(texts(task.history?.at(-1)?.parts)).toEqual(['done']);
      }
    });

    it.each([
      ['an unknown taskId', 'TASK_NOT_FOUND'],
      ['a terminal task', 'UNSUPPORTED_OPERATION'],
      ['a working task', 'UNSUPPORTED_OPERATION'],
      ['a contextId that is not the task’s', 'INVALID_PARAMS'],
    ])('refuses a follow-up to %s: %s', async (target, reason) => {
      vi.useFakeTimers();
      const agent = agentWith({ stepMs: 50 });
      const pending = send(agent, 'task a');
      await vi.advanceTimersByTimeAsync(500);
      const done = taskOf(await pending);
      const working = taskOf(await send(agent, 'task a', { configuration: { returnImmediately: true } }));
      await vi.advanceTimersByTimeAsync(60);
      const asking = taskOf(await send(agent, 'input', { configuration: { returnImmediately: true } }));
      await vi.advanceTimersByTimeAsync(500);
      const messages: Record<string, unknown> = {
        'an unknown taskId': userMessage('x', { taskId: 'no-such-task' }),
        'a terminal task': userMessage('x', { taskId: done.id }),
        'a working task': userMessage('x', { taskId: working.id }),
        'a contextId that is not the task’s': userMessage('x', { taskId: asking.id, contextId: 'elsewhere' }),
      };
      const result = await binding.call(agent, 'SendMessage', { message: messages[target] });
      expect(result).toMatchObject({ ok: false, reason });
      expect(agent.executions.total()).toBe(3);
    });

    it.each([
      ['no message', {}],
      ['no messageId', { message: { role: 'ROLE_USER', parts: [{ text: 'a' }] } }],
      ['no role', { message: { messageId: 'm', parts: [{ text: 'a' }] } }],
      ['an unknown role', { message: { messageId: 'm', role: 'user', parts: [{ text: 'a' }] } }],
      ['no parts', { message: { messageId: 'm', role: 'ROLE_USER', parts: [] } }],
      [
        'a part with two contents',
        { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'a', url: 'u' }] } },
      ],
      [
        'a part with none',
        { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ mediaType: 'text/plain' }] } },
      ],
    ])('refuses a send with %s: InvalidParams, in the binding’s form', async (_, params) => {
      const agent = agentWith();
      const result = await binding.call(agent, 'SendMessage', params);
      expect(result).toMatchObject({ ok: false, reason: 'INVALID_PARAMS' });
      if (binding === jsonRpcBinding) {
        expect(result).toMatchObject({ status: 200, code: -32602 });
      } else {
        expect(result).toMatchObject({
          status: 400,
          code: 400,
          body: { error: { status: 'INVALID_ARGUMENT' } },
        });
      }
      expect(agent.executions.total()).toBe(0);
    });
  });

  describe('tasks', () => {
    it('GetTask of an unknown task is TaskNotFound', async () => {
      const result = await binding.call(agentWith(), 'GetTask', { id: 'missing' });
      expect(result).toMatchObject({
        ok: false,
        reason: 'TASK_NOT_FOUND',
        status: binding === restBinding ? 404 : 200,
      });
    });

    it('ListTasks filters, orders newest first, pages, and leaves artifacts out unless asked', async () => {
      let clock = Date.UTC(2026, 0, 1);
      const agent = agentWith({ now: () => clock });
      const created: string[] = [];
      for (const text of ['task a', 'fail', 'task b', 'task c']) {
        clock += 1000;
        const message = userMessage(text, { contextId: text === 'task c' ? 'other' : 'ctx' });
        created.push(taskOf(await binding.call(agent, 'SendMessage', { message })).id);
      }
      const all = await list(agent);
      expect(decode(ListTasksResponse, all).ok).toBe(true);
      expect(all).toMatchObject({ pageSize: 50, totalSize: 4, nextPageToken: '' });
      expect(ids(all.tasks)).toEqual([...created].reverse());
      expect(all.tasks.some((task) => 'artifacts' in task)).toBe(false);

      const failed = await list(agent, { includeArtifacts: true, status: 'TASK_STATE_FAILED' });
      expect(failed.tasks).toEqual([expect.objectContaining({ id: created[1], artifacts: [] })]);

      const other = await list(agent, { contextId: 'other', historyLength: 0 });
      expect(ids(other.tasks)).toEqual([created[3]]);
      expect(other.tasks[0]).not.toHaveProperty('history');

      const firstPage = await list(agent, { pageSize: 3 });
      expect(firstPage).toMatchObject({ pageSize: 3, totalSize: 4 });
      expect(firstPage.nextPageToken).not.toBe('');
      const lastPage = await list(agent, { pageSize: 3, pageToken: firstPage.nextPageToken });
      expect(ids(lastPage.tasks)).toEqual([created[0]]);
      expect(lastPage.nextPageToken).toBe('');
    });

    it('statusTimestampAfter is inclusive', async () => {
      let clock = Date.UTC(2026, 0, 1);
      const agent = agentWith({ now: () => clock });
      await send(agent, 'task a');
      clock += 1000;
      const task = taskOf(await send(agent, 'task b'));
      expect(ids((await list(agent, { statusTimestampAfter: task.status.timestamp })).tasks)).toEqual([
        task.id,
      ]);
      const later = new Date(clock + 1).toISOString();
      expect((await list(agent, { statusTimestampAfter: later })).tasks).toEqual([]);
    });

    it.each([
      { pageSize: 0 },
      { pageSize: 101 },
      { pageToken: 'forged' },
      { status: 'completed' },
      { statusTimestampAfter: 'yesterday' },
      { historyLength: -1 },
    ])('ListTasks refuses %o with InvalidParams', async (params) => {
      expect(await binding.call(agentWith(), 'ListTasks', params)).toMatchObject({
        ok: false,
        reason: 'INVALID_PARAMS',
      });
    });

    it('CancelTask cancels a running task and stops its script', async () => {
      vi.useFakeTimers();
      const agent = agentWith();
      const task = taskOf(await send(agent, 'slow 10', { configuration: { returnImmediately: true } }));
      await vi.advanceTimersByTimeAsync(2500);
      const canceled = resultOf<WireTask>(await binding.call(agent, 'CancelTask', { id: task.id }));
      expect(canceled.status).toMatchObject({
        state: 'TASK_STATE_CANCELED',
        message: { role: 'ROLE_AGENT' },
      });
      expect(canceled.artifacts?.[0]?.parts).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(20_000);
      const later = await get(agent, { id: task.id });
      expect(later.status.state).toBe('TASK_STATE_CANCELED');
      expect(later.artifacts?.[0]?.parts).toHaveLength(2);
    });

    it('CancelTask also releases a blocking send waiting on the task', async () => {
      vi.useFakeTimers();
      const agent = agentWith();
      const blocking = send(agent, 'slow 100');
      await vi.advanceTimersByTimeAsync(10);
      const [running] = (await list(agent)).tasks;
      await binding.call(agent, 'CancelTask', { id: running?.id });
      expect(taskOf(await blocking).status.state).toBe('TASK_STATE_CANCELED');
    });

    it.each([
      ['a terminal task', 'TASK_NOT_CANCELABLE'],
      ['an unknown task', 'TASK_NOT_FOUND'],
    ])('CancelTask of %s is %s', async (target, reason) => {
      const agent = agentWith();
      const { id } = taskOf(await send(agent, 'task a'));
      const result = await binding.call(agent, 'CancelTask', {
        id: target === 'a terminal task' ? id : 'nope',
      });
      expect(result).toMatchObject({ ok: false, reason });
      if (binding === restBinding && reason === 'TASK_NOT_CANCELABLE') {
        expect(result.body).toMatchObject({ error: { code: 400, status: 'FAILED_PRECONDITION' } });
      }
    });

    it('SubscribeToTask: the current task first, then live events until COMPLETED', async () => {
      vi.useFakeTimers();
      const agent = agentWith();
      const task = taskOf(await send(agent, 'slow 2', { configuration: { returnImmediately: true } }));
      await vi.advanceTimersByTimeAsync(1100);
      const subscribed = binding.stream(agent, 'SubscribeToTask', { id: task.id });
      await vi.advanceTimersByTimeAsync(2000);
      const events = await subscribed;
      expect(eventKinds(events)).toEqual(['task:WORKING', 'artifactUpdate', 'statusUpdate:COMPLETED']);
      expect(firstTask(events).artifacts).toHaveLength(1);
      expect(artifactChunks(events)[0]).toMatchObject({ append: true, lastChunk: true });
      expectDecodes(events);
    });

    it('a subscriber sees a cancel as the last event', async () => {
      vi.useFakeTimers();
      const agent = agentWith();
      const task = taskOf(await send(agent, 'slow 30', { configuration: { returnImmediately: true } }));
      await vi.advanceTimersByTimeAsync(1500);
      const subscribed = binding.stream(agent, 'SubscribeToTask', { id: task.id });
      await vi.advanceTimersByTimeAsync(1000);
      await binding.call(agent, 'CancelTask', { id: task.id });
      expect(eventKinds(await subscribed)).toEqual([
        'task:WORKING',
        'artifactUpdate',
        'statusUpdate:CANCELED',
      ]);
    });

    it('SubscribeToTask of an interrupted task: the snapshot, then the end', async () => {
      const agent = agentWith();
      const task = taskOf(await send(agent, 'input'));
      expect(eventKinds(await binding.stream(agent, 'SubscribeToTask', { id: task.id }))).toEqual([
        'task:INPUT_REQUIRED',
      ]);
    });

    it.each([
      ['a terminal task', 'UNSUPPORTED_OPERATION'],
      ['an unknown task', 'TASK_NOT_FOUND'],
    ])('SubscribeToTask of %s is %s, as a plain error before any stream', async (target, reason) => {
      const agent = agentWith();
      const { id } = taskOf(await send(agent, 'task a'));
      const result = await binding.call(agent, 'SubscribeToTask', {
        id: target === 'a terminal task' ? id : 'nope',
      });
      expect(result).toMatchObject({ ok: false, reason });
    });
  });

  describe('tenants', () => {
    it('keeps tasks apart per tenant', async () => {
      const agent = agentWith();
      const task = taskOf(
        await binding.call(agent, 'SendMessage', { tenant: 'acme', message: userMessage('task a') }),
      );
      expect((await get(agent, { tenant: 'acme', id: task.id })).id).toBe(task.id);
      for (const scope of [{ tenant: 'other' }, {}]) {
        const params = { ...scope, id: task.id };
        expect(await binding.call(agent, 'GetTask', params)).toMatchObject({
          ok: false,
          reason: 'TASK_NOT_FOUND',
        });
        expect(await binding.call(agent, 'CancelTask', params)).toMatchObject({
          ok: false,
          reason: 'TASK_NOT_FOUND',
        });
        const followUp = { ...scope, message: userMessage('x', { taskId: task.id }) };
        expect(await binding.call(agent, 'SendMessage', followUp)).toMatchObject({
          ok: false,
          reason: 'TASK_NOT_FOUND',
        });
      }
      expect((await list(agent, { tenant: 'acme' })).totalSize).toBe(1);
      expect((await list(agent, { tenant: 'other' })).totalSize).toBe(0);
      expect((await list(agent)).totalSize).toBe(0);
    });

    it('serves every task operation under a tenant, and none of them across tenants', async () => {
      const agent = agentWith();
      const acme = { tenant: 'acme' };
      const streamed = await binding.stream(agent, 'SendStreamingMessage', {
        ...acme,
        message: userMessage('input'),
      });
      const taskId = firstTask(streamed).id;
      const subscribed = await binding.stream(agent, 'SubscribeToTask', { ...acme, id: taskId });
      expect(eventKinds(subscribed)).toEqual(['task:INPUT_REQUIRED']);
      const url = 'https://hooks.example/a';
      const config = resultOf<PushConfig>(
        await binding.call(agent, 'CreateTaskPushNotificationConfig', { ...acme, taskId, url }),
      );
      const ref = { taskId, id: config.id };
      expect(
        resultOf(await binding.call(agent, 'GetTaskPushNotificationConfig', { ...acme, ...ref })),
      ).toEqual(config);
      const listed = await binding.call(agent, 'ListTaskPushNotificationConfigs', { ...acme, taskId });
      expect(resultOf<ListTaskPushNotificationConfigsResponse>(listed).configs).toEqual([config]);
      const elsewhere = { tenant: 'other', ...ref, url };
      for (const operation of [
        'CreateTaskPushNotificationConfig',
        'GetTaskPushNotificationConfig',
        'ListTaskPushNotificationConfigs',
        'DeleteTaskPushNotificationConfig',
      ]) {
        expect(await binding.call(agent, operation, elsewhere)).toMatchObject({
          ok: false,
          reason: 'TASK_NOT_FOUND',
        });
      }
      expect(await binding.call(agent, 'SubscribeToTask', { tenant: 'other', id: taskId })).toMatchObject({
        ok: false,
        reason: 'TASK_NOT_FOUND',
      });
      expect(
        await binding.call(agent, 'DeleteTaskPushNotificationConfig', { ...acme, ...ref }),
      ).toMatchObject({
        ok: true,
      });
      const card = await binding.call(agent, 'GetExtendedAgentCard', acme, { authorization: 'Bearer t' });
      expect(resultOf<WireAgentCard>(card).name).toBe('surecall mock agent');
    });

    it('with tenantRequired, refuses a request without a tenant', async () => {
      const agent = agentWith({ tenantRequired: true });
      expect(await binding.call(agent, 'ListTasks', {})).toMatchObject({
        ok: false,
        reason: 'INVALID_PARAMS',
      });
      expect((await list(agent, { tenant: 't1' })).totalSize).toBe(0);
    });
  });

  describe('headers', () => {
    const listRequest = (headers: Record<string, string>, query = ''): Request =>
      binding === jsonRpcBinding
        ? new Request(`${origin}/a2a/jsonrpc${query}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
          })
        : new Request(`${origin}/a2a/rest/tasks${query}`, { headers });

    it.each([[undefined], [''], ['0.3'], ['1.0.1'], ['1'], ['2.0']])(
      'A2A-Version %j is VersionNotSupported',
      async (version) => {
        const response = await agentWith().handle(
          listRequest(version === undefined ? {} : { 'a2a-version': version }),
        );
        const { error } = await response.json();
        if (binding === jsonRpcBinding) {
          expect(response.status).toBe(200);
          expect(error).toMatchObject({ code: -32009, data: [{ reason: 'VERSION_NOT_SUPPORTED' }] });
        } else {
          expect(response.status).toBe(400);
          expect(error).toMatchObject({
            status: 'FAILED_PRECONDITION',
            details: [{ reason: 'VERSION_NOT_SUPPORTED' }],
          });
        }
      },
    );

    it('accepts the version as the A2A-Version query parameter (A2A spec §3.6.1)', async () => {
      const response = await agentWith().handle(listRequest({}, '?A2A-Version=1.0'));
      expect(response.status).toBe(200);
      expect(JSON.stringify(await response.json())).toContain('"totalSize":0');
    });

    it('echoes the activated extensions in A2A-Extensions', async () => {
      const uri = 'https://a2a-rust.com/extensions/idempotency/v1';
      const requested = { 'a2a-extensions': `https://unknown.test/ext, ${uri}` };
      const honouring = await binding.exchange(agentWith(), 'ListTasks', {}, requested);
      expect(honouring.headers.get('a2a-extensions')).toBe(uri);
      const foreign = await binding.exchange(agentWith({ mode: 'foreign' }), 'ListTasks', {}, requested);
      expect(foreign.headers.get('a2a-extensions')).toBeNull();
      const unasked = await binding.exchange(agentWith(), 'ListTasks', {});
      expect(unasked.headers.get('a2a-extensions')).toBeNull();
    });

    it('answers in the binding’s media type', async () => {
      const response = await binding.exchange(agentWith(), 'ListTasks', {});
      const expected = binding === jsonRpcBinding ? 'application/json' : 'application/a2a+json';
      expect(response.headers.get('content-type')).toBe(expected);
    });
  });

  describe('push notification configs', () => {
    it('creates, gets, lists with paging, and deletes idempotently', async () => {
      const agent = agentWith();
      const { id: taskId } = taskOf(await send(agent, 'input'));
      const created = await binding.call(agent, 'CreateTaskPushNotificationConfig', {
        taskId,
        url: 'https://hooks.example/a',
        token: 'tok',
      });
      expect(created.status).toBe(binding === restBinding ? 201 : 200);
      const first = resultOf<PushConfig>(created);
      expect(decode(TaskPushNotificationConfig, first).ok).toBe(true);
      expect(first).toMatchObject({
        taskId,
        url: 'https://hooks.example/a',
        token: 'tok',
        id: expect.any(String),
      });
      const second = resultOf<PushConfig>(
        await binding.call(agent, 'CreateTaskPushNotificationConfig', {
          taskId,
          id: 'mine',
          url: 'https://hooks.example/b',
          authentication: { scheme: 'Bearer', credentials: 'c' },
        }),
      );
      expect(second.id).toBe('mine');
      expect(
        resultOf(await binding.call(agent, 'GetTaskPushNotificationConfig', { taskId, id: 'mine' })),
      ).toEqual(second);

      const listConfigs = async (params: Readonly<Record<string, unknown>>) =>
        resultOf<ListTaskPushNotificationConfigsResponse>(
          await binding.call(agent, 'ListTaskPushNotificationConfigs', { taskId, ...params }),
        );
      const page1 = await listConfigs({ pageSize: 1 });
      expect(page1.configs).toEqual([first]);
      expect(await listConfigs({ pageSize: 1, pageToken: page1.nextPageToken })).toEqual({
        configs: [second],
        nextPageToken: '',
      });

      for (let round = 0; round < 2; round++) {
        const deleted = await binding.call(agent, 'DeleteTaskPushNotificationConfig', { taskId, id: 'mine' });
        expect(deleted).toMatchObject({ ok: true, status: binding === restBinding ? 204 : 200 });
        expect(deleted.body).toEqual(binding === restBinding ? null : { jsonrpc: '2.0', id: 7, result: {} });
      }
      expect(
        await binding.call(agent, 'GetTaskPushNotificationConfig', { taskId, id: 'mine' }),
      ).toMatchObject({
        ok: false,
        reason: 'TASK_NOT_FOUND',
      });
      expect((await listConfigs({})).configs).toEqual([first]);
    });

    it.each([
      ['an unknown task', { taskId: 'nope', url: 'https://hooks.example/a' }, 'TASK_NOT_FOUND'],
      ['no url', {}, 'INVALID_PARAMS'],
      ['a relative url', { url: '/hook' }, 'INVALID_PARAMS'],
      ['a non-http url', { url: 'ftp://hooks.example/a' }, 'INVALID_PARAMS'],
      ['authentication without scheme', { url: 'https://h.example/', authentication: {} }, 'INVALID_PARAMS'],
    ])('refuses a config with %s', async (_, params, reason) => {
      const agent = agentWith();
      const { id } = taskOf(await send(agent, 'input'));
      const result = await binding.call(agent, 'CreateTaskPushNotificationConfig', { taskId: id, ...params });
      expect(result).toMatchObject({ ok: false, reason });
    });
  });

  describe('extended agent card', () => {
    it.each([[undefined], ['Basic dXNlcjpwYXNz'], ['Bearer'], ['Bearer  ']])(
      'refuses Authorization %j with 401',
      async (authorization) => {
        const headers = authorization === undefined ? {} : { authorization };
        const result = await binding.call(agentWith(), 'GetExtendedAgentCard', {}, headers);
        expect(result).toMatchObject({ ok: false, status: 401, reason: 'UNAUTHENTICATED' });
        expect(result.response.headers.get('www-authenticate')).toBe('Bearer');
      },
    );

    it('answers a bearer with the richer card', async () => {
      const result = await binding.call(
        agentWith(),
        'GetExtendedAgentCard',
        {},
        { authorization: 'Bearer any-token' },
      );
      const card = resultOf<WireAgentCard>(result);
      expect(safeParseAgentCard(card).ok).toBe(true);
      expect(card.provider).toEqual({ organization: 'surecall', url: origin });
      expect(card.description).toContain('extended');
    });
  });
});

describe('webhook delivery', () => {
  type Delivery = { readonly headers: IncomingHttpHeaders; readonly body: { task: WireTask } };

  it('POSTs the task to a loopback webhook on every status change, with its credentials', async () => {
    const received: Delivery[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        received.push({ headers: request.headers, body: JSON.parse(body) });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await restBinding.call(agentWith(), 'SendMessage', {
        message: userMessage('task a'),
        configuration: {
          taskPushNotificationConfig: {
            url: `http://127.0.0.1:${port}/hook`,
            token: 'tok-1',
            authentication: { scheme: 'Bearer', credentials: 'secret' },
          },
        },
      });
      expect(taskOf(result).status.state).toBe('TASK_STATE_COMPLETED');
      // Real sockets: wait for the bytes, not for a clock.
      await vi.waitFor(() => expect(received).toHaveLength(3), { timeout: 5000, interval: 5 });
      expect(received.map((entry) => entry.body.task.status.state)).toEqual([
        'TASK_STATE_SUBMITTED',
        'TASK_STATE_WORKING',
        'TASK_STATE_COMPLETED',
      ]);
      for (const { headers, body } of received) {
        expect(headers['content-type']).toBe('application/a2a+json');
        expect(headers.authorization).toBe('Bearer secret');
        expect(headers['x-a2a-notification-token']).toBe('tok-1');
        expect(decode(StreamResponse, body).ok).toBe(true);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('never calls a webhook whose host is not a literal loopback address', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      throw new Error('the mock agent must not reach this host');
    });
    const agent = agentWith();
    const call = (operation: string, params: Readonly<Record<string, unknown>>) =>
      jsonRpcBinding.call(agent, operation, params);
    const { id: taskId } = taskOf(await call('SendMessage', { message: userMessage('input') }));
    for (const url of [
      'http://example.com/hook',
      'http://localhost:9/hook',
      'http://10.0.0.1/hook',
      'http://[::2]/hook',
      'https://128.0.0.1/hook',
    ]) {
      resultOf(await call('CreateTaskPushNotificationConfig', { taskId, url }));
    }
    const done = await call('SendMessage', { message: userMessage('Ada', { taskId }) });
    expect(taskOf(done).status.state).toBe('TASK_STATE_COMPLETED');
    expect(fetchSpy).not.toHaveBeenCalled();

    // The same path with a loopback URL does call fetch, so the assertion above can fail.
    const other = taskOf(await call('SendMessage', { message: userMessage('input') }));
    resultOf(await call('CreateTaskPushNotificationConfig', { taskId: other.id, url: 'http://[::1]:9/h' }));
    await call('SendMessage', { message: userMessage('Ada', { taskId: other.id }) });
    await vi.waitFor(() => expect(fetchSpy).toHaveBeenCalled());
    expect(String(fetchSpy.mock.calls[0]?.[0])).toBe('http://[::1]:9/h');
  });
});

describe('execution counter and close', () => {
  it('counts business actions per (tenant, messageId), never reads', async () => {
    const agent = agentWith();
    const message = userMessage('task a');
    const { id } = taskOf(await jsonRpcBinding.call(agent, 'SendMessage', { message }));
    await jsonRpcBinding.call(agent, 'SendMessage', { tenant: 'acme', message });
    await jsonRpcBinding.call(agent, 'GetTask', { id });
    await jsonRpcBinding.call(agent, 'ListTasks', {});
    expect(agent.executions.of(message.messageId)).toBe(1);
    expect(agent.executions.of(message.messageId, 'acme')).toBe(1);
    expect(agent.executions.total()).toBe(2);
    agent.executions.reset();
    expect(agent.executions.total()).toBe(0);
  });

  it('close() stops every timer: scripts no longer advance', async () => {
    vi.useFakeTimers();
    const agent = agentWith({ stepMs: 10 });
    const { id } = taskOf(
      await jsonRpcBinding.call(agent, 'SendMessage', {
        message: userMessage('slow 5'),
        configuration: { returnImmediately: true },
      }),
    );
    expect(vi.getTimerCount()).toBe(1);
    agent.close();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    const task = resultOf<WireTask>(await jsonRpcBinding.call(agent, 'GetTask', { id }));
    expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
  });

  it('close() ends open streams and releases blocking sends', async () => {
    vi.useFakeTimers();
    const agent = agentWith();
    const blocking = jsonRpcBinding.call(agent, 'SendMessage', { message: userMessage('slow 50') });
    const streaming = restBinding.stream(agent, 'SendStreamingMessage', { message: userMessage('slow 50') });
    await vi.advanceTimersByTimeAsync(1500);
    agent.close();
    expect(taskOf(await blocking).status.state).toBe('TASK_STATE_WORKING');
    expect(eventKinds(await streaming)).toEqual(['task:SUBMITTED', 'statusUpdate:WORKING', 'artifactUpdate']);
  });
});
