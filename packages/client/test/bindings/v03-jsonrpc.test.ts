/**
The v0.3 JSON-RPC binding under a client (docs/protocol-checks.md#v03-peers): answers a lying or broken v0.3
peer could send, each crafted on the wire (MSW, as test/bindings/jsonrpc.test.ts does), and the closed error
the client reports. The binding reads v0.3 and hands the v1.0 checks the v1.0 value, so the envelope, bounds,
unions, identity and the stream's lifecycle hold as for a v1.0 peer; the official SDK's own answers are in
test/v03-interop.test.ts.
*/
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { v03Binding } from '../../src/bindings/v03/entry.js';
import { type A2aClient, createClient } from '../../src/client/client.js';
import { durableAgent } from '../../src/durable/agent.js';
import { idempotencyExtensionUri, idempotencyMetadataKey } from '../../src/idempotency/key.js';
import { openLedger } from '../../src/ledger/memory.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import type { Message } from '../../src/protocol/message.js';
import { failure } from '../support/binding.js';

const url = 'https://agent.test/a2a/v03';
const server = setupServer();
const seen: { readonly method: string; readonly version: string | null; readonly params: unknown }[] = [];

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  seen.length = 0;
});
afterAll(() => server.close());

const card = parseAgentCard({
  name: 'agent',
  description: 'A v0.3 agent.',
  supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '0.3.0' }],
  version: '1',
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 's', description: 'A skill.', tags: ['t'] }],
});

function client(): A2aClient {
  return createClient({
    card,
    cardDigest: `sha256:${'0'.repeat(64)}`,
    pin: { binding: 'JSONRPC', url },
    security: { kind: 'anonymous' },
    protocolVersions: ['0.3'],
    v03: v03Binding,
  });
}

const v03Task = { kind: 'task', id: 't-1', contextId: 'c-1', status: { state: 'completed' } };
const message: Message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };

// Every request answered with `result` (or `members` as given) under the request's own id.
function answer(members: (id: JsonValue) => Record<string, JsonValue>): void {
  server.use(
    http.post(url, async ({ request }) => {
      const body = (await request.json()) as { id: number; method: string; params: unknown };
      seen.push({ method: body.method, version: request.headers.get('a2a-version'), params: body.params });
      return HttpResponse.json({ jsonrpc: '2.0', ...members(body.id) });
    }),
  );
}

function stream(events: readonly JsonValue[]): void {
  server.use(
    http.post(url, async ({ request }) => {
      const body = (await request.json()) as { id: number; method: string; params: unknown };
      seen.push({ method: body.method, version: request.headers.get('a2a-version'), params: body.params });
      const text = events.map(
        (result) => `data: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result })}\n\n`,
      );
      return new HttpResponse(text.join(''), { headers: { 'content-type': 'text/event-stream' } });
    }),
  );
}

