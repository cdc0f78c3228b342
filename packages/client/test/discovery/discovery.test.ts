/**
`discover()` against the mock agent behind MSW (`https://agent.test`): the option and endpoint rules before
any I/O, the bounded card fetch, digest trust and drift, interface selection and pin drift
(docs/protocol-checks.md#discovery-steps), extensions, every security-selection rule
(docs/protocol-checks.md#security-selection), the extended card (docs/protocol-checks.md#extended-card), the
signature-then-digest flow, and redaction.
*/

import { idempotencyExtensionUri, jsonRpcPath, restPath } from '@surecall/mocks';
import { createMockAgentServer } from '@surecall/mocks/node';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { grpcBinding } from '../../src/bindings/grpc/entry.js';
import type { A2aClient } from '../../src/client/client.js';
import type { InterfacePin } from '../../src/client/pin.js';
import type { TokenContext } from '../../src/client/security.js';
import { DiscoveryError, OptionsError } from '../../src/core/errors.js';
import { cardDigest } from '../../src/discovery/digest.js';
import { type DiscoverOptions, discover, fetchAgentCard } from '../../src/discovery/discovery.js';
import { cardSignaturePayload, verifyCardSignature } from '../../src/discovery/signature.js';
import type { JsonObject, JsonValue } from '../../src/protocol/json-value.js';
import type { Message } from '../../src/protocol/message.js';

const mock = createMockAgentServer({ stepMs: 0 });
const jsonRpcUrl = `${mock.origin}${jsonRpcPath}`;
const restUrl = `${mock.origin}${restPath}`;
const jsonRpcPin: InterfacePin = { binding: 'JSONRPC', url: jsonRpcUrl };

type Seen = { method: string; url: string; headers: Headers };
const seen: Seen[] = [];
// The members these tests read, declared so that they read as plain properties.
type WireCard = JsonObject & {
  readonly name: string;
  readonly description: string;
  readonly capabilities: JsonObject;
  readonly skills: (JsonObject & { readonly id: string })[];
};
let mockCard: WireCard;

beforeAll(async () => {
  mock.listen();
  mockCard = (await (await fetch(mock.cardUrl)).json()) as WireCard;
  mock.server.events.on('request:start', ({ request }) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers });
  });
});
afterEach(() => {
  seen.length = 0;
  mock.server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => mock.close());

function options(overrides: Partial<DiscoverOptions> = {}): DiscoverOptions {
  return {
    cardUrl: mock.cardUrl,
    pins: [jsonRpcPin],
    trust: { kind: 'tls' },
    security: { kind: 'anonymous' },
    ...overrides,
  };
}

function serve(body: string | Uint8Array | ReadableStream<Uint8Array>, init: ResponseInit = {}): void {
  // A streamed body goes chunked, as a server sends it: MSW 3 would end one of unknown length by closing its
  // simulated connection, and Node's fetch then fails an assertion of its own when the client aborted it
  // first.
  const framing = body instanceof ReadableStream ? { 'transfer-encoding': 'chunked' } : {};
  mock.server.use(
    http.get(
      mock.cardUrl,
      () => new HttpResponse(body, { headers: { 'content-type': 'application/json', ...framing }, ...init }),
    ),
  );
}

function serveCard(card: JsonValue): void {
  serve(JSON.stringify(card));
}

function cardWith(overrides: JsonObject): JsonObject {
  return { ...structuredClone(mockCard), ...overrides };
}

// A card in v0.3's shape: the version at its top, the preferred interface as `url` and `preferredTransport`.
function v03Card(protocolVersion: string): JsonObject {
  const { supportedInterfaces: _, ...rest } = mockCard;
  return { ...rest, protocolVersion, url: jsonRpcUrl, preferredTransport: 'JSONRPC' };
}

const iface = (url: string, protocolBinding = 'JSONRPC', extra: JsonObject = {}): JsonObject => ({
  url,
  protocolBinding,
  protocolVersion: '1.0',
  ...extra,
});

async function failure(pending: Promise<unknown>): Promise<DiscoveryError> {
  const error = await pending.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DiscoveryError);
  return error as DiscoveryError;
}

function message(text: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
}

describe('discover against the mock agent', () => {
  it('builds a frozen client from the card, with the digest of the card as parsed', async () => {
    const client = await discover(options());
    expect(client.binding).toBe('JSONRPC');
    expect(client.cardDigest).toBe(await cardDigest(mockCard));
    expect(client.card.name).toBe(mockCard.name);
    expect(Object.isFrozen(client)).toBe(true);
    expect(Object.isFrozen(client.card)).toBe(true);
    const result = await client.sendMessage({ message: message('echo hello') });
    expect(result).toBeDefined();
  });

  it('sends one anonymous GET for the card, and nothing else', async () => {
    await discover(options({ extensions: [idempotencyExtensionUri] }));
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe(mock.cardUrl);
    expect(request?.headers.get('accept')).toBe('application/a2a+json, application/json');
    expect(request?.headers.get('authorization')).toBeNull();
    // A2A spec §3.6.2: a request without the version is served as 0.3, the card request included
    // (docs/protocol-checks.md#discovery-steps, step 5).
    expect(request?.headers.get('a2a-version')).toBe('1.0');
    expect(request?.headers.get('a2a-extensions')).toBeNull();
  });

  it('passes the other client options through to createClient', async () => {
    const pending = discover({ ...options(), subscribeMethod: 'PUT' as 'GET' });
    await expect(pending).rejects.toMatchObject({ name: 'OptionsError', option: 'subscribeMethod' });
    const client = await discover(options({ extensions: [idempotencyExtensionUri] }));
    seen.length = 0;
    await client.sendMessage({ message: message('echo hi') });
    expect(seen[0]?.headers.get('a2a-extensions')).toBe(idempotencyExtensionUri);
  });

  it('accepts application/a2a+json', async () => {
    serve(JSON.stringify(mockCard), { headers: { 'content-type': 'application/a2a+json; charset=utf-8' } });
    await expect(discover(options())).resolves.toBeDefined();
  });
});

