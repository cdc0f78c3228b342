/**
@module
A peer's own error text reaches the caller as inert, bounded data (`RemoteError.remote`,
ARCHITECTURE.md#errors) and nowhere else: the mock agent's TaskNotFound over all three bindings (gRPC through
its gRPC mount; and, through vite.config.ts, every serializer style), then a hostile peer on loopback whose
refusals hold line breaks, escapes, bidi controls, 1 MB of details and the token the call sent. The text is
escaped, cut and masked, and never in an error's message, stack, `JSON.stringify`, `util.inspect` or an
inspector event.
*/
import { inspect } from 'node:util';
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcBinding } from '../src/bindings/grpc/entry.js';
import { createClient } from '../src/client/client.js';
import type { ClientEvent } from '../src/client/events.js';
import type { ProtocolBinding } from '../src/client/security.js';
import { type ClientError, isClientError, RemoteError } from '../src/core/errors.js';
import { fetchAgentCard } from '../src/discovery/discovery.js';
import type { Message } from '../src/protocol/message.js';
import {
  type HostileCall,
  type HostilePeer,
  jsonText,
  rpcText,
  sseText,
  startHostilePeer,
} from './support/hostile-peer.js';

const bindings = ['JSONRPC', 'HTTP+JSON'] as const satisfies readonly ProtocolBinding[];
// The mock agent serves gRPC too, its refusal a google.rpc.Status; the hostile peer below answers HTTP only.
const mockBindings = [...bindings, 'GRPC'] as const satisfies readonly ProtocolBinding[];
let agent: RunningMockAgent;
let peer: HostilePeer;

beforeAll(async () => {
  agent = await startMockAgent({ port: 0, grpcPort: 0, stepMs: 0 });
  peer = await startHostilePeer();
});
afterAll(async () => {
  await agent.close();
  await peer.close();
});

function message(text: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
}

