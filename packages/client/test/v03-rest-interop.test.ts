/**
A client that speaks 0.3 over HTTP+JSON against a real v0.3 peer (docs/protocol-checks.md#v03-peers,
docs/interop.md#v03-peers): the official `@a2a-js/sdk` server in its legacy mode with its v0.3 REST router on
loopback (`startSdkAgent({ legacy: true, legacyRest: true })`), whose card lists its endpoints in 1.0 and
then, first, its HTTP+JSON endpoint in 0.3. `protocolVersions: ['0.3']` selects that v0.3 HTTP+JSON interface,
and every operation the SDK serves there goes through the client (its requests carry no `A2A-Version`, so the
SDK's v0.3 router serves them: A2A spec §3.6.2); `['1.0', '0.3']` picks the 1.0 interface. What v0.3 cannot
say is refused before anything is sent.
*/
import { type RunningSdkAgent, sdkExtendedDescription, startSdkAgent } from '@surecall/mocks/sdk-agent';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { v03Binding } from '../src/bindings/v03/entry.js';
import { createV03RestBinding } from '../src/bindings/v03/rest.js';
import type { A2aClient } from '../src/client/client.js';
import type { ProtocolVersion } from '../src/client/options.js';
import { RequestError } from '../src/core/errors.js';
import { resolveLimits } from '../src/core/limits.js';
import { type DiscoverOptions, discover } from '../src/discovery/discovery.js';
import { skillMetadataKey } from '../src/durable/remote-skill.js';
import type { Message } from '../src/protocol/message.js';
import type { StreamResponse } from '../src/protocol/stream.js';

let sdk: RunningSdkAgent;

beforeAll(async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  sdk = await startSdkAgent({ tickMs: 20, legacy: true, legacyRest: true });
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
    pins: [
      { binding: 'JSONRPC', url: sdk.jsonRpcUrl },
      { binding: 'HTTP+JSON', url: sdk.restUrl },
    ],
    trust: { kind: 'first-fetch' },
    security: { kind: 'bearer', scheme: 'bearer', token: async () => sdk.bearerToken },
    loopback: true,
    protocolVersions,
    v03: v03Binding,
  };
}

// The path and A2A-Version of every HTTP+JSON request the SDK received from `from` on.
function restSent(from: number): { path: string; version: unknown }[] {
  const prefix = new URL(sdk.restUrl).pathname;
  return sdk.received
    .slice(from)
    .filter((request) => request.path.startsWith(prefix))
    .map((request) => ({ path: request.path.slice(prefix.length), version: request.headers['a2a-version'] }));
}

async function collect(events: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const seen: StreamResponse[] = [];
  for await (const event of events) {
    seen.push(event);
  }
  return seen;
}

describe('protocolVersions against the SDK’s legacy mode, pinned to HTTP+JSON', () => {
  it('picks the 1.0 interface the card prefers when both versions are admitted', async () => {
    const client = await discover(options(['1.0', '0.3']));
    expect(client.pin).toMatchObject({ binding: 'JSONRPC', url: sdk.jsonRpcUrl });
    const from = sdk.received.length;
    await expect(client.sendMessage({ message: message('echo one') })).resolves.toHaveProperty('message');
    expect(restSent(from)).toEqual([]);
    expect(sdk.received.at(-1)?.headers['a2a-version']).toBe('1.0');
  });

  it('speaks 0.3 over the v0.3 HTTP+JSON interface when 0.3 is the only version admitted', async () => {
    const client = await discover(options(['0.3']));
    expect(client.pin).toMatchObject({ binding: 'HTTP+JSON', url: sdk.restUrl });
    const from = sdk.received.length;
    await expect(client.sendMessage({ message: message('echo one') })).resolves.toHaveProperty('message');
    expect(restSent(from)).toEqual([{ path: '/v1/message:send', version: undefined }]);
  });
});

describe('every operation the SDK serves over v0.3 HTTP+JSON, through the client', () => {
  let client: A2aClient;
  let from: number;

  beforeAll(async () => {
    client = await discover(options(['0.3']));
    from = sdk.received.length;
  });
  afterAll(() => {
    // Every one went to a v0.3 route without A2A-Version: the SDK's v0.3 router served each.
    const sent = restSent(from);
    expect(sent.length).toBeGreaterThan(10);
    expect(sent.every(({ path, version }) => path.startsWith('/v1/') && version === undefined)).toBe(true);
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

  it('SendMessage: a data skill’s JSON in and out, as v0.3 data parts', async () => {
    const sent = await client.sendMessage({
      message: {
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [{ data: { a: 1, b: 2 } }],
        metadata: { [skillMetadataKey]: 'sum' },
      },
    });
    // The v0.3 proto's DataPart has no media type: the SDK's `application/json` does not survive v0.3.
    expect('message' in sent && sent.message.parts).toEqual([{ data: { sum: 3 } }]);
  });

  it('SendMessage with returnImmediately, then CancelTask (v0.3’s TASK_STATE_CANCELLED read as v1.0’s)', async () => {
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
      taskId,
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

  it('GetTask of an unknown task: the SDK’s v0.3 error with its 404, its A2A code authoritative', async () => {
    await expect(client.getTask({ id: 'no-such-task' })).rejects.toMatchObject({
      kind: 'remote',
      reason: 'TASK_NOT_FOUND',
      remoteCode: -32001,
      httpStatus: 404,
      dispatched: true,
    });
  });

  it('GetExtendedAgentCard: the SDK’s v0.3 proto card as the v1.0 card, and a client on it', async () => {
    const extended = await client.getExtendedAgentCard();
    expect(extended.description).toBe(sdkExtendedDescription);
    expect(extended.supportedInterfaces.map((entry) => entry.protocolBinding)).toContain('HTTP+JSON');
    expect(Object.keys(extended.securitySchemes ?? {})).toEqual(['bearer']);
    const full = await client.withExtendedCard();
    expect(full.card.description).toBe(sdkExtendedDescription);
    await expect(full.sendMessage({ message: message('echo extended') })).resolves.toHaveProperty('message');
  });

  it('ListTasks: refused before dispatch, since v0.3 has no such operation', async () => {
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

describe('the v0.3 HTTP+JSON binding’s refusals before dispatch', () => {
  it('refuses every call of an interface with a tenant, which v0.3 cannot carry', async () => {
    const binding = createV03RestBinding({ url: sdk.restUrl, tenant: 'acme', limits: resolveLimits() });
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
  });

  it('refuses what the v0.3 proto cannot hold: a non-object data part, referenceTaskIds, a cancel’s metadata', async () => {
    const client = await discover(options(['0.3']));
    const before = sdk.received.length;
    await expect(
      client.sendMessage({
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ data: [1, 2] }] },
      }),
    ).rejects.toMatchObject({
      kind: 'request',
      dispatched: false,
      violation: { rule: 'invalid_type', path: '$.message.parts[0].data' },
    });
    await expect(
      client.sendMessage({ message: message('echo', { referenceTaskIds: ['t-0'] }) }),
    ).rejects.toMatchObject({
      dispatched: false,
      violation: { rule: 'unsupported', path: '$.message.referenceTaskIds' },
    });
    await expect(client.cancelTask({ id: 't-1', metadata: { why: 'x' } })).rejects.toMatchObject({
      dispatched: false,
      violation: { rule: 'unsupported', path: '$.metadata' },
    });
    expect(sdk.received.length).toBe(before);
  });
});
