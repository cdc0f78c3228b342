/**
`protocolVersions` in discovery (docs/protocol-checks.md#v03-peers): a v0.3 card or interface is refused by
its version, the refusal naming the option that admits it, until the caller admits 0.3 and gives the v0.3
binding; then a v0.3 card is read as the v1.0 card it maps to, and a 1.0 interface is still preferred wherever
the card lists one. The cards are served by the mock agent's MSW mount, as in discovery.test.ts; the calls
over v0.3 are in test/v03-interop.test.ts, against a real v0.3 peer.
*/
import { jsonRpcPath, restPath } from '@surecall/mocks';
import { createMockAgentServer } from '@surecall/mocks/node';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { v03Binding } from '../../src/bindings/v03/entry.js';
import { type DiscoveryError, OptionsError } from '../../src/core/errors.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { type DiscoverOptions, discover, fetchAgentCard } from '../../src/discovery/discovery.js';
import type { JsonObject, JsonValue } from '../../src/protocol/json-value.js';

const mock = createMockAgentServer({ stepMs: 0 });
const jsonRpcUrl = `${mock.origin}${jsonRpcPath}`;
const restUrl = `${mock.origin}${restPath}`;
const oldUrl = `${mock.origin}/a2a/v03`;
const seen: string[] = [];
let mockCard: JsonObject;

beforeAll(async () => {
  mock.listen();
  mockCard = (await (await fetch(mock.cardUrl)).json()) as JsonObject;
  mock.server.events.on('request:start', ({ request }) => {
    seen.push(request.url);
  });
});
afterEach(() => {
  seen.length = 0;
  mock.server.resetHandlers();
});
afterAll(() => mock.close());

function serveCard(card: JsonValue): void {
  mock.server.use(http.get(mock.cardUrl, () => HttpResponse.json(card)));
}

// A card in v0.3's shape: the version at its top, the preferred interface as `url` and `preferredTransport`.
function v03Card(extra: JsonObject = {}): JsonObject {
  const { supportedInterfaces: _, securitySchemes: __, securityRequirements: ___, ...rest } = mockCard;
  return { ...rest, protocolVersion: '0.3.0', url: oldUrl, preferredTransport: 'JSONRPC', ...extra };
}

const iface = (url: string, protocolVersion: string, protocolBinding = 'JSONRPC'): JsonObject => ({
  url,
  protocolBinding,
  protocolVersion,
});

function options(overrides: Partial<DiscoverOptions> = {}): DiscoverOptions {
  return {
    cardUrl: mock.cardUrl,
    pins: [{ binding: 'JSONRPC', url: oldUrl }],
    trust: { kind: 'tls' },
    security: { kind: 'anonymous' },
    ...overrides,
  };
}

const both = { protocolVersions: ['1.0', '0.3'], v03: v03Binding } as const;

async function failure(pending: Promise<unknown>): Promise<unknown> {
  return pending.then(
    () => 'accepted',
    (thrown: unknown) => thrown,
  );
}

describe('without 0.3 admitted', () => {
  it.each<[string, () => JsonObject]>([
    ['a v0.3 card', () => v03Card()],
    [
      'a 1.0 card whose only interface speaks 0.3',
      () => ({ ...mockCard, supportedInterfaces: [iface(oldUrl, '0.3')] }),
    ],
  ])('refuses %s by its version, naming protocolVersions as the fix', async (_, card) => {
    serveCard(card());
    const error = (await failure(discover(options()))) as DiscoveryError;
    expect(error).toMatchObject({
      reason: 'NoSupportedInterface',
      detail: 'protocol-version-0.3',
      fix: { option: 'protocolVersions', value: '0.3' },
    });
    expect(error.toJSON()).toMatchObject({ fix: { option: 'protocolVersions', value: '0.3' } });
    expect(error.message).toBe('surecall discovery failed: NoSupportedInterface (protocol-version-0.3)');
  });

  it('refuses a v0.3 card by its version in fetchAgentCard too, with the same fix', async () => {
    serveCard(v03Card());
    expect(await failure(fetchAgentCard({ cardUrl: mock.cardUrl }))).toMatchObject({
      detail: 'protocol-version-0.3',
      fix: { option: 'protocolVersions', value: '0.3' },
    });
  });

  it('refuses 0.3 without the v0.3 binding before anything is sent', async () => {
    const error = await failure(discover(options({ protocolVersions: ['1.0', '0.3'] })));
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).toMatchObject({ option: 'protocolVersions', reason: 'unsupported' });
    expect(await failure(fetchAgentCard({ cardUrl: mock.cardUrl, protocolVersions: ['0.3'] }))).toMatchObject(
      { option: 'protocolVersions', reason: 'unsupported' },
    );
    expect(seen).toEqual([]);
  });
});

