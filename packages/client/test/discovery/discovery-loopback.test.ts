/**
`discover()` over a real loopback wire (docs/durable-send.md#what-the-tests-prove: a `127.0.0.1:0` server, the
card pinned by its digest): the mock agent (`startMockAgent`) and the official `@a2a-js/sdk` server
(`startSdkAgent`), each reached with `loopback: true` and digest trust.
*/

import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { jsonRpcPath, restPath } from '@surecall/mocks';
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import {
  type RunningSdkAgent,
  sdkExtendedDescription,
  sdkExtensionUri,
  sdkTenant,
  startSdkAgent,
} from '@surecall/mocks/sdk-agent';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DiscoveryError } from '../../src/core/errors.js';
import { type DiscoverOptions, discover, fetchAgentCard } from '../../src/discovery/discovery.js';
import type { Message } from '../../src/protocol/message.js';

function message(text: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
}

async function failure(pending: Promise<unknown>): Promise<DiscoveryError> {
  const error = await pending.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DiscoveryError);
  return error as DiscoveryError;
}

describe('the mock agent on loopback', () => {
  let agent: RunningMockAgent;
  let digest: string;
  let base: DiscoverOptions;

  beforeAll(async () => {
    agent = await startMockAgent({ port: 0, stepMs: 0 });
    ({ digest } = await fetchAgentCard({ cardUrl: agent.cardUrl, loopback: true }));
    base = {
      cardUrl: agent.cardUrl,
      pins: [{ binding: 'JSONRPC', url: `${agent.origin}${jsonRpcPath}` }],
      trust: { kind: 'digest', digest },
      security: { kind: 'anonymous' },
      loopback: true,
    };
  });
  afterAll(() => agent.close());

  it('discovers with loopback and digest trust, then talks over the wire', async () => {
    const client = await discover(base);
    expect(client.cardDigest).toBe(digest);
    expect(client.binding).toBe('JSONRPC');
    const result = await client.sendMessage({ message: message('task one') });
    expect('task' in result || 'message' in result).toBe(true);
  });

  it('reaches the same server through the IPv4 shorthand 127.1', async () => {
    const shorthand = agent.origin.replace('127.0.0.1', '127.1');
    const client = await discover({
      ...base,
      cardUrl: `${shorthand}/.well-known/agent-card.json`,
      pins: [{ binding: 'JSONRPC', url: `${shorthand}${jsonRpcPath}` }],
    });
    await expect(client.listTasks({})).resolves.toBeDefined();
  });

  it('refuses tls trust for a plain-http card, and plain http without loopback', async () => {
    expect(await failure(discover({ ...base, trust: { kind: 'tls' } }))).toMatchObject({
      reason: 'TlsTrustRequiresHttps',
    });
    const { loopback: _, ...strict } = base;
    expect(await failure(discover(strict))).toMatchObject({ reason: 'Discovery', detail: 'https-required' });
  });

  it('trusts the first fetch of a literal loopback card for local work, and nothing else', async () => {
    const client = await discover({ ...base, trust: { kind: 'first-fetch' } });
    expect(client.cardDigest).toBe(digest);
    const result = await client.sendMessage({ message: message('echo local') });
    expect('message' in result || 'task' in result).toBe(true);
    const remote = {
      ...base,
      cardUrl: 'https://agent.example/.well-known/agent-card.json',
      pins: [{ binding: 'JSONRPC' as const, url: 'https://agent.example/a2a' }],
      trust: { kind: 'first-fetch' as const },
    };
    // Refused before any I/O: that host does not exist.
    expect(await failure(discover(remote))).toMatchObject({
      reason: 'FirstFetchTrustRequiresLoopback',
      option: 'trust',
    });
    expect(await failure(discover({ ...remote, loopback: false }))).toMatchObject({
      reason: 'FirstFetchTrustRequiresLoopback',
    });
    const { loopback: _, ...strict } = base;
    expect(await failure(discover({ ...strict, trust: { kind: 'first-fetch' } }))).toMatchObject({
      reason: 'Discovery',
      detail: 'https-required',
    });
  });

  it('refuses localhost, a name, even for a server that answers there', async () => {
    const named = agent.origin.replace('127.0.0.1', 'localhost');
    expect(
      await failure(discover({ ...base, cardUrl: `${named}/.well-known/agent-card.json` })),
    ).toMatchObject({ reason: 'Discovery', detail: 'literal-loopback-required' });
  });

  it('refuses digest drift and pin drift', async () => {
    expect(
      await failure(discover({ ...base, trust: { kind: 'digest', digest: `sha256:${'f'.repeat(64)}` } })),
    ).toMatchObject({ reason: 'AgentCardDigestMismatch' });
    expect(
      await failure(
        discover({
          ...base,
          pins: [{ binding: 'JSONRPC', url: `${agent.origin}${jsonRpcPath}`, tenant: 'acme' }],
        }),
      ),
    ).toMatchObject({ reason: 'InterfacePinMismatch' });
    expect(
      await failure(
        discover({ ...base, pins: [{ binding: 'HTTP+JSON', url: `${agent.origin}${restPath}` }] }),
      ),
    ).toMatchObject({ reason: 'InterfacePinMismatch' });
  });

  it('says Discovery when nothing listens', async () => {
    const closed = await startMockAgent({ port: 0 });
    await closed.close();
    expect(await failure(fetchAgentCard({ cardUrl: closed.cardUrl, loopback: true }))).toMatchObject({
      reason: 'Discovery',
      detail: 'network',
    });
  });

  it('keeps the origin, the path and the card out of an error inspected in full, causes included', async () => {
    const drift = await failure(
      discover({ ...base, pins: [{ binding: 'JSONRPC', url: `${agent.origin}/secret-path-marker` }] }),
    );
    const closed = await startMockAgent({ port: 0 });
    await closed.close();
    const lost = await failure(
      discover({
        ...base,
        cardUrl: closed.cardUrl,
        pins: [{ binding: 'JSONRPC', url: `${closed.origin}/secret-path-marker` }],
      }),
    );
    expect(lost.cause).toBeDefined();
    for (const [error, port] of [
      [drift, agent.port],
      [lost, closed.port],
    ] as const) {
      // A pin mismatch names the card's preferred interface (its public data) in `fix`, and nowhere else.
      const shown = inspect(error, { depth: 8 }).replaceAll(
        error.fix?.option === 'pins' ? error.fix.url : '-',
        '',
      );
      expect(shown).not.toContain(String(port));
      expect(shown).not.toContain('secret-path-marker');
      expect(shown).not.toContain('mock agent');
    }
  });
});

