/**
@module
Test fixture for the durable agent's suites: mock agents (`@surecall/mocks`) behind one MSW server, each on
its own origin with its own fault lab, a log of the A2A operations that reached it, an optional stage in front
of the agent (to hold, drop or inspect a request), and optionally a message-id deduplicating front, the peer
an operator's attestation describes. With `grpc: true` the same agent and fault lab are served over gRPC too
(`@surecall/mocks/grpc` on a loopback port, its calls logged in the same `requests`), and the client factory
takes any of the three bindings. Plus a memory ledger per test.
*/
import {
  type AgentOptions,
  agentCardPath,
  createAgent,
  createFaultLab,
  type FaultLab,
  jsonRpcPath,
  type MockAgent,
  restPath,
} from '@surecall/mocks';
import { type GrpcMount, listenGrpc } from '@surecall/mocks/grpc';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { grpcBinding } from '../../src/bindings/grpc/entry.js';
import { type A2aClient, createClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import type { ProtocolBinding } from '../../src/client/security.js';
import { cardDigest } from '../../src/discovery/digest.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { openLedger } from '../../src/ledger/memory.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { A2aErrorEntry } from '../../src/protocol/error-codes.js';
import { errorDomain, errorInfoType } from '../../src/protocol/error-codes.js';
import type { JsonObject, JsonValue } from '../../src/protocol/json-value.js';
import type { Message } from '../../src/protocol/message.js';
import { answering, recording } from './grpc-front.js';

/** Both HTTP bindings, for `describe.each`. */
export const bindings = ['JSONRPC', 'HTTP+JSON'] as const;

/** The three bindings, for the suites that run on the mock's gRPC mount too (`PeerOptions.grpc`). */
export const allBindings = [...bindings, 'GRPC'] as const;

/** A WHATWG handler, the shape of `MockAgent.handle`. */
export type Handle = (request: Request) => Promise<Response>;

/** A JSON object, seen through the members this fixture reads. */
type Fields = {
  readonly method?: unknown;
  readonly params?: unknown;
  readonly id?: JsonValue;
  readonly result?: unknown;
  readonly message?: unknown;
  readonly messageId?: unknown;
  readonly configuration?: unknown;
  readonly [member: string]: unknown;
};

/**
One A2A request that reached a peer: its operation (JSON-RPC method name) and, for a send or a list, what it
asked.
*/
export type PeerRequest = {
  readonly operation: string;
  readonly binding: ProtocolBinding;
  /** The SendMessage params (`message`, `configuration`), or the ListTasks query (HTTP+JSON: strings). */
  readonly params: Fields;
};

/** One mock agent on its own origin. */
export type Peer = {
  readonly origin: string;
  readonly agent: MockAgent;
  readonly faults: FaultLab;
  /** Every A2A request that reached the origin (the card fetch excluded), in order, before any fault. */
  readonly requests: PeerRequest[];
  /** A stage in front of the agent, inside the fault lab: replace it to hold, drop or inspect a request. */
  stage: ((request: Request, forward: Handle) => Promise<Response>) | undefined;
  /**
  Called once the agent has answered a call, over any binding: inside the fault lab over HTTP, as the answer
  leaves over gRPC (interceptors run outside the lab).
  */
  answered: (() => void) | undefined;
  /** A client of this agent over `binding`. */
  client(binding: ProtocolBinding, options?: Partial<ClientOptions>): A2aClient;
  /** The requests of one operation. */
  sent(operation: string): PeerRequest[];
  /** The messages of the SendMessage requests, in order. */
  messages(): Message[];
};

/** The MSW server every peer answers through; the suites start and stop it. */
export const server = setupServer();

let mounted = 0;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
What an A2A request is: JSON-RPC by its body's method, HTTP+JSON by its route (only the two the durable agent
uses).
*/
async function recognise(request: Request): Promise<PeerRequest | undefined> {
  const url = new URL(request.url);
  if (url.pathname === jsonRpcPath) {
    const body: unknown = await request.clone().json();
    if (isObject(body) && typeof body.method === 'string') {
      return { operation: body.method, binding: 'JSONRPC', params: isObject(body.params) ? body.params : {} };
    }
    return undefined;
  }
  if (url.pathname.endsWith('/message:send')) {
    const body: unknown = await request.clone().json();
    return { operation: 'SendMessage', binding: 'HTTP+JSON', params: isObject(body) ? body : {} };
  }
  if (url.pathname.startsWith(restPath)) {
    const operation = url.pathname.endsWith('/tasks') && request.method === 'GET' ? 'ListTasks' : 'Other';
    return { operation, binding: 'HTTP+JSON', params: Object.fromEntries(url.searchParams) };
  }
  return undefined;
}

