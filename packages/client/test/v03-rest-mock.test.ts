/**
A client that speaks 0.3 over HTTP+JSON against the mock agent in its v0.3 mode (mocks/README.md, "As a v0.3
agent"), on a real loopback port, through its v0.3 REST routes (`mocks/src/v03/rest.ts`): the mock's v0.3 card
prefers JSON-RPC and lists HTTP+JSON in `additionalInterfaces`, so the client is built on that card with a pin
to its v0.3 HTTP+JSON interface (docs/protocol-checks.md#v03-peers). Every operation v0.3 has goes through the
client, its answers checked as v1.0 answers are; and a durable send whose answer the fault lab drops after the
work is keyed and committed by its replay where the card declares the idempotency extension, and ends
`unresolved` with the v0.3 reason at its first probe where it does not, each with one execution
(docs/durable-send.md#reconciling-an-unknown). The JSON-RPC side of the same suite is v03-mock.test.ts.
*/
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { v03Binding } from '../src/bindings/v03/entry.js';
import { type A2aClient, createClient } from '../src/client/client.js';
import { fetchAgentCard } from '../src/discovery/discovery.js';
import { durableAgent } from '../src/durable/agent.js';
import { openLedger } from '../src/ledger/memory.js';
import type { Message } from '../src/protocol/message.js';
import type { StreamResponse } from '../src/protocol/stream.js';

let mock: RunningMockAgent;

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, protocol: '0.3', stepMs: 0 });
});
afterEach(() => mock.faults.clear());
afterAll(() => mock.close());

function message(text: string, extra: Partial<Message> = {}): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

/** A client of `agent`'s v0.3 card, pinned to its v0.3 HTTP+JSON interface. */
async function restClient(agent: RunningMockAgent): Promise<A2aClient> {
  const common = { loopback: true, protocolVersions: ['0.3'], v03: v03Binding } as const;
  const { card, digest } = await fetchAgentCard({ cardUrl: agent.cardUrl, ...common });
  return createClient({
    card,
    cardDigest: digest,
    pin: { binding: 'HTTP+JSON', url: `${agent.origin}/a2a/rest` },
    security: { kind: 'bearer', scheme: 'bearer', token: async () => 'token-for-the-v03-test' },
    ...common,
  });
}

async function collect(events: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const seen: StreamResponse[] = [];
  for await (const event of events) {
    seen.push(event);
  }
  return seen;
}

