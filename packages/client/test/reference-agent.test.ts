/**
@module
What the reference mock agent refuses and offers, as a client meets it over all three bindings (gRPC through
the mock's gRPC mount, `startMockAgent({ grpcPort })`; and, through vite.config.ts, every serializer style): a
part of a media type outside its input modes is refused with ContentTypeNotSupported before anything runs (A2A
spec §3.1.1, -32005 and ErrorInfo `CONTENT_TYPE_NOT_SUPPORTED`, HTTP 400 over HTTP+JSON); `input N` stays
INPUT_REQUIRED for N follow-ups; `files` answers raw and url file parts; with `extendedCardScope`, a token
without that scope cannot read the extended card.
*/
import { jsonRpcPath, restPath } from '@surecall/mocks';
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcBinding } from '../src/bindings/grpc/entry.js';
import { type A2aClient, createClient } from '../src/client/client.js';
import type { ProtocolBinding, TokenContext } from '../src/client/security.js';
import { isClientError, RemoteError } from '../src/core/errors.js';
import { fetchAgentCard } from '../src/discovery/discovery.js';
import type { Message, Part } from '../src/protocol/message.js';
import type { StreamResponse } from '../src/protocol/stream.js';

const bindings = ['JSONRPC', 'HTTP+JSON', 'GRPC'] as const satisfies readonly ProtocolBinding[];
const scope = 'card.extended';
let agent: RunningMockAgent;

beforeAll(async () => {
  agent = await startMockAgent({ port: 0, grpcPort: 0, stepMs: 0, extendedCardScope: scope });
});
afterAll(() => agent.close());

/** A client whose token grants `scopes`: the mock reads a token as its scopes joined by `+`. */
async function clientOf(binding: ProtocolBinding, scopes: readonly string[] = []): Promise<A2aClient> {
  const { card, digest } = await fetchAgentCard({ cardUrl: agent.cardUrl, loopback: true });
  const urls = { JSONRPC: `${agent.origin}${jsonRpcPath}`, 'HTTP+JSON': `${agent.origin}${restPath}` };
  return createClient({
    card,
    cardDigest: digest,
    grpc: grpcBinding,
    pin: { binding, url: binding === 'GRPC' ? (agent.grpcUrl ?? '') : urls[binding] },
    security: {
      kind: 'bearer',
      scheme: 'bearer',
      token: async (_: TokenContext) => ['mock', ...scopes].join('+'),
    },
  });
}

function message(parts: Part[], extra: Partial<Message> = {}): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts, ...extra };
}

