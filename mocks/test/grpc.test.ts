/**
The mock agent over gRPC (`@surecall/mocks/grpc`, `startMockAgent({ grpcPort })`), driven by the client's own
gRPC binding on loopback: one agent core behind both mounts (a task made over HTTP is read over gRPC, and the
execution counter counts both), A2A errors as gRPC statuses with their ErrorInfo (A2A spec §10.6), and the
fault lab's kinds over gRPC (mocks/src/grpc/faults.ts).
*/
import { type A2aClient, createClient, fetchAgentCard, isClientError } from '@surecall/client';
import { grpcBinding } from '@surecall/client/grpc';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../src/agent/agent.js';
import { createFaultLab } from '../src/faults/faults.js';
import { listenGrpc } from '../src/grpc/entry.js';
import { type RunningMockAgent, startMockAgent } from '../src/mounts/loopback.js';

let mock: RunningMockAgent;
let client: A2aClient;

const user = (text: string, messageId?: string) => ({
  role: 'ROLE_USER' as const,
  parts: [{ text }],
  messageId: messageId ?? crypto.randomUUID(),
});

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** A client of a running mock over gRPC: the card prefers JSON-RPC, so it pins the GRPC interface. */
async function grpcClient(running: RunningMockAgent): Promise<A2aClient> {
  const { card, digest } = await fetchAgentCard({ cardUrl: running.cardUrl, loopback: true });
  return createClient({
    card,
    cardDigest: digest,
    grpc: grpcBinding,
    pin: { binding: 'GRPC', url: running.grpcUrl ?? '' },
    security: { kind: 'anonymous' },
  });
}

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, grpcPort: 0, stepMs: 0 });
  client = await grpcClient(mock);
});

afterEach(() => mock.faults.clear());

afterAll(async () => {
  await mock.close();
});

