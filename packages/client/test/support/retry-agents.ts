/**
@module
Test fixture for the retry, idempotency and delegation suites: mock agents (`@surecall/mocks`) behind one MSW
server, each on its own origin with its own options, fault lab and request counter, plus a client factory for
either binding and a driver for fake timers.
*/
import {
  type AgentOptions,
  agentCardPath,
  createAgent,
  createFaultLab,
  createHandlers,
  type FaultLab,
  jsonRpcPath,
  type MockAgent,
  restPath,
} from '@surecall/mocks';
import { setupServer } from 'msw/node';
import { vi } from 'vitest';
import { type A2aClient, createClient } from '../../src/client/client.js';
import type { ClientEvent, StreamBreakEvent } from '../../src/client/events.js';
import type { ClientOptions } from '../../src/client/options.js';
import type { ProtocolBinding } from '../../src/client/security.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { setKey } from '../../src/idempotency/key.js';
import { parseAgentCard } from '../../src/protocol/decode.js';
import type { JsonValue } from '../../src/protocol/json-value.js';
import type { Message } from '../../src/protocol/message.js';
import type { StreamResponse } from '../../src/protocol/stream.js';

/** Both bindings, for `describe.each`. */
export const bindings = ['JSONRPC', 'HTTP+JSON'] as const;

/** One mock agent on its own origin. */
export type MountedAgent = {
  readonly origin: string;
  readonly agent: MockAgent;
  readonly faults: FaultLab;
  /** A2A requests (the card fetch excluded) that reached this origin. */
  requests(): number;
  /** A client of this agent over `binding`; `events` collects its inspector events. */
  client(binding: ProtocolBinding, options?: Partial<ClientOptions>): A2aClient;
};

/** The MSW server every mounted agent answers through. */
export const server = setupServer();

const counts = new Map<string, number>();
server.events.on('request:start', ({ request }) => {
  const url = new URL(request.url);
  if (url.pathname !== agentCardPath) {
    counts.set(url.origin, (counts.get(url.origin) ?? 0) + 1);
  }
});

let mounted = 0;

/**
Mounts a fresh mock agent on a new origin (`https://agent-N.test`) and reads its card. Call it before
`vi.useFakeTimers()`, or with timers that run: the card is read through `fetch`.
*/
export async function mountAgent(options: AgentOptions = {}): Promise<MountedAgent> {
  mounted += 1;
  const origin = `https://agent-${mounted}.test`;
  const agent = createAgent({ stepMs: 0, ...options });
  const faults = createFaultLab();
  server.use(...createHandlers({ agent, faults, origin }));
  const raw = (await (await fetch(`${origin}${agentCardPath}`)).json()) as JsonValue;
  const card = parseAgentCard(raw);
  const digest = await cardDigest(raw);
  return {
    origin,
    agent,
    faults,
    requests: () => counts.get(origin) ?? 0,
    client: (binding, clientOptions = {}) =>
      createClient({
        card,
        cardDigest: digest,
        pin: { binding, url: `${origin}${binding === 'JSONRPC' ? jsonRpcPath : restPath}` },
        security: { kind: 'anonymous' },
        ...clientOptions,
      }),
  };
}

/** Collects a client's inspector events. */
export function record(client: A2aClient): ClientEvent[] {
  const events: ClientEvent[] = [];
  client.events.subscribe((event) => {
    events.push(event);
  });
  return events;
}

/** A user message; `key` adds an idempotency key with `setKey`. */
export function userMessage(text: string, key?: string, extra: Partial<Message> = {}): Message {
  const message: Message = { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
  if (key !== undefined && !setKey(message, key).ok) {
    throw new Error('the test key is invalid');
  }
  return message;
}

/**
Advances fake time in `stepMs` slices until `promise` settles (at most `limitMs` of fake time), then returns
it.
*/
export async function drive<T>(promise: Promise<T>, stepMs = 25, limitMs = 600_000): Promise<T> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  for (let spent = 0; !settled && spent < limitMs; spent += stepMs) {
    await vi.advanceTimersByTimeAsync(stepMs);
  }
  return promise;
}

/**
Reads a stream under fake time, driven for at most `limitMs`: what it delivered, the error it ended with, if
any, and the fake milliseconds it took.
*/
export async function consume(
  stream: AsyncIterable<StreamResponse>,
  limitMs?: number,
): Promise<{ readonly delivered: StreamResponse[]; readonly error: unknown; readonly tookMs: number }> {
  const delivered: StreamResponse[] = [];
  let error: unknown;
  const started = Date.now();
  await drive(
    (async () => {
      try {
        for await (const event of stream) {
          delivered.push(event);
        }
      } catch (caught) {
        error = caught;
      }
    })(),
    25,
    limitMs,
  );
  return { delivered, error, tookMs: Date.now() - started };
}

/** The `stream-break` events of an inspector feed. */
export function breaks(events: readonly ClientEvent[]): StreamBreakEvent[] {
  return events.filter((event): event is StreamBreakEvent => event.type === 'stream-break');
}

/** The error `promise` rejects with, after driving fake time; fails if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await drive(promise);
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** Reads a stream to its end under fake time. */
export function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  return (async () => {
    const events: T[] = [];
    for await (const event of stream) {
      events.push(event);
    }
    return events;
  })();
}