describe('every operation v0.3 has, over the mock’s v0.3 HTTP+JSON routes', () => {
  let client: A2aClient;

  beforeAll(async () => {
    client = await restClient(mock);
  });

  it('is pinned to the v0.3 HTTP+JSON interface the card lists', () => {
    expect(client.pin).toEqual({ binding: 'HTTP+JSON', url: `${mock.origin}/a2a/rest` });
    expect(client.card.supportedInterfaces).toContainEqual({
      url: `${mock.origin}/a2a/rest`,
      protocolBinding: 'HTTP+JSON',
      protocolVersion: '0.3.0',
    });
  });

  it('SendMessage: a completed task, read back by GetTask', async () => {
    const sent = await client.sendMessage({ message: message('task a b') });
    const task = 'task' in sent ? sent.task : undefined;
    expect(task?.status.state).toBe('TASK_STATE_COMPLETED');
    const read = await client.getTask({ id: task?.id ?? '', historyLength: 1 });
    expect(read).toMatchObject({ id: task?.id, contextId: task?.contextId });
    expect(read.history.length).toBeLessThanOrEqual(1);
  });

  it('SendMessage: a direct message in the agent’s role', async () => {
    const sent = await client.sendMessage({ message: message('echo hi') });
    expect('message' in sent && sent.message.role).toBe('ROLE_AGENT');
  });

  it('an input-required task continued by a follow-up, then canceled', async () => {
    const first = await client.sendMessage({ message: message('input') });
    const task = 'task' in first ? first.task : undefined;
    expect(task?.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const canceled = await client.cancelTask({ id: task?.id ?? '' });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('SendStreamingMessage: every event through the lifecycle validator, the task completed last', async () => {
    const events = await collect(client.sendStreamingMessage({ message: message('task x y z') }));
    expect(events.length).toBeGreaterThan(1);
    const last = events.at(-1);
    expect(last !== undefined && 'statusUpdate' in last && last.statusUpdate.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
  });

  it('SubscribeToTask: an input-required task’s stream', async () => {
    const first = await client.sendMessage({ message: message('input') });
    const id = 'task' in first ? first.task.id : '';
    const stream = client.subscribeToTask({ id })[Symbol.asyncIterator]();
    const opened = await stream.next();
    expect(opened.done).toBe(false);
    expect(opened.value !== undefined && 'task' in opened.value && opened.value.task.id).toBe(id);
    await stream.return?.();
  });

  it('the push-config operations: create, get, list (every config, one page) and delete', async () => {
    const first = await client.sendMessage({ message: message('input') });
    const taskId = 'task' in first ? first.task.id : '';
    const url = 'https://hooks.example.com/a2a';
    for (const id of ['p-1', 'p-2']) {
      await expect(
        client.createTaskPushNotificationConfig({ taskId, id, url, token: `token-${id}` }),
      ).resolves.toMatchObject({ taskId, id, url });
    }
    await expect(client.getTaskPushNotificationConfig({ taskId, id: 'p-2' })).resolves.toMatchObject({
      taskId,
      id: 'p-2',
    });
    const page = await client.listTaskPushNotificationConfigs({ taskId, pageSize: 1 });
    expect(page.configs.map((config) => config.id).sort()).toEqual(['p-1', 'p-2']);
    await client.deleteTaskPushNotificationConfig({ taskId, id: 'p-1' });
    const after = await client.listTaskPushNotificationConfigs({ taskId });
    expect(after.configs.map((config) => config.id)).toEqual(['p-2']);
  });

  it('GetTask of an unknown task: the mock’s v0.3 error with its status, its A2A code authoritative', async () => {
    await expect(client.getTask({ id: 'no-such-task' })).rejects.toMatchObject({
      kind: 'remote',
      reason: 'TASK_NOT_FOUND',
      remoteCode: -32001,
      httpStatus: 404,
      dispatched: true,
    });
  });

  it('GetExtendedAgentCard: the mock’s v0.3 proto card as the v1.0 card, and a client on it', async () => {
    const extended = await client.getExtendedAgentCard();
    expect(extended.supportedInterfaces.map((entry) => entry.protocolBinding)).toEqual([
      'JSONRPC',
      'HTTP+JSON',
    ]);
    expect(Object.keys(extended.securitySchemes ?? {})).toContain('bearer');
    const full = await client.withExtendedCard();
    expect(full.pin).toEqual(client.pin);
    await expect(full.sendMessage({ message: message('echo extended') })).resolves.toHaveProperty('message');
  });

  it('ListTasks: refused before dispatch, since v0.3 has no such operation', async () => {
    const before = mock.executions.total();
    await expect(client.listTasks({})).rejects.toMatchObject({
      kind: 'request',
      dispatched: false,
      violation: { rule: 'no-list-tasks' },
    });
    expect(mock.executions.total()).toBe(before);
  });
});

describe('a durable send over the mock’s v0.3 HTTP+JSON routes, its answer dropped after the work', () => {
  it('to a card that declares the idempotency extension: keyed, and committed by its replay, one execution', async () => {
    const client = await restClient(mock);
    expect(client.honoursIdempotency).toBe(true);
    const agent = durableAgent({ client, ledger: await openLedger({ name: 'v03-rest-keyed' }) });
    const before = mock.executions.total();
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const lost = await agent.send(message('task lost'));
    expect(lost.record.delivery).toBe('keyed');
    expect(lost.record.state).toMatchObject({ status: 'unknown', reason: 'ambiguous-outcome' });
    expect(mock.executions.total() - before).toBe(1);
    const reconciled = await agent.reconcile(lost.id);
    expect(reconciled.status).toBe('committed');
    expect(mock.executions.total() - before).toBe(1);
  });

  it('to a card without it: at-most-once, unresolved (no-list-tasks) at the first probe, one execution', async () => {
    // The mock in its `refusing` mode declares no idempotency extension (mocks/README.md).
    const refusing = await startMockAgent({ port: 0, protocol: '0.3', stepMs: 0, mode: 'refusing' });
    try {
      const client = await restClient(refusing);
      expect(client.honoursIdempotency).toBe(false);
      const agent = durableAgent({ client, ledger: await openLedger({ name: 'v03-rest-at-most-once' }) });
      refusing.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
      const lost = await agent.send(message('task lost'));
      expect(lost.record.delivery).toBe('at-most-once');
      expect(lost.record.state).toMatchObject({ status: 'unknown', reason: 'ambiguous-outcome' });
      expect(refusing.executions.total()).toBe(1);
      const reconciled = await agent.reconcile(lost.id);
      expect(reconciled.status).toBe('unresolved');
      expect(reconciled.record.state).toMatchObject({ status: 'unknown', reason: 'no-list-tasks' });
      expect(refusing.executions.total()).toBe(1);
    } finally {
      await refusing.close();
    }
  });
});