describe('the mock agent over gRPC', () => {
  it('lists its GRPC interface in the card, last, at the loopback URL', async () => {
    const card = (await (await fetch(mock.cardUrl)).json()) as {
      supportedInterfaces: { url: string; protocolBinding: string }[];
    };
    expect(mock.grpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(card.supportedInterfaces.at(-1)).toEqual({
      url: mock.grpcUrl,
      protocolBinding: 'GRPC',
      protocolVersion: '1.0',
    });
  });

  it('serves the same tasks as its HTTP bindings: a task sent over gRPC is read over HTTP+JSON', async () => {
    const sent = await client.sendMessage({ message: user('task alpha beta', 'g-1') });
    const task = 'task' in sent ? sent.task : undefined;
    expect(task?.status.state).toBe('TASK_STATE_COMPLETED');
    const read = await fetch(`${mock.origin}/a2a/rest/tasks/${task?.id ?? ''}`, {
      headers: { 'a2a-version': '1.0' },
    });
    expect(await read.json()).toMatchObject({ id: task?.id, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(mock.executions.of('g-1')).toBe(1);
  });

  it('streams a task, and answers a refusal as its gRPC status with the ErrorInfo reason', async () => {
    const states: string[] = [];
    for await (const event of client.sendStreamingMessage({ message: user('task one two') })) {
      if ('statusUpdate' in event) {
        states.push(event.statusUpdate.status.state);
      }
    }
    expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');
    const error = await caught(client.getTask({ id: 'no-such-task' }));
    expect(isClientError(error) && error.kind).toBe('remote');
    expect(error).toMatchObject({ reason: 'TASK_NOT_FOUND', remoteCode: -32001, dispatched: true });
  });

  it('refuses SubscribeToTask on a terminal task with UnsupportedOperation, as its status', async () => {
    const sent = await client.sendMessage({ message: user('task done') });
    const id = 'task' in sent ? sent.task.id : '';
    const error = await caught(
      (async () => {
        for await (const _ of client.subscribeToTask({ id })) {
          // A terminal task has no stream.
        }
      })(),
    );
    expect(error).toMatchObject({ kind: 'remote', reason: 'UNSUPPORTED_OPERATION' });
  });

  it('drop-after: the agent runs the send, the connection goes, and the next call reconnects', async () => {
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage', binding: 'GRPC' });
    const error = await caught(client.sendMessage({ message: user('task lost', 'g-drop') }));
    expect(error).toMatchObject({ kind: 'transport', dispatched: true });
    expect(mock.executions.of('g-drop')).toBe(1);
    expect(mock.faults.list()).toHaveLength(0);
    const tasks = await client.listTasks({});
    expect(tasks.tasks.length).toBeGreaterThan(0);
  });

  it('drop-before: nothing runs', async () => {
    mock.faults.set({ kind: 'drop-before', operation: 'SendMessage' });
    const error = await caught(client.sendMessage({ message: user('task never', 'g-never') }));
    expect(error).toMatchObject({ kind: 'transport', dispatched: true });
    expect(mock.executions.of('g-never')).toBe(0);
  });

  it('a fault for another binding leaves gRPC calls alone', async () => {
    mock.faults.set({ kind: 'drop-before', operation: 'SendMessage', binding: 'JSONRPC' });
    await client.sendMessage({ message: user('echo hi') });
    expect(mock.faults.list()).toHaveLength(1);
  });

  it('cut-stream: the connection goes after two messages, and the client resumes the task it named', async () => {
    // Steps far enough apart that the task still runs when the client, reconnected, subscribes again (A2A
    // spec §3.1.6: a terminal task has no stream).
    const slow = await startMockAgent({ stepMs: 150, grpcPort: 0 });
    const client = await grpcClient(slow);
    slow.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });
    const breaks: unknown[] = [];
    const unsubscribe = client.events.subscribe((event) => {
      if (event.type === 'stream-break' || event.type === 'stream-resume') {
        breaks.push(event.type);
      }
    });
    let last: string | undefined;
    for await (const event of client.sendStreamingMessage({ message: user('task a b c d') })) {
      last =
        'task' in event
          ? event.task.status.state
          : 'statusUpdate' in event
            ? event.statusUpdate.status.state
            : last;
    }
    unsubscribe();
    expect(breaks).toEqual(['stream-break', 'stream-resume']);
    expect(last).toBe('TASK_STATE_COMPLETED');
    expect(slow.faults.list()).toHaveLength(0);
    await slow.close();
  });
  it.each([
    ['malformed', 'http-protocol'],
    ['other-code', 'http-protocol'],
    ['foreign-reason', 'remote'],
  ] as const)(
    'bad-status-details %s: the client refuses what the status details say',
    async (details, kind) => {
      mock.faults.set({ kind: 'bad-status-details', operation: 'GetTask', details });
      const error = await caught(client.getTask({ id: 'no-such-task' }));
      expect(error).toMatchObject({ kind, dispatched: true });
      if (kind === 'remote') {
        // An ErrorInfo that names an error of another status is no authority for its code (A2A spec §10.6).
        expect(error).toMatchObject({ reason: 'TASK_NOT_CANCELABLE', remoteCode: undefined });
      }
    },
  );

  it('different-task-id: the answer carries another task id', async () => {
    mock.faults.set({ kind: 'different-task-id', operation: 'SendMessage', taskId: 'someone-else' });
    const sent = await client.sendMessage({ message: user('task x') });
    expect('task' in sent && sent.task.id).toBe('someone-else');
  });

  it('status-after: the work runs, and the call ends UNAVAILABLE with no A2A details', async () => {
    mock.faults.set({ kind: 'status-after', operation: 'SendMessage' });
    const error = await caught(client.sendMessage({ message: user('task late', 'g-503') }));
    expect(error).toMatchObject({ kind: 'transport', dispatched: true });
    expect(mock.executions.of('g-503')).toBe(1);
  });
});

describe('listenGrpc', () => {
  it('answers the same messages whichever ProtoJSON style the agent prints (docs/interop.md#serializer-styles)', async () => {
    const styled = await startMockAgent({
      stepMs: 0,
      grpcPort: 0,
      serializer: ['emit-defaults', 'proto-names', 'enum-numbers'],
    });
    const styledClient = await grpcClient(styled);
    const answers = await Promise.all(
      [client, styledClient].map(async (each) => {
        const sent = await each.sendMessage({ message: user('task alpha beta', 'g-style') });
        const task = 'task' in sent ? sent.task : undefined;
        const read = await each.getTask({ id: task?.id ?? '' });
        return {
          state: read.status.state,
          artifacts: read.artifacts,
          roles: read.history.map((m) => m.role),
        };
      }),
    );
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]?.state).toBe('TASK_STATE_COMPLETED');
    await styled.close();
  });

  it('serves an agent and its lab on a port of its own, and stops listing itself once closed', async () => {
    const agent = createAgent({ stepMs: 0 });
    const grpc = await listenGrpc({ agent, faults: createFaultLab() });
    const card = async () =>
      (await (await agent.handle(new Request('http://agent.test/.well-known/agent-card.json'))).json()) as {
        supportedInterfaces: { protocolBinding: string }[];
      };
    expect((await card()).supportedInterfaces.map((entry) => entry.protocolBinding)).toEqual([
      'JSONRPC',
      'HTTP+JSON',
      'GRPC',
    ]);
    await grpc.close();
    expect((await card()).supportedInterfaces).toHaveLength(2);
    agent.close();
  });
});