describe('with 0.3 admitted and the v0.3 binding', () => {
  it('reads a v0.3 card as the v1.0 card it maps to; its digest is the card as received', async () => {
    const card = v03Card();
    serveCard(card);
    const fetched = await fetchAgentCard({ cardUrl: mock.cardUrl, ...both });
    expect(fetched.raw).toEqual(card);
    expect(fetched.digest).toBe(await cardDigest(card));
    expect(fetched.card.supportedInterfaces).toEqual([iface(oldUrl, '0.3.0')]);
    expect(fetched.card.name).toBe(mockCard['name']);
    const client = await discover(options(both));
    expect(client.pin).toEqual({ binding: 'JSONRPC', url: oldUrl });
    expect(client.cardDigest).toBe(fetched.digest);
  });

  it('reads a v0.3 card that also lists supportedInterfaces, as the official SDK’s does, by its v0.3 members', async () => {
    // The SDK's v0.3 card keeps a 1.0-style list beside `url`; its OpenAPI-style schemes fail the 1.0
    // contract.
    serveCard(
      v03Card({
        supportedInterfaces: [iface(jsonRpcUrl, '1.0')],
        securitySchemes: { bearer: { type: 'http', scheme: 'Bearer' } },
      }),
    );
    const { card } = await fetchAgentCard({ cardUrl: mock.cardUrl, ...both });
    expect(card.supportedInterfaces).toEqual([iface(oldUrl, '0.3.0')]);
    expect(card.securitySchemes['bearer']).toEqual({ httpAuthSecurityScheme: { scheme: 'Bearer' } });
  });

  it('reads a card that passes the 1.0 contract as 1.0, whatever its top says', async () => {
    serveCard({ ...mockCard, protocolVersion: '0.3.0', url: oldUrl, preferredTransport: 'JSONRPC' });
    const { card } = await fetchAgentCard({ cardUrl: mock.cardUrl, ...both });
    expect(card.supportedInterfaces).toEqual(mockCard['supportedInterfaces']);
  });

  it('prefers a 1.0 interface wherever the card lists one, even after a 0.3 one', async () => {
    serveCard({ ...mockCard, supportedInterfaces: [iface(oldUrl, '0.3'), iface(jsonRpcUrl, '1.0')] });
    // The 1.0 interface is the preferred one, so a pin of the 0.3 one alone does not match.
    expect(await failure(discover(options(both)))).toMatchObject({
      reason: 'InterfacePinMismatch',
      fix: { option: 'pins', binding: 'JSONRPC', url: jsonRpcUrl },
    });
    const pins = [{ binding: 'JSONRPC' as const, url: jsonRpcUrl }];
    const client = await discover(options({ ...both, pins }));
    expect(client.pin.url).toBe(jsonRpcUrl);
    // It speaks 1.0 there: the mock agent, a v1.0 agent, answers.
    await expect(client.getTask({ id: 'no-such-task' })).rejects.toMatchObject({ reason: 'TASK_NOT_FOUND' });
  });

  it('takes the 0.3 interface when 0.3 is the only version admitted', async () => {
    serveCard({ ...mockCard, supportedInterfaces: [iface(jsonRpcUrl, '1.0'), iface(oldUrl, '0.3')] });
    const client = await discover(options({ protocolVersions: ['0.3'], v03: v03Binding }));
    expect(client.pin.url).toBe(oldUrl);
  });

  it('refuses what a v0.3 card says that v1.0 cannot: a scheme offering two OAuth flows', async () => {
    const flow = { tokenUrl: 'https://auth.example/token', scopes: {} };
    serveCard(
      v03Card({
        securitySchemes: { oauth: { type: 'oauth2', flows: { clientCredentials: flow, password: flow } } },
      }),
    );
    expect(await failure(discover(options(both)))).toMatchObject({
      reason: 'InvalidAgentCard',
      detail: 'schema',
      violation: { rule: 'oneof-many', path: '$.securitySchemes[*].flows' },
    });
  });

  it('holds the mapped card to the whole 1.0 card contract', async () => {
    serveCard(v03Card({ url: 'not a url' }));
    expect(await failure(discover(options(both)))).toMatchObject({
      reason: 'InvalidAgentCard',
      detail: 'schema',
      violation: { path: '$.supportedInterfaces[0].url' },
    });
  });

  it('refuses a card that is neither 1.0 nor 0.3 by the 1.0 contract, as without the option', async () => {
    serveCard(v03Card({ protocolVersion: '0.2.5' }));
    expect(await failure(discover(options(both)))).toMatchObject({
      reason: 'InvalidAgentCard',
      violation: { rule: 'required', path: '$.supportedInterfaces' },
    });
  });

  it('selects and pins a 0.3 HTTP+JSON interface, the v0.3 binding speaking HTTP+JSON too', async () => {
    serveCard({ ...mockCard, supportedInterfaces: [iface(restUrl, '0.3', 'HTTP+JSON')] });
    const client = await discover(options({ ...both, pins: [{ binding: 'HTTP+JSON', url: restUrl }] }));
    expect(client.pin).toEqual({ binding: 'HTTP+JSON', url: restUrl });
    expect(client.binding).toBe('HTTP+JSON');
  });

  it('reads a v0.3 card whose preferred transport is HTTP+JSON, and selects that interface', async () => {
    serveCard(v03Card({ url: restUrl, preferredTransport: 'HTTP+JSON' }));
    const client = await discover(options({ ...both, pins: [{ binding: 'HTTP+JSON', url: restUrl }] }));
    expect(client.card.supportedInterfaces).toEqual([iface(restUrl, '0.3.0', 'HTTP+JSON')]);
    expect(client.pin).toEqual({ binding: 'HTTP+JSON', url: restUrl });
  });

  it('prefers a 1.0 interface over a 0.3 HTTP+JSON one listed before it', async () => {
    serveCard({
      ...mockCard,
      supportedInterfaces: [iface(restUrl, '0.3', 'HTTP+JSON'), iface(jsonRpcUrl, '1.0')],
    });
    const client = await discover(
      options({
        ...both,
        pins: [
          { binding: 'HTTP+JSON', url: restUrl },
          { binding: 'JSONRPC', url: jsonRpcUrl },
        ],
      }),
    );
    expect(client.pin).toEqual({ binding: 'JSONRPC', url: jsonRpcUrl });
  });

  it('refuses a pin to a 0.3 HTTP+JSON interface the card does not prefer, naming the one it does', async () => {
    serveCard({
      ...mockCard,
      supportedInterfaces: [iface(jsonRpcUrl, '0.3'), iface(restUrl, '0.3', 'HTTP+JSON')],
    });
    const error = await failure(
      discover(options({ ...both, pins: [{ binding: 'HTTP+JSON', url: restUrl }] })),
    );
    expect(error).toMatchObject({
      reason: 'InterfacePinMismatch',
      fix: { option: 'pins', binding: 'JSONRPC', url: jsonRpcUrl },
    });
  });
});
