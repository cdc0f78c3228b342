/**
Interop: the official `@a2a-js/sdk@1.3.0` client, over both HTTP bindings, against the mock agent on a
loopback port. The SDK picks its transport from `preferredTransports`, then the card's `supportedInterfaces`
order (docs/interop.md#the-official-js-sdk-client), so each binding is forced through `preferredTransports`.

What the SDK client does differently from the v1.0 spec, and is tested as it is (the mock accepts each):
- HTTP+JSON SubscribeToTask is sent as POST with no body (the proto says GET; A2A spec §11.3.2 says POST), and
  CancelTask as POST with no body (docs/protocol-checks.md#requests recommends `{}`).
- `listTaskPushNotificationConfig` (singular name) over HTTP+JSON sends neither `pageSize` nor `pageToken`, so
  push-config paging cannot be driven through it.
- `getAgentCard()` calls GetExtendedAgentCard only because the card says `capabilities.extendedAgentCard`; the
  transport's own `getExtendedAgentCard` sends no `A2A-Version` (the `Client` wrapper adds it), so it is only
  called through `getAgentCard`.
- The spec defines no error code for a missing credential (A2A spec §9.5): the mock answers HTTP 401 with
  JSON-RPC code -32000 / reason UNAUTHENTICATED, which the SDK has no class for. It surfaces as a generic
  `A2AError` with reason `INTERNAL_ERROR`: `JsonRpcTransportError` (envelopeCode -32000) over JSON-RPC, a REST
  `A2AError` with `statusCode` 401 over HTTP+JSON.
- Results are ts-proto objects: numeric enums, `{ $case, value }` parts and union members, defaults filled in
  (`append: false`).
*/
import {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  type Message,
  type Part,
  SendMessageRequest,
  type StreamResponse,
  SubscribeToTaskRequest,
  type Task,
  TaskPushNotificationConfig,
  TaskState,
} from '@a2a-js/sdk';
import { type Client, ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import {
  A2AError,
  isJsonRpcError,
  isRestError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockAgent, startMockAgent } from '../src/mounts/node.js';

let mock: RunningMockAgent;

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, stepMs: 0 });
});

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
    ...(returnImmediately === undefined ? {} : { configuration: { returnImmediately } }),
  });
}

function isMessage(result: Message | Task): result is Message {
  return 'messageId' in result;
}

function asTask(result: Message | Task): Task {
  if (isMessage(result)) {
    throw new Error('expected a Task, got a Message');
  }
  return result;
}

