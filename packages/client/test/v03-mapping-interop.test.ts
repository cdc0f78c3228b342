/**
The v0.3 mapping (protocol/v03/) against two real v0.3 peers on loopback, the official `@a2a-js/sdk` server
in its legacy mode and the mock agent as a v0.3-only agent (`startMockAgent({ protocol: '0.3' })`), asked over
JSON-RPC without `A2A-Version` (A2A spec §3.6.2: such a request is v0.3). Every
request is written by `v03Request` from the v1.0 request the client would check, every answer read by the
mapping and then decoded by the v1.0 schemas, so the mapping is held to what a deployed v0.3 agent really
sends, not to our reading of it.
*/
import { startMockAgent } from '@surecall/mocks/node';
import { sdkExtendedDescription, startSdkAgent } from '@surecall/mocks/sdk-agent';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AgentCard } from '../src/protocol/agent-card.js';
import { decode } from '../src/protocol/decode.js';
import type { JsonValue } from '../src/protocol/json-value.js';
import type { ClientMethod } from '../src/protocol/operations.js';
import { TaskPushNotificationConfig } from '../src/protocol/push.js';
import { ListTaskPushNotificationConfigsResponse } from '../src/protocol/requests.js';
import { SendMessageResponse } from '../src/protocol/send-message.js';
import { StreamResponse } from '../src/protocol/stream.js';
import { Task } from '../src/protocol/task.js';
import {
  pushConfigFromV03,
  pushConfigListFromV03,
  sendResultFromV03,
  streamEventFromV03,
  taskFromV03,
} from '../src/protocol/v03/answers.js';
import { cardFromV03 } from '../src/protocol/v03/card.js';
import type { V03Mapping } from '../src/protocol/v03/refusal.js';
import { v03Request } from '../src/protocol/v03/requests.js';

/** A v0.3 peer on loopback, and what its own card and extended card say. */
type Peer = {
  readonly jsonRpcUrl: string;
  readonly cardUrl: string;
  readonly webhookUrl: string;
  readonly bearerToken: string;
  readonly protocolVersion: string;
  readonly schemeDescription: string;
  readonly extendedDescription: string | RegExp;
  close(): Promise<void>;
};

// The same suite against two v0.3 peers, the official SDK's legacy mode and the mock agent's v0.3 mode
// (mocks/README.md, "As a v0.3 agent"), so the mapping is held to two writers of v0.3.
const peers: [string, () => Promise<Peer>][] = [
  [
    'the official SDK server in its legacy mode',
    async () => {
      const sdk = await startSdkAgent({ tickMs: 20, legacy: true });
      return {
        jsonRpcUrl: sdk.jsonRpcUrl,
        cardUrl: sdk.cardUrl,
        webhookUrl: sdk.webhookUrl,
        bearerToken: sdk.bearerToken,
        protocolVersion: '0.3',
        schemeDescription: 'Unlocks the extended card.',
        extendedDescription: sdkExtendedDescription,
        close: () => sdk.close(),
      };
    },
  ],
  [
    'the mock agent as a v0.3-only agent',
    async () => {
      const mock = await startMockAgent({ port: 0, protocol: '0.3', stepMs: 5 });
      return {
        jsonRpcUrl: `${mock.origin}/a2a/jsonrpc`,
        cardUrl: mock.cardUrl,
        // Stored and never called: the mock posts webhooks to loopback hosts only.
        webhookUrl: 'https://hooks.example/a2a',
        bearerToken: 'any',
        protocolVersion: '0.3.0',
        schemeDescription: 'Needed only for GetExtendedAgentCard; any non-empty token is accepted.',
        extendedDescription: /This is the extended card/,
        close: () => mock.close(),
      };
    },
  ],
];

let sdk: Peer;
let id = 0;

function body(operation: ClientMethod, request: unknown): string {
  const built = v03Request(operation, request);
  if (!built.ok) {
    throw new Error(`v03Request refused ${operation}: ${built.error.rule}`);
  }
  id += 1;
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: built.method,
    ...(built.params === undefined ? {} : { params: built.params }),
  });
}