describe('the official SDK server on loopback', () => {
  let sdk: RunningSdkAgent;
  let base: DiscoverOptions;

  beforeAll(async () => {
    // The SDK logs every request it refuses; the assertions are what matters.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    sdk = await startSdkAgent({ tickMs: 600_000 });
    const { digest } = await fetchAgentCard({ cardUrl: sdk.cardUrl, loopback: true });
    base = {
      cardUrl: sdk.cardUrl,
      pins: [{ binding: 'JSONRPC', url: sdk.jsonRpcUrl }],
      trust: { kind: 'digest', digest },
      security: { kind: 'bearer', scheme: 'bearer', token: async () => sdk.bearerToken },
      loopback: true,
    };
  });
  afterAll(async () => {
    await sdk.close();
    vi.restoreAllMocks();
  });

  it('discovers the SDK card with digest trust and calls the server', async () => {
    const client = await discover(base);
    expect(client.card.name).toBe(sdk.card.name);
    const result = await client.sendMessage({ message: message('echo over the wire') });
    expect(result).toBeDefined();
  });

  it('discovers a card whose extension is named by a URN, and may request it', async () => {
    const client = await discover({ ...base, extensions: [sdkExtensionUri] });
    expect(client.card.capabilities.extensions.map((extension) => extension.uri)).toEqual([sdkExtensionUri]);
    await expect(client.getTask({ id: 'no-such-task' })).rejects.toMatchObject({ kind: 'remote' });
  });

  it('returns the SDK’s extended card as data, never changing the client', async () => {
    const client = await discover(base);
    const extended = await client.getExtendedAgentCard();
    expect(extended.capabilities.extensions[0]?.uri).toBe(sdkExtensionUri);
    expect(extended.description).toBe(sdkExtendedDescription);
    expect(client.card.description).toBe(sdk.card.description);
    expect(client.card.provider).toBeUndefined();
  });

  it('takes the first interface, never the tenant ones listed after it', async () => {
    const tenantOnly = {
      ...base,
      pins: [{ binding: 'JSONRPC' as const, url: sdk.jsonRpcUrl, tenant: sdkTenant }],
    };
    expect(await failure(discover(tenantOnly))).toMatchObject({
      reason: 'InterfacePinMismatch',
      detail: 'no-matching-pin',
    });
    const restOnly = { ...base, pins: [{ binding: 'HTTP+JSON' as const, url: sdk.restUrl }] };
    expect(await failure(discover(restOnly))).toMatchObject({ reason: 'InterfacePinMismatch' });
  });
});

