/**
@module
Test support: the eleven operations in the order of docs/durable-send.md#what-the-tests-prove, run by one
client on two tasks left in INPUT_REQUIRED, and what each answer must be. `test/client.test.ts` runs them over
JSON-RPC and HTTP+JSON behind MSW, `test/client-grpc.test.ts` over gRPC on the mock agent's gRPC mount.
*/
import { expect } from 'vitest';
import type { A2aClient } from '../../src/client/client.js';
import type { Message } from '../../src/protocol/message.js';
import type { SendMessageResponse } from '../../src/protocol/send-message.js';
import type { StreamResponse } from '../../src/protocol/stream.js';
import type { Task } from '../../src/protocol/task.js';

export function userMessage(text: string, extra: Partial<Message> = {}): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

export function taskOf(result: SendMessageResponse | StreamResponse | undefined): Task {
  if (result === undefined || !('task' in result)) {
    throw new Error('expected a task');
  }
  return result.task;
}

export async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) {
    events.push(event);
  }
  return events;
}

/**
The eleven operations in the order of docs/durable-send.md#what-the-tests-prove, on two tasks left in
INPUT_REQUIRED.
*/
export async function runAll(client: A2aClient) {
  const sent = await client.sendMessage({ message: userMessage('input') });
  const first = taskOf(sent);
  const streamed = await collect(client.sendStreamingMessage({ message: userMessage('input') }));
  const second = taskOf(streamed[0]);
  const got = await client.getTask({ id: first.id, historyLength: 1 });
  const page = await client.listTasks({ contextId: first.contextId, pageSize: 1 });
  const canceled = await client.cancelTask({ id: second.id });
  const subscribed = await collect(client.subscribeToTask({ id: first.id }));
  const config = { taskId: first.id, id: 'config-1', url: 'https://hooks.example/a2a' };
  const created = await client.createTaskPushNotificationConfig(config);
  const fetched = await client.getTaskPushNotificationConfig({ taskId: first.id, id: 'config-1' });
  const configs = await client.listTaskPushNotificationConfigs({ taskId: first.id, pageSize: 1 });
  await client.deleteTaskPushNotificationConfig({ taskId: first.id, id: 'config-1' });
  const extended = await client.getExtendedAgentCard();
  return {
    first,
    second,
    streamed,
    got,
    page,
    canceled,
    subscribed,
    config,
    created,
    fetched,
    configs,
    extended,
  };
}

/** The eleven answers of {@link runAll}, each checked against what the mock agent does. */
export function expectAllEleven(run: Awaited<ReturnType<typeof runAll>>): void {
  expect(run.first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  expect(run.streamed.at(-1)).toMatchObject({
    statusUpdate: { status: { state: 'TASK_STATE_INPUT_REQUIRED' } },
  });
  expect(run.got.id).toBe(run.first.id);
  expect(run.got.history.length).toBeLessThanOrEqual(1);
  expect(run.page.tasks.map((task) => task.id)).toEqual([run.first.id]);
  expect(run.canceled).toMatchObject({ id: run.second.id, status: { state: 'TASK_STATE_CANCELED' } });
  expect(run.subscribed).toHaveLength(1);
  expect(taskOf(run.subscribed[0]).id).toBe(run.first.id);
  expect(run.created).toEqual(run.config);
  expect(run.fetched).toEqual(run.config);
  expect(run.configs.configs).toEqual([run.config]);
  expect(run.extended.description).toContain('extended card');
}