/** The messageId of a SendMessage request, with the JSON-RPC id to answer under. */
function sendOf(call: PeerRequest | undefined, rpcId: JsonValue | undefined) {
  const message = call?.operation === 'SendMessage' ? call.params.message : undefined;
  return isObject(message) && typeof message.messageId === 'string'
    ? { messageId: message.messageId, rpcId }
    : undefined;
}

/**
A front that deduplicates SendMessage by `messageId`, durably for the test's lifetime: the first send of an id
reaches the agent and its successful answer is kept; every later send of that id is answered with the kept
answer (under the new JSON-RPC id) and never reaches the agent. It is the peer a `message-id-replay`
attestation describes; the mock agent alone does not deduplicate messageIds, as A2A does not require it to.
*/
export function deduplicateMessageIds(handle: Handle): Handle {
  const answers = new Map<string, JsonValue>();
  return async (request) => {
    const call = await recognise(request);
    const body: unknown = call?.binding === 'JSONRPC' ? await request.clone().json() : undefined;
    const send = sendOf(call, isObject(body) ? (body.id ?? null) : undefined);
    if (send === undefined) {
      return handle(request);
    }
    const kept = answers.get(send.messageId);
    if (kept !== undefined) {
      return HttpResponse.json(
        (send.rpcId === undefined ? kept : { ...(kept as JsonObject), id: send.rpcId }) as JsonObject,
      );
    }
    const response = await handle(request);
    const text = await response.text();
    const parsed: unknown = response.ok ? JSON.parse(text) : undefined;
    if (isObject(parsed) && (send.rpcId === undefined || parsed.result !== undefined)) {
      answers.set(send.messageId, parsed as JsonValue);
    }
    // Copied one by one: the agent's Headers may come from another realm (MSW's interceptor), which a
    // Response would not read.
    const headers = new Headers();
    response.headers.forEach((value, name) => {
      headers.set(name, value);
    });
    return new Response(text, { status: response.status, headers });
  };
}

/**
An answer to `request` carrying `result`: a JSON-RPC envelope under the request's id, or the bare HTTP+JSON
body.
*/
export async function respond(request: Request, result: JsonValue): Promise<Response> {
  if (new URL(request.url).pathname !== jsonRpcPath) {
    return HttpResponse.json(result as JsonObject);
  }
  const body: unknown = await request.clone().json();
  return HttpResponse.json({ jsonrpc: '2.0', id: isObject(body) ? (body.id ?? null) : null, result });
}

/**
An authoritative A2A error answer to `request`: a JSON-RPC error under the request's id (HTTP 200), or an
HTTP+JSON error whose status, status name and single ErrorInfo agree (A2A spec §11.6).
*/
export async function respondError(request: Request, error: A2aErrorEntry): Promise<Response> {
  const info = { '@type': errorInfoType, reason: error.reason, domain: errorDomain };
  if (new URL(request.url).pathname !== jsonRpcPath) {
    return HttpResponse.json(
      { error: { code: error.httpStatus, status: error.status, message: 'refused', details: [info] } },
      { status: error.httpStatus },
    );
  }
  const body: unknown = await request.clone().json();
  return HttpResponse.json({
    jsonrpc: '2.0',
    id: isObject(body) ? (body.id ?? null) : null,
    error: { code: error.code, message: 'refused', data: [info] },
  });
}

