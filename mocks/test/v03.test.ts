/**
The mock agent as a v0.3-only agent (`startMockAgent({ protocol: '0.3' })`) on a real loopback port: its v0.3
card and every A2A v0.3 JSON-RPC method, each answer read by the client's v0.3 mapping and decoded by the v1.0
schemas (test/support/v03-peer.ts), v1.0 names refused as no method, and the one core behind it: executions
and idempotency keys as on v1.0; the webhook bodies and the v0.3 extensions header beside the answers.
*/
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { operationNames } from '@surecall/client/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCard } from '../../packages/client/src/protocol/agent-card.js';
import type { JsonValue } from '../../packages/client/src/protocol/json-value.js';
import { TaskPushNotificationConfig } from '../../packages/client/src/protocol/push.js';
import { ListTaskPushNotificationConfigsResponse } from '../../packages/client/src/protocol/requests.js';
import { SendMessageResponse } from '../../packages/client/src/protocol/send-message.js';
import { StreamResponse } from '../../packages/client/src/protocol/stream.js';
import { Task } from '../../packages/client/src/protocol/task.js';
import {
  pushConfigFromV03,
  pushConfigListFromV03,
  sendResultFromV03,
  streamEventFromV03,
  taskFromV03,
} from '../../packages/client/src/protocol/v03/answers.js';
import { cardFromV03 } from '../../packages/client/src/protocol/v03/card.js';
import { v03Methods } from '../../packages/client/src/protocol/v03/requests.js';
import { type RunningMockAgent, startMockAgent } from '../src/mounts/loopback.js';
import { v03Operations } from '../src/v03/methods.js';
import { v1, v03Call, v03Message, v03Post, v03Refusal, v03Stream } from './support/v03-peer.js';

let mock: RunningMockAgent;
let rpc: string;

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, protocol: '0.3', stepMs: 5 });
  rpc = `${mock.origin}/a2a/jsonrpc`;
});
afterAll(async () => {
  await mock.close();
});

const sent = async (params: unknown): Promise<SendMessageResponse> =>
  v1<SendMessageResponse>(sendResultFromV03(await v03Call(rpc, 'message/send', params)), SendMessageResponse);

const taskOf = (response: SendMessageResponse): Task => {
  if (!('task' in response)) {
    throw new Error('expected a task');
  }
  return response.task;
};

