import { describe, expect, expectTypeOf, it } from 'vitest';
import { v03Binding } from '../bindings/v03/entry.js';
import { OptionsError } from '../core/errors.js';
import { defaultLimits } from '../core/limits.js';
import type { AgentCard } from '../protocol/agent-card.js';
import { parseAgentCard } from '../protocol/decode.js';
import {
  type ClientOptions,
  defaultClientOptions,
  type ResolvedClientOptions,
  resolveClientOptions,
} from './options.js';

const idempotency = 'https://a2a-rust.com/extensions/idempotency/v1';
const traces = 'https://ext.example/traces/v1';
const digest = `sha256:${'ab'.repeat(32)}`;

const rawCard = {
  name: 'Agent',
  description: 'An agent.',
  supportedInterfaces: [
    { url: 'https://Agent.Example:443/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    {
      url: 'https://agent.example/a2a/rest',
      protocolBinding: 'HTTP+JSON',
      protocolVersion: '1.0',
      tenant: 'acme',
    },
    { url: 'https://agent.example/old', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    { url: 'https://agent.example/lower', protocolBinding: 'jsonrpc', protocolVersion: '1.0' },
  ],
  version: '1.0',
  capabilities: {
    extensions: [{ uri: idempotency }, { uri: traces }],
  },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'plain', name: 'Plain', description: 'A skill.', tags: ['t'] }],
};
const card = parseAgentCard(rawCard);

const base: ClientOptions = {
  card,
  cardDigest: digest,
  pin: { binding: 'JSONRPC', url: 'https://agent.example/a2a/jsonrpc' },
  security: { kind: 'anonymous' },
};

function refusal(options: ClientOptions): string {
  try {
    resolveClientOptions(options);
    return 'accepted';
  } catch (error) {
    return error instanceof OptionsError ? `${error.option}: ${error.reason}` : 'unexpected';
  }
}

describe('resolveClientOptions', () => {
  it('applies the defaults and leaves no field optional', () => {
    const resolved = resolveClientOptions(base);
    expect(resolved.extensions).toEqual([]);
    expect(resolved.limits).toEqual(defaultLimits);
    expect(resolved.subscribeMethod).toBe(defaultClientOptions.subscribeMethod);
    expect(resolved.pin).toEqual({
      binding: 'JSONRPC',
      url: 'https://agent.example/a2a/jsonrpc',
      tenant: undefined,
      version: '1.0',
    });
    expect(resolved.versions).toBeUndefined();
    expect(resolved.security).toEqual({ kind: 'anonymous', scopes: [] });
    expectTypeOf<ResolvedClientOptions>().toEqualTypeOf<Required<ResolvedClientOptions>>();
  });

  it('keeps a frozen copy of the card that the caller cannot change afterwards', () => {
    const mine = structuredClone(card) as { -readonly [K in keyof AgentCard]: AgentCard[K] };
    const resolved = resolveClientOptions({ ...base, card: mine });
    mine.name = 'Changed';
    expect(resolved.card.name).toBe('Agent');
    expect(Object.isFrozen(resolved.card)).toBe(true);
    expect(Object.isFrozen(resolved.card.supportedInterfaces[0])).toBe(true);
    expect(Object.isFrozen(resolved)).toBe(true);
  });

  it('passes limits through resolveLimits and the subscribe method through', () => {
    const resolved = resolveClientOptions({ ...base, limits: { sseEvents: 10 }, subscribeMethod: 'GET' });
    expect(resolved.limits.sseEvents).toBe(10);
    expect(resolved.subscribeMethod).toBe('GET');
  });

  it.each([
    ['an uppercase digest', `sha256:${'AB'.repeat(32)}`],
    ['a short digest', 'sha256:abc'],
    ['another algorithm', `sha512:${'ab'.repeat(32)}`],
    ['a bare hex digest', 'ab'.repeat(32)],
  ])('refuses %s', (_name, cardDigest) => {
    expect(refusal({ ...base, cardDigest })).toBe('cardDigest: malformed');
  });

  it.each([
    ['limits.sseEvents: above-ceiling', { limits: { sseEvents: 65_537 } }],
    ['limits.requestTimeoutMs: below-minimum', { limits: { requestTimeoutMs: 0 } }],
    ['subscribeMethod: malformed', { subscribeMethod: 'PUT' }],
    ['card: malformed', { card: null }],
    ['card: malformed', { card: { ...card, skills: [() => 1] } }],
  ])('refuses with %s', (expected, change) => {
    expect(refusal({ ...base, ...change } as unknown as ClientOptions)).toBe(expected);
  });
});

