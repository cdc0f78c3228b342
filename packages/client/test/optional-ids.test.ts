/**
@module
The optional ids of a message, over all three bindings (gRPC through the mock's gRPC mount) and (through
vite.config.ts) every serializer style of the mock agent (docs/interop.md#serializer-styles). In the A2A v1.0
proto `Message.context_id` and `Message.task_id` are optional, and A2A spec §3.4.1 lets an agent leave a
context unassigned: the mock agent with `messageIds: 'omitted'` answers as agents not built on the official
SDKs do, and the client accepts every such answer, its messages read as their task's. What breaks a MUST is
still refused with its rule (docs/protocol-checks.md#unary-answers): the fault lab's `foreign-message-ids`
makes a message name another context or task than the one it belongs to, or a direct reply answer in another
context than the send named.
*/
import { type FaultSpec, jsonRpcPath, type MessageIds, restPath } from '@surecall/mocks';
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcBinding } from '../src/bindings/grpc/entry.js';
import { type A2aClient, createClient } from '../src/client/client.js';
import type { ProtocolBinding } from '../src/client/security.js';
import { isClientError } from '../src/core/errors.js';
import { fetchAgentCard } from '../src/discovery/discovery.js';
import type { Message } from '../src/protocol/message.js';
import type { StreamResponse } from '../src/protocol/stream.js';
import type { Task } from '../src/protocol/task.js';

const bindings = ['JSONRPC', 'HTTP+JSON', 'GRPC'] as const satisfies readonly ProtocolBinding[];
const agents: Partial<Record<MessageIds, RunningMockAgent>> = {};

beforeAll(async () => {
  agents.set = await startMockAgent({ port: 0, grpcPort: 0, stepMs: 0 });
  agents.omitted = await startMockAgent({ port: 0, grpcPort: 0, stepMs: 0, messageIds: 'omitted' });
});
afterAll(async () => {
  await Promise.all(Object.values(agents).map((agent) => agent.close()));
});

function running(ids: MessageIds): RunningMockAgent {
  const agent = agents[ids];
  if (agent === undefined) {
    throw new Error('the mock agents are not running');
  }
  return agent;
}

async function clientOf(ids: MessageIds, binding: ProtocolBinding): Promise<A2aClient> {
  const agent = running(ids);
  const { card, digest } = await fetchAgentCard({ cardUrl: agent.cardUrl, loopback: true });
  const urls = { JSONRPC: `${agent.origin}${jsonRpcPath}`, 'HTTP+JSON': `${agent.origin}${restPath}` };
  return createClient({
    card,
    cardDigest: digest,
    grpc: grpcBinding,
    pin: { binding, url: binding === 'GRPC' ? (agent.grpcUrl ?? '') : urls[binding] },
    security: { kind: 'anonymous' },
  });
}

function userMessage(text: string, extra: Partial<Message> = {}): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) {
    events.push(event);
  }
  return events;
}

/** Every message a task holds: its status message and its history. */
function messagesOf(task: Task): Message[] {
  return [...(task.status.message === undefined ? [] : [task.status.message]), ...task.history];
}

/** The ids of messages, as `[contextId, taskId]` pairs. */
function idsOf(messages: readonly Message[]): (string | undefined)[][] {
  return messages.map((message) => [message.contextId, message.taskId]);
}

describe.each(bindings)('answers whose messages leave their ids out, over %s', (binding) => {
  it('a direct reply without contextId, the send naming none', async () => {
    const client = await clientOf('omitted', binding);
    const result = await client.sendMessage({ message: userMessage('echo hi') });
    expect(result).toMatchObject({ message: { role: 'ROLE_AGENT', parts: [{ text: 'echo hi' }] } });
    expect('message' in result && idsOf([result.message])).toEqual([[undefined, undefined]]);
  });

  it("a direct reply without contextId to a send that named one: the send's context", async () => {
    const client = await clientOf('omitted', binding);
    const result = await client.sendMessage({ message: userMessage('echo hi', { contextId: 'ctx-named' }) });
    expect('message' in result && result.message.contextId).toBeUndefined();
  });

  it('a settled task whose status message and history carry no ids, read as its own', async () => {
    const client = await clientOf('omitted', binding);
    const sent = await client.sendMessage({ message: userMessage('task a b') });
    const task = 'task' in sent ? sent.task : undefined;
    expect(task?.status.state).toBe('TASK_STATE_COMPLETED');
    const messages = task === undefined ? [] : messagesOf(task);
    expect(messages.map((message) => message.role)).toContain('ROLE_AGENT');
    expect(
      idsOf(messages)
        .flat()
        .every((id) => id === undefined),
    ).toBe(true);
    const read = await client.getTask({ id: task?.id ?? '' });
    expect(
      idsOf(messagesOf(read))
        .flat()
        .every((id) => id === undefined),
    ).toBe(true);
    const page = await client.listTasks({ contextId: task?.contextId ?? '', historyLength: 8 });
    expect(page.tasks.map((listed) => listed.id)).toEqual([task?.id]);
  });

  it('a stream whose task and status updates carry messages without ids', async () => {
    const client = await clientOf('omitted', binding);
    const events = await collect(client.sendStreamingMessage({ message: userMessage('task a b') }));
    const updates = events.flatMap((event) =>
      'statusUpdate' in event && event.statusUpdate.status.message !== undefined
        ? [event.statusUpdate.status.message]
        : [],
    );
    expect(updates.length).toBeGreaterThan(0);
    expect(
      idsOf(updates)
        .flat()
        .every((id) => id === undefined),
    ).toBe(true);
    expect(events.at(-1)).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });
  });

  it('a follow-up to a task waiting for input, its answer without ids', async () => {
    const client = await clientOf('omitted', binding);
    const first = await client.sendMessage({ message: userMessage('input') });
    const task = 'task' in first ? first.task : undefined;
    expect(task?.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const next = await client.sendMessage({
      message: userMessage('Ada', { taskId: task?.id ?? '', contextId: task?.contextId ?? '' }),
    });
    expect(next).toMatchObject({ task: { id: task?.id, status: { state: 'TASK_STATE_COMPLETED' } } });
  });
});