describe('options and endpoints, checked before any I/O (docs/protocol-checks.md#endpoints, docs/protocol-checks.md#discovery-steps, steps 1-3)', () => {
  const pin = (url: string, extra: Partial<InterfacePin> = {}): InterfacePin => ({
    binding: 'JSONRPC',
    url,
    ...extra,
  });
  const loopbackCard = 'http://127.0.0.1:9/.well-known/agent-card.json';
  const manyPins = Array.from({ length: 17 }, (_, index) => pin(`${jsonRpcUrl}${index}`));
  const longUri = (letter: string): string => `https://x.test/${letter.repeat(3000)}`;

  it.each<[string, Partial<DiscoverOptions>, Record<string, unknown>]>([
    [
      'an http card URL',
      { cardUrl: 'http://agent.test/.well-known/agent-card.json' },
      { reason: 'Discovery', detail: 'https-required', option: 'cardUrl' },
    ],
    [
      'another card path',
      { cardUrl: 'https://agent.test/agent-card.json' },
      { reason: 'Discovery', detail: 'agent-card-path-required' },
    ],
    [
      'a card URL with a query',
      { cardUrl: `${mock.cardUrl}?tenant=acme` },
      { reason: 'Discovery', detail: 'query-or-fragment' },
    ],
    [
      'a card URL with credentials',
      { cardUrl: 'https://u:p@agent.test/.well-known/agent-card.json' },
      { reason: 'Discovery', detail: 'embedded-credentials' },
    ],
    ['a card URL that is no URL', { cardUrl: 'agent.test' }, { reason: 'Discovery', detail: 'invalid-url' }],
    [
      'a localhost card URL',
      { cardUrl: 'http://localhost:9/.well-known/agent-card.json', loopback: true },
      { reason: 'Discovery', detail: 'literal-loopback-required' },
    ],
    ['no pin', { pins: [] }, { reason: 'MissingInterfacePin', option: 'pins' }],
    ['17 pins', { pins: manyPins }, { reason: 'TooManyInterfacePins', option: 'pins' }],
    [
      'the same pin twice',
      { pins: [jsonRpcPin, jsonRpcPin] },
      { reason: 'DuplicateInterfacePin', option: 'pins.1' },
    ],
    [
      'the same pin twice after normalisation',
      { pins: [jsonRpcPin, pin('https://AGENT.test:443/a2a/jsonrpc')] },
      { reason: 'DuplicateInterfacePin', option: 'pins.1' },
    ],
    [
      'the same pin and tenant twice',
      { pins: [pin(jsonRpcUrl, { tenant: 'a' }), pin(jsonRpcUrl, { tenant: 'a' })] },
      { reason: 'DuplicateInterfacePin' },
    ],
    [
      'an http pin',
      { pins: [pin('http://agent.test/a2a')] },
      { reason: 'InterfacePinMismatch', detail: 'https-required', option: 'pins.0.url' },
    ],
    [
      'an http pin to localhost with loopback',
      { pins: [pin('http://localhost/a2a')], loopback: true },
      { reason: 'InterfacePinMismatch', detail: 'literal-loopback-required' },
    ],
    [
      'a pin with a fragment',
      { pins: [jsonRpcPin, pin(`${jsonRpcUrl}#x`)] },
      { reason: 'InterfacePinMismatch', detail: 'query-or-fragment', option: 'pins.1.url' },
    ],
    [
      'a pin with credentials',
      { pins: [pin('https://u@agent.test/a2a')] },
      { reason: 'InterfacePinMismatch', detail: 'embedded-credentials' },
    ],
    [
      'a tenant with a leading space',
      { pins: [pin(jsonRpcUrl, { tenant: ' acme' })] },
      { reason: 'InterfacePinMismatch', detail: 'invalid-tenant', option: 'pins.0.tenant' },
    ],
    [
      'an empty tenant',
      { pins: [pin(jsonRpcUrl, { tenant: '' })] },
      { reason: 'InterfacePinMismatch', detail: 'invalid-tenant' },
    ],
    [
      'a tenant over 512 bytes',
      { pins: [pin(jsonRpcUrl, { tenant: 't'.repeat(513) })] },
      { reason: 'InterfacePinMismatch', detail: 'invalid-tenant' },
    ],
    [
      '65 extensions',
      { extensions: Array.from({ length: 65 }, (_, index) => `https://x.test/${index}`) },
      { reason: 'InvalidExtensions', detail: 'too-many', option: 'extensions' },
    ],
    [
      'an extension with a comma',
      { extensions: ['https://x.test/a,b'] },
      { reason: 'InvalidExtensions', detail: 'malformed', option: 'extensions.0' },
    ],
    [
      'an extension with a space',
      { extensions: ['https://x.test/a b'] },
      { reason: 'InvalidExtensions', detail: 'malformed' },
    ],
    ['a relative extension', { extensions: ['/ext'] }, { reason: 'InvalidExtensions', detail: 'malformed' }],
    [
      'a non-ASCII extension',
      { extensions: ['https://x.test/é'] },
      { reason: 'InvalidExtensions', detail: 'malformed' },
    ],
    [
      'an extension over 4096 bytes',
      { extensions: [`https://x.test/${'a'.repeat(4096)}`] },
      { reason: 'InvalidExtensions', detail: 'malformed' },
    ],
    [
      'an extension that is no string',
      { extensions: [7 as unknown as string] },
      { reason: 'InvalidExtensions', detail: 'malformed' },
    ],
    [
      'an extension twice',
      { extensions: ['https://x.test/a', 'https://x.test/a'] },
      { reason: 'InvalidExtensions', detail: 'duplicate', option: 'extensions.1' },
    ],
    [
      'a header over 8 KiB',
      { extensions: [longUri('a'), longUri('b'), longUri('c')] },
      { reason: 'InvalidExtensions', detail: 'header-too-large' },
    ],
    [
      'a scheme name with a space',
      { security: { kind: 'bearer', scheme: ' bearer', token: async () => 't' } },
      { reason: 'Security', detail: 'invalid-scheme-name', option: 'security.scheme' },
    ],
    [
      'an empty scheme name',
      { security: { kind: 'bearer', scheme: '', token: async () => 't' } },
      { reason: 'Security', detail: 'invalid-scheme-name' },
    ],
    [
      'tls trust for a loopback card',
      { cardUrl: loopbackCard, loopback: true },
      { reason: 'TlsTrustRequiresHttps', option: 'trust' },
    ],
    [
      'a card URL and no pin: the card URL first',
      { cardUrl: 'https://agent.test/', pins: [] },
      { reason: 'Discovery' },
    ],
    [
      'no pin and a bad extension: the pins first',
      { pins: [], extensions: ['x'] },
      { reason: 'MissingInterfacePin' },
    ],
    [
      'a bad extension and tls on http: the extensions first',
      { cardUrl: loopbackCard, loopback: true, extensions: ['x'] },
      { reason: 'InvalidExtensions' },
    ],
  ])('%s', async (_, overrides, expected) => {
    const error = await failure(discover(options(overrides)));
    expect(error).toMatchObject({ name: 'DiscoveryError', kind: 'discovery', ...expected });
    expect(seen).toHaveLength(0);
  });

  it.each<[string, Partial<DiscoverOptions>, string]>([
    ['pins that are no array', { pins: 'x' as unknown as InterfacePin[] }, 'pins'],
    ['a pin that is no object', { pins: [null as unknown as InterfacePin] }, 'pins.0'],
    ['a gRPC pin', { pins: [{ binding: 'GRPC' as 'JSONRPC', url: jsonRpcUrl }] }, 'pins.0.binding'],
    ['extensions that are no array', { extensions: 'x' as unknown as string[] }, 'extensions'],
    ['no security', { security: null as unknown as DiscoverOptions['security'] }, 'security'],
    [
      'another security kind',
      { security: { kind: 'basic' } as unknown as DiscoverOptions['security'] },
      'security.kind',
    ],
    [
      'a bearer with no provider',
      { security: { kind: 'bearer', scheme: 'bearer' } as unknown as DiscoverOptions['security'] },
      'security.token',
    ],
    ['no trust', { trust: undefined as unknown as DiscoverOptions['trust'] }, 'trust'],
    ['another trust kind', { trust: { kind: 'pki' } as unknown as DiscoverOptions['trust'] }, 'trust'],
    [
      'an uppercase digest',
      { trust: { kind: 'digest', digest: `sha256:${'A'.repeat(64)}` } },
      'trust.digest',
    ],
    ['a short digest', { trust: { kind: 'digest', digest: 'sha256:00' } }, 'trust.digest'],
    ['a loopback that is no boolean', { loopback: 'yes' as unknown as boolean }, 'loopback'],
    ['a zero discovery timeout', { limits: { discoveryTimeoutMs: 0 } }, 'limits.discoveryTimeoutMs'],
  ])('refuses the shape of %s with an OptionsError', async (_, overrides, option) => {
    await expect(discover(options(overrides))).rejects.toMatchObject({ name: 'OptionsError', option });
    expect(seen).toHaveLength(0);
  });

  it('admits the same URL under two tenants, and a pin without one', async () => {
    const pins = [pin(jsonRpcUrl, { tenant: 'a' }), pin(jsonRpcUrl, { tenant: 'b' }), jsonRpcPin];
    await expect(discover(options({ pins }))).resolves.toBeDefined();
  });
});

