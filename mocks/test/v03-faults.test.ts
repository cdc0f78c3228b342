/**
The fault lab on the mock agent in its v0.3 mode (`startMockAgent({ protocol: '0.3' })`), on a real loopback
port: every fault kind armed by its v1.0 operation name applies to the v0.3 method that runs the operation,
and the rewrites change the v0.3 answer as they change a v1.0 one (the bare object told apart by `kind`,
lower-case states and roles), read back through the client's v0.3 mapping (test/support/v03-peer.ts). A
lost answer leaves exactly one execution behind it.
*/
import type { FaultSpec } from '@surecall/mocks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../packages/client/src/protocol/json-value.js';
import { SendMessageResponse } from '../../packages/client/src/protocol/send-message.js';
import { StreamResponse } from '../../packages/client/src/protocol/stream.js';
import { sendResultFromV03, streamEventFromV03 } from '../../packages/client/src/protocol/v03/answers.js';
import { type RunningMockAgent, startMockAgent } from '../src/mounts/loopback.js';
import { type Envelope, sseData, v1, v03Call, v03Message, v03Post } from './support/v03-peer.js';

let mock: RunningMockAgent;
let rpc: string;

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, protocol: '0.3', stepMs: 0 });
  rpc = `${mock.origin}/a2a/jsonrpc`;
});
afterEach(() => mock.faults.clear());
afterAll(async () => {
  await mock.close();
});

const blocking = { blocking: true };

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the exchange to fail');
}

