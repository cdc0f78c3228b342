/**
The card request (docs/protocol-checks.md#discovery-steps, step 5; docs/interop.md#browsers): it carries
`A2A-Version: 1.0`, and a page whose cross-origin card request fails before any answer asks once more as a
plain GET, said in a `card-fallback` event.

The peer is the mock agent behind a real loopback listener, in front of which a static card host stands: it
cuts the connection of every card request that carries `A2A-Version` (`refuseVersioned`), which is what a page
sees when the agent refuses the CORS preflight that header causes (the Fetch standard reports a refused
preflight as a network error, exactly like a cut connection). Node makes no preflight, so the page is played
by a stubbed `location` of another origin.
*/

import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgent, createFaultLab, createMockHandle, jsonRpcPath } from '@surecall/mocks';
import { createNodeListener } from '@surecall/mocks/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DiscoveryEvent } from '../../src/client/events.js';
import { type DiscoverOptions, discover, fetchAgentCard } from '../../src/discovery/discovery.js';

type CardRequest = { readonly version: string | undefined };

let server: Server;
let origin = '';
/**
What the card host does with a card request: serve it, cut the versioned one, cut every one, or 403 the
versioned one.
*/
let refuse: 'none' | 'versioned' | 'all' | 'status' = 'none';
const cardRequests: CardRequest[] = [];

beforeAll(async () => {
  const agent = createAgent({ stepMs: 0 });
  const listener = createNodeListener({
    handle: createMockHandle({ agent, faults: createFaultLab() }),
    origin: () => origin,
    hosts: () => [new URL(origin).host],
    token: 'card-request-test-token-0123456789abcdef',
  });
  server = createServer((incoming: IncomingMessage, outgoing) => {
    if (incoming.url === '/.well-known/agent-card.json') {
      const version = incoming.headers['a2a-version'];
      cardRequests.push({ version: typeof version === 'string' ? version : undefined });
      if (refuse === 'all' || (refuse === 'versioned' && version !== undefined)) {
        incoming.socket.destroy();
        return;
      }
      if (refuse === 'status' && version !== undefined) {
        outgoing.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden\n');
        return;
      }
    }
    listener(incoming, outgoing);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
});

afterEach(() => {
  vi.unstubAllGlobals();
  refuse = 'none';
  cardRequests.length = 0;
});

function options(events: DiscoveryEvent[]): DiscoverOptions {
  return {
    cardUrl: `${origin}/.well-known/agent-card.json`,
    pins: [{ binding: 'JSONRPC', url: `${origin}${jsonRpcPath}` }],
    trust: { kind: 'first-fetch' },
    security: { kind: 'anonymous' },
    loopback: true,
    onEvent: (event) => events.push(event),
  };
}

async function failure(pending: Promise<unknown>): Promise<unknown> {
  return pending.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('the card request', () => {
  it('carries A2A-Version: 1.0 (A2A spec §3.6.2), in discover() and fetchAgentCard()', async () => {
    const events: DiscoveryEvent[] = [];
    await discover(options(events));
    await fetchAgentCard({ cardUrl: `${origin}/.well-known/agent-card.json`, loopback: true });
    expect(cardRequests).toEqual([{ version: '1.0' }, { version: '1.0' }]);
    expect(events).toEqual([]);
  });

  it('in a page of another origin, falls back once to a plain GET when the versioned one is refused', async () => {
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:1' });
    refuse = 'versioned';
    const events: DiscoveryEvent[] = [];
    const client = await discover(options(events));
    expect(cardRequests).toEqual([{ version: '1.0' }, { version: undefined }]);
    expect(events).toEqual([
      { type: 'card-fallback', reason: 'preflight-refused', time: expect.any(Number) },
    ]);
    // The card is the same document either way: the client works as after a plain discovery.
    await expect(client.listTasks({})).resolves.toBeDefined();
  });

  it('falls back only once: a plain GET that fails too ends as Discovery network', async () => {
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:1' });
    refuse = 'all';
    const events: DiscoveryEvent[] = [];
    expect(await failure(discover(options(events)))).toMatchObject({
      reason: 'Discovery',
      detail: 'network',
    });
    expect(cardRequests).toEqual([{ version: '1.0' }, { version: undefined }]);
    expect(events).toHaveLength(1);
  });

  it('never falls back in Node, nor in a page of the agent’s own origin: no preflight guards those', async () => {
    refuse = 'versioned';
    const events: DiscoveryEvent[] = [];
    expect(await failure(discover(options(events)))).toMatchObject({
      reason: 'Discovery',
      detail: 'network',
    });
    vi.stubGlobal('location', { origin });
    expect(await failure(discover(options(events)))).toMatchObject({
      reason: 'Discovery',
      detail: 'network',
    });
    expect(cardRequests).toEqual([{ version: '1.0' }, { version: '1.0' }]);
    expect(events).toEqual([]);
  });

  it('never falls back on an answer: a refusal with a status is the agent’s word', async () => {
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:1' });
    refuse = 'status';
    const events: DiscoveryEvent[] = [];
    expect(await failure(discover(options(events)))).toMatchObject({
      reason: 'Discovery',
      detail: 'status',
      httpStatus: 403,
    });
    expect(cardRequests).toEqual([{ version: '1.0' }]);
    expect(events).toEqual([]);
  });

  it('swallows what the listener throws, and refuses a listener that is no function before any I/O', async () => {
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:1' });
    refuse = 'versioned';
    const throwing: DiscoverOptions = {
      ...options([]),
      onEvent: () => {
        throw new Error('listener');
      },
    };
    await expect(discover(throwing)).resolves.toBeDefined();
    cardRequests.length = 0;
    const malformed = { ...options([]), onEvent: 'log' } as unknown as DiscoverOptions;
    await expect(discover(malformed)).rejects.toMatchObject({ kind: 'options', option: 'onEvent' });
    expect(cardRequests).toEqual([]);
  });
});
