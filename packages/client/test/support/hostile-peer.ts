/**
@module
Test support: a hostile peer on a real loopback socket (`listenLoopback`, 127.0.0.1). It serves the mock
agent's card with a bearer scheme added, and answers each A2A request either with the mock agent or with
whatever a test's `answer` returns: raw bytes, so it can send what no serializer would (duplicate keys, a
reflected token as a member name, a nesting deeper than any bound). The token provider hands out one secret
per peer, which the peer can read back from the `Authorization` header and reflect.
*/
import { randomBytes } from 'node:crypto';
import { agentCardPath, createAgent, createFaultLab, createMockHandle, jsonRpcPath } from '@surecall/mocks';
import { listenLoopback } from '@surecall/mocks/node';
import { type A2aClient, createClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import type { ProtocolBinding } from '../../src/client/security.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonObject, JsonValue } from '../../src/protocol/json-value.js';
import { servedCard } from './card.js';

/** What an `answer` learns about one A2A request. */
export type HostileCall = {
  readonly binding: ProtocolBinding;
  /** The JSON-RPC method, or the HTTP+JSON route's path after the interface URL. */
  readonly operation: string;
  /** The JSON-RPC id, to echo it (`null` over HTTP+JSON). */
  readonly rpcId: JsonValue;
  /** The bearer token the request carried, to reflect it. */
  readonly token: string;
  readonly request: Request;
};

/** A raw answer: `undefined` lets the mock agent answer. */
export type HostileAnswer = (call: HostileCall) => Response | undefined | Promise<Response | undefined>;

export type HostilePeer = {
  readonly origin: string;
  readonly cardUrl: string;
  /**
  The token every client of this peer sends: a plain identifier, so any place that names keys would show it.
  */
  readonly secret: string;
  /** The card as served (JSON names), with the bearer scheme. */
  readonly card: JsonObject;
  /** Replace to answer A2A requests; `undefined` lets the mock agent answer all of them. */
  answer: HostileAnswer | undefined;
  /** Replace to serve other bytes as the agent card. */
  cardBody: string | undefined;
  /** How many A2A requests reached the peer, by operation. */
  readonly hits: Map<string, number>;
  client(binding: ProtocolBinding, options?: Partial<ClientOptions>): Promise<A2aClient>;
  close(): Promise<void>;
};

/**
A JSON-RPC answer whose `result` (or `error`) member is the raw JSON text given, under the request's id.
*/
export function rpcText(call: HostileCall, member: 'result' | 'error', raw: string, status = 200): Response {
  return new Response(`{"jsonrpc":"2.0","id":${JSON.stringify(call.rpcId)},"${member}":${raw}}`, {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** A raw JSON body. */
export function jsonText(raw: string, status = 200, type = 'application/json'): Response {
  return new Response(raw, { status, headers: { 'content-type': type } });
}

/** An event stream of the given raw frames (each a complete SSE event, blank line included). */
export function sseText(frames: readonly string[]): Response {
  return new Response(frames.join(''), { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

export async function startHostilePeer(): Promise<HostilePeer> {
  const agent = createAgent({ stepMs: 0 });
  const inner = createMockHandle({ agent, faults: createFaultLab() });
  const secret = `tokSECRET${randomBytes(12).toString('hex')}`;
  const hits = new Map<string, number>();
  let served: JsonObject | undefined;
  // Assigned once the card is read; the card fetch below is the only request before that.
  let peer: HostilePeer | undefined;
  const server = await listenLoopback({
    cors: false,
    handle: async (request) => {
      const url = new URL(request.url);
      if (url.pathname === agentCardPath) {
        if (peer?.cardBody !== undefined) {
          return jsonText(peer.cardBody);
        }
        if (served !== undefined) {
          return Response.json(served);
        }
        return inner(request);
      }
      const binding: ProtocolBinding = url.pathname === jsonRpcPath ? 'JSONRPC' : 'HTTP+JSON';
      const text = request.method === 'POST' ? await request.clone().text() : '';
      const body: { method?: unknown; id?: JsonValue } =
        binding === 'JSONRPC' && text !== ''
          ? (JSON.parse(text) as { method?: unknown; id?: JsonValue })
          : {};
      const operation = binding === 'JSONRPC' ? String(body.method) : url.pathname.replace(/^\/[^/]*\//, '/');
      hits.set(operation, (hits.get(operation) ?? 0) + 1);
      const token = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '');
      const call: HostileCall = { binding, operation, rpcId: body.id ?? null, token, request };
      return (await peer?.answer?.(call)) ?? inner(request);
    },
  });
  // In JSON names whichever printer style the mock agent uses, so the members added below replace rather than
  // repeat.
  const original = await servedCard(`${server.origin}${agentCardPath}`);
  served = {
    ...original,
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  };
  const card = parseAgentCard(served);
  const digest = await cardDigest(served);
  const hostile: HostilePeer = {
    origin: server.origin,
    cardUrl: `${server.origin}${agentCardPath}`,
    secret,
    card: served,
    answer: undefined,
    cardBody: undefined,
    hits,
    async client(binding, options = {}) {
      const url = card.supportedInterfaces.find((entry) => entry.protocolBinding === binding)?.url ?? '';
      return createClient({
        card,
        cardDigest: digest,
        pin: { binding, url },
        security: { kind: 'bearer', scheme: 'bearer', token: async () => secret },
        ...options,
      });
    },
    async close() {
      try {
        await server.close();
      } finally {
        agent.close();
      }
    },
  };
  peer = hostile;
  return hostile;
}