describe('the card fetch (docs/protocol-checks.md#discovery-steps, steps 5-8)', () => {
  it.each<[string, () => void, Record<string, unknown>]>([
    ['a 404', () => serve('{}', { status: 404 }), { reason: 'Discovery', detail: 'status', httpStatus: 404 }],
    [
      'a 500',
      () => serve('oops', { status: 500, headers: { 'content-type': 'text/plain' } }),
      { detail: 'status', httpStatus: 500 },
    ],
    [
      'a redirect, never followed',
      () =>
        serve('', { status: 302, headers: { location: 'https://evil.test/.well-known/agent-card.json' } }),
      { reason: 'Discovery', detail: 'redirect', httpStatus: 302 },
    ],
    [
      'HTML',
      () => serve('<html></html>', { headers: { 'content-type': 'text/html' } }),
      { reason: 'Discovery', detail: 'media-type', httpStatus: 200 },
    ],
    [
      'no media type and a body',
      // Bytes, not a string: a string body would get text/plain by default (Fetch standard).
      () => serve(new TextEncoder().encode(JSON.stringify(mockCard)), { headers: {} }),
      { detail: 'media-type' },
    ],
    ['no media type and no body', () => serve(new Uint8Array(0), { headers: {} }), { detail: 'media-type' }],
    [
      'two media types',
      () => serve(JSON.stringify(mockCard), { headers: { 'content-type': 'application/json, text/html' } }),
      { detail: 'media-type' },
    ],
    [
      'a lost connection',
      () => mock.server.use(http.get(mock.cardUrl, () => HttpResponse.error())),
      { reason: 'Discovery', detail: 'network' },
    ],
    [
      'duplicate keys',
      () => serve('{"name":"a","name":"b"}'),
      {
        reason: 'InvalidAgentCard',
        detail: 'json',
        violation: { rule: 'duplicate-key', offset: 12, path: '$.name' },
      },
    ],
    [
      'trailing data',
      () => serve(`${JSON.stringify(mockCard)} {}`),
      {
        reason: 'InvalidAgentCard',
        detail: 'json',
        violation: expect.objectContaining({ rule: 'trailing-data' }),
      },
    ],
    [
      'a byte order mark',
      () => serve(`\uFEFF${JSON.stringify(mockCard)}`),
      { reason: 'InvalidAgentCard', detail: 'json' },
    ],
    [
      'an unsafe integer',
      () => serveCard(cardWith({ rating: 2 ** 53 })),
      { reason: 'InvalidAgentCard', violation: expect.objectContaining({ rule: 'unsafe-integer' }) },
    ],
    ['an array', () => serveCard([mockCard]), { reason: 'InvalidAgentCard', detail: 'schema' }],
    [
      'a card without a name',
      () => {
        const { name: _, ...nameless } = mockCard;
        serveCard(nameless);
      },
      { reason: 'InvalidAgentCard', detail: 'schema', violation: { rule: 'required', path: '$.name' } },
    ],
    [
      'a card without skills',
      () => serveCard(cardWith({ skills: [] })),
      { reason: 'InvalidAgentCard', violation: expect.objectContaining({ path: '$.skills' }) },
    ],
    [
      'a v0.3 card: its version at its top, its interface in `url`, no supportedInterfaces',
      () => serveCard(v03Card('0.3.0')),
      { reason: 'NoSupportedInterface', detail: 'protocol-version-0.3', violation: undefined },
    ],
    [
      'a v0.3 card spelling its version 0.3',
      () => serveCard(v03Card('0.3')),
      { reason: 'NoSupportedInterface', detail: 'protocol-version-0.3' },
    ],
    [
      'a card of another version without supportedInterfaces, by the 1.0 contract',
      () => serveCard(v03Card('0.2.5')),
      { reason: 'InvalidAgentCard', violation: { rule: 'required', path: '$.supportedInterfaces' } },
    ],
  ])('refuses %s', async (_, answer, expected) => {
    answer();
    expect(await failure(discover(options()))).toMatchObject(expected);
    expect(seen.map((request) => request.url)).toEqual([mock.cardUrl]);
  });

  it('refuses a body over 2 MiB by its Content-Length, and by counting', async () => {
    const large = `{"name":"${'a'.repeat(2 * 1024 * 1024)}"}`;
    serve(large);
    expect(await failure(discover(options()))).toMatchObject({
      reason: 'InvalidAgentCard',
      detail: 'body-too-large',
      violation: { rule: 'responseBodyBytes' },
    });
    const bytes = new TextEncoder().encode(large);
    serve(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, 1024 * 1024));
          controller.enqueue(bytes.subarray(1024 * 1024));
          controller.close();
        },
      }),
    );
    expect(await failure(discover(options()))).toMatchObject({ detail: 'body-too-large' });
  });

  it('applies the configured bounds: body bytes and JSON depth', async () => {
    const size = JSON.stringify(mockCard).length;
    await expect(discover(options({ limits: { responseBodyBytes: size } }))).resolves.toBeDefined();
    expect(await failure(discover(options({ limits: { responseBodyBytes: size - 1 } })))).toMatchObject({
      detail: 'body-too-large',
    });
    expect(await failure(discover(options({ limits: { jsonDepth: 2 } })))).toMatchObject({
      reason: 'InvalidAgentCard',
      violation: expect.objectContaining({ rule: 'depth' }),
    });
  });

  it('holds one 15 s deadline over the headers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    mock.server.use(http.get(mock.cardUrl, () => new Promise<Response>(() => {})));
    let settled = false;
    const pending = failure(discover(options())).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(14_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ reason: 'Discovery', detail: 'timeout' });
  });

  it('holds the same deadline over the body, from discoveryTimeoutMs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    serve(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"name":'));
        },
      }),
    );
    let settled = false;
    const pending = failure(discover(options({ limits: { discoveryTimeoutMs: 2_000 } }))).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ reason: 'Discovery', detail: 'timeout' });
  });

  it('stops when the caller aborts, before or during the fetch', async () => {
    expect(await failure(discover(options({ signal: AbortSignal.abort() })))).toMatchObject({
      reason: 'Discovery',
      detail: 'aborted',
    });
    expect(seen).toHaveLength(0);
    const controller = new AbortController();
    mock.server.use(
      http.get(mock.cardUrl, () => {
        controller.abort();
        return new Promise<Response>(() => {});
      }),
    );
    expect(await failure(discover(options({ signal: controller.signal })))).toMatchObject({
      reason: 'Discovery',
      detail: 'aborted',
    });
  });
});