async function failure(run: () => Promise<unknown>): Promise<ClientError> {
  try {
    await run();
  } catch (error) {
    if (isClientError(error)) {
      return error;
    }
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** Everything of an error a log could print, but its `remote`. */
function printed(error: ClientError, events: readonly ClientEvent[]): string {
  const { remote: _, ...fields } = { ...error, remote: undefined };
  return [
    error.message,
    String(error.stack),
    JSON.stringify(error),
    inspect(fields),
    JSON.stringify(events),
  ].join('\n');
}

describe.each(mockBindings)("the mock agent's TaskNotFound over %s", (binding) => {
  it("hands the agent's own words to the caller as `remote`, and only there", async () => {
    const { card, digest } = await fetchAgentCard({ cardUrl: agent.cardUrl, loopback: true });
    const url = card.supportedInterfaces.find((entry) => entry.protocolBinding === binding)?.url ?? '';
    const client = createClient({
      card,
      cardDigest: digest,
      grpc: grpcBinding,
      pin: { binding, url },
      security: { kind: 'anonymous' },
    });
    const events: ClientEvent[] = [];
    client.events.subscribe((event) => events.push(event));
    const error = await failure(() => client.getTask({ id: 'task-missing' }));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error).toMatchObject({
      reason: 'TASK_NOT_FOUND',
      remoteCode: -32001,
      remote: { message: 'Task not found: task-missing', truncated: false },
    });
    const { remote } = error as RemoteError;
    expect(JSON.parse(remote?.details ?? 'null')).toEqual(
      expect.arrayContaining([expect.objectContaining({ reason: 'TASK_NOT_FOUND' })]),
    );
    expect(error.message).toBe('A2A GetTask failed: remote (TASK_NOT_FOUND)');
    expect(printed(error, events)).not.toContain('Task not found');
  });
});

// The peer's words: a line break that would forge a log line, a carriage return, a bidi override, an escape
// written out, a terminal's clear-screen sequence and bell, and the token it received, twice.
const said = (token: string) =>
  `no such task\nERROR forged\r\u202eevil \\u{a} \u001b[2J\u0007${token}:${token}`;
const shown =
  'no such task\\u{a}ERROR forged\\u{d}\\u{202e}evil \\\\u{a} \\u{1b}[2J\\u{7}[credential]:[credential]';
// 1 MB of details, the token inside them.
const bulky = (token: string) =>
  `[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org","metadata":{"${token}":"${'x'.repeat(1_000_000)}"}}]`;

const refusals: Readonly<Record<(typeof bindings)[number], (call: HostileCall) => Response>> = {
  JSONRPC: (call) =>
    rpcText(
      call,
      'error',
      `{"code":-32001,"message":${JSON.stringify(said(call.token))},"data":${bulky(call.token)}}`,
    ),
  'HTTP+JSON': (call) =>
    jsonText(
      `{"error":{"code":404,"status":"NOT_FOUND","message":${JSON.stringify(said(call.token))},"details":${bulky(call.token)}}}`,
      404,
    ),
};

describe.each(bindings)('a hostile refusal over %s', (binding) => {
  it('is escaped, cut and masked, and appears in no message, stack, JSON or event', async () => {
    peer.answer = (call) =>
      call.operation.includes('tasks') || call.operation === 'GetTask' ? refusals[binding](call) : undefined;
    try {
      const client = await peer.client(binding);
      const events: ClientEvent[] = [];
      client.events.subscribe((event) => events.push(event));
      const error = await failure(() => client.getTask({ id: 'task-1' }));
      expect(error).toMatchObject({ kind: 'remote', reason: 'TASK_NOT_FOUND', remoteCode: -32001 });
      const remote = (error as RemoteError).remote;
      expect(remote?.message).toBe(shown);
      expect(remote?.truncated).toBe(true);
      expect(remote?.details).toMatch(
        /^\[\{"@type":"type\.googleapis\.com\/google\.rpc\.ErrorInfo".*"\[credential\]":"x+$/,
      );
      expect(remote?.details?.length).toBeLessThanOrEqual(1024);
      const everything = `${printed(error, events)}\n${inspect(error, { showHidden: true, depth: null })}`;
      expect(everything).not.toContain(peer.secret);
      expect(printed(error, events)).not.toMatch(/no such task|forged|xxxx/);
    } finally {
      peer.answer = undefined;
    }
  });

  it('with a message of 1 MB is no error object at all, and carries no text', async () => {
    const long = JSON.stringify('m'.repeat(1_000_000));
    peer.answer = (call) =>
      call.operation.includes('tasks') || call.operation === 'GetTask'
        ? binding === 'JSONRPC'
          ? rpcText(call, 'error', `{"code":-32001,"message":${long}}`)
          : jsonText(`{"error":{"code":404,"status":"NOT_FOUND","message":${long}}}`, 404)
        : undefined;
    try {
      const client = await peer.client(binding);
      const error = await failure(() => client.getTask({ id: 'task-1' }));
      // docs/protocol-checks.md#error-answers: at most 16 KiB.
      expect(`${error.kind} ${error.reason}`).toBe(
        binding === 'JSONRPC' ? 'invalid-response jsonrpc-envelope' : 'http-protocol error-envelope',
      );
      expect('remote' in error).toBe(false);
    } finally {
      peer.answer = undefined;
    }
  });
});

describe('a hostile refusal inside a stream', () => {
  it('reaches the caller the same way', async () => {
    peer.answer = (call) =>
      call.operation === 'SendStreamingMessage'
        ? sseText([
            `data: {"jsonrpc":"2.0","id":${JSON.stringify(call.rpcId)},"error":{"code":-32603,"message":${JSON.stringify(said(call.token))}}}\n\n`,
          ])
        : undefined;
    try {
      const client = await peer.client('JSONRPC');
      const events: ClientEvent[] = [];
      client.events.subscribe((event) => events.push(event));
      const error = await failure(async () => {
        for await (const _event of client.sendStreamingMessage({ message: message('stream it') })) {
          // Drained: the error frame ends the stream.
        }
      });
      expect(error).toMatchObject({
        kind: 'remote',
        remoteCode: -32603,
        remote: { message: shown, truncated: false },
      });
      expect(printed(error, events)).not.toMatch(/no such task|forged/);
      expect(printed(error, events)).not.toContain(peer.secret);
    } finally {
      peer.answer = undefined;
    }
  });
});