/** Options of {@link mountPeer}: the agent's, plus the deduplicating front and the gRPC mount. */
export type PeerOptions = AgentOptions & {
  /** Put {@link deduplicateMessageIds} in front of the agent (over HTTP only). @default false */
  readonly deduplicate?: boolean;
  /** Serve the agent over gRPC too, on a loopback port; {@link closeGrpcPeers} stops them. @default false */
  readonly grpc?: boolean;
};

const grpcMounts: GrpcMount[] = [];

/** Stop every gRPC mount the peers started (a suite's `afterAll`). */
export async function closeGrpcPeers(): Promise<void> {
  await Promise.all(grpcMounts.splice(0).map((mount) => mount.close()));
}

/** Mounts a fresh mock agent (`stepMs: 0`) on a new origin (`https://durable-N.test`) and reads its card. */
export async function mountPeer(options: PeerOptions = {}): Promise<Peer> {
  mounted += 1;
  const origin = `https://durable-${mounted}.test`;
  const { deduplicate = false, grpc = false, ...agentOptions } = options;
  const agent = createAgent({ stepMs: 0, ...agentOptions });
  const faults = createFaultLab();
  const inner: Handle = deduplicate ? deduplicateMessageIds(agent.handle) : agent.handle;
  const requests: PeerRequest[] = [];
  const peer: Peer = {
    origin,
    agent,
    faults,
    requests,
    stage: undefined,
    answered: undefined,
    client: () => {
      throw new Error('the card is not read yet');
    },
    sent: (operation) => requests.filter((entry) => entry.operation === operation),
    messages: () => peer.sent('SendMessage').map((entry) => entry.params.message as Message),
  };
  const staged: Handle = async (request) => {
    const response = await (peer.stage === undefined ? inner(request) : peer.stage(request, inner));
    peer.answered?.();
    return response;
  };
  const handle = faults.wrap(staged);
  server.use(
    http.all(`${origin}/*`, async ({ request }) => {
      if (new URL(request.url).pathname !== agentCardPath) {
        const call = await recognise(request);
        if (call !== undefined) {
          requests.push(call);
        }
      }
      return handle(request);
    }),
  );
  const mount = grpc
    ? await listenGrpc({
        agent,
        faults,
        origin,
        interceptors: [
          recording((operation, params) => requests.push({ operation, binding: 'GRPC', params })),
          answering(() => peer.answered?.()),
        ],
      })
    : undefined;
  if (mount !== undefined) {
    grpcMounts.push(mount);
  }
  // The card lists the gRPC interface while the mount runs. Over gRPC no MSW listens (it would keep the
  // HTTP/2 connection from opening), so the card is the handler's.
  const cardUrl = `${origin}${agentCardPath}`;
  const raw = (await (grpc ? await handle(new Request(cardUrl)) : await fetch(cardUrl)).json()) as JsonValue;
  const card = parseAgentCard(raw);
  const digest = await cardDigest(raw);
  const urls = {
    JSONRPC: `${origin}${jsonRpcPath}`,
    'HTTP+JSON': `${origin}${restPath}`,
    GRPC: mount?.url ?? 'http://grpc-not-mounted.invalid',
  };
  peer.client = (binding, clientOptions = {}) =>
    createClient({
      card,
      cardDigest: digest,
      grpc: grpcBinding,
      pin: { binding, url: urls[binding] },
      security: { kind: 'anonymous' },
      ...clientOptions,
    });
  return peer;
}

/** A fresh memory ledger. */
export function memoryLedger(): Promise<Ledger> {
  return openLedger({ name: 'durable-test' });
}