describe('digest trust (docs/protocol-checks.md#card-trust, docs/protocol-checks.md#discovery-steps, step 9)', () => {
  it('admits the card whose digest was provisioned, whatever its member order or whitespace', async () => {
    const digest = await cardDigest(mockCard);
    await expect(discover(options({ trust: { kind: 'digest', digest } }))).resolves.toMatchObject({
      cardDigest: digest,
    });
    serve(JSON.stringify(Object.fromEntries(Object.entries(mockCard).reverse()), null, 2));
    await expect(discover(options({ trust: { kind: 'digest', digest } }))).resolves.toBeDefined();
  });

  it('refuses drift: the agent changed its card after the digest was taken', async () => {
    const digest = await cardDigest(mockCard);
    serveCard(cardWith({ description: `${mockCard.description} Now also does payments.` }));
    expect(await failure(discover(options({ trust: { kind: 'digest', digest } })))).toMatchObject({
      reason: 'AgentCardDigestMismatch',
      option: 'trust.digest',
    });
  });

  it('compares the digest before the card contract', async () => {
    const invalid = cardWith({ skills: [] });
    serveCard(invalid);
    const wrong = `sha256:${'0'.repeat(64)}`;
    expect(await failure(discover(options({ trust: { kind: 'digest', digest: wrong } })))).toMatchObject({
      reason: 'AgentCardDigestMismatch',
    });
    const right = await cardDigest(invalid);
    expect(await failure(discover(options({ trust: { kind: 'digest', digest: right } })))).toMatchObject({
      reason: 'InvalidAgentCard',
    });
  });
});