// One v0.3 JSON-RPC call with no A2A-Version, its `result` as sent.
async function call(operation: ClientMethod, request: unknown): Promise<JsonValue> {
  const response = await fetch(sdk.jsonRpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body(operation, request),
  });
  expect(response.status).toBe(200);
  const envelope = (await response.json()) as { result?: JsonValue; error?: unknown };
  expect(envelope.error).toBeUndefined();
  return envelope.result ?? null;
}

// The events of one v0.3 stream, each `result` as sent, until the server closes it.
async function stream(operation: ClientMethod, request: unknown): Promise<JsonValue[]> {
  const response = await fetch(sdk.jsonRpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: body(operation, request),
  });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events = (await response.text()).split(/\r?\n\r?\n/).filter((block) => block.includes('data:'));
  return events.map((block) => {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    return (JSON.parse(data) as { result: JsonValue }).result;
  });
}

function v1<T>(mapping: V03Mapping, schema: Parameters<typeof decode>[0]): T {
  expect(mapping).toMatchObject({ ok: true });
  const decoded = decode(schema, mapping.value);
  expect(decoded).toMatchObject({ ok: true });
  return (decoded as { value: T }).value;
}

const message = (text: string, extra: object = {}) => ({
  messageId: crypto.randomUUID(),
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});