async function refusal(run: () => Promise<unknown>): Promise<RemoteError> {
  try {
    await run();
  } catch (error) {
    if (isClientError(error) && error instanceof RemoteError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected the agent to refuse');
}

describe.each(bindings)('the reference agent over %s', (binding) => {
  it.each<[string, Part[], Partial<Message>]>([
    ['an image part', [{ text: 'task a' }, { raw: 'iVBORw0KGgo=', mediaType: 'image/png' }], {}],
    ['a text part that says it is HTML', [{ text: 'task a', mediaType: 'text/html' }], {}],
    [
      'a PDF by URL',
      [{ text: 'echo hi' }, { url: 'https://example.com/a.pdf', mediaType: 'application/pdf' }],
      {},
    ],
    [
      "text for a data skill, whose only input mode is JSON (A2A spec §4.4.5: the skill's modes win)",
      [{ text: '{"a":1,"b":2}', mediaType: 'text/plain' }],
      { metadata: { 'surecall/skill': 'sum' } },
    ],
  ])('refuses %s with ContentTypeNotSupported, running nothing', async (_name, parts, extra) => {
    const client = await clientOf(binding);
    const before = agent.executions.total();
    const error = await refusal(() => client.sendMessage({ message: message(parts, extra) }));
    expect(error).toMatchObject({
      kind: 'remote',
      reason: 'CONTENT_TYPE_NOT_SUPPORTED',
      remoteCode: -32005,
      // The v1.0.1 table: HTTP 400 INVALID_ARGUMENT over HTTP+JSON; JSON-RPC errors travel in a 200; a gRPC
      // refusal is its status, with no HTTP status (docs/protocol-checks.md#grpc, `grpc.remote`).
      httpStatus: { JSONRPC: 200, 'HTTP+JSON': 400, GRPC: undefined }[binding],
    });
    expect(error.remote?.message).toMatch(/^this agent reads only /);
    expect(agent.executions.total()).toBe(before);
  });

  it('reads the media types of its input modes, parameters and case aside, and parts that declare none', async () => {
    const client = await clientOf(binding);
    const sent = await client.sendMessage({
      message: message([
        { text: 'task a', mediaType: 'Text/Plain; charset=utf-8' },
        { data: { k: 1 }, mediaType: 'application/json' },
        { raw: 'aGk=' },
      ]),
    });
    expect(sent).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' } } });
  });

  it('stays INPUT_REQUIRED for each of the N follow-ups `input N` asks for, then completes', async () => {
    const client = await clientOf(binding);
    const first = await client.sendMessage({ message: message([{ text: 'input 3' }]) });
    const task = 'task' in first ? first.task : undefined;
    const states = [task?.status.state];
    for (const answer of ['Ada', 'Grace', 'Barbara']) {
      const next = await client.sendMessage({
        message: message([{ text: answer }], { taskId: task?.id ?? '', contextId: task?.contextId ?? '' }),
      });
      states.push('task' in next ? next.task.status.state : undefined);
    }
    expect(states).toEqual([
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_COMPLETED',
    ]);
    const done = await client.getTask({ id: task?.id ?? '' });
    expect((done.artifacts ?? []).map((artifact) => artifact.parts)).toEqual([[{ text: 'Hello, Barbara!' }]]);
  });

  it('streams a follow-up of `input 2` back to INPUT_REQUIRED, where the stream may end', async () => {
    const client = await clientOf(binding);
    const first = await client.sendMessage({ message: message([{ text: 'input 2' }]) });
    const task = 'task' in first ? first.task : undefined;
    const events: StreamResponse[] = [];
    for await (const event of client.sendStreamingMessage({
      message: message([{ text: 'Ada' }], { taskId: task?.id ?? '', contextId: task?.contextId ?? '' }),
    })) {
      events.push(event);
    }
    expect(events.at(-1)).toMatchObject({
      statusUpdate: {
        status: {
          state: 'TASK_STATE_INPUT_REQUIRED',
          message: { parts: [{ text: expect.stringContaining('1 more answer') }] },
        },
      },
    });
  });

  it('answers `files` with an artifact of a raw and a url file part', async () => {
    const client = await clientOf(binding);
    const sent = await client.sendMessage({ message: message([{ text: 'files' }]) });
    const parts = 'task' in sent ? (sent.task.artifacts ?? []).flatMap((artifact) => artifact.parts) : [];
    expect(parts).toEqual([
      { raw: 'aGVsbG8sIGZpbGUK', mediaType: 'text/plain', filename: 'hello.txt' },
      { url: 'https://example.com/surecall/hello.txt', mediaType: 'text/plain', filename: 'hello.txt' },
    ]);
  });

  it('keeps the extended card from a token without its scope, and hands it to one with it', async () => {
    const refused = await refusal(async () =>
      (await clientOf(binding, ['tasks.read'])).getExtendedAgentCard(),
    );
    expect(refused).toMatchObject({ kind: 'remote', reason: 'unidentified', dispatched: true });
    expect(refused.httpStatus).toBe({ JSONRPC: 200, 'HTTP+JSON': 403, GRPC: undefined }[binding]);
    expect(refused.remote?.message).toBe(`GetExtendedAgentCard needs a token that grants the scope ${scope}`);
    const card = await (await clientOf(binding, [scope])).getExtendedAgentCard();
    expect(card.description).toMatch(/extended card/);
  });
});
