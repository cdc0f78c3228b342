/**
Interop: our strict client against the official `@a2a-js/sdk@1.3.0` server (mocks/src/sdk/agent.ts: its
express apps and its gRPC service, `DefaultRequestHandler`, in-memory task and push stores) on loopback ports,
over the three bindings:
the eleven operations, a streamed chunked artifact, the input-required round trip, cancel while subscribed,
and errors mapped to their kinds.

What the SDK server does that the spec tolerates, and our client accepts here
(docs/interop.md#the-official-js-sdk-server):
- JSON-RPC DeleteTaskPushNotificationConfig answers `"result": null`; REST answers 204 with an
  `application/a2a+json` content type and no body.
- REST CreateTaskPushNotificationConfig answers 201.
- REST errors use the v1.0.1 status table (TaskNotCancelable and UnsupportedOperation are 400
  FAILED_PRECONDITION, not 409 / 400 UNIMPLEMENTED); they agree with the ErrorInfo, so the code is
  authoritative in both bindings.
- JSON-RPC SubscribeToTask of a terminal task answers a JSON error in HTTP 200 instead of an event stream
  (docs/protocol-checks.md#stream-establishment).
- ProtoJSON drops defaults: first chunks carry no `append`/`lastChunk`, the extended card's requirements come
  back as `[{}, {"schemes":{"bearer":{}}}]`, empty `history`/`artifacts` are absent.
- A missing push config is reported as TASK_NOT_FOUND (-32001).
- ListTaskPushNotificationConfigs answers every config whatever `pageSize` asked (A2A spec §3.1.9: MAY
  paginate).
- A body over express's 100 kB limit gets an HTML 413 page, not an A2A error.
- The server refuses any request without `A2A-Version: 1.0`, so every call that succeeds here also proves the
  header.
*/

import {
  type RunningSdkAgent,
  sdkExtendedDescription,
  sdkTenant,
  startSdkAgent,
} from '@surecall/mocks/sdk-agent';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { grpcBinding } from '../src/bindings/grpc/entry.js';
import { type A2aClient, createClient } from '../src/client/client.js';
import type { ClientEvent } from '../src/client/events.js';
import type { SecurityOptions } from '../src/client/security.js';
import { cardDigest } from '../src/discovery/digest.js';
import type { AgentCard } from '../src/protocol/agent-card.js';
import { parseAgentCard } from '../src/protocol/decode.js';
import type { JsonValue } from '../src/protocol/json-value.js';
import type { Message, Part } from '../src/protocol/message.js';
import type { StreamResponse } from '../src/protocol/stream.js';
import type { Task } from '../src/protocol/task.js';

type Binding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

let sdk: RunningSdkAgent;
let card: AgentCard;
let digest: string;

beforeAll(async () => {
  // The SDK logs expected errors (console.error) and each push delivery (console.info); the assertions are
  // what matters.
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  // A tick far beyond any test: a `slow` task stays WORKING until canceled, so nothing depends on timing.
  sdk = await startSdkAgent({ tickMs: 600_000, grpc: true });
  const raw = (await (await fetch(sdk.cardUrl)).json()) as JsonValue;
  card = parseAgentCard(raw);
  digest = await cardDigest(raw);
});

afterAll(async () => {
  await sdk.close();
  vi.restoreAllMocks();
});

const anonymous: SecurityOptions = { kind: 'anonymous' };

type ClientChoices = {
  readonly security?: SecurityOptions;
  readonly tenant?: string;
  readonly subscribeMethod?: 'GET';
};

function clientFor(binding: Binding, choices: ClientChoices = {}): A2aClient {
  const { security = anonymous, tenant, subscribeMethod } = choices;
  const urls = { JSONRPC: sdk.jsonRpcUrl, 'HTTP+JSON': sdk.restUrl, GRPC: sdk.grpcUrl ?? '' };
  const url = urls[binding];
  return createClient({
    grpc: grpcBinding,
    card,
    cardDigest: digest,
    pin: { binding, url, ...(tenant === undefined ? {} : { tenant }) },
    security,
    ...(subscribeMethod === undefined ? {} : { subscribeMethod }),
  });
}

function userMessage(text: string, taskId?: string): Message {
  return {
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts: [{ text }],
    ...(taskId === undefined ? {} : { taskId }),
  };
}

async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) {
    events.push(event);
  }
  return events;
}

async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

function texts(parts: readonly Part[]): string[] {
  return parts.map((part) => ('text' in part ? part.text : ''));
}