describe('interface selection and pins (docs/protocol-checks.md#discovery-steps, steps 11-12)', () => {
  const grpc = iface('agent.test:443', 'GRPC');

  const v03 = (url: string, protocolBinding = 'JSONRPC', protocolVersion = '0.3'): JsonObject =>
    iface(url, protocolBinding, { protocolVersion });

  it.each<[string, JsonObject[], 'no-usable-interface' | 'protocol-version-0.3']>([
    ['only gRPC', [grpc], 'no-usable-interface'],
    ['only 0.3', [v03(jsonRpcUrl)], 'protocol-version-0.3'],
    [
      'only 0.3.0, over both bindings',
      [v03(jsonRpcUrl, 'JSONRPC', '0.3.0'), v03(restUrl, 'HTTP+JSON')],
      'protocol-version-0.3',
    ],
    [
      'only 0.3 over gRPC, which this client was not given',
      [v03('https://agent.test', 'GRPC')],
      'no-usable-interface',
    ],
    ['only 0.2.5', [v03(jsonRpcUrl, 'JSONRPC', '0.2.5')], 'no-usable-interface'],
    ['only 0.30', [v03(jsonRpcUrl, 'JSONRPC', '0.30')], 'no-usable-interface'],
    [
      'a version spelled 1.0.0',
      [iface(jsonRpcUrl, 'JSONRPC', { protocolVersion: '1.0.0' })],
      'no-usable-interface',
    ],
    ['a binding in lower case', [iface(jsonRpcUrl, 'jsonrpc')], 'no-usable-interface'],
    ['a binding URI', [iface(jsonRpcUrl, 'https://bindings.example/ws')], 'no-usable-interface'],
  ])('refuses a card with %s: NoSupportedInterface', async (_, supportedInterfaces, detail) => {
    serveCard(cardWith({ supportedInterfaces }));
    const error = await failure(discover(options()));
    expect(error).toMatchObject({ reason: 'NoSupportedInterface', detail });
    // The detail is the version's name, a constant: never the card's own text.
    expect(error.message).toBe(`surecall discovery failed: NoSupportedInterface (${detail})`);
  });

  it('takes the first usable interface in the card order', async () => {
    serveCard(
      cardWith({
        supportedInterfaces: [
          grpc,
          iface(jsonRpcUrl, 'JSONRPC', { protocolVersion: '0.3' }),
          iface(restUrl, 'HTTP+JSON'),
          iface(jsonRpcUrl),
        ],
      }),
    );
    const client = await discover(options({ pins: [jsonRpcPin, { binding: 'HTTP+JSON', url: restUrl }] }));
    expect(client.binding).toBe('HTTP+JSON');
    await expect(client.listTasks({})).resolves.toBeDefined();
  });

  // A bare `host:port` is no URL: a name reads as a scheme with no host, an address as nothing at all.
  it.each([
    ['agent.test:443', 'missing-host'],
    ['127.0.0.1:50051', 'invalid-url'],
  ])(
    'given the gRPC binding, refuses a bare gRPC interface %s it would select, and such a pin: %s (ARCHITECTURE.md#the-grpc-binding)',
    async (bare, detail) => {
      serveCard(cardWith({ supportedInterfaces: [iface(bare, 'GRPC'), iface(jsonRpcUrl)] }));
      // Without the binding the interface is skipped (above); with it, it is the one selected, and its URL is
      // no endpoint the rules can read.
      expect(await failure(discover(options({ grpc: grpcBinding })))).toMatchObject({
        reason: 'NoSupportedInterface',
        detail,
      });
      const pins: InterfacePin[] = [jsonRpcPin, { binding: 'GRPC', url: bare }];
      expect(await failure(discover(options({ grpc: grpcBinding, pins })))).toMatchObject({
        reason: 'InterfacePinMismatch',
        detail,
        option: 'pins.1.url',
      });
    },
  );

  it('takes a card that passes the 1.0 contract, whatever else it says: a top-level protocolVersion of 0.3 included', async () => {
    // A card can serve both generations (the v0.3 members beside supportedInterfaces): the 1.0 contract
    // decides, and the version at the top only names a refusal that contract made.
    serveCard(cardWith({ protocolVersion: '0.3.0', url: jsonRpcUrl, preferredTransport: 'JSONRPC' }));
    const client = await discover(options());
    expect(client.card.supportedInterfaces[0]).toMatchObject({ protocolVersion: '1.0' });
    await expect(fetchAgentCard({ cardUrl: mock.cardUrl })).resolves.toMatchObject({
      raw: expect.anything(),
    });
  });

  it('refuses a v0.3 card in fetchAgentCard by its version too', async () => {
    serveCard(v03Card('0.3.0'));
    expect(await failure(fetchAgentCard({ cardUrl: mock.cardUrl }))).toMatchObject({
      reason: 'NoSupportedInterface',
      detail: 'protocol-version-0.3',
    });
  });

  it('never falls back to a later interface that a pin matches (preferred-interface drift)', async () => {
    serveCard(cardWith({ supportedInterfaces: [iface(restUrl, 'HTTP+JSON'), iface(jsonRpcUrl)] }));
    expect(await failure(discover(options({ pins: [jsonRpcPin] })))).toMatchObject({
      reason: 'InterfacePinMismatch',
      detail: 'no-matching-pin',
    });
  });

  it.each<[string, JsonObject]>([
    ['plain http to a name', iface('http://agent.test/a2a/jsonrpc')],
    ['a query', iface(`${jsonRpcUrl}?v=1`)],
  ])('refuses a preferred interface URL with %s, never a later one', async (_, preferred) => {
    serveCard(cardWith({ supportedInterfaces: [preferred, iface(jsonRpcUrl)] }));
    expect(await failure(discover(options()))).toMatchObject({ reason: 'NoSupportedInterface' });
  });

  it.each<[string, InterfacePin]>([
    ['another path', { binding: 'JSONRPC', url: `${jsonRpcUrl}2` }],
    ['a trailing slash', { binding: 'JSONRPC', url: `${jsonRpcUrl}/` }],
    [
      'another path case',
      { binding: 'JSONRPC', url: jsonRpcUrl.toUpperCase().replace('HTTPS://AGENT.TEST', mock.origin) },
    ],
    ['another host', { binding: 'JSONRPC', url: 'https://agent2.test/a2a/jsonrpc' }],
    ['another binding', { binding: 'HTTP+JSON', url: jsonRpcUrl }],
    ['a tenant on the pin only', { binding: 'JSONRPC', url: jsonRpcUrl, tenant: 'acme' }],
  ])('refuses pin drift: %s', async (_, drifted) => {
    expect(await failure(discover(options({ pins: [drifted] })))).toMatchObject({
      reason: 'InterfacePinMismatch',
      detail: 'no-matching-pin',
    });
  });

  it('matches a pin after WHATWG normalisation: host case and the default port', async () => {
    const client = await discover(
      options({ pins: [{ binding: 'JSONRPC', url: 'https://AGENT.Test:443/a2a/./jsonrpc' }] }),
    );
    await expect(client.listTasks({})).resolves.toBeDefined();
  });

  it('matches an IDNA host against its punycode', async () => {
    serveCard(cardWith({ supportedInterfaces: [iface('https://xn--bcher-kva.test/a2a')] }));
    await expect(
      discover(options({ pins: [{ binding: 'JSONRPC', url: 'https://BÜCHER.test/a2a' }] })),
    ).resolves.toMatchObject({ binding: 'JSONRPC' });
  });

  it('compares tenants exactly: on the card only, different, or equal', async () => {
    serveCard(cardWith({ supportedInterfaces: [iface(jsonRpcUrl, 'JSONRPC', { tenant: 'acme' })] }));
    for (const tenant of [undefined, 'other', 'ACME']) {
      const pin = { ...jsonRpcPin, ...(tenant === undefined ? {} : { tenant }) };
      expect(await failure(discover(options({ pins: [pin] })))).toMatchObject({
        reason: 'InterfacePinMismatch',
      });
    }
    const client = await discover(options({ pins: [jsonRpcPin, { ...jsonRpcPin, tenant: 'acme' }] }));
    expect(client.binding).toBe('JSONRPC');
  });
});