describe('the faults that lose or replace an answer, on v0.3 methods', () => {
  it('drop-after on message/send: the work is done once, the answer lost, and a keyed retry replays it', async () => {
    const key = `v03-drop-${crypto.randomUUID()}`;
    const message = v03Message('task lost', { metadata: { 'a2a-rust.com/idempotency-key': key } });
    const messageId = message['messageId'] as string;
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    expect(await caught(v03Post(rpc, 'message/send', { message, configuration: blocking }))).toBeInstanceOf(
      TypeError,
    );
    expect(mock.executions.of(messageId)).toBe(1);
    const replayed = v1<SendMessageResponse>(
      sendResultFromV03(await v03Call(rpc, 'message/send', { message, configuration: blocking })),
      SendMessageResponse,
    );
    expect('task' in replayed && replayed.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(mock.executions.of(messageId)).toBe(1);
  });

  it('drop-before on message/send: a network error and nothing run', async () => {
    const message = v03Message('task never');
    mock.faults.set({ kind: 'drop-before', operation: 'SendMessage' });
    expect(await caught(v03Post(rpc, 'message/send', { message }))).toBeInstanceOf(TypeError);
    expect(mock.executions.of(message['messageId'] as string)).toBe(0);
  });

  it('drop-after on message/stream: the whole stream is run, then the answer is lost', async () => {
    const message = v03Message('task a b');
    mock.faults.set({ kind: 'drop-after', operation: 'SendStreamingMessage' });
    expect(await caught(v03Post(rpc, 'message/stream', { message }))).toBeInstanceOf(TypeError);
    expect(mock.executions.of(message['messageId'] as string)).toBe(1);
  });

  it.each<[string, FaultSpec, number, RegExp]>([
    ['status-after', { kind: 'status-after', operation: 'SendMessage' }, 503, /^text\/plain/],
    ['html-413', { kind: 'html-413', operation: 'SendMessage' }, 413, /^text\/html/],
    ['redirect', { kind: 'redirect', operation: 'SendMessage' }, 302, /.*/],
  ])('%s on message/send: the work is done, the answer replaced', async (_name, spec, status, type) => {
    const message = v03Message('echo replaced');
    mock.faults.set(spec);
    const response = await v03Post(rpc, 'message/send', { message });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type') ?? '').toMatch(type);
    expect(mock.executions.of(message['messageId'] as string)).toBe(1);
  });

  it('delay after the work: the v0.3 answer arrives whole', async () => {
    mock.faults.set({ kind: 'delay', operation: 'SendMessage', ms: 1, when: 'after' });
    const raw = await v03Call(rpc, 'message/send', { message: v03Message('echo late') });
    expect(raw).toMatchObject({ kind: 'message', role: 'agent' });
    expect(mock.faults.list()).toEqual([]);
  });
});

describe('the faults that break a v0.3 stream', () => {
  it('cut-stream: the body errors after the frames it lets through', async () => {
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 1 });
    const response = await v03Post(rpc, 'message/stream', { message: v03Message('task a b c') });
    const reader = response.body?.getReader();
    const chunks: Uint8Array[] = [];
    const failure = await caught(
      (async () => {
        for (;;) {
          const { done, value } = (await reader?.read()) ?? { done: true, value: undefined };
          if (done) {
            return;
          }
          chunks.push(value);
        }
      })(),
    );
    expect(failure).toBeInstanceOf(TypeError);
    const text = Buffer.concat(chunks).toString('utf8');
    const [first, ...rest] = sseData(text);
    expect(rest).toEqual([]);
    expect((JSON.parse(first ?? '') as Envelope).result).toMatchObject({ kind: 'task' });
  });

  it('premature-eof: the stream closes cleanly without its final status update', async () => {
    mock.faults.set({ kind: 'premature-eof', operation: 'SendStreamingMessage' });
    const response = await v03Post(rpc, 'message/stream', { message: v03Message('task a b') });
    const events = sseData(await response.text()).map((data) => (JSON.parse(data) as Envelope).result);
    expect(events.length).toBeGreaterThan(0);
    expect(events.some((event) => (event as { final?: boolean }).final === true)).toBe(false);
  });

  it('oversized-sse-line: a comment line of the given size before the first frame', async () => {
    mock.faults.set({ kind: 'oversized-sse-line', operation: 'SendStreamingMessage', bytes: 100 });
    const response = await v03Post(rpc, 'message/stream', { message: v03Message('task a') });
    const text = await response.text();
    expect(text.startsWith(`:${'x'.repeat(99)}\n\n`)).toBe(true);
  });

  it('different-task-id in one frame: the v0.3 event names another task', async () => {
    mock.faults.set({ kind: 'different-task-id', operation: 'SendStreamingMessage', frame: 1 });
    const response = await v03Post(rpc, 'message/stream', { message: v03Message('task a b') });
    const events = sseData(await response.text()).map((data) => (JSON.parse(data) as Envelope).result);
    const [first, second] = events as { id?: string; taskId?: string }[];
    expect(second?.taskId).toBe(`${first?.id}-substituted`);
    v1<StreamResponse>(streamEventFromV03(events[1] ?? null), StreamResponse);
  });
});

/** One v0.3 `message/send` under a fault: its envelope's raw text and the work it ran. */
async function faulted(spec: FaultSpec, text: string, extra: Record<string, unknown> = {}) {
  const message = v03Message(text, extra);
  mock.faults.set(spec);
  const response = await v03Post(rpc, 'message/send', { message, configuration: blocking });
  return {
    response,
    raw: await response.text(),
    executions: mock.executions.of(message['messageId'] as string),
  };
}