describe('requests', () => {
  it('sends v0.3 methods and params with no A2A-Version', async () => {
    answer((id) => ({ id, result: v03Task }));
    await client().getTask({ id: 't-1', historyLength: 2 });
    await client().sendMessage({ message, configuration: { returnImmediately: true } });
    expect(seen).toEqual([
      { method: 'tasks/get', version: null, params: { id: 't-1', historyLength: 2 } },
      {
        method: 'message/send',
        version: null,
        params: {
          message: { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
          configuration: { blocking: false },
        },
      },
    ]);
  });
});

describe('answers, held to the v1.0 checks', () => {
  it.each<[string, (id: JsonValue) => Record<string, JsonValue>, Record<string, unknown>]>([
    ['another request’s id', () => ({ id: 99, result: v03Task }), { reason: 'jsonrpc-envelope' }],
    [
      'another task than the one asked for',
      (id) => ({ id, result: { ...v03Task, id: 't-2' } }),
      { reason: 'identity' },
    ],
    [
      'a task without its kind',
      (id) => {
        const { kind: _, ...rest } = v03Task;
        return { id, result: rest };
      },
      { reason: 'schema', violation: { rule: 'required', path: '$.kind' } },
    ],
    [
      'v0.3’s unknown state, which v1.0 has no name for',
      (id) => ({ id, result: { ...v03Task, status: { state: 'unknown' } } }),
      { reason: 'schema', violation: { rule: 'enum', path: '$.status.state' } },
    ],
    [
      'an id over the 512-byte bound',
      (id) => ({ id, result: { ...v03Task, contextId: 'c'.repeat(513) } }),
      { reason: 'schema', violation: { path: '$.contextId' } },
    ],
    [
      'a file part with both uri and bytes',
      (id) => ({
        id,
        result: {
          ...v03Task,
          artifacts: [
            {
              artifactId: 'a',
              parts: [{ kind: 'file', file: { uri: 'https://f.example/x', bytes: 'AA==' } }],
            },
          ],
        },
      }),
      { reason: 'schema', violation: { rule: 'oneof-many', path: '$.artifacts[0].parts[0].file' } },
    ],
  ])('refuses %s', async (_, members, expected) => {
    answer(members);
    expect(await failure(client().getTask({ id: 't-1' }))).toMatchObject({
      kind: 'invalid-response',
      dispatched: true,
      ...expected,
    });
  });

  it('refuses a send result that is neither a task nor a message', async () => {
    answer((id) => ({ id, result: { ...v03Task, kind: 'status-update' } }));
    expect(await failure(client().sendMessage({ message }))).toMatchObject({
      kind: 'invalid-response',
      reason: 'schema',
      violation: { rule: 'oneof-unknown', path: '$.kind' },
    });
  });

  it('reads a v0.3 error as a RemoteError whose code is authoritative', async () => {
    answer((id) => ({ id, error: { code: -32001, message: 'Task not found', data: { taskId: 't-1' } } }));
    expect(await failure(client().getTask({ id: 't-1' }))).toMatchObject({
      kind: 'remote',
      reason: 'TASK_NOT_FOUND',
      remoteCode: -32001,
    });
  });
});

describe('streams, through the lifecycle validator', () => {
  const status = (taskId: string, state: string, final = false): JsonValue => ({
    kind: 'status-update',
    taskId,
    contextId: 'c-1',
    status: { state },
    final,
  });

  async function events(client: A2aClient): Promise<{ readonly count: number; readonly error: unknown }> {
    let count = 0;
    try {
      for await (const _ of client.sendStreamingMessage({ message })) {
        count += 1;
      }
    } catch (error) {
      return { count, error };
    }
    return { count, error: undefined };
  }

  it('delivers a v0.3 stream as v1.0 events, its final flag read and dropped', async () => {
    stream([{ ...v03Task, status: { state: 'working' } }, status('t-1', 'completed', true)]);
    expect(await events(client())).toEqual({ count: 2, error: undefined });
    expect(seen.map((request) => request.method)).toEqual(['message/stream']);
  });

  it('refuses an update for another task than the stream’s', async () => {
    stream([{ ...v03Task, status: { state: 'working' } }, status('t-2', 'completed', true)]);
    const { count, error } = await events(client());
    expect(count).toBe(1);
    expect(error).toMatchObject({ kind: 'invalid-response', dispatched: true });
  });

  it('refuses an event after the task reached a terminal state', async () => {
    stream([
      { ...v03Task, status: { state: 'working' } },
      status('t-1', 'completed', true),
      status('t-1', 'working'),
    ]);
    const { error } = await events(client());
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'lifecycle' });
  });

  it('refuses an event of no v0.3 kind', async () => {
    stream([{ kind: 'progress', taskId: 't-1' }]);
    const { error } = await events(client());
    expect(error).toMatchObject({ reason: 'schema', violation: { rule: 'oneof-unknown', path: '$.kind' } });
  });

  it('refuses a final flag that is no boolean', async () => {
    stream([
      { ...v03Task, status: { state: 'working' } },
      { ...(status('t-1', 'completed') as object), final: 'yes' },
    ]);
    const { error } = await events(client());
    expect(error).toMatchObject({ reason: 'schema', violation: { rule: 'invalid_type', path: '$.final' } });
  });
});

describe('a durable send to a v0.3 peer whose card declares the idempotency extension', () => {
  it('is keyed, its key in the v0.3 message, and a lost answer is replayed under that key', async () => {
    const keyedCard = parseAgentCard({
      ...structuredClone(card),
      capabilities: { ...card.capabilities, extensions: [{ uri: idempotencyExtensionUri }] },
    });
    const keyed = createClient({
      card: keyedCard,
      cardDigest: `sha256:${'0'.repeat(64)}`,
      pin: { binding: 'JSONRPC', url },
      security: { kind: 'anonymous' },
      protocolVersions: ['0.3'],
      v03: v03Binding,
    });
    let calls = 0;
    server.use(
      http.post(url, async ({ request }) => {
        const body = (await request.json()) as { id: number; method: string; params: unknown };
        seen.push({ method: body.method, version: request.headers.get('a2a-version'), params: body.params });
        calls += 1;
        // The first answer is lost on its way back; the replay is answered with the task.
        return calls === 1
          ? Response.error()
          : HttpResponse.json({ jsonrpc: '2.0', id: body.id, result: v03Task });
      }),
    );
    const agent = durableAgent({ client: keyed, ledger: await openLedger({ name: 'v03-keyed' }) });
    const lost = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'hi' }] });
    expect(lost.record.delivery).toBe('keyed');
    expect(lost.record.state).toMatchObject({ status: 'unknown' });
    const reconciled = await agent.reconcile(lost.id);
    expect(reconciled.status).toBe('committed');
    const keys = seen.map((request) => {
      const params = request.params as {
        message: { metadata?: Record<string, unknown>; extensions?: unknown };
      };
      expect(params.message.extensions).toContain(idempotencyExtensionUri);
      return params.message.metadata?.[idempotencyMetadataKey];
    });
    expect(seen.map((request) => request.method)).toEqual(['message/send', 'message/send']);
    expect(keys[0]).toBe(lost.record.idempotencyKey);
    expect(keys[1]).toBe(keys[0]);
  });
});