function textOf(parts: readonly Part[]): string {
  return parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
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

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('the official SDK client over %s', (binding) => {
  let client: Client;

  beforeAll(async () => {
    const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      preferredTransports: [binding],
    });
    client = await new ClientFactory(options).createFromUrl(mock.cardUrl, '');
  });

  it('discovers the card and selects the binding', () => {
    expect(client.transport.protocolName).toBe(binding);
    expect(client.protocolVersion).toBe('1.0');
  });

  it('SendMessage: a direct Message, then a blocking task that completes', async () => {
    const reply = await client.sendMessage(send('echo hello'));
    expect(isMessage(reply)).toBe(true);
    const task = asTask(await client.sendMessage(send('task a b c')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts.map((artifact) => textOf(artifact.parts))).toContain('a b c');
  });

  it('SendStreamingMessage: streams the artifact in three chunks with append and lastChunk right', async () => {
    const events = await collect(client.sendMessageStream(send('task a b c')));
    expect(events[0]?.payload?.$case).toBe('task');
    const chunks = events.flatMap((event) =>
      event.payload?.$case === 'artifactUpdate'
        ? [
            {
              text: textOf(event.payload.value.artifact?.parts ?? []),
              append: event.payload.value.append,
              lastChunk: event.payload.value.lastChunk,
            },
          ]
        : [],
    );
    expect(chunks).toEqual([
      { text: 'a ', append: false, lastChunk: false },
      { text: 'b ', append: true, lastChunk: false },
      { text: 'c', append: true, lastChunk: true },
    ]);
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' ? last.value.status?.state : undefined).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
  });

  it('GetTask and ListTasks find the task, with its history bounded', async () => {
    const task = asTask(await client.sendMessage(send('task x y')));
    const fetched = await client.getTask(GetTaskRequest.fromJSON({ id: task.id, historyLength: 1 }));
    expect(fetched.id).toBe(task.id);
    expect(fetched.history.length).toBeLessThanOrEqual(1);
    const page = await client.listTasks(
      ListTasksRequest.fromJSON({ contextId: task.contextId, pageSize: 10 }),
    );
    expect(page.tasks.map((listed) => listed.id)).toEqual([task.id]);
  });

  it('completes the input-required round trip', async () => {
    const waiting = asTask(await client.sendMessage(send('input')));
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const done = asTask(
      await client.sendMessage(send('Ada', { taskId: waiting.id, contextId: waiting.contextId })),
    );
    expect(done.id).toBe(waiting.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.artifacts.map((artifact) => textOf(artifact.parts))).toContain('Hello, Ada!');
  });

  it('SubscribeToTask yields the current task first; CancelTask cancels it and ends the stream', async () => {
    const started = asTask(await client.sendMessage(send('slow 30', { returnImmediately: true })));
    const stream = client.resubscribeTask(SubscribeToTaskRequest.fromJSON({ id: started.id }));
    const first = await stream.next();
    expect(first.done).toBe(false);
    const snapshot = first.value?.payload;
    expect(snapshot?.$case).toBe('task');
    expect(snapshot?.$case === 'task' ? snapshot.value.id : undefined).toBe(started.id);
    const canceled = await client.cancelTask(CancelTaskRequest.fromJSON({ id: started.id }));
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const rest = await collect({ [Symbol.asyncIterator]: () => stream });
    const last = rest.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' ? last.value.status?.state : undefined).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
  });

  it('creates, gets, lists and deletes a push notification config', async () => {
    const task = asTask(await client.sendMessage(send('task p')));
    const created = await client.createTaskPushNotificationConfig(
      TaskPushNotificationConfig.fromJSON({
        taskId: task.id,
        url: 'http://127.0.0.1:9/hook',
        token: 'tok-1',
      }),
    );
    expect(created).toMatchObject({ taskId: task.id, url: 'http://127.0.0.1:9/hook', token: 'tok-1' });
    const read = await client.getTaskPushNotificationConfig(
      GetTaskPushNotificationConfigRequest.fromJSON({ taskId: task.id, id: created.id }),
    );
    expect(read.id).toBe(created.id);
    const listed = await client.listTaskPushNotificationConfig(
      ListTaskPushNotificationConfigsRequest.fromJSON({ taskId: task.id }),
    );
    expect(listed.configs.map((config) => config.id)).toEqual([created.id]);
    await client.deleteTaskPushNotificationConfig(
      DeleteTaskPushNotificationConfigRequest.fromJSON({ taskId: task.id, id: created.id }),
    );
    const after = await client.listTaskPushNotificationConfig(
      ListTaskPushNotificationConfigsRequest.fromJSON({ taskId: task.id }),
    );
    expect(after.configs).toEqual([]);
  });

  it('GetExtendedAgentCard answers with a bearer token', async () => {
    const card = await client.getAgentCard({ serviceParameters: { Authorization: 'Bearer any-token' } });
    expect(card.supportedInterfaces.map((entry) => entry.protocolBinding)).toContain(binding);
  });

  it('surfaces an unknown task id as TaskNotFound', async () => {
    const error = await failure(() => client.getTask(GetTaskRequest.fromJSON({ id: 'no-such-task' })));
    expect(error).toBeInstanceOf(TaskNotFoundError);
  });

  it('surfaces canceling a completed task as TaskNotCancelable', async () => {
    const task = asTask(await client.sendMessage(send('task done')));
    const error = await failure(() => client.cancelTask(CancelTaskRequest.fromJSON({ id: task.id })));
    expect(error).toBeInstanceOf(TaskNotCancelableError);
  });

  it('surfaces subscribing to a terminal task as UnsupportedOperation', async () => {
    const task = asTask(await client.sendMessage(send('task done')));
    const error = await failure(() =>
      collect(client.resubscribeTask(SubscribeToTaskRequest.fromJSON({ id: task.id }))),
    );
    expect(error).toBeInstanceOf(UnsupportedOperationError);
  });

  it('surfaces the extended card without a credential as a generic A2AError (no SDK class for 401)', async () => {
    const error = await failure(() => client.getAgentCard());
    expect(error).toBeInstanceOf(A2AError);
    expect(error).toMatchObject({ reason: 'INTERNAL_ERROR' });
    if (binding === 'JSONRPC') {
      expect(isJsonRpcError(error) && error.envelopeCode).toBe(-32000);
    } else {
      expect(isRestError(error) && error.statusCode).toBe(401);
    }
  });

  it('sees a lost answer from the fault lab as a network error, while the work happened', async () => {
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage', binding });
    const request = send('task lost');
    const messageId = request.message?.messageId ?? '';
    expect(await failure(() => client.sendMessage(request))).toBeInstanceOf(TypeError);
    expect(mock.executions.of(messageId)).toBe(1);
  });
});