describe('the v0.3 card', () => {
  it('names its JSON-RPC interface at its top and HTTP+JSON beside it, as v0.3, whatever A2A-Version asks for', async () => {
    for (const headers of [{}, { 'a2a-version': '1.0' }]) {
      const raw = (await (await fetch(mock.cardUrl, { headers })).json()) as Record<string, JsonValue>;
      expect(raw).toMatchObject({
        protocolVersion: '0.3.0',
        url: rpc,
        preferredTransport: 'JSONRPC',
        supportsAuthenticatedExtendedCard: true,
        securitySchemes: { bearer: { type: 'http', scheme: 'Bearer' } },
        security: [{}, { bearer: [] }],
      });
      expect(raw).not.toHaveProperty('supportedInterfaces');
      expect(raw['additionalInterfaces']).toEqual([
        { url: `${mock.origin}/a2a/rest`, transport: 'HTTP+JSON' },
      ]);
      const card = v1<AgentCard>(cardFromV03(raw), AgentCard);
      expect(card.supportedInterfaces).toEqual([
        { url: rpc, protocolBinding: 'JSONRPC', protocolVersion: '0.3.0' },
        { url: `${mock.origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3.0' },
      ]);
      expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
    }
  });

  it('agent/getAuthenticatedExtendedCard: the extended card to a bearer, HTTP 401 without one', async () => {
    const response = await v03Post(rpc, 'agent/getAuthenticatedExtendedCard', undefined, {
      authorization: 'Bearer any',
    });
    const { result } = (await response.json()) as { result: JsonValue };
    const card = v1<AgentCard>(cardFromV03(result), AgentCard);
    expect(card.description).toMatch(/extended card/);
    expect(card.provider?.organization).toBe('surecall');
    const refused = await v03Post(rpc, 'agent/getAuthenticatedExtendedCard', undefined);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: unknown }).error).toEqual({
      code: -32000,
      message: 'GetExtendedAgentCard needs an Authorization: Bearer token',
    });
  });
});

describe('the v0.3 JSON-RPC methods', () => {
  it('message/send: a blocking send answers the completed task, tasks/get reads it with its history bounded', async () => {
    const task = taskOf(await sent({ message: v03Message('task a b'), configuration: { blocking: true } }));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.length).toBe(1);
    const read = v1<Task>(
      taskFromV03(await v03Call(rpc, 'tasks/get', { id: task.id, historyLength: 1 })),
      Task,
    );
    expect(read).toMatchObject({ id: task.id, contextId: task.contextId });
    expect(read.history).toHaveLength(1);
  });

  it('message/send: a direct message in the agent’s role, its parts kind text', async () => {
    const raw = await v03Call(rpc, 'message/send', { message: v03Message('echo hi') });
    expect(raw).toMatchObject({ kind: 'message', role: 'agent', parts: [{ kind: 'text' }] });
    const reply = v1<SendMessageResponse>(sendResultFromV03(raw), SendMessageResponse);
    expect('message' in reply && reply.message.role).toBe('ROLE_AGENT');
  });

  it('message/send without blocking does not wait (A2A v0.3: blocking is false unless set); tasks/cancel', async () => {
    const task = taskOf(await sent({ message: v03Message('slow 3') }));
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task.status.state);
    const raw = await v03Call(rpc, 'tasks/cancel', { id: task.id });
    expect(raw).toMatchObject({ kind: 'task', status: { state: 'canceled' } });
    expect(v1<Task>(taskFromV03(raw), Task).status.state).toBe('TASK_STATE_CANCELED');
  });

  it('an input-required task continued by a follow-up naming it', async () => {
    const first = taskOf(await sent({ message: v03Message('input'), configuration: { blocking: true } }));
    expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const follow = v03Message('more', { taskId: first.id, contextId: first.contextId });
    const second = taskOf(await sent({ message: follow, configuration: { blocking: true } }));
    expect(second).toMatchObject({ id: first.id, status: { state: 'TASK_STATE_COMPLETED' } });
  });

  it('file parts by uri and by bytes, both ways', async () => {
    const bytes = Buffer.from('hello').toString('base64');
    const message = v03Message('task files', {
      parts: [
        { kind: 'text', text: 'files' },
        { kind: 'file', file: { bytes, mimeType: 'text/plain', name: 'a.txt' } },
        { kind: 'file', file: { uri: 'https://files.example/b.txt', mimeType: 'text/plain' } },
      ],
    });
    const raw = await v03Call(rpc, 'message/send', { message, configuration: { blocking: true } });
    const task = taskOf(v1<SendMessageResponse>(sendResultFromV03(raw), SendMessageResponse));
    const read = (await v03Call(rpc, 'tasks/get', { id: task.id })) as { history: JsonValue[] };
    expect(read.history[0]).toMatchObject({ parts: message['parts'] });
    expect(JSON.stringify(raw)).toMatch(/"kind":"file","file":\{"(uri|bytes)"/);
  });

  it('message/stream: every event a v0.3 object, `final` on the last status update only', async () => {
    const raw = await v03Stream(rpc, 'message/stream', { message: v03Message('task x y z') });
    const events = raw.map((event) => v1<StreamResponse>(streamEventFromV03(event), StreamResponse));
    expect(events.filter((event) => 'artifactUpdate' in event)).toHaveLength(3);
    const updates = raw.filter((event) => (event as { kind?: string }).kind === 'status-update');
    expect(updates.map((event) => (event as { final: boolean }).final)).toEqual([
      ...updates.slice(1).map(() => false),
      true,
    ]);
    expect(raw.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' }, final: true });
  });

  it('tasks/resubscribe: a running task’s events from its current state to its end', async () => {
    const task = taskOf(await sent({ message: v03Message('slow 1') }));
    const raw = await v03Stream(rpc, 'tasks/resubscribe', { id: task.id });
    expect(raw[0]).toMatchObject({ kind: 'task', id: task.id });
    for (const event of raw) {
      v1<StreamResponse>(streamEventFromV03(event), StreamResponse);
    }
    expect(raw.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });

  it('the push-config methods: set, get (by config id and by task alone), list as one array, delete', async () => {
    const taskId = taskOf(await sent({ message: v03Message('input'), configuration: { blocking: true } })).id;
    const webhook = 'https://hooks.example/a2a';
    for (const id of ['p-1', 'p-2']) {
      const pushNotificationConfig = {
        id,
        url: webhook,
        token: `token-${id}`,
        authentication: { schemes: ['Bearer'], credentials: 'secret' },
      };
      const raw = await v03Call(rpc, 'tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig });
      expect(raw).toEqual({ taskId, pushNotificationConfig });
      v1<TaskPushNotificationConfig>(pushConfigFromV03(raw), TaskPushNotificationConfig);
    }
    const got = await v03Call(rpc, 'tasks/pushNotificationConfig/get', {
      id: taskId,
      pushNotificationConfigId: 'p-2',
    });
    expect(v1<TaskPushNotificationConfig>(pushConfigFromV03(got), TaskPushNotificationConfig)).toMatchObject({
      taskId,
      id: 'p-2',
      url: webhook,
      authentication: { scheme: 'Bearer', credentials: 'secret' },
    });
    const first = await v03Call(rpc, 'tasks/pushNotificationConfig/get', { id: taskId });
    expect(first).toMatchObject({ pushNotificationConfig: { id: 'p-1' } });
    const list = await v03Call(rpc, 'tasks/pushNotificationConfig/list', { id: taskId });
    expect(Array.isArray(list)).toBe(true);
    const page = v1<ListTaskPushNotificationConfigsResponse>(
      pushConfigListFromV03(list),
      ListTaskPushNotificationConfigsResponse,
    );
    expect(page.configs.map((config) => config.id)).toEqual(['p-1', 'p-2']);
    const params = { id: taskId, pushNotificationConfigId: 'p-1' };
    expect(await v03Call(rpc, 'tasks/pushNotificationConfig/delete', params)).toBeNull();
    const after = await v03Call(rpc, 'tasks/pushNotificationConfig/list', { id: taskId });
    expect(
      (after as { pushNotificationConfig: { id: string } }[]).map((entry) => entry.pushNotificationConfig.id),
    ).toEqual(['p-2']);
  });
});

describe('what travels beside the answers', () => {
  it('a webhook gets the bare v0.3 task at each state, as a v0.3 agent posts it', async () => {
    const bodies: unknown[] = [];
    const receiver = createServer((request, response) => {
      let text = '';
      request.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
      });
      request.on('end', () => {
        bodies.push(JSON.parse(text));
        response.end();
      });
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      const configuration = { blocking: true, pushNotificationConfig: { url, token: 'hook-token' } };
      const task = taskOf(await sent({ message: v03Message('task w'), configuration }));
      await expect
        .poll(() =>
          bodies.some((body) => (body as { status?: { state?: string } }).status?.state === 'completed'),
        )
        .toBe(true);
      for (const body of bodies) {
        expect(body).toMatchObject({ kind: 'task', id: task.id });
        v1<Task>(taskFromV03(body as JsonValue), Task);
      }
    } finally {
      receiver.close();
    }
  });

  it('echoes the idempotency extension in X-A2A-Extensions, v0.3’s header, when asked there', async () => {
    const uri = 'https://a2a-rust.com/extensions/idempotency/v1';
    const asked = await v03Post(
      rpc,
      'message/send',
      { message: v03Message('echo x') },
      { 'x-a2a-extensions': uri },
    );
    expect(asked.headers.get('x-a2a-extensions')).toBe(uri);
    const v1Header = await v03Post(
      rpc,
      'message/send',
      { message: v03Message('echo y') },
      { 'a2a-extensions': uri },
    );
    expect(v1Header.headers.get('x-a2a-extensions')).toBeNull();
  });
});

describe('what a v0.3 server refuses', () => {
  it('every v1.0 method name is no method (-32601); the v0.3 ones are the client mapping’s, operation for operation', async () => {
    for (const method of operationNames) {
      expect(await v03Refusal(rpc, method, {})).toEqual({ code: -32601, message: 'Method not found' });
    }
    // The mock serves exactly the methods the client's v0.3 mapping writes, each for the same operation.
    const fromClient = Object.entries(v03Methods).map(([operation, method]) => [
      method,
      operation.charAt(0).toUpperCase() + operation.slice(1),
    ]);
    expect(Object.entries(v03Operations).sort()).toEqual(fromClient.sort());
    expect((await fetch(`${mock.origin}/a2a/rest/tasks/t-1`)).status).toBe(404);
  });

  it.each([
    [
      'a v1.0 role',
      { message: { ...v03Message('x'), role: 'ROLE_USER' } },
      'message.role must be user or agent',
    ],
    [
      'a v1.0 part',
      { message: v03Message('x', { parts: [{ text: 'x' }] }) },
      'message.parts[0].kind must be text, file or data',
    ],
    ['another kind', { message: v03Message('x', { kind: 'task' }) }, 'message.kind must be message'],
    [
      'a file with both uri and bytes',
      {
        message: v03Message('x', {
          parts: [{ kind: 'file', file: { uri: 'https://f.example/a', bytes: 'AA==' } }],
        }),
      },
      'message.parts[0].file must hold exactly one of uri and bytes',
    ],
    [
      'a data part that is no object',
      { message: v03Message('x', { parts: [{ kind: 'data', data: [1] }] }) },
      'message.parts[0].data must be an object',
    ],
    [
      'a blocking flag that is no boolean',
      { message: v03Message('x'), configuration: { blocking: 'yes' } },
      'configuration.blocking must be a boolean',
    ],
  ])('message/send with %s: InvalidParams, nothing run', async (_name, params, message) => {
    const before = mock.executions.total();
    expect(await v03Refusal(rpc, 'message/send', params)).toEqual({ code: -32602, message });
    expect(mock.executions.total()).toBe(before);
  });

  it('an unknown task: TaskNotFound (-32001) with no v1.0 ErrorInfo data', async () => {
    expect(await v03Refusal(rpc, 'tasks/get', { id: 'no-such-task' })).toEqual({
      code: -32001,
      message: 'Task not found: no-such-task',
    });
  });
});

describe('one core behind the v0.3 binding', () => {
  it('counts each execution, and replays a keyed send without running it again', async () => {
    const key = `v03-key-${crypto.randomUUID()}`;
    const message = v03Message('task k', { metadata: { 'a2a-rust.com/idempotency-key': key } });
    const params = { message, configuration: { blocking: true } };
    const first = taskOf(await sent(params));
    const again = taskOf(await sent(params));
    expect(again.id).toBe(first.id);
    expect(mock.executions.of(message['messageId'] as string)).toBe(1);
  });

  it('refuses options a v0.3 agent cannot have: a tenant, a gRPC mount, a ProtoJSON style', async () => {
    await expect(
      startMockAgent({ port: 0, protocol: '0.3', serializer: 'proto-names' }),
    ).rejects.toMatchObject({
      name: 'OptionsError',
      option: 'serializer',
    });
    await expect(startMockAgent({ port: 0, protocol: '0.3', tenantRequired: true })).rejects.toMatchObject({
      name: 'OptionsError',
      option: 'tenantRequired',
    });
    await expect(startMockAgent({ port: 0, protocol: '0.3', grpcPort: 0 })).rejects.toMatchObject({
      name: 'OptionsError',
      option: 'grpcPort',
    });
  });
});
