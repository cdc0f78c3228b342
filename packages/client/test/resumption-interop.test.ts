/**
Stream resumption against the official `@a2a-js/sdk@1.3.0` server (mocks/src/sdk/agent.ts) through a real
loopback proxy that resets every event stream after two SSE events (test/support/resetting-proxy.ts), over
both bindings: the stream ends as an unbroken one would, the message crosses the proxy once, and each reset is
followed by exactly one SubscribeToTask (docs/protocol-checks.md#stream-resumption).
*/
import { type RunningSdkAgent, startSdkAgent } from '@surecall/mocks/sdk-agent';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../src/client/client.js';
import type { ClientEvent } from '../src/client/events.js';
import { cardDigest } from '../src/discovery/digest.js';
import { parseAgentCard } from '../src/protocol/decode.js';
import type { JsonValue } from '../src/protocol/json-value.js';
import type { StreamResponse } from '../src/protocol/stream.js';
import { assemble } from './support/assembly.js';
import { type ResettingProxy, startResettingProxy } from './support/resetting-proxy.js';

let sdk: RunningSdkAgent;
let proxy: ResettingProxy;

beforeAll(async () => {
  // The SDK logs expected errors (console.error); the assertions are what matters.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  sdk = await startSdkAgent({ tickMs: 300 });
});

afterEach(async () => {
  await proxy?.close();
});

afterAll(async () => {
  await sdk.close();
  vi.restoreAllMocks();
});

/**
A client of the SDK server through the proxy: the served card, its interfaces moved to the proxy's origin.
*/
async function clientThrough(binding: 'JSONRPC' | 'HTTP+JSON') {
  proxy = await startResettingProxy(sdk.origin, { events: 2 });
  const served = await (await fetch(sdk.cardUrl)).text();
  const raw = JSON.parse(served.replaceAll(sdk.origin, proxy.origin)) as JsonValue;
  const card = parseAgentCard(raw);
  const path = new URL(binding === 'JSONRPC' ? sdk.jsonRpcUrl : sdk.restUrl).pathname;
  const client = createClient({
    card,
    cardDigest: await cardDigest(raw),
    pin: { binding, url: `${proxy.origin}${path}` },
    security: { kind: 'anonymous' },
  });
  const events: ClientEvent[] = [];
  client.events.subscribe((event) => {
    events.push(event);
  });
  return { client, events };
}

function count(events: readonly ClientEvent[], type: ClientEvent['type'], operation?: string): number {
  return events.filter(
    (event) => event.type === type && (operation === undefined || event.operation === operation),
  ).length;
}

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('resuming through a resetting proxy over %s', (binding) => {
  it('a streamed task cut every two events ends as an unbroken one, sent once', async () => {
    const { client, events } = await clientThrough(binding);
    const delivered: StreamResponse[] = [];

    for await (const event of client.sendStreamingMessage({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'slow 4' }] },
    })) {
      delivered.push(event);
    }

    expect(assemble(delivered)).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: { progress: 'tick 1/4\ntick 2/4\ntick 3/4\ntick 4/4\n' },
    });
    const sends = proxy.requests.filter(
      ({ rpcMethod, path }) => rpcMethod === 'SendStreamingMessage' || path.endsWith('/message:stream'),
    );
    expect(sends).toHaveLength(1);
    expect(proxy.resets()).toBeGreaterThanOrEqual(1);
    expect(count(events, 'stream-break')).toBe(proxy.resets());
    expect(count(events, 'request', 'SubscribeToTask')).toBe(count(events, 'stream-break'));
    expect(events.at(-1)).toMatchObject({ type: 'stream-end', reason: 'complete' });
  });
});