describe('refusals that name their fix (DiscoveryError.fix, docs/protocol-checks.md#discovery-steps)', () => {
  it('a pin mismatch names the interface the card prefers, by binding and URL, in the error and its JSON', async () => {
    serveCard(cardWith({ supportedInterfaces: [iface(restUrl, 'HTTP+JSON'), iface(jsonRpcUrl)] }));
    const error = await failure(discover(options({ pins: [jsonRpcPin] })));
    const fix = { option: 'pins', binding: 'HTTP+JSON', url: restUrl };
    expect(error).toMatchObject({ reason: 'InterfacePinMismatch', detail: 'no-matching-pin', fix });
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ fix });
    // The message stays constant: the URL is in the field only.
    expect(error.message).toBe('surecall discovery failed: InterfacePinMismatch (no-matching-pin)');
    // Pinning what the fix names is what discovery asked for.
    await expect(
      discover(options({ pins: [{ binding: fix.binding, url: fix.url } as InterfacePin] })),
    ).resolves.toMatchObject({ binding: 'HTTP+JSON' });
  });

  it.each<[string, Partial<DiscoverOptions>, Record<string, unknown>]>([
    [
      'an http card URL to a literal loopback address',
      { cardUrl: 'http://127.0.0.1:9/.well-known/agent-card.json' },
      { reason: 'Discovery', detail: 'https-required', fix: { option: 'loopback', value: true } },
    ],
    [
      'an http pin to [::1]',
      { pins: [{ binding: 'JSONRPC', url: 'http://[::1]:9/a2a' }] },
      { reason: 'InterfacePinMismatch', detail: 'https-required', fix: { option: 'loopback', value: true } },
    ],
    [
      'first-fetch trust of a literal loopback card URL without loopback',
      {
        cardUrl: 'https://127.0.0.1:9/.well-known/agent-card.json',
        trust: { kind: 'first-fetch' },
      },
      { reason: 'FirstFetchTrustRequiresLoopback', fix: { option: 'loopback', value: true } },
    ],
  ])('%s names loopback, the option that admits it', async (_, overrides, refusal) => {
    const error = await failure(discover(options(overrides)));
    expect(error).toMatchObject(refusal);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ fix: { option: 'loopback', value: true } });
    // With loopback: true, that refusal is gone (the fetch may still fail: nothing listens there).
    const admitted = await failure(discover(options({ ...overrides, loopback: true })));
    expect(admitted.reason).not.toBe('FirstFetchTrustRequiresLoopback');
    expect(admitted.detail).not.toBe('https-required');
    expect(admitted.fix?.option).not.toBe('loopback');
  });

  it.each<[string, Partial<DiscoverOptions>]>([
    ['an http card URL to a name', { cardUrl: 'http://agent.test/.well-known/agent-card.json' }],
    ['an ftp card URL to loopback', { cardUrl: 'ftp://127.0.0.1/.well-known/agent-card.json' }],
    ['an http pin to localhost', { pins: [{ binding: 'JSONRPC', url: 'http://localhost/a2a' }] }],
    [
      'first-fetch trust of a card URL that is no literal loopback address',
      { cardUrl: 'https://agent.test/.well-known/agent-card.json', trust: { kind: 'first-fetch' } },
    ],
  ])('%s names no fix: no option admits it', async (_, overrides) => {
    const error = await failure(discover(options(overrides)));
    expect(error.fix).toBeUndefined();
    expect(JSON.parse(JSON.stringify(error))).not.toHaveProperty('fix');
  });

  it('a preferred interface on plain http to loopback names loopback too (NoSupportedInterface)', async () => {
    serveCard(
      cardWith({ supportedInterfaces: [iface('http://127.0.0.1:9/a2a/jsonrpc'), iface(jsonRpcUrl)] }),
    );
    expect(await failure(discover(options()))).toMatchObject({
      reason: 'NoSupportedInterface',
      detail: 'https-required',
      fix: { option: 'loopback', value: true },
    });
  });
});

describe('extensions (docs/protocol-checks.md#discovery-steps, step 13)', () => {
  const required = 'https://ext.test/required/v1';

  it('refuses an extension the card does not declare', async () => {
    expect(await failure(discover(options({ extensions: ['https://ext.test/other'] })))).toMatchObject({
      reason: 'ExtensionMismatch',
      detail: 'undeclared',
      option: 'extensions.0',
    });
  });

  it('refuses a card whose required extension is not configured, and admits it once configured', async () => {
    const capabilities = {
      ...mockCard.capabilities,
      extensions: [{ uri: required, required: true }, { uri: idempotencyExtensionUri }],
    };
    serveCard(cardWith({ capabilities }));
    expect(await failure(discover(options({ extensions: [idempotencyExtensionUri] })))).toMatchObject({
      reason: 'ExtensionMismatch',
      detail: 'required-missing',
    });
    await expect(discover(options({ extensions: [required] }))).resolves.toBeDefined();
  });
});

