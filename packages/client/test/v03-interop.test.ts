/**
A client that speaks 0.3 against a real v0.3 peer (docs/protocol-checks.md#v03-peers,
docs/interop.md#v03-peers): the official `@a2a-js/sdk` server in its legacy mode on loopback, whose card lists
its JSON-RPC endpoint in 1.0 and, last, in 0.3. `protocolVersions: ['0.3']` forces the v0.3 interface, and
every operation the SDK serves there goes through the client over v0.3 JSON-RPC (its requests carry no
`A2A-Version`, so the SDK serves them as v0.3: A2A spec §3.6.2); `['1.0', '0.3']` picks the 1.0 interface the
card prefers. What v0.3 cannot say is refused before anything is sent.
*/
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningSdkAgent, sdkExtendedDescription, startSdkAgent } from '@surecall/mocks/sdk-agent';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { v03Binding } from '../src/bindings/v03/entry.js';
import { createV03JsonRpcBinding } from '../src/bindings/v03/jsonrpc.js';
import type { A2aClient } from '../src/client/client.js';
import type { ProtocolVersion } from '../src/client/options.js';
import { RequestError } from '../src/core/errors.js';
import { resolveLimits } from '../src/core/limits.js';
import { type DiscoverOptions, discover } from '../src/discovery/discovery.js';
import type { Message } from '../src/protocol/message.js';
import type { StreamResponse } from '../src/protocol/stream.js';

let sdk: RunningSdkAgent;

beforeAll(async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  sdk = await startSdkAgent({ tickMs: 20, legacy: true });
});
afterAll(async () => {
  await sdk.close();
  vi.restoreAllMocks();
});

function message(text: string, extra: Partial<Message> = {}): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

function options(protocolVersions: readonly ProtocolVersion[]): DiscoverOptions {
  return {
    cardUrl: sdk.cardUrl,
    pins: [{ binding: 'JSONRPC', url: sdk.jsonRpcUrl }],
    trust: { kind: 'first-fetch' },
    security: { kind: 'bearer', scheme: 'bearer', token: async () => sdk.bearerToken },
    loopback: true,
    protocolVersions,
    v03: v03Binding,
  };
}

// The A2A-Version of every JSON-RPC request the SDK received from `from` on.
function versionsSent(from: number): unknown[] {
  return sdk.received
    .slice(from)
    .filter((request) => request.path === new URL(sdk.jsonRpcUrl).pathname)
    .map((request) => request.headers['a2a-version']);
}

async function collect(events: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const seen: StreamResponse[] = [];
  for await (const event of events) {
    seen.push(event);
  }
  return seen;
}

describe('protocolVersions against the SDK’s legacy mode', () => {
  it('picks the 1.0 interface the card prefers when both versions are admitted', async () => {
    const client = await discover(options(['1.0', '0.3']));
    const from = sdk.received.length;
    await expect(client.sendMessage({ message: message('echo one') })).resolves.toHaveProperty('message');
    expect(versionsSent(from)).toEqual(['1.0']);
  });

  it('speaks 0.3 over the v0.3 interface when 0.3 is the only version admitted', async () => {
    const client = await discover(options(['0.3']));
    const from = sdk.received.length;
    await expect(client.sendMessage({ message: message('echo one') })).resolves.toHaveProperty('message');
    expect(versionsSent(from)).toEqual([undefined]);
  });
});

describe('a v0.3-only agent: the SDK’s own v0.3 card, served as a v0.3-only agent serves it', () => {
  it('is discovered with 0.3 admitted, and answers over v0.3', async () => {
    // A2A spec §3.6.2: a request without A2A-Version is a v0.3 request, so this is the card a v0.3-only agent
    // publishes; a static host serves it whatever the request says.
    const v03Card = await (await fetch(sdk.cardUrl)).text();
    const host = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(v03Card);
    });
    host.listen(0, '127.0.0.1');
    await once(host, 'listening');
    try {
      const { port } = host.address() as AddressInfo;
      const cardUrl = `http://127.0.0.1:${port}/.well-known/agent-card.json`;
      const client = await discover({ ...options(['1.0', '0.3']), cardUrl });
      expect(client.card.supportedInterfaces).toEqual([
        { url: sdk.jsonRpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ]);
      const from = sdk.received.length;
      await expect(client.sendMessage({ message: message('echo only') })).resolves.toHaveProperty('message');
      expect(versionsSent(from)).toEqual([undefined]);
      await expect(discover({ ...options(['1.0']), cardUrl })).rejects.toMatchObject({
        detail: 'protocol-version-0.3',
        fix: { option: 'protocolVersions', value: '0.3' },
      });
    } finally {
      host.close();
    }
  });
});