describe('the faults that rewrite a v0.3 answer', () => {
  it('duplicate-keys: the result’s first member, `kind`, written twice', async () => {
    const { raw } = await faulted({ kind: 'duplicate-keys', operation: 'SendMessage' }, 'echo twice');
    expect(raw).toMatch(/"result":\{"kind":"message","kind":"message",/);
  });

  it('wrong-jsonrpc-id and result-and-error: the envelope lies, the result is v0.3', async () => {
    const wrong = await faulted({ kind: 'wrong-jsonrpc-id', operation: 'SendMessage' }, 'echo id');
    const sentId = (JSON.parse(wrong.raw) as Envelope).id;
    expect(typeof sentId).toBe('number');
    expect(sentId as number).toBeGreaterThan(1_000_000);
    const both = await faulted({ kind: 'result-and-error', operation: 'SendMessage' }, 'echo both');
    expect(JSON.parse(both.raw)).toMatchObject({ result: { kind: 'message' }, error: { code: -32603 } });
  });

  it('wrong-media-type: the v0.3 answer labelled text/plain', async () => {
    const { response, raw } = await faulted({ kind: 'wrong-media-type', operation: 'SendMessage' }, 'echo m');
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(JSON.parse(raw)).toMatchObject({ result: { kind: 'message' } });
  });

  it('premature-eof on a unary answer: the body cut at half', async () => {
    const { raw, executions } = await faulted(
      { kind: 'premature-eof', operation: 'SendMessage' },
      'echo half',
    );
    expect(() => JSON.parse(raw)).toThrow(SyntaxError);
    expect(executions).toBe(1);
  });

  it('blocking-submitted: the blocking send’s task says submitted, which the mapping reads as SUBMITTED', async () => {
    const { raw } = await faulted({ kind: 'blocking-submitted', operation: 'SendMessage' }, 'task s');
    const result = (JSON.parse(raw) as Envelope).result ?? null;
    expect(result).toMatchObject({ kind: 'task', status: { state: 'submitted' } });
    const sent = v1<SendMessageResponse>(sendResultFromV03(result), SendMessageResponse);
    expect('task' in sent && sent.task.status.state).toBe('TASK_STATE_SUBMITTED');
  });

  it('different-task-id: the task and its messages name another task', async () => {
    const { raw } = await faulted(
      { kind: 'different-task-id', operation: 'SendMessage', taskId: 't-other' },
      'task d',
    );
    const result = (JSON.parse(raw) as Envelope).result as { id: string; history: { taskId: string }[] };
    expect(result.id).toBe('t-other');
    expect(result.history.map((entry) => entry.taskId)).toEqual(result.history.map(() => 't-other'));
  });

  it('altered-history: the user’s message in the history says something else', async () => {
    const { raw } = await faulted({ kind: 'altered-history', operation: 'SendMessage' }, 'task h');
    const result = (JSON.parse(raw) as Envelope).result as {
      history: { role: string; parts: JsonValue[] }[];
    };
    const user = result.history.find((entry) => entry.role === 'user');
    expect(user?.parts[0]).toEqual({ kind: 'text', text: 'task h (altered)' });
  });

  it('altered-data: the reply’s data part holds other data', async () => {
    const data = { kind: 'data', data: { a: 1, b: 2 } };
    const { raw } = await faulted({ kind: 'altered-data', operation: 'SendMessage' }, 'sum', {
      parts: [data],
      metadata: { 'surecall/skill': 'sum' },
    });
    const result = (JSON.parse(raw) as Envelope).result as { kind: string; parts: JsonValue[] };
    expect(result.kind).toBe('message');
    expect(result.parts).toContainEqual({ kind: 'data', data: { 'fault-lab': 'altered' } });
  });

  it('foreign-message-ids: the direct reply names another context', async () => {
    const { raw } = await faulted(
      { kind: 'foreign-message-ids', operation: 'SendMessage', where: 'reply' },
      'echo f',
      {
        contextId: 'c-mine',
      },
    );
    expect((JSON.parse(raw) as Envelope).result).toMatchObject({
      kind: 'message',
      contextId: 'c-mine-foreign',
    });
  });

  it.each<[string, FaultSpec]>([
    // v0.3's union is its `kind`, so a second member has nothing to be told apart by.
    ['two-union-members', { kind: 'two-union-members', operation: 'SendMessage' }],
    // gRPC only.
    ['bad-status-details', { kind: 'bad-status-details', operation: 'SendMessage' }],
  ])('%s: the v0.3 answer passes unchanged, and the fault is spent', async (_name, spec) => {
    const { raw } = await faulted(spec, 'echo same', { contextId: 'c-same' });
    expect(JSON.parse(raw)).toMatchObject({ result: { kind: 'message', contextId: 'c-same' } });
    expect(Object.keys((JSON.parse(raw) as { result: object }).result)).not.toContain('task');
    expect(mock.faults.list()).toEqual([]);
  });
});
