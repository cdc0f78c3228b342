/**
A hostile peer that reflects the client's bearer token back as JSON member names, error messages, ErrorInfo
fields, SSE event types and card keys (docs/protocol-checks.md#redaction, `redact.violation-path`). Whatever
it sends, the token appears nowhere outside the wire layer: not in an error's message, stack, `JSON.stringify`
or `util.inspect`, not in a client or durable event, not in the bytes of a file ledger, not in a span (tracing
on, a durable agent's spans included).
*/
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { jsonRpcPath } from '@surecall/mocks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { A2aClient } from '../src/client/client.js';
import type { ClientEvent } from '../src/client/events.js';
import type { ProtocolBinding } from '../src/client/security.js';
import { isClientError } from '../src/core/errors.js';
import { cardDigest } from '../src/discovery/digest.js';
import { discover, fetchAgentCard } from '../src/discovery/discovery.js';
import { openLedger } from '../src/ledger/file.js';
import { openLedger as openMemoryLedger } from '../src/ledger/memory.js';
import { createDurableTracing, createTracing } from '../src/otel.js';
import type { JsonValue } from '../src/protocol/json-value.js';
import type { Message } from '../src/protocol/message.js';
import {
  type HostileCall,
  type HostilePeer,
  jsonText,
  rpcText,
  sseText,
  startHostilePeer,
} from './support/hostile-peer.js';
import { exporter, installTracing, provider, spanText } from './support/tracing.js';

let peer: HostilePeer;
let directory = '';
beforeAll(async () => {
  installTracing();
  peer = await startHostilePeer();
  directory = await mkdtemp(join(tmpdir(), 'surecall-hostile-'));
});
afterAll(async () => {
  await peer.close();
  await rm(directory, { recursive: true, force: true });
});

const errorInfo = (token: string) =>
  `{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"${token}","domain":"${token}","metadata":{"${token}":"${token}"}}`;

/** Every way the peer puts the token it received where a careless client would repeat it, per binding. */
const unaryAnswers: Readonly<
  Record<Exclude<ProtocolBinding, 'GRPC'>, Record<string, (call: HostileCall) => Response>>
