/**
Interop: the official `@a2a-js/sdk@1.3.0` v0.3 client (its `compat/v0_3/client`: `parseLegacyAgentCard` and
`LegacyJsonRpcTransport` and `LegacyRestTransport`, what its `ClientFactory` picks for a v0.3 interface)
against the mock agent in its v0.3 mode on a loopback port, every operation v0.3 has over each binding. The
SDK reads v0.3 by its own translators, so the mock's v0.3 is held to a second reading besides the client's
mapping (test/v03.test.ts). Results are the SDK's ts-proto objects: numeric enums, `{ $case, value }` parts
and union members.
*/
import {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  type Message,
  SendMessageRequest,
  type StreamResponse,
  SubscribeToTaskRequest,
  type Task,
  TaskPushNotificationConfig,
  TaskState,
} from '@a2a-js/sdk';
import {
  LegacyJsonRpcTransport,
  LegacyRestTransport,
  parseLegacyAgentCard,
} from '@a2a-js/sdk/compat/v0_3/client';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockAgent, startMockAgent } from '../src/mounts/loopback.js';

let mock: RunningMockAgent;

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, protocol: '0.3', stepMs: 0 });
});

type Transport = LegacyJsonRpcTransport | LegacyRestTransport;
type Options = { readonly fetchImpl?: typeof fetch };

// The SDK's two v0.3 transports, each at the interface the card lists for it.
const transports: [string, (options?: Options) => Transport][] = [
  [
    'JSON-RPC',
    (options = {}) => new LegacyJsonRpcTransport({ endpoint: `${mock.origin}/a2a/jsonrpc`, ...options }),
  ],
  [
    'HTTP+JSON',
    (options = {}) => new LegacyRestTransport({ endpoint: `${mock.origin}/a2a/rest`, ...options }),
  ],
];
afterAll(async () => {
  await mock.close();
});

function send(
  text: string,
  extra: { taskId?: string; contextId?: string; returnImmediately?: boolean } = {},
) {
  const { returnImmediately, ...ids } = extra;
  return SendMessageRequest.fromJSON({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...ids },
    configuration: { returnImmediately: returnImmediately ?? false },
  });
}

function asTask(result: Message | Task): Task {
  if ('messageId' in result) {
    throw new Error('expected a Task, got a Message');
  }
  return result;
}

async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) {
    events.push(event);
  }
  return events;
}

describe('the official SDK’s v0.3 card reader', () => {
  it('reads the card as v0.3: its JSON-RPC interface first, then HTTP+JSON, of the card’s version', async () => {
    const card = parseLegacyAgentCard(await (await fetch(mock.cardUrl)).json());
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({ url: `${mock.origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC' }),
      expect.objectContaining({ url: `${mock.origin}/a2a/rest`, protocolBinding: 'HTTP+JSON' }),
    ]);
    expect(card.supportedInterfaces[0]?.protocolVersion).toMatch(/^0\.3/);
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.capabilities?.extendedAgentCard).toBe(true);
  });
});

describe.each(transports)('the official SDK’s v0.3 %s client against the mock’s v0.3 mode', (_name, make) => {
  let transport: Transport;
  beforeAll(() => {
    transport = make();
  });

  it('sendMessage: a completed task, then getTask and a direct message', async () => {
    const task = asTask(await transport.sendMessage(send('task a b')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const read = await transport.getTask(GetTaskRequest.fromJSON({ id: task.id, historyLength: 1 }));
    expect(read.id).toBe(task.id);
    expect(read.history).toHaveLength(1);
    const reply = await transport.sendMessage(send('echo hi'));
    expect('messageId' in reply && reply.parts[0]?.content).toEqual({ $case: 'text', value: 'echo hi' });
  });

  it('cancelTask on a running task, and TaskNotFound for an unknown one', async () => {
    const task = asTask(await transport.sendMessage(send('slow 3', { returnImmediately: true })));
    const canceled = await transport.cancelTask(CancelTaskRequest.fromJSON({ id: task.id }));
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(transport.getTask(GetTaskRequest.fromJSON({ id: 'no-such-task' }))).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
  });

  it('sendMessageStream and resubscribeTask: every event read, the last one completed', async () => {
    const events = await collect(transport.sendMessageStream(send('task x y')));
    expect(events.map((event) => event.payload?.$case)).toContain('artifactUpdate');
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const slow = asTask(await transport.sendMessage(send('slow 1', { returnImmediately: true })));
    const resumed = await collect(
      transport.resubscribeTask(SubscribeToTaskRequest.fromJSON({ id: slow.id })),
    );
    expect(resumed[0]?.payload?.$case).toBe('task');
    const end = resumed.at(-1)?.payload;
    expect(end?.$case === 'statusUpdate' && end.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('the push-config operations: create, get, list every config, delete', async () => {
    const taskId = asTask(await transport.sendMessage(send('input'))).id;
    for (const id of ['p-1', 'p-2']) {
      const created = await transport.createTaskPushNotificationConfig(
        TaskPushNotificationConfig.fromJSON({
          taskId,
          id,
          url: 'https://hooks.example/a2a',
          token: `t-${id}`,
        }),
      );
      expect(created).toMatchObject({ taskId, id, url: 'https://hooks.example/a2a', token: `t-${id}` });
    }
    const got = await transport.getTaskPushNotificationConfig(
      GetTaskPushNotificationConfigRequest.fromJSON({ taskId, id: 'p-2' }),
    );
    expect(got.id).toBe('p-2');
    const list = await transport.listTaskPushNotificationConfig(
      ListTaskPushNotificationConfigsRequest.fromJSON({ taskId }),
    );
    expect(list.configs.map((config) => config.id)).toEqual(['p-1', 'p-2']);
    await transport.deleteTaskPushNotificationConfig(
      DeleteTaskPushNotificationConfigRequest.fromJSON({ taskId, id: 'p-1' }),
    );
    const after = await transport.listTaskPushNotificationConfig(
      ListTaskPushNotificationConfigsRequest.fromJSON({ taskId }),
    );
    expect(after.configs.map((config) => config.id)).toEqual(['p-2']);
  });

  it('getExtendedAgentCard with a bearer token: the extended card', async () => {
    const authorized = make({
      fetchImpl: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('authorization', 'Bearer sdk');
        return fetch(input, { ...init, headers });
      },
    });
    const card = await authorized.getExtendedAgentCard({ tenant: '' });
    expect(card.description).toMatch(/extended card/);
    expect(card.provider?.organization).toBe('surecall');
  });
});
