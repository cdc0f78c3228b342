/**
The refusal of a v0.3-only card by its version loads on demand (discovery/version-refusal.ts, behind
`deferred.ts`; docs/protocol-checks.md#discovery-steps, steps 10 and 11): these tests hold that it is asked
for only once a card is refused, and that a failed load leaves the step's own refusal, never another error.
*/

import { createMockAgentServer } from '@surecall/mocks/node';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadDeferred } from '../../src/client/loader.js';
import { DiscoveryError, TransportError } from '../../src/core/errors.js';
import { discover, fetchAgentCard } from '../../src/discovery/discovery.js';
import type { JsonObject } from '../../src/protocol/json-value.js';

vi.mock('../../src/client/loader.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/client/loader.js')>();
  return { ...actual, loadDeferred: vi.fn(actual.loadDeferred) };
});

const mock = createMockAgentServer({ stepMs: 0 });
let mockCard: JsonObject;

beforeAll(async () => {
  mock.listen();
  mockCard = (await (await fetch(mock.cardUrl)).json()) as JsonObject;
});
afterEach(() => {
  mock.server.resetHandlers();
  vi.mocked(loadDeferred).mockClear();
});
afterAll(() => mock.close());

function serveCard(card: JsonObject): void {
  mock.server.use(http.get(mock.cardUrl, () => HttpResponse.json(card)));
}

// A card in v0.3's shape: the version at its top, the preferred interface as `url`, no supportedInterfaces.
function v03Card(): JsonObject {
  const { supportedInterfaces: _, ...rest } = mockCard;
  return { ...rest, protocolVersion: '0.3.0', url: `${mock.origin}/a2a`, preferredTransport: 'JSONRPC' };
}

// A 1.0 card whose only interface over a binding this client has speaks 0.3.
function v03InterfaceCard(): JsonObject {
  const url = `${mock.origin}/a2a`;
  return { ...mockCard, supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }] };
}

const discoverAt = () =>
  discover({
    cardUrl: mock.cardUrl,
    pins: [{ binding: 'JSONRPC', url: `${mock.origin}/a2a` }],
    trust: { kind: 'tls' },
    security: { kind: 'anonymous' },
  });

async function refusal(pending: Promise<unknown>): Promise<DiscoveryError> {
  const error = await pending.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DiscoveryError);
  return error as DiscoveryError;
}

function failLoadOnce(): void {
  vi.mocked(loadDeferred).mockImplementationOnce((dispatched) =>
    Promise.reject(new TransportError('network', { dispatched, cause: new Error('chunk not loaded') })),
  );
}

describe('the refusal by version, loaded on demand', () => {
  it('is not asked for when the card is taken', async () => {
    serveCard(mockCard);
    await fetchAgentCard({ cardUrl: mock.cardUrl });
    expect(loadDeferred).not.toHaveBeenCalled();
  });

  it.each([
    ['fetchAgentCard() of a v0.3 card', v03Card, () => fetchAgentCard({ cardUrl: mock.cardUrl })],
    ['discover() of a v0.3 card', v03Card, discoverAt],
    ['discover() of a 1.0 card with only a 0.3 interface', v03InterfaceCard, discoverAt],
  ])('names the version for %s once loaded', async (_, card, run) => {
    serveCard(card());
    const error = await refusal(run());
    expect([error.reason, error.detail]).toEqual(['NoSupportedInterface', 'protocol-version-0.3']);
    expect(loadDeferred).toHaveBeenCalledWith(false);
  });

  it.each([
    ['fetchAgentCard() of a v0.3 card', v03Card, () => fetchAgentCard({ cardUrl: mock.cardUrl }), 'schema'],
    ['discover() of a v0.3 card', v03Card, discoverAt, 'schema'],
    [
      'discover() of a 1.0 card with only a 0.3 interface',
      v03InterfaceCard,
      discoverAt,
      'no-usable-interface',
    ],
  ])("leaves the step's own refusal for %s when it fails to load", async (_, card, run, detail) => {
    serveCard(card());
    failLoadOnce();
    const error = await refusal(run());
    expect(error.detail).toBe(detail);
  });
});