describe('the official SDK server in its legacy mode (v0.3 compatibility on)', () => {
  let sdk: RunningSdkAgent;

  beforeAll(async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    sdk = await startSdkAgent({ tickMs: 600_000, legacy: true });
  });
  afterAll(async () => {
    await sdk.close();
    vi.restoreAllMocks();
  });

  it('answers our card request, which carries A2A-Version: 1.0, with its v1.0 card', async () => {
    const client = await discover({
      cardUrl: sdk.cardUrl,
      pins: [{ binding: 'JSONRPC', url: sdk.jsonRpcUrl }],
      trust: { kind: 'first-fetch' },
      security: { kind: 'anonymous' },
      loopback: true,
    });
    expect(client.card.supportedInterfaces.map((entry) => entry.protocolVersion)).toEqual([
      '1.0',
      '1.0',
      '1.0',
      '1.0',
      '0.3',
    ]);
    await expect(client.sendMessage({ message: message('echo legacy') })).resolves.toBeDefined();
  });

  it('answers a card request without the header with its v0.3 card (A2A spec §3.6.2: no header is 0.3)', async () => {
    const plain = (await (await fetch(sdk.cardUrl)).json()) as { protocolVersion?: unknown };
    expect(plain.protocolVersion).toBe('0.3');
  });

  it('refuses the SDK’s own v0.3 card, served where a v0.3-only agent serves it, by the version it names', async () => {
    // A2A spec §3.6.2: a request without A2A-Version is a v0.3 request, so this is the card a v0.3-only agent
    // publishes; a static host serves it whatever the request says.
    const v03Card = await (await fetch(sdk.cardUrl)).text();
    const host = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(v03Card);
    });
    host.listen(0, '127.0.0.1');
    await once(host, 'listening');
    const { port } = host.address() as AddressInfo;
    const cardUrl = `http://127.0.0.1:${port}/.well-known/agent-card.json`;
    try {
      const refusal = {
        reason: 'NoSupportedInterface',
        detail: 'protocol-version-0.3',
        message: 'surecall discovery failed: NoSupportedInterface (protocol-version-0.3)',
      };
      expect(await failure(fetchAgentCard({ cardUrl, loopback: true }))).toMatchObject(refusal);
      const pins = [{ binding: 'JSONRPC' as const, url: sdk.jsonRpcUrl }];
      const options = { cardUrl, pins, trust: { kind: 'first-fetch' as const }, loopback: true };
      expect(await failure(discover({ ...options, security: { kind: 'anonymous' } }))).toMatchObject(refusal);
    } finally {
      host.close();
    }
  });
});