describe('every operation the SDK serves over v0.3 JSON-RPC, through the client', () => {
  let client: A2aClient;
  let from: number;

  beforeAll(async () => {
    client = await discover(options(['0.3']));
    from = sdk.received.length;
  });
  afterAll(() => {
    // None of them carried A2A-Version: the SDK served each as v0.3.
    expect(versionsSent(from).every((version) => version === undefined)).toBe(true);
  });

  it('SendMessage: a completed task, read back by GetTask with its history bounded', async () => {
    const sent = await client.sendMessage({ message: message('task a b') });
    expect('task' in sent && sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    const task = 'task' in sent ? sent.task : undefined;
    expect(task?.artifacts?.map((artifact) => artifact.parts.length)).toEqual([2]);
    const read = await client.getTask({ id: task?.id ?? '', historyLength: 1 });
    expect(read).toMatchObject({ id: task?.id, contextId: task?.contextId });
    expect(read.history.length).toBeLessThanOrEqual(1);
  });

  it('SendMessage: a direct message in the agent’s role', async () => {
    const sent = await client.sendMessage({ message: message('echo hi') });
    expect('message' in sent && sent.message.role).toBe('ROLE_AGENT');
  });

  it('SendMessage with returnImmediately, then CancelTask', async () => {
    const sent = await client.sendMessage({
      message: message('slow 5'),
      configuration: { returnImmediately: true },
    });
    const task = 'task' in sent ? sent.task : undefined;
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task?.status.state);
    const canceled = await client.cancelTask({ id: task?.id ?? '' });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('an input-required task continued by a follow-up naming it', async () => {
    const first = await client.sendMessage({ message: message('input') });
    const task = 'task' in first ? first.task : undefined;
    expect(task?.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const follow = message('more', { taskId: task?.id ?? '', contextId: task?.contextId ?? '' });
    const second = await client.sendMessage({ message: follow });
    expect('task' in second && second.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('SendStreamingMessage: every event through the lifecycle validator, the task completed last', async () => {
    const events = await collect(client.sendStreamingMessage({ message: message('task x y z') }));
    expect(events.filter((event) => 'artifactUpdate' in event)).toHaveLength(3);
    const last = events.at(-1);
    expect(last !== undefined && 'statusUpdate' in last && last.statusUpdate.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
  });

  it('SubscribeToTask: a running task’s events until it completes', async () => {
    const sent = await client.sendMessage({
      message: message('slow 4'),
      configuration: { returnImmediately: true },
    });
    const id = 'task' in sent ? sent.task.id : '';
    const events = await collect(client.subscribeToTask({ id }));
    expect(events.length).toBeGreaterThan(0);
    const last = events.at(-1);
    expect(last !== undefined && 'statusUpdate' in last && last.statusUpdate.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
  });

  it('the push-config operations: create, get, list (every config, one page) and delete', async () => {
    const first = await client.sendMessage({ message: message('input') });
    const taskId = 'task' in first ? first.task.id : '';
    for (const id of ['p-1', 'p-2']) {
      const created = await client.createTaskPushNotificationConfig({
        taskId,
        id,
        url: sdk.webhookUrl,
        token: `token-${id}`,
      });
      expect(created).toMatchObject({ taskId, id, url: sdk.webhookUrl, token: `token-${id}` });
    }
    await expect(client.getTaskPushNotificationConfig({ taskId, id: 'p-2' })).resolves.toMatchObject({
      id: 'p-2',
      url: sdk.webhookUrl,
    });
    const page = await client.listTaskPushNotificationConfigs({ taskId, pageSize: 1 });
    expect(page.configs.map((config) => config.id).sort()).toEqual(['p-1', 'p-2']);
    expect(page.nextPageToken ?? '').toBe('');
    await client.deleteTaskPushNotificationConfig({ taskId, id: 'p-1' });
    const after = await client.listTaskPushNotificationConfigs({ taskId });
    expect(after.configs.map((config) => config.id)).toEqual(['p-2']);
  });

  it('GetTask of an unknown task: the SDK’s v0.3 error, its code authoritative', async () => {
    await expect(client.getTask({ id: 'no-such-task' })).rejects.toMatchObject({
      kind: 'remote',
      reason: 'TASK_NOT_FOUND',
      remoteCode: -32001,
      dispatched: true,
    });
  });

  it('GetExtendedAgentCard: the SDK’s v0.3 extended card as the v1.0 card, and a client on it', async () => {
    const extended = await client.getExtendedAgentCard();
    expect(extended.description).toBe(sdkExtendedDescription);
    expect(extended.supportedInterfaces[0]).toMatchObject({
      url: sdk.jsonRpcUrl,
      protocolBinding: 'JSONRPC',
    });
    const full = await client.withExtendedCard();
    expect(full.card.description).toBe(sdkExtendedDescription);
    await expect(full.sendMessage({ message: message('echo extended') })).resolves.toHaveProperty('message');
  });

  it('ListTasks: refused before dispatch, since v0.3 has no such method', async () => {
    const before = sdk.received.length;
    const error = await client.listTasks({}).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({
      reason: 'invalid-params',
      dispatched: false,
      violation: { rule: 'no-list-tasks' },
    });
    expect(sdk.received.length).toBe(before);
  });
});

describe('the v0.3 binding’s refusals before dispatch', () => {
  it('refuses every call of an interface with a tenant, which v0.3 cannot carry', async () => {
    let id = 0;
    const binding = createV03JsonRpcBinding({
      url: sdk.jsonRpcUrl,
      tenant: 'acme',
      limits: resolveLimits(),
      nextId: () => ++id,
    });
    const before = sdk.received.length;
    await expect(binding.unary('getTask', { id: 't-1' }, {})).rejects.toMatchObject({
      kind: 'request',
      dispatched: false,
      violation: { rule: 'no-tenant', path: '$.tenant' },
    });
    await expect(binding.stream('subscribeToTask', { id: 't-1' }, {})).rejects.toMatchObject({
      violation: { rule: 'no-tenant' },
    });
    expect(sdk.received.length).toBe(before);
    expect(id).toBe(0);
  });

  it('refuses a data part that is no object, which v0.3’s DataPart cannot hold', async () => {
    const client = await discover(options(['0.3']));
    const before = sdk.received.length;
    const sent = client.sendMessage({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ data: [1, 2] }] },
    });
    await expect(sent).rejects.toMatchObject({
      kind: 'request',
      dispatched: false,
      violation: { rule: 'invalid_type', path: '$.message.parts[0].data' },
    });
    expect(sdk.received.length).toBe(before);
  });
});