describe('security selection (docs/protocol-checks.md#security-selection)', () => {
  type Security = DiscoverOptions['security'];
  const contexts: TokenContext[] = [];
  const bearer = (scheme: string): Security => ({
    kind: 'bearer',
    scheme,
    token: async (context) => {
      contexts.push(context);
      return 'token-1';
    },
  });
  const schemes: JsonObject = {
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
    shouting: { httpAuthSecurityScheme: { scheme: 'BEARER' } },
    basic: { httpAuthSecurityScheme: { scheme: 'Basic' } },
    key: { apiKeySecurityScheme: { location: 'header', name: 'x-key' } },
    mtls: { mtlsSecurityScheme: {} },
    oauth: {
      oauth2SecurityScheme: {
        flows: {
          clientCredentials: { tokenUrl: 'https://id.test/token', scopes: { 'agent.invoke': 'invoke' } },
        },
      },
    },
    oidc: {
      openIdConnectSecurityScheme: { openIdConnectUrl: 'https://id.test/.well-known/openid-configuration' },
    },
  };
  const alone = (name: string, list: string[] = []): JsonObject => ({ schemes: { [name]: { list } } });

  function securedCard(requirements: JsonValue[] | undefined): JsonObject {
    const { securityRequirements: _, ...card } = cardWith({ securitySchemes: schemes });
    return requirements === undefined ? card : { ...card, securityRequirements: requirements };
  }

  afterEach(() => {
    contexts.length = 0;
  });

  it.each<[string, JsonValue[] | undefined, Security, readonly string[]]>([
    ['anonymous, no requirements', undefined, { kind: 'anonymous' }, []],
    ['anonymous, an empty list', [], { kind: 'anonymous' }, []],
    ['anonymous, an empty alternative', [alone('bearer'), { schemes: {} }], { kind: 'anonymous' }, []],
    [
      'an HTTP bearer scheme alone, scopes sorted and unique',
      [alone('bearer', ['b', 'a', 'b'])],
      bearer('bearer'),
      ['a', 'b'],
    ],
    ['an HTTP scheme named BEARER', [alone('shouting')], bearer('shouting'), []],
    ['OAuth 2.0', [alone('oauth', ['agent.invoke'])], bearer('oauth'), ['agent.invoke']],
    ['OpenID Connect', [alone('oidc', ['openid'])], bearer('oidc'), ['openid']],
    [
      'a single-scheme alternative next to a multi-scheme one',
      [{ schemes: { bearer: { list: ['x'] }, key: { list: [] } } }, alone('bearer', ['y'])],
      bearer('bearer'),
      ['y'],
    ],
  ])('admits %s', async (_, securityRequirements, security, scopes) => {
    serveCard(securedCard(securityRequirements));
    const client = await discover(options({ security }));
    await client.listTasks({});
    expect(contexts.map((context) => context.scopes)).toEqual(security.kind === 'bearer' ? [scopes] : []);
    if (security.kind === 'bearer') {
      expect(contexts[0]).toMatchObject({
        operation: 'ListTasks',
        cardDigest: client.cardDigest,
        binding: 'JSONRPC',
      });
    }
  });

  it.each<[string, JsonValue[] | undefined, Security, string]>([
    [
      'anonymous when every alternative names a scheme',
      [alone('bearer')],
      { kind: 'anonymous' },
      'anonymous-not-allowed',
    ],
    ['an HTTP Basic scheme', [alone('basic')], bearer('basic'), 'bearer-scheme-unsupported'],
    ['an API key scheme', [alone('key')], bearer('key'), 'bearer-scheme-unsupported'],
    ['a mutual TLS scheme', [alone('mtls')], bearer('mtls'), 'bearer-scheme-unsupported'],
    [
      'a scheme the card does not declare',
      [alone('bearer')],
      bearer('elsewhere'),
      'bearer-scheme-unsupported',
    ],
    ['a bearer with no requirements at all', undefined, bearer('bearer'), 'requirement-not-satisfied'],
    ['a bearer with an empty requirement list', [], bearer('bearer'), 'requirement-not-satisfied'],
    [
      'a bearer named only in a multi-scheme alternative',
      [{ schemes: { bearer: { list: [] }, key: { list: [] } } }],
      bearer('bearer'),
      'requirement-not-satisfied',
    ],
    [
      'a bearer when another scheme stands alone',
      [alone('oidc')],
      bearer('bearer'),
      'requirement-not-satisfied',
    ],
  ])('refuses %s', async (_, securityRequirements, security, detail) => {
    serveCard(securedCard(securityRequirements));
    expect(await failure(discover(options({ security })))).toMatchObject({
      reason: 'Security',
      detail,
      option: 'security',
    });
    expect(seen).toHaveLength(1);
  });

  it('applies a skill’s own requirements to a call naming it', async () => {
    const skills = structuredClone(mockCard.skills);
    const [first, second] = skills;
    Object.assign(first ?? {}, { securityRequirements: [alone('bearer', ['skill.invoke'])] });
    Object.assign(second ?? {}, { securityRequirements: [alone('oidc')] });
    serveCard(
      cardWith({
        securitySchemes: schemes,
        securityRequirements: [alone('bearer', ['agent.invoke'])],
        skills,
      }),
    );
    const client = await discover(options({ security: bearer('bearer') }));
    await client.listTasks({}, { skill: String(first?.id) });
    await client.listTasks({});
    expect(contexts.map((context) => context.scopes)).toEqual([['skill.invoke'], ['agent.invoke']]);
    seen.length = 0;
    await expect(client.listTasks({}, { skill: String(second?.id) })).rejects.toMatchObject({
      kind: 'request',
      dispatched: false,
    });
    expect(seen).toHaveLength(0);
  });
});

describe('the extended card (docs/protocol-checks.md#extended-card)', () => {
  const token = async (): Promise<string> => 'extended-token';
  const bearerOptions = (overrides: Partial<DiscoverOptions> = {}): DiscoverOptions =>
    options({ security: { kind: 'bearer', scheme: 'bearer', token }, ...overrides });

  function unchanged(client: A2aClient): void {
    expect(client.card.description).toBe(mockCard.description);
    expect(client.card.provider).toBeUndefined();
    expect(Object.isFrozen(client.card)).toBe(true);
  }

  it('returns the extended card as data: the client keeps its card, digest and binding', async () => {
    const client = await discover(bearerOptions());
    const digest = client.cardDigest;
    const extended = await client.getExtendedAgentCard();
    expect(extended.description).toContain('extended card');
    expect(extended.provider).toBeDefined();
    extended.name = 'changed by the caller';
    unchanged(client);
    expect(client.cardDigest).toBe(digest);
    expect((await client.getExtendedAgentCard()).name).toBe(mockCard.name);
  });

  it('revalidates it with the full card contract', async () => {
    const client = await discover(bearerOptions());
    mock.server.use(
      http.post(jsonRpcUrl, async ({ request }) => {
        const { id } = (await request.json()) as { id: number };
        return HttpResponse.json({ jsonrpc: '2.0', id, result: { ...cardWith({}), skills: [] } });
      }),
    );
    await expect(client.getExtendedAgentCard()).rejects.toMatchObject({
      kind: 'invalid-response',
      reason: 'schema',
      dispatched: true,
    });
    unchanged(client);
  });

  it('bounds it like every answer', async () => {
    const size = JSON.stringify(mockCard).length;
    const client = await discover(bearerOptions({ limits: { responseBodyBytes: size + 16 } }));
    await expect(client.getExtendedAgentCard()).rejects.toMatchObject({
      kind: 'invalid-response',
      reason: 'body-too-large',
    });
    unchanged(client);
  });

  it('is never asked for by an anonymous client', async () => {
    const client = await discover(options());
    seen.length = 0;
    await expect(client.getExtendedAgentCard()).rejects.toMatchObject({
      kind: 'authorization',
      dispatched: false,
    });
    expect(seen).toHaveLength(0);
  });
});