> = {
  JSONRPC: {
    'a duplicate key under the token': (call) => rpcText(call, 'result', `{"${call.token}":{"a":1,"a":2}}`),
    'the token twice as a key': (call) =>
      rpcText(call, 'result', `{"task":{"${call.token}":1,"${call.token}":2}}`),
    'nesting past the depth bound under the token': (call) =>
      rpcText(call, 'result', `{"${call.token}":${'['.repeat(80)}${']'.repeat(80)}}`),
    'a non-finite number under the token': (call) =>
      rpcText(call, 'result', `{"task":{"${call.token}":1e999}}`),
    'an unsafe integer under the token': (call) =>
      rpcText(call, 'result', `{"${call.token}":{"${call.token}":9007199254740993}}`),
    'a lone surrogate under the token': (call) => rpcText(call, 'result', `{"${call.token}":"\\ud800"}`),
    'a key over the key bound made of the token': (call) =>
      rpcText(call, 'result', `{"${call.token.repeat(60)}":1}`),
    'the token as the only member of the result': (call) => rpcText(call, 'result', `{"${call.token}":{}}`),
    'the token as a part member': (call) =>
      rpcText(
        call,
        'result',
        `{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"${call.token}":{"a":"${call.token}"}}]}}`,
      ),
    'the token as a metadata key with a bad value': (call) =>
      rpcText(
        call,
        'result',
        `{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"},"metadata":{"${call.token}":{"a":1,"a":2}}}}`,
      ),
    'an error whose message and ErrorInfo are the token': (call) =>
      rpcText(call, 'error', `{"code":-32001,"message":"${call.token}","data":[${errorInfo(call.token)}]}`),
    'an error object with the token as its code': (call) =>
      rpcText(call, 'error', `{"code":"${call.token}","message":"${call.token}"}`),
    'an error object with the token twice as a key': (call) =>
      rpcText(call, 'error', `{"code":-32001,"message":"m","${call.token}":1,"${call.token}":2}`),
    'an error with the token as a key of its data': (call) =>
      rpcText(call, 'error', `{"code":-32001,"message":"m","data":{"${call.token}":[1e999]}}`),
    'the token as the JSON-RPC id': (call) =>
      jsonText(`{"jsonrpc":"2.0","id":"${call.token}","result":{"${call.token}":1}}`),
    'the token as the jsonrpc version': (call) =>
      jsonText(`{"jsonrpc":"${call.token}","id":${JSON.stringify(call.rpcId)},"result":{}}`),
    'a 500 page holding the token': (call) => jsonText(`<p>${call.token}</p>`, 500, 'text/html'),
    'a 503 error envelope holding the token': (call) =>
      rpcText(
        call,
        'error',
        `{"code":-32603,"message":"${call.token}","data":[${errorInfo(call.token)}]}`,
        503,
      ),
    'a 200 with the token as its media type': (call) => jsonText('{}', 200, `application/${call.token}`),
    'trailing data holding the token': (call) => jsonText(`{"jsonrpc":"2.0"} "${call.token}"`),
    'a redirect to a URL holding the token': (call) =>
      new Response(null, { status: 302, headers: { location: `/${call.token}?t=${call.token}` } }),
    'a 401 whose challenge holds the token': (call) =>
      new Response(`{"error":"${call.token}"}`, {
        status: 401,
        headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer error="${call.token}"` },
      }),
  },
  'HTTP+JSON': {
    'a duplicate key under the token': (call) => jsonText(`{"${call.token}":{"a":1,"a":2}}`),
    'the token twice as a key': (call) => jsonText(`{"task":{"${call.token}":1,"${call.token}":2}}`),
    'a non-finite number under the token': (call) => jsonText(`{"task":{"${call.token}":-1e999}}`),
    'the token as the only member of the answer': (call) => jsonText(`{"${call.token}":{}}`),
    'an error envelope made of the token': (call) =>
      jsonText(
        `{"error":{"code":400,"status":"${call.token}","message":"${call.token}","details":[${errorInfo(call.token)}]}}`,
        400,
      ),
    'an error envelope with the token twice as a key': (call) =>
      jsonText(
        `{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"m","${call.token}":1,"${call.token}":2}}`,
        400,
      ),
    'an authoritative error whose message is the token': (call) =>
      jsonText(
        `{"error":{"code":404,"status":"NOT_FOUND","message":"${call.token}","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org","metadata":{"${call.token}":"${call.token}"}}]}}`,
        404,
      ),
  },
};

/** The frames of a hostile stream answer to SendStreamingMessage. */
const streamAnswers: Readonly<Record<string, (call: HostileCall) => string[]>> = {
  'a frame with a duplicate key under the token': (call) => [
    `data: {"jsonrpc":"2.0","id":${JSON.stringify(call.rpcId)},"result":{"${call.token}":{"a":1,"a":2}}}\n\n`,
  ],
  'a frame whose event type is the token': (call) => [`event: ${call.token}\ndata: {}\n\n`],
  'an error frame whose message is the token': (call) => [
    `data: {"jsonrpc":"2.0","id":${JSON.stringify(call.rpcId)},"error":{"code":-32603,"message":"${call.token}","data":[${errorInfo(call.token)}]}}\n\n`,
  ],
  'a frame with the token as an unknown member': (call) => [
    `data: {"jsonrpc":"2.0","id":${JSON.stringify(call.rpcId)},"result":{"${call.token}":{"${call.token}":1}}}\n\n`,
  ],
};

function exposed(value: unknown): string {
  const parts = [inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true })];
  try {
    parts.push(JSON.stringify(value));
  } catch {
    // A value JSON cannot print shows through inspect.
  }
  if (value instanceof Error) {
    parts.push(value.message, String(value.stack), String(value));
  }
  return parts.join('\n');
}

function expectSecretFree(value: unknown): void {
  expect(exposed(value)).not.toContain(peer.secret);
  expect(exposed(value)).not.toContain('tokSECRET');
}

function message(words: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: words }] };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

/** A client of the peer with tracing on: its spans go to the in-memory exporter. */
async function tracedClient(binding: ProtocolBinding): Promise<A2aClient> {
  exporter.reset();
  const tracing = createTracing({ tracerProvider: provider });
  const client = await peer.client(binding, { interceptors: [tracing.interceptor] });
  tracing.observe(client);
  return client;
}

/** The finished spans: one per call, holding neither the token nor the words sent. */
function expectSpansSecretFree(words: string): void {
  const spans = exporter.getFinishedSpans();
  expect(spans.length).toBeGreaterThan(0);
  expect(spanText(spans)).not.toContain(peer.secret);
  expect(spanText(spans)).not.toContain('tokSECRET');
  expect(spanText(spans)).not.toContain(words);
}

function listened(client: A2aClient): ClientEvent[] {
  const events: ClientEvent[] = [];
  client.events.subscribe((event) => events.push(event));
  return events;
}

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('a peer reflecting the token over %s', (binding) => {
  it.each(Object.entries(unaryAnswers[binding]))(
    '%s: the error and the events never hold it',
    async (_name, answer) => {
      peer.answer = (call) => (call.operation.includes('essage') ? answer(call) : undefined);
      try {
        const client = await tracedClient(binding);
        const events = listened(client);
        const error = await caught(client.sendMessage({ message: message('reflect it') }));
        expect(isClientError(error)).toBe(true);
        expectSecretFree(error);
        expect(events.map((event) => event.type)).toContain('error');
        expectSecretFree(events);
        expectSpansSecretFree('reflect it');
      } finally {
        peer.answer = undefined;
      }
    },
  );

  it.each(Object.entries(unaryAnswers[binding]))(
    '%s: a durable send records it nowhere, on the file and the memory ledger',
    async (name, answer) => {
      peer.answer = (call) => (call.operation.includes('essage') ? answer(call) : undefined);
      const path = join(directory, `${binding}-${name.replaceAll(/\W+/g, '-')}.jsonl`);
      try {
        for (const ledger of [
          await openLedger({ name: path }),
          await openMemoryLedger({ name: 'hostile' }),
        ]) {
          // With tracing on: the record keeps the send's trace context, the spans hold no secret either.
          const agent = createDurableTracing({ tracerProvider: provider }).durableAgent({
            client: await tracedClient(binding),
            ledger,
          });
          const durableEvents: unknown[] = [];
          agent.events.subscribe((event) => durableEvents.push(event));
          const outcome = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'reflect it' }] });
          // Every answer above came after dispatch: the outcome is open, or the peer refused it outright.
          expect(['unknown', 'failed']).toContain(outcome.status);
          expect(outcome.record.state.status).not.toBe('executing');
          expectSecretFree(outcome.error);
          expectSecretFree(outcome.record);
          expectSecretFree(durableEvents);
          expectSecretFree(await ledger.list());
          expect(outcome.record.traceparent).toMatch(/^00-[\da-f]{32}-[\da-f]{16}-01$/);
          expect(exporter.getFinishedSpans().map((span) => span.name)).toContain('a2a.durable.send');
          expectSpansSecretFree('reflect it');
          await ledger.close();
        }
        expect(await readFile(path, 'utf8')).not.toContain(peer.secret);
      } finally {
        peer.answer = undefined;
      }
    },
  );
});

describe('a peer reflecting the token in a stream', () => {
  it.each(Object.entries(streamAnswers))('%s', async (_name, frames) => {
    peer.answer = (call) => (call.operation === 'SendStreamingMessage' ? sseText(frames(call)) : undefined);
    try {
      const client = await tracedClient('JSONRPC');
      const events = listened(client);
      const error = await caught(
        (async () => {
          for await (const _event of client.sendStreamingMessage({ message: message('stream it') })) {
            // Drained: the hostile frame ends the stream.
          }
        })(),
      );
      expect(isClientError(error)).toBe(true);
      expectSecretFree(error);
      expectSecretFree(events);
      expectSpansSecretFree('stream it');
    } finally {
      peer.answer = undefined;
    }
  });
});

describe('a card that holds the token as keys', () => {
  it.each<[string, (secret: string, card: string) => string]>([
    ['a duplicate key under the token', (secret, card) => `{"${secret}":{"a":1,"a":2},${card.slice(1)}`],
    ['the token twice as a key', (secret, card) => `{"${secret}":1,"${secret}":2,${card.slice(1)}`],
    [
      'a security scheme named by the token with a bad value',
      (secret, card) =>
        `{"securitySchemes":{"${secret}":{"${secret}":{}}},${card.slice(1).replace('"securitySchemes"', '"ignored"')}`,
    ],
    [
      'an unsafe integer under the token',
      (secret, card) => `{"${secret}":[9007199254740993],${card.slice(1)}`,
    ],
  ])('%s: DiscoveryError never holds it', async (_name, build) => {
    peer.cardBody = build(peer.secret, JSON.stringify(peer.card));
    try {
      const fetched = await caught(fetchAgentCard({ cardUrl: peer.cardUrl, loopback: true }));
      expect((fetched as Error).name).toBe('DiscoveryError');
      expectSecretFree(fetched);
      // The digest of what JSON.parse makes of it, so that discovery gets past the digest to the contract.
      const digest = await cardDigest(JSON.parse(peer.cardBody) as JsonValue).catch(
        () => `sha256:${'0'.repeat(64)}`,
      );
      const discovered = await caught(
        discover({
          cardUrl: peer.cardUrl,
          loopback: true,
          pins: [{ binding: 'JSONRPC', url: `${peer.origin}${jsonRpcPath}` }],
          trust: { kind: 'digest', digest },
          security: { kind: 'bearer', scheme: 'bearer', token: async () => peer.secret },
        }),
      );
      expect((discovered as Error).name).toBe('DiscoveryError');
      expectSecretFree(discovered);
    } finally {
      peer.cardBody = undefined;
    }
  });
});