/** A send, a read or a stream, with the fault armed on its operation. */
type Call = 'send' | 'send-in-context' | 'get' | 'stream';
/** `[name, call, fault, rule, path]`; `rule` undefined when the answer must be accepted. */
type ForeignCase = readonly [
  string,
  Call,
  Omit<Extract<FaultSpec, { kind: 'foreign-message-ids' }>, 'kind' | 'operation'>,
  string | undefined,
  string | undefined,
];

// docs/protocol-checks.md#unary-answers and #stream-lifecycle: each rule kept, and the one case of a direct
// reply naming a context of its own, which A2A spec §3.4.1 allows when the send named none.
const foreign: readonly ForeignCase[] = [
  ['a reply in a context of its own, the send naming none', 'send', { where: 'reply' }, undefined, undefined],
  [
    'a reply in another context than the send named',
    'send-in-context',
    { where: 'reply' },
    'message-context-id',
    '$.message.contextId',
  ],
  [
    'a reply naming a task the send did not name',
    'send',
    { where: 'reply', member: 'taskId' },
    'message-task-id',
    '$.message.taskId',
  ],
  [
    "a status message of another context than its task's",
    'send',
    { where: 'status' },
    'status-message-context-id',
    '$.task.status.message.contextId',
  ],
  [
    "a status message of another task than its task's",
    'get',
    { where: 'status', member: 'taskId' },
    'status-message-task-id',
    '$.status.message.taskId',
  ],
  [
    "a history message of another context than its task's",
    'send',
    { where: 'history' },
    'history-context-id',
    '$.task.history[0].contextId',
  ],
  [
    "a history message of another task than its task's",
    'get',
    { where: 'history', member: 'taskId' },
    'history-task-id',
    '$.history[0].taskId',
  ],
  [
    "a status update's message of another task",
    'stream',
    { where: 'status', member: 'taskId', frame: 1 },
    'status-message-task-id',
    '$.statusUpdate.status.message.taskId',
  ],
];

const operationOf = {
  send: 'SendMessage',
  'send-in-context': 'SendMessage',
  get: 'GetTask',
  stream: 'SendStreamingMessage',
} as const;

describe.each(
  bindings.flatMap((binding) => (['set', 'omitted'] as const).map((ids) => [binding, ids] as const)),
)('messages naming another context or task, over %s, ids %s', (binding, ids) => {
  it.each(foreign)('%s', async (_name, call, fault, rule, path) => {
    const client = await clientOf(ids, binding);
    const agent = running(ids);
    let taskId = '';
    if (call === 'get') {
      const sent = await client.sendMessage({ message: userMessage('task a') });
      taskId = 'task' in sent ? sent.task.id : '';
    }
    const text = fault.where === 'reply' ? 'echo hi' : 'task a';
    agent.faults.set({ kind: 'foreign-message-ids', operation: operationOf[call], binding, ...fault });
    let caught: unknown;
    try {
      if (call === 'get') {
        await client.getTask({ id: taskId });
      } else if (call === 'stream') {
        await collect(client.sendStreamingMessage({ message: userMessage(text) }));
      } else {
        const extra = call === 'send-in-context' ? { contextId: 'ctx-named' } : {};
        await client.sendMessage({ message: userMessage(text, extra) });
      }
    } catch (error) {
      caught = error;
    } finally {
      agent.faults.clear();
    }
    if (rule === undefined) {
      expect(caught).toBeUndefined();
      return;
    }
    expect(isClientError(caught)).toBe(true);
    expect(caught).toMatchObject({
      kind: 'invalid-response',
      reason: 'identity',
      dispatched: true,
      violation: { rule, path },
    });
  });
});