describe.each(['JSONRPC', 'HTTP+JSON', 'GRPC'] as const)(
  'our client against the SDK server over %s',
  (binding) => {
    let client: A2aClient;

    beforeAll(() => {
      client = clientFor(binding);
    });

    async function sendTask(text: string, taskId?: string): Promise<Task> {
      const result = await client.sendMessage({ message: userMessage(text, taskId) });
      if (!('task' in result)) {
        throw new Error('expected a task');
      }
      return result.task;
    }

    async function startSlow(): Promise<Task> {
      const result = await client.sendMessage({
        message: userMessage('slow 30'),
        configuration: { returnImmediately: true },
      });
      if (!('task' in result)) {
        throw new Error('expected a task');
      }
      return result.task;
    }

    it('SendMessage: echo answers a direct agent Message', async () => {
      const result = await client.sendMessage({ message: userMessage('echo hello') });
      expect('message' in result && result.message).toMatchObject({
        role: 'ROLE_AGENT',
        parts: [{ text: 'echo hello' }],
      });
    });

    it('SendMessage: a blocking task returns COMPLETED with its chunks merged into one artifact', async () => {
      const task = await sendTask('task a b c');
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts?.map(({ artifactId, parts }) => [artifactId, texts(parts)])).toEqual([
        ['text', ['a ', 'b ', 'c']],
      ]);
    });

    it('SendStreamingMessage: the artifact streams one chunk per word, append and lastChunk read right', async () => {
      const events = await collect(
        client.sendStreamingMessage({ message: userMessage('task alpha beta gamma') }),
      );
      expect(events.map((event) => Object.keys(event)[0])).toEqual([
        'task',
        'statusUpdate',
        'artifactUpdate',
        'artifactUpdate',
        'artifactUpdate',
        'statusUpdate',
      ]);
      const chunks = events.flatMap((event) =>
        'artifactUpdate' in event
          ? [
              [
                texts(event.artifactUpdate.artifact.parts),
                event.artifactUpdate.append,
                event.artifactUpdate.lastChunk,
              ],
            ]
          : [],
      );
      expect(chunks).toEqual([
        [['alpha '], false, false],
        [['beta '], true, false],
        [['gamma'], true, true],
      ]);
      const last = events.at(-1);
      expect(last !== undefined && 'statusUpdate' in last && last.statusUpdate.status.state).toBe(
        'TASK_STATE_COMPLETED',
      );
    });

    it('SendStreamingMessage: echo streams one direct Message and ends', async () => {
      const events = await collect(client.sendStreamingMessage({ message: userMessage('echo streamed') }));
      expect(events.map((event) => Object.keys(event))).toEqual([['message']]);
    });

    it('input required: INPUT_REQUIRED, then a follow-up with the taskId completes the same task', async () => {
      const asked = await sendTask('input');
      expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(asked.status.message?.role).toBe('ROLE_AGENT');
      const done = await sendTask('Ada', asked.id);
      expect(done.id).toBe(asked.id);
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      expect(done.artifacts?.map(({ parts }) => texts(parts))).toEqual([['Hello, Ada!']]);
    });

    it('input required, streamed: the stream ends at INPUT_REQUIRED; a streamed follow-up completes the task', async () => {
      const first = await collect(client.sendStreamingMessage({ message: userMessage('input') }));
      const snapshot = first[0];
      const taskId = snapshot !== undefined && 'task' in snapshot ? snapshot.task.id : '';
      const asked = first.at(-1);
      expect(asked !== undefined && 'statusUpdate' in asked && asked.statusUpdate.status.state).toBe(
        'TASK_STATE_INPUT_REQUIRED',
      );
      const follow = await collect(client.sendStreamingMessage({ message: userMessage('Grace', taskId) }));
      expect(follow.map((event) => Object.keys(event)[0])).toEqual([
        'task',
        'artifactUpdate',
        'statusUpdate',
      ]);
    });

    it('GetTask: the task, with history bounded by historyLength', async () => {
      const task = await sendTask('task g h');
      const got = await client.getTask({ id: task.id, historyLength: 1 });
      expect(got.id).toBe(task.id);
      expect(got.history.length).toBeLessThanOrEqual(1);
      const bare = await client.getTask({ id: task.id, historyLength: 0 });
      expect(bare.history).toEqual([]);
    });

    it('ListTasks: filters by context and state, artifacts only when asked, newest first', async () => {
      const task = await sendTask('task l');
      const page = await client.listTasks({ contextId: task.contextId, pageSize: 10 });
      expect(page.tasks.map(({ id }) => id)).toEqual([task.id]);
      expect(page.tasks[0]?.artifacts).toBeUndefined();
      const withArtifacts = await client.listTasks({
        contextId: task.contextId,
        status: 'TASK_STATE_COMPLETED',
        includeArtifacts: true,
        pageSize: 10,
      });
      expect(withArtifacts.tasks[0]?.artifacts?.map(({ artifactId }) => artifactId)).toEqual(['text']);
      const recent = await client.listTasks({ pageSize: 5 });
      expect(recent.tasks.length).toBeGreaterThan(0);
    });

    it('CancelTask while subscribed: the snapshot, then CANCELED, and the stream ends', async () => {
      const task = await startSlow();
      const iterator = client.subscribeToTask({ id: task.id })[Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(first.done === false && 'task' in first.value && first.value.task).toMatchObject({
        id: task.id,
        status: { state: 'TASK_STATE_WORKING' },
      });
      const canceled = await client.cancelTask({ id: task.id });
      expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
      const rest: StreamResponse[] = [];
      for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
        rest.push(next.value);
      }
      expect(rest.map((event) => 'statusUpdate' in event && event.statusUpdate.status.state)).toEqual([
        'TASK_STATE_CANCELED',
      ]);
    });

    it('push configs: create (REST 201), get, list, delete (JSON-RPC null, REST 204)', async () => {
      const task = await sendTask('task p');
      const created = await client.createTaskPushNotificationConfig({
        taskId: task.id,
        url: sdk.webhookUrl,
        token: 'tok',
      });
      expect(created).toMatchObject({ taskId: task.id, url: sdk.webhookUrl, token: 'tok' });
      const id = created.id ?? '';
      expect(await client.getTaskPushNotificationConfig({ taskId: task.id, id })).toEqual(created);
      const list = await client.listTaskPushNotificationConfigs({ taskId: task.id });
      expect(list.configs).toEqual([created]);
      await expect(client.deleteTaskPushNotificationConfig({ taskId: task.id, id })).resolves.toBeUndefined();
      expect((await client.listTaskPushNotificationConfigs({ taskId: task.id })).configs).toEqual([]);
    });

    it('ListTaskPushNotificationConfigs with pageSize 1 and two configs: the whole list, accepted (A2A spec §3.1.9)', async () => {
      const task = await sendTask('task pages');
      const first = await client.createTaskPushNotificationConfig({ taskId: task.id, url: sdk.webhookUrl });
      const second = await client.createTaskPushNotificationConfig({ taskId: task.id, url: sdk.webhookUrl });
      // The SDK server returns every config and no further page; the spec's MAY paginate lets it.
      const page = await client.listTaskPushNotificationConfigs({ taskId: task.id, pageSize: 1 });
      expect(new Set(page.configs.map((config) => config.id))).toEqual(new Set([first.id, second.id]));
      expect(page.nextPageToken).toBe('');
    });

    it('a send carrying a push config has its events delivered to the webhook with the token', async () => {
      const before = sdk.pushes.length;
      const result = await client.sendMessage({
        message: userMessage('task w'),
        configuration: { taskPushNotificationConfig: { url: sdk.webhookUrl, token: `hook-${binding}` } },
      });
      await expect.poll(() => sdk.pushes.length - before, { interval: 5 }).toBeGreaterThanOrEqual(1);
      const delivered = sdk.pushes.slice(before).filter(({ token }) => token === `hook-${binding}`);
      expect(delivered[0]?.body).toMatchObject({ task: { id: 'task' in result ? result.task.id : '' } });
    });

    it('GetExtendedAgentCard: with a bearer token, the extended card, decoded from the SDK serialiser', async () => {
      const bearer = clientFor(binding, {
        security: { kind: 'bearer', scheme: 'bearer', token: async () => sdk.bearerToken },
      });
      const extended = await bearer.getExtendedAgentCard();
      expect(extended.description).toBe(sdkExtendedDescription);
      expect(extended.securityRequirements).toEqual([{ schemes: {} }, { schemes: { bearer: { list: [] } } }]);
    });

    it('GetExtendedAgentCard: an anonymous client refuses before sending anything', async () => {
      const events: ClientEvent[] = [];
      const unsubscribe = client.events.subscribe((event) => events.push(event));
      const error = await failure(() => client.getExtendedAgentCard());
      unsubscribe();
      expect(error).toMatchObject({ kind: 'authorization', dispatched: false });
      expect(events.filter(({ type }) => type === 'request')).toEqual([]);
    });

    it('a tenant pin: the task lives under the tenant, and the untenanted interface cannot see it', async () => {
      const tenanted = clientFor(binding, { tenant: sdkTenant });
      const result = await tenanted.sendMessage({ message: userMessage('task t') });
      const id = 'task' in result ? result.task.id : '';
      expect((await tenanted.getTask({ id })).id).toBe(id);
      expect(await failure(() => client.getTask({ id }))).toMatchObject({
        kind: 'remote',
        remoteCode: -32001,
      });
    });

    it("a body over express's 100 kB limit: the SDK's HTML 413 page is an http-protocol error, dispatched", async () => {
      const send = () => client.sendMessage({ message: userMessage(`echo ${'x'.repeat(200_000)}`) });
      if (binding === 'GRPC') {
        // grpc-js's own bound is 4 MiB a message, so over gRPC the same message is echoed whole.
        const result = await send();
        expect('message' in result && texts(result.message.parts)[0]?.length).toBe(200_005);
        return;
      }
      expect(await failure(send)).toMatchObject({ kind: 'http-protocol', dispatched: true, httpStatus: 413 });
    });

    it.each([
      {
        name: 'GetTask of an unknown task',
        probe: 'unknown',
        code: -32001,
        restStatus: 404,
        reason: 'TASK_NOT_FOUND',
      },
      {
        name: 'CancelTask of a completed task',
        probe: 'cancel',
        code: -32002,
        restStatus: 400,
        reason: 'TASK_NOT_CANCELABLE',
      },
      {
        name: 'SubscribeToTask of a completed task',
        probe: 'subscribe',
        code: -32004,
        restStatus: 400,
        reason: 'UNSUPPORTED_OPERATION',
      },
      {
        name: 'a message to a completed task',
        probe: 'follow-up',
        code: -32004,
        restStatus: 400,
        reason: 'UNSUPPORTED_OPERATION',
      },
      {
        name: 'GetTaskPushNotificationConfig of an unknown config',
        probe: 'push',
        code: -32001,
        restStatus: 404,
        reason: 'TASK_NOT_FOUND',
      },
    ] as const)(
      '$name: remote $reason, code $code authoritative, dispatched',
      async ({ probe, code, restStatus, reason }) => {
        const id = probe === 'unknown' ? 'no-such-task' : (await sendTask('task e')).id;
        const calls = {
          unknown: () => client.getTask({ id }),
          cancel: () => client.cancelTask({ id }),
          subscribe: () => collect(client.subscribeToTask({ id })),
          'follow-up': () => client.sendMessage({ message: userMessage('more', id) }),
          push: () => client.getTaskPushNotificationConfig({ taskId: id, id: 'no-such-config' }),
        };
        const error = await failure(calls[probe]);
        // A JSON-RPC code counts only in a 2xx answer; a REST one only when status, `status` string and
        // ErrorInfo agree, which the SDK's v1.0.1 table does (docs/interop.md#the-official-js-sdk-server,
        // docs/protocol-checks.md#unary-answers); a gRPC one when the status code and the ErrorInfo agree,
        // and a gRPC error has no HTTP status of its own (docs/protocol-checks.md#grpc).
        const httpStatus = { JSONRPC: 200, 'HTTP+JSON': restStatus, GRPC: undefined }[binding];
        expect(error).toMatchObject({
          kind: 'remote',
          remoteCode: code,
          reason,
          dispatched: true,
          httpStatus,
        });
      },
    );
  },
);

it('HTTP+JSON SubscribeToTask by GET (the proto annotation), which the SDK accepts as it does POST', async () => {
  const client = clientFor('HTTP+JSON', { subscribeMethod: 'GET' });
  const result = await client.sendMessage({
    message: userMessage('slow 30'),
    configuration: { returnImmediately: true },
  });
  const id = 'task' in result ? result.task.id : '';
  const iterator = client.subscribeToTask({ id })[Symbol.asyncIterator]();
  const first = await iterator.next();
  expect(first.done === false && 'task' in first.value && first.value.task.id).toBe(id);
  await client.cancelTask({ id });
  const last = await iterator.next();
  expect(last.done === false && 'statusUpdate' in last.value && last.value.statusUpdate.status.state).toBe(
    'TASK_STATE_CANCELED',
  );
  expect((await iterator.next()).done).toBe(true);
});