describe('fetchAgentCard, signatures, then digest trust', () => {
  it('returns the card as parsed, decoded and digested', async () => {
    const fetched = await fetchAgentCard({ cardUrl: mock.cardUrl });
    expect(fetched.raw).toEqual(mockCard);
    expect(fetched.card.name).toBe(mockCard.name);
    expect(fetched.digest).toBe(await cardDigest(mockCard));
  });

  it('holds the same rules as discover', async () => {
    expect(
      await failure(fetchAgentCard({ cardUrl: 'http://127.0.0.1/.well-known/agent-card.json' })),
    ).toMatchObject({
      reason: 'Discovery',
      detail: 'https-required',
    });
    serveCard(cardWith({ skills: [] }));
    expect(await failure(fetchAgentCard({ cardUrl: mock.cardUrl }))).toMatchObject({
      reason: 'InvalidAgentCard',
    });
    await expect(
      fetchAgentCard({ cardUrl: mock.cardUrl, loopback: 1 as unknown as boolean }),
    ).rejects.toBeInstanceOf(OptionsError);
  });

  it('lets a caller verify a signature and pin what it verified', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const bytes64 = (bytes: Uint8Array): string =>
      btoa(String.fromCharCode(...bytes))
        .replaceAll('+', '-')
        .replaceAll('/', '_')
        .replace(/=+$/, '');
    const encode = (text: string): string => bytes64(new TextEncoder().encode(text));
    const protectedHeader = encode('{"alg":"ES256","kid":"agent-key","typ":"JOSE"}');
    // The mock declares its extension with an explicit `required: false`, which the signing payload leaves
    // out (A2A spec §8.4.1).
    const input = `${protectedHeader}.${encode(cardSignaturePayload(mockCard))}`;
    const signature = new Uint8Array(
      await crypto.subtle.sign(
        { name: 'ECDSA', hash: 'SHA-256' },
        pair.privateKey,
        new TextEncoder().encode(input),
      ),
    );
    serveCard({ ...mockCard, signatures: [{ protected: protectedHeader, signature: bytes64(signature) }] });

    const fetched = await fetchAgentCard({ cardUrl: mock.cardUrl });
    const checks = await verifyCardSignature(fetched.raw, ({ kid }) =>
      kid === 'agent-key' ? pair.publicKey : undefined,
    );
    expect(checks).toEqual([{ index: 0, verified: true, kid: 'agent-key', alg: 'ES256' }]);
    const client = await discover(options({ trust: { kind: 'digest', digest: fetched.digest } }));
    expect(client.card.signatures).toHaveLength(1);
  });
});

describe('redaction (docs/protocol-checks.md#redaction)', () => {
  const secret = 'S3CRET-PATH-MARKER';
  const field = 'CARD-FIELD-MARKER';
  const secretHost = `https://${secret.toLowerCase()}.test`;

  function clean(error: DiscoveryError): void {
    for (const text of [error.message, error.stack ?? '', JSON.stringify(error), String(error)]) {
      expect(text.toUpperCase()).not.toContain(secret);
      expect(text.toUpperCase()).not.toContain(field);
    }
  }

  it.each<[string, () => Promise<unknown>]>([
    [
      'an endpoint rule of the card URL',
      () => discover(options({ cardUrl: `http://x.test/${secret}/.well-known/agent-card.json` })),
    ],
    [
      'an endpoint rule of a pin',
      () => discover(options({ pins: [{ binding: 'JSONRPC', url: `http://x.test/${secret}` }] })),
    ],
    ['a tenant rule', () => discover(options({ pins: [{ ...jsonRpcPin, tenant: ` ${secret}` }] }))],
    ['an extension', () => discover(options({ extensions: [`https://x.test/${secret},`] }))],
    [
      'a failed fetch',
      async () => {
        mock.server.use(http.get(`${secretHost}/.well-known/agent-card.json`, () => HttpResponse.error()));
        return discover(options({ cardUrl: `${secretHost}/.well-known/agent-card.json` }));
      },
    ],
    [
      'a status',
      async () => {
        mock.server.use(
          http.get(`${secretHost}/.well-known/agent-card.json`, () =>
            HttpResponse.text(field, { status: 404 }),
          ),
        );
        return discover(options({ cardUrl: `${secretHost}/.well-known/agent-card.json` }));
      },
    ],
    [
      'a duplicate key',
      async () => {
        serve(`{"${field}":1,"${field}":2}`);
        return discover(options());
      },
    ],
    [
      'an invalid card field',
      async () => {
        serveCard(
          cardWith({
            securitySchemes: { [field]: { httpAuthSecurityScheme: { scheme: `${field}\u0000` } } },
          }),
        );
        return discover(options());
      },
    ],
    [
      // The card's preferred URL is named in `fix` (see below); its tenant never is.
      'pin drift',
      async () => {
        serveCard(
          cardWith({ supportedInterfaces: [iface('https://agent.test/a2a', 'JSONRPC', { tenant: field })] }),
        );
        return discover(
          options({ pins: [{ binding: 'JSONRPC', url: `https://agent.test/${secret}`, tenant: secret }] }),
        );
      },
    ],
    [
      'a digest mismatch',
      async () => {
        serveCard(cardWith({ name: field }));
        return discover(options({ trust: { kind: 'digest', digest: `sha256:${'1'.repeat(64)}` } }));
      },
    ],
    [
      'a security refusal',
      async () => {
        serveCard(cardWith({ securityRequirements: [{ schemes: { bearer: { list: [field] } } }] }));
        return discover(options());
      },
    ],
  ])('keeps URLs and card content out of %s', async (_, attempt) => {
    clean(await failure(attempt()));
  });

  it('names the card’s preferred interface URL, its public data, in `fix` and its JSON alone', async () => {
    const preferred = `https://agent.test/${field}`;
    serveCard(cardWith({ supportedInterfaces: [iface(preferred)] }));
    const error = await failure(
      discover(options({ pins: [{ binding: 'JSONRPC', url: `https://agent.test/${secret}` }] })),
    );
    expect(error.fix).toEqual({ option: 'pins', binding: 'JSONRPC', url: preferred });
    expect(JSON.stringify(error)).toContain(field);
    for (const text of [error.message, error.stack ?? '', String(error), JSON.stringify(error)]) {
      expect(text.toUpperCase()).not.toContain(secret);
    }
    for (const text of [error.message, error.stack ?? '', String(error)]) {
      expect(text.toUpperCase()).not.toContain(field);
    }
  });
});