describe.each(peers)('against %s', (_name, start) => {
  beforeAll(async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    sdk = await start();
  });
  afterAll(async () => {
    await sdk.close();
    vi.restoreAllMocks();
  });

  describe('the v0.3 mapping: operations', () => {
    it('message/send: a task, read back by tasks/get with its history bounded', async () => {
      const sent = v1<SendMessageResponse>(
        sendResultFromV03(await call('sendMessage', { message: message('task a b') })),
        SendMessageResponse,
      );
      expect('task' in sent && sent.task.status.state).toBe('TASK_STATE_COMPLETED');
      const task = 'task' in sent ? sent.task : undefined;
      expect(task?.artifacts?.map((artifact) => artifact.parts.length)).toEqual([2]);
      const read = v1<Task>(taskFromV03(await call('getTask', { id: task?.id, historyLength: 1 })), Task);
      expect(read).toMatchObject({ id: task?.id, contextId: task?.contextId });
      expect(read.history.length).toBeLessThanOrEqual(1);
    });

    it('message/send: a direct message, its role the agent’s', async () => {
      const sent = v1<SendMessageResponse>(
        sendResultFromV03(await call('sendMessage', { message: message('echo hi') })),
        SendMessageResponse,
      );
      expect('message' in sent && sent.message.role).toBe('ROLE_AGENT');
    });

    it('message/send with returnImmediately: v0.3 blocking false, the task still working or submitted', async () => {
      const request = { message: message('slow 3'), configuration: { returnImmediately: true } };
      const sent = v1<SendMessageResponse>(
        sendResultFromV03(await call('sendMessage', request)),
        SendMessageResponse,
      );
      const task = 'task' in sent ? sent.task : undefined;
      expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task?.status.state);
      const canceled = v1<Task>(taskFromV03(await call('cancelTask', { id: task?.id })), Task);
      expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    });

    it('an input-required task continued by a follow-up naming it', async () => {
      const first = v1<SendMessageResponse>(
        sendResultFromV03(await call('sendMessage', { message: message('input') })),
        SendMessageResponse,
      );
      const task = 'task' in first ? first.task : undefined;
      expect(task?.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const follow = message('more', { taskId: task?.id, contextId: task?.contextId });
      const second = v1<SendMessageResponse>(
        sendResultFromV03(await call('sendMessage', { message: follow })),
        SendMessageResponse,
      );
      expect('task' in second && second.task.status.state).toBe('TASK_STATE_COMPLETED');
    });

    it('message/stream: every event a v1.0 StreamResponse, the task completed at the end', async () => {
      const events = (await stream('sendStreamingMessage', { message: message('task x y z') })).map((event) =>
        v1<StreamResponse>(streamEventFromV03(event), StreamResponse),
      );
      expect(events.length).toBeGreaterThan(2);
      expect(events.filter((event) => 'artifactUpdate' in event)).toHaveLength(3);
      const last = events.at(-1);
      expect(last !== undefined && 'statusUpdate' in last && last.statusUpdate.status.state).toBe(
        'TASK_STATE_COMPLETED',
      );
    });

    it('tasks/resubscribe: a running task’s events, as v1.0 StreamResponses', async () => {
      const request = { message: message('slow 4'), configuration: { returnImmediately: true } };
      const sent = v1<SendMessageResponse>(
        sendResultFromV03(await call('sendMessage', request)),
        SendMessageResponse,
      );
      const task = 'task' in sent ? sent.task : undefined;
      const events = (await stream('subscribeToTask', { id: task?.id })).map((event) =>
        v1<StreamResponse>(streamEventFromV03(event), StreamResponse),
      );
      expect(events.length).toBeGreaterThan(0);
      const last = events.at(-1);
      expect(last !== undefined && 'statusUpdate' in last && last.statusUpdate.status.state).toBe(
        'TASK_STATE_COMPLETED',
      );
    });

    it('the push-config methods: set, get, list (every config, no pages) and delete', async () => {
      const first = v1<SendMessageResponse>(
        sendResultFromV03(await call('sendMessage', { message: message('input') })),
        SendMessageResponse,
      );
      const taskId = 'task' in first ? first.task.id : '';
      for (const configId of ['p-1', 'p-2']) {
        const request = { taskId, id: configId, url: sdk.webhookUrl, token: `token-${configId}` };
        const set = v1<TaskPushNotificationConfig>(
          pushConfigFromV03(await call('createTaskPushNotificationConfig', request)),
          TaskPushNotificationConfig,
        );
        expect(set).toMatchObject({ taskId, id: configId, url: sdk.webhookUrl, token: `token-${configId}` });
      }
      const got = v1<TaskPushNotificationConfig>(
        pushConfigFromV03(await call('getTaskPushNotificationConfig', { taskId, id: 'p-2' })),
        TaskPushNotificationConfig,
      );
      expect(got).toMatchObject({ id: 'p-2', url: sdk.webhookUrl });
      const page = v1<ListTaskPushNotificationConfigsResponse>(
        pushConfigListFromV03(await call('listTaskPushNotificationConfigs', { taskId, pageSize: 1 })),
        ListTaskPushNotificationConfigsResponse,
      );
      expect(page.configs.map((config) => config.id).sort()).toEqual(['p-1', 'p-2']);
      expect(await call('deleteTaskPushNotificationConfig', { taskId, id: 'p-1' })).toBeNull();
      const after = v1<ListTaskPushNotificationConfigsResponse>(
        pushConfigListFromV03(await call('listTaskPushNotificationConfigs', { taskId })),
        ListTaskPushNotificationConfigsResponse,
      );
      expect(after.configs.map((config) => config.id)).toEqual(['p-2']);
    });
  });

  describe('the v0.3 cards, mapped', () => {
    it('the public card a header-less request gets: its JSON-RPC interface first, as v0.3', async () => {
      const raw = (await (await fetch(sdk.cardUrl)).json()) as JsonValue;
      const card = v1<AgentCard>(cardFromV03(raw), AgentCard);
      expect(card.supportedInterfaces[0]).toEqual({
        url: sdk.jsonRpcUrl,
        protocolBinding: 'JSONRPC',
        protocolVersion: sdk.protocolVersion,
      });
      expect(card.capabilities).toMatchObject({
        streaming: true,
        pushNotifications: true,
        extendedAgentCard: true,
      });
      expect(card.securitySchemes['bearer']).toEqual({
        httpAuthSecurityScheme: { scheme: 'Bearer', description: sdk.schemeDescription },
      });
      expect(card.securityRequirements).toEqual([{ schemes: {} }, { schemes: { bearer: { list: [] } } }]);
    });

    it('agent/getAuthenticatedExtendedCard with the bearer token: the extended card', async () => {
      const response = await fetch(sdk.jsonRpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${sdk.bearerToken}` },
        body: body('getExtendedAgentCard', {}),
      });
      const { result } = (await response.json()) as { result: JsonValue };
      const card = v1<AgentCard>(cardFromV03(result), AgentCard);
      expect(card.description).toMatch(sdk.extendedDescription);
    });
  });
});