describe('the pin (docs/protocol-checks.md#discovery-steps, steps 11-12)', () => {
  it.each([
    [
      'the card URL, WHATWG-equal (host case, default port)',
      { binding: 'JSONRPC', url: 'https://agent.example/a2a/jsonrpc' },
    ],
    [
      'a pin with a default port and a dot segment',
      { binding: 'JSONRPC', url: 'https://AGENT.example:443/a2a/x/../jsonrpc' },
    ],
    [
      'the interface with its tenant',
      { binding: 'HTTP+JSON', url: 'https://agent.example/a2a/rest', tenant: 'acme' },
    ],
  ])('accepts %s', (_name, pin) => {
    expect(refusal({ ...base, pin } as ClientOptions)).toBe('accepted');
  });

  it.each([
    [
      'a trailing slash the card does not have',
      { binding: 'JSONRPC', url: 'https://agent.example/a2a/jsonrpc/' },
    ],
    ['another path case', { binding: 'JSONRPC', url: 'https://agent.example/A2A/jsonrpc' }],
    ['the other binding', { binding: 'HTTP+JSON', url: 'https://agent.example/a2a/jsonrpc' }],
    [
      'a tenant the card does not list',
      { binding: 'JSONRPC', url: 'https://agent.example/a2a/jsonrpc', tenant: 'acme' },
    ],
    ['no tenant where the card lists one', { binding: 'HTTP+JSON', url: 'https://agent.example/a2a/rest' }],
    ['another tenant', { binding: 'HTTP+JSON', url: 'https://agent.example/a2a/rest', tenant: 'Acme' }],
    ['an interface of protocol version 0.3', { binding: 'JSONRPC', url: 'https://agent.example/old' }],
    ['a binding spelled otherwise by the card', { binding: 'JSONRPC', url: 'https://agent.example/lower' }],
    ['another scheme', { binding: 'JSONRPC', url: 'http://agent.example/a2a/jsonrpc' }],
  ])('refuses %s as not-in-card', (_name, pin) => {
    expect(refusal({ ...base, pin } as ClientOptions)).toBe('pin: not-in-card');
  });

  it.each([
    ['a query', 'https://agent.example/a2a/jsonrpc?x=1', 'pin.url: malformed'],
    ['an empty query', 'https://agent.example/a2a/jsonrpc?', 'pin.url: malformed'],
    ['a fragment', 'https://agent.example/a2a/jsonrpc#top', 'pin.url: malformed'],
    ['userinfo', 'https://user:pw@agent.example/a2a/jsonrpc', 'pin.url: malformed'],
    ['a relative URL', '/a2a/jsonrpc', 'pin.url: malformed'],
    ['another protocol', 'wss://agent.example/a2a/jsonrpc', 'pin.url: malformed'],
  ])('refuses a URL with %s', (_name, url, expected) => {
    expect(refusal({ ...base, pin: { binding: 'JSONRPC', url } })).toBe(expected);
  });

  it.each([
    ['pin.binding: unsupported', { binding: 'GRPC', url: 'https://agent.example/a2a/jsonrpc' }],
    ['pin.tenant: malformed', { binding: 'JSONRPC', url: 'https://agent.example/a2a/jsonrpc', tenant: 7 }],
    ['pin: malformed', null],
  ])('refuses with %s', (expected, pin) => {
    expect(refusal({ ...base, pin } as unknown as ClientOptions)).toBe(expected);
  });

  it('resolves to the WHATWG serialization of the pin', () => {
    const { pin } = resolveClientOptions({
      ...base,
      pin: { binding: 'JSONRPC', url: 'https://AGENT.example:443/a2a/jsonrpc' },
    });
    expect(pin.url).toBe('https://agent.example/a2a/jsonrpc');
  });
});

describe('extensions (docs/protocol-checks.md#extensions and docs/protocol-checks.md#discovery-steps, step 13)', () => {
  it('keeps the configured order', () => {
    expect(resolveClientOptions({ ...base, extensions: [traces, idempotency] }).extensions).toEqual([
      traces,
      idempotency,
    ]);
  });

  it.each([
    ['extensions.0: malformed', ['https://ext.example/a,b']],
    ['extensions.0: malformed', [' https://ext.example/a']],
    ['extensions.0: malformed', ['https://ext.example/\u00e9']],
    ['extensions.0: malformed', ['']],
    ['extensions.0: malformed', ['no-scheme']],
    ['extensions.0: not-in-card', ['urn:example:ext:v1']],
    ['extensions.0: malformed', [`https://ext.example/${'a'.repeat(4096)}`]],
    ['extensions.1: inconsistent', [idempotency, idempotency]],
    ['extensions.1: not-in-card', [idempotency, 'https://ext.example/other']],
    ['extensions: above-ceiling', Array.from({ length: 65 }, (_, index) => `https://ext.example/${index}`)],
    ['extensions: malformed', 'https://ext.example/a'],
  ])('refuses with %s', (expected, extensions) => {
    expect(refusal({ ...base, extensions } as unknown as ClientOptions)).toBe(expected);
  });

  it('refuses a joined header over 8 KiB', () => {
    const long = Array.from({ length: 3 }, (_, index) => `https://ext.example/${index}/${'a'.repeat(3000)}`);
    expect(refusal({ ...base, extensions: long })).toBe('extensions: above-ceiling');
  });

  it('refuses a configuration without an extension the card requires', () => {
    const requiring = parseAgentCard({
      ...rawCard,
      capabilities: { extensions: [{ uri: idempotency }, { uri: traces, required: true }] },
    });
    expect(refusal({ ...base, card: requiring, extensions: [idempotency] })).toBe(
      'extensions: not-satisfied',
    );
    expect(refusal({ ...base, card: requiring, extensions: [traces] })).toBe('accepted');
  });
});

