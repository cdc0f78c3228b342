/**
The v0.3 HTTP+JSON routes of the mock agent in its v0.3 mode (mocks/src/v03/rest.ts) on a loopback port, read
as sent: the v0.3 proto's JSON (`content`, `fileWithBytes`, `TASK_STATE_CANCELLED`, named push configs), bare
stream events, bare `{ code, message }` errors; and the fault lab on them, armed by the operations' names and
`binding: 'HTTP+JSON'`. The official SDK's v0.3 REST client runs every operation against the same routes in
test/v03-sdk-client.test.ts.
*/
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockAgent, startMockAgent } from '../src/mounts/loopback.js';
import { sseData } from './support/v03-peer.js';

let mock: RunningMockAgent;
let rest: string;

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, protocol: '0.3', stepMs: 0 });
  rest = `${mock.origin}/a2a/rest`;
});
afterEach(() => mock.faults.clear());
afterAll(async () => {
  await mock.close();
});

const json = { 'content-type': 'application/json' };

function message(text: string, extra: Record<string, unknown> = {}) {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', content: [{ text }], ...extra };
}

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${rest}${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) });
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the exchange to fail');
}

describe('the v0.3 HTTP+JSON routes, as sent', () => {
  it('message:send answers 201 with the proto’s task, its messages holding `content`', async () => {
    const bytes = Buffer.from('hello').toString('base64');
    const sent = message('task a', {
      content: [{ text: 'task a' }, { file: { fileWithBytes: bytes, mimeType: 'text/plain' } }],
    });
    const response = await post('/v1/message:send', { message: sent, configuration: { blocking: true } });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const { task } = (await response.json()) as { task: { history: unknown[] } };
    expect(task).toMatchObject({ status: { state: 'TASK_STATE_COMPLETED' } });
    expect(task.history[0]).toMatchObject({
      messageId: sent.messageId,
      role: 'ROLE_USER',
      content: sent.content,
    });
    expect(task).not.toHaveProperty('kind');
  });

  it('a canceled task is TASK_STATE_CANCELLED, as the v0.3 proto spells it', async () => {
    const sent = await post('/v1/message:send', { message: message('slow 3') });
    const { task } = (await sent.json()) as { task: { id: string } };
    const canceled = await post(`/v1/tasks/${task.id}:cancel`, {});
    expect(await canceled.json()).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_CANCELLED' } });
  });

  it('message:stream: bare StreamResponses, the last status update `final`', async () => {
    const response = await post('/v1/message:stream', { message: message('task x y') });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = sseData(await response.text()).map((data) => JSON.parse(data) as Record<string, unknown>);
    expect(events.every((event) => !('jsonrpc' in event))).toBe(true);
    expect(events.filter((event) => 'artifactUpdate' in event)).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' }, final: true },
    });
  });

  it('push configs are named by their task and id, and listed all at once', async () => {
    const sent = await post('/v1/message:send', {
      message: message('input'),
      configuration: { blocking: true },
    });
    const { task } = (await sent.json()) as { task: { id: string } };
    const config = { pushNotificationConfig: { id: 'p-1', url: 'https://hooks.example/a2a' } };
    const created = await post(`/v1/tasks/${task.id}/pushNotificationConfigs`, config);
    expect(created.status).toBe(201);
    const name = `tasks/${task.id}/pushNotificationConfigs/p-1`;
    expect(await created.json()).toEqual({ name, ...config });
    const list = await fetch(`${rest}/v1/tasks/${task.id}/pushNotificationConfigs`);
    expect(await list.json()).toEqual({ configs: [{ name, ...config }] });
    const other = await post(`/v1/tasks/${task.id}/pushNotificationConfigs`, {
      name: 'tasks/another/pushNotificationConfigs/p-2',
      ...config,
    });
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({
      code: -32602,
      message: 'name must be a push config of the task the path names',
    });
    const deleted = await fetch(`${rest}/v1/tasks/${task.id}/pushNotificationConfigs/p-1`, {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(204);
  });

  it.each([
    ['an unknown task', () => fetch(`${rest}/v1/tasks/no-such-task`), 404, -32001],
    ['a v1.0 route', () => post('/message:send', { message: message('echo') }), 404, -32601],
    [
      'a v1.0 part, none of the three',
      () =>
        post('/v1/message:send', {
          message: message('x', { content: [{ url: 'https://files.example/a' }] }),
        }),
      400,
      -32602,
    ],
    ['the extended card without a bearer', () => fetch(`${rest}/v1/card`), 401, -32000],
  ])('%s: the bare error body with its status', async (_name, call, status, code) => {
    const response = await call();
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ code });
  });
});

describe('the fault lab on the v0.3 HTTP+JSON routes', () => {
  it('altered-history and altered-data rewrite the proto’s `content` parts, in the proto’s shape', async () => {
    mock.faults.set({ kind: 'altered-history', operation: 'SendMessage' });
    const changed = await post('/v1/message:send', {
      message: message('task h'),
      configuration: { blocking: true },
    });
    const { task } = (await changed.json()) as { task: { history: { content: unknown[] }[] } };
    expect(task.history[0]?.content[0]).toEqual({ text: 'task h (altered)' });
    mock.faults.set({ kind: 'altered-data', operation: 'SendMessage' });
    const sum = message('sum', {
      content: [{ data: { data: { a: 1, b: 2 } } }],
      metadata: { 'surecall/skill': 'sum' },
    });
    const reply = await post('/v1/message:send', { message: sum });
    const body = (await reply.json()) as { message: { content: unknown[] } };
    expect(body.message.content).toContainEqual({ data: { data: { 'fault-lab': 'altered' } } });
  });

  it('drop-after on message:send: the answer lost, the work done once', async () => {
    const sent = message('task lost');
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage', binding: 'HTTP+JSON' });
    expect(await caught(post('/v1/message:send', { message: sent }))).toBeInstanceOf(TypeError);
    expect(mock.executions.of(sent.messageId)).toBe(1);
  });

  it('drop-before on the extended card, /v1/card, which no v1.0 route reads', async () => {
    mock.faults.set({ kind: 'drop-before', operation: 'GetExtendedAgentCard' });
    const request = fetch(`${rest}/v1/card`, { headers: { authorization: 'Bearer any' } });
    expect(await caught(request)).toBeInstanceOf(TypeError);
    expect(mock.faults.list()).toEqual([]);
  });

  it('cut-stream on message:stream after one event', async () => {
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 1 });
    const response = await post('/v1/message:stream', { message: message('task a b c') });
    expect(await caught(response.text())).toBeInstanceOf(TypeError);
  });

  it('different-task-id and blocking-submitted rewrite the proto’s task', async () => {
    mock.faults.set({ kind: 'different-task-id', operation: 'SendMessage', taskId: 't-other' });
    const moved = await post('/v1/message:send', {
      message: message('task d'),
      configuration: { blocking: true },
    });
    expect(await moved.json()).toMatchObject({
      task: { id: 't-other', status: { state: 'TASK_STATE_COMPLETED' } },
    });
    mock.faults.set({ kind: 'blocking-submitted', operation: 'SendMessage' });
    const early = await post('/v1/message:send', {
      message: message('task s'),
      configuration: { blocking: true },
    });
    expect(await early.json()).toMatchObject({ task: { status: { state: 'TASK_STATE_SUBMITTED' } } });
  });
});