describe('security', () => {
  it('is selected against the card (docs/protocol-checks.md#security-selection)', () => {
    const guarded = parseAgentCard({
      ...rawCard,
      securitySchemes: {
        oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://auth.example/oidc' } },
      },
      securityRequirements: [{ schemes: { oidc: { list: ['b', 'a'] } } }],
    });
    expect(refusal({ ...base, card: guarded })).toBe('security: not-satisfied');
    const token = async (): Promise<string> => 't';
    const resolved = resolveClientOptions({
      ...base,
      card: guarded,
      security: { kind: 'bearer', scheme: 'oidc', token },
    });
    expect(resolved.security.scopes).toEqual(['a', 'b']);
  });
});

describe('protocolVersions (docs/protocol-checks.md#v03-peers)', () => {
  const old = { binding: 'JSONRPC' as const, url: 'https://agent.example/old' };

  it.each<[string, Partial<ClientOptions>, string]>([
    ['the default, 1.0 alone', {}, 'accepted'],
    ['1.0 named', { protocolVersions: ['1.0'] }, 'accepted'],
    ['0.3 without the v0.3 binding', { protocolVersions: ['1.0', '0.3'] }, 'protocolVersions: unsupported'],
    ['0.3 alone without it', { protocolVersions: ['0.3'] }, 'protocolVersions: unsupported'],
    ['an empty list with it', { protocolVersions: [], v03: v03Binding }, 'protocolVersions: malformed'],
    [
      'a version repeated',
      { protocolVersions: ['1.0', '1.0'], v03: v03Binding },
      'protocolVersions.1: malformed',
    ],
    [
      'an unknown version',
      { protocolVersions: ['1.0', '0.2'] as never, v03: v03Binding },
      'protocolVersions.1: malformed',
    ],
    ['not a list', { protocolVersions: '1.0' as never, v03: v03Binding }, 'protocolVersions: malformed'],
    [
      'not a list, without the binding',
      { protocolVersions: '1.0' as never },
      'protocolVersions: unsupported',
    ],
    ['both with the binding', { protocolVersions: ['1.0', '0.3'], v03: v03Binding }, 'accepted'],
    ['the binding alone: 1.0 stays the only version', { v03: v03Binding }, 'accepted'],
  ])('%s: %s', (_, options, expected) => {
    expect(refusal({ ...base, ...options })).toBe(expected);
  });

  it('pins a v0.3 interface only with 0.3 admitted and the binding given', () => {
    expect(refusal({ ...base, pin: old })).toBe('pin: not-in-card');
    expect(refusal({ ...base, pin: old, v03: v03Binding })).toBe('pin: not-in-card');
    const resolved = resolveClientOptions({
      ...base,
      pin: old,
      protocolVersions: ['1.0', '0.3'],
      v03: v03Binding,
    });
    expect(resolved.pin).toMatchObject({ url: old.url, version: '0.3' });
  });

  it('keeps a 1.0 pin out of reach when 0.3 is the only version', () => {
    expect(refusal({ ...base, protocolVersions: ['0.3'], v03: v03Binding })).toBe('pin: not-in-card');
  });

  it('speaks 1.0 over an interface the card lists in both versions, unless 0.3 is the only one', () => {
    const both = parseAgentCard({
      ...rawCard,
      supportedInterfaces: [
        { url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        { url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    });
    const pin = { binding: 'JSONRPC' as const, url: 'https://agent.example/a2a' };
    const options = { ...base, card: both, pin, v03: v03Binding };
    expect(resolveClientOptions({ ...options, protocolVersions: ['0.3', '1.0'] }).pin.version).toBe('1.0');
    expect(resolveClientOptions({ ...options, protocolVersions: ['0.3'] }).pin.version).toBe('0.3');
  });
});
