import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  type AgentInterface,
  AgentSkill,
} from './agent-card.js';
import { decode } from './decode.js';
import { OAuthFlows, SecurityScheme } from './security-scheme.js';

function rule(schema: Parameters<typeof decode>[0], value: unknown): string | undefined {
  const result = decode(schema, value);
  return result.ok ? undefined : `${result.error.violation.rule} at ${result.error.violation.path}`;
}

function times<T>(count: number, make: (index: number) => T): T[] {
  return Array.from({ length: count }, (_, index) => make(index));
}

const skill = {
  id: 'summarise',
  name: 'Summarise',
  description: 'Summarises documents.\nHandles PDFs and plain text.\n',
  tags: ['text', 'summary'],
  examples: ['Summarise this report'],
  inputModes: ['text/plain', 'application/pdf'],
  outputModes: ['text/plain'],
};

// A complete v1.0 card: the field list of A2A spec §4.4.1 with the security example of A2A spec §8.5.
const card = {
  name: 'Recipe Agent',
  description: 'Agent that helps users with recipes and cooking.',
  supportedInterfaces: [
    { url: 'https://agent.example/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    {
      url: 'https://agent.example/a2a/rest',
      protocolBinding: 'HTTP+JSON',
      protocolVersion: '1.0',
      tenant: 'acme',
    },
    { url: 'agent.example:443', protocolBinding: 'GRPC', protocolVersion: '1.0' },
  ],
  provider: { url: 'https://example.com', organization: 'Example Org' },
  version: '1.0.0',
  documentationUrl: 'https://agent.example/docs',
  capabilities: {
    streaming: true,
    pushNotifications: false,
    extendedAgentCard: true,
    extensions: [
      { uri: 'https://a2a-rust.com/extensions/idempotency/v1', required: false, params: { ttl: 86400 } },
    ],
  },
  securitySchemes: {
    google: {
      openIdConnectSecurityScheme: {
        openIdConnectUrl: 'https://accounts.google.com/.well-known/openid-configuration',
      },
    },
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
    oauth: {
      oauth2SecurityScheme: {
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://auth.example/authorize',
            tokenUrl: 'https://auth.example/token',
            scopes: { read: 'Read tasks' },
            pkceRequired: true,
          },
        },
      },
    },
    key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
    mtls: { mtlsSecurityScheme: {} },
  },
  securityRequirements: [
    { schemes: { google: { list: ['openid', 'profile', 'email'] } } },
    { schemes: { bearer: {} } },
  ],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain', 'application/json'],
  skills: [skill],
  signatures: [
    { protected: 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0', signature: 'c2lnbmF0dXJl', header: { kid: 'k1' } },
  ],
  iconUrl: 'https://agent.example/icon.png',
};

const minimal = {
  name: 'Echo',
  description: 'Echoes.',
  supportedInterfaces: [
    { url: 'http://127.0.0.1:4100/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  version: '0.1.0',
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes text.', tags: ['echo'] }],
};

describe('AgentCard', () => {
  it('reads a complete card, filling only the read defaults', () => {
    const result = decode(AgentCard, card);
    expect(result.ok).toBe(true);
    expect(result.value?.securityRequirements[1]).toEqual({ schemes: { bearer: { list: [] } } });
    expect(result.value?.securitySchemes).toMatchObject({ oauth: card.securitySchemes.oauth });
  });

  it('reads a minimal card with the spec’s defaults (A2A spec §3.3.4: a missing capability is false)', () => {
    expect(decode(AgentCard, minimal)).toEqual({
      ok: true,
      value: {
        ...minimal,
        capabilities: {
          streaming: false,
          pushNotifications: false,
          extendedAgentCard: false,
          extensions: [],
        },
        securitySchemes: {},
        securityRequirements: [],
        signatures: [],
      },
    });
  });

  it('drops v0.3 members instead of refusing them (A2A spec §5.7)', () => {
    const legacy = {
      ...minimal,
      url: 'https://old.example',
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3',
    };
    const result = decode(AgentCard, legacy);
    expect(result.ok && 'url' in result.value).toBe(false);
  });

  it.each([
    ['no interfaces', { ...minimal, supportedInterfaces: [] }, 'required at $.supportedInterfaces'],
    [
      'a JSON-RPC interface without a host',
      {
        ...minimal,
        supportedInterfaces: [{ url: '/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      },
      'interface-url at $.supportedInterfaces[0].url',
    ],
    [
      'a lower-case http+json interface with userinfo',
      {
        ...minimal,
        supportedInterfaces: [
          { url: 'https://u:p@a.example', protocolBinding: 'http+json', protocolVersion: '1.0' },
        ],
      },
      'interface-url at $.supportedInterfaces[0].url',
    ],
    [
      'the same interface twice',
      { ...minimal, supportedInterfaces: [minimal.supportedInterfaces[0], minimal.supportedInterfaces[0]] },
      'unique at $.supportedInterfaces[1].url',
    ],
    ['no skills', { ...minimal, skills: [] }, 'required at $.skills'],
    ['two skills with one id', { ...minimal, skills: [skill, skill] }, 'unique at $.skills[1].id'],
    [
      'a skill without tags',
      { ...minimal, skills: [{ ...skill, tags: [] }] },
      'required at $.skills[0].tags',
    ],
    ['no input modes', { ...minimal, defaultInputModes: [] }, 'required at $.defaultInputModes'],
    [
      'a bad output mode',
      { ...minimal, defaultOutputModes: ['text plain'] },
      'media-type at $.defaultOutputModes[0]',
    ],
    ['a name with surrounding space', { ...minimal, name: 'Echo ' }, 'whitespace at $.name'],
    ['an empty description', { ...minimal, description: '' }, 'required at $.description'],
    ['a missing version', { ...minimal, version: undefined }, 'required at $.version'],
    ['a missing capabilities object', { ...minimal, capabilities: undefined }, 'required at $.capabilities'],
    ['a relative documentation URL', { ...minimal, documentationUrl: 'docs' }, 'url at $.documentationUrl'],
    [
      'a requirement naming an undeclared scheme',
      { ...minimal, securityRequirements: [{ schemes: { ghost: { list: [] } } }] },
      'unknown-security-scheme at $.securityRequirements[0].schemes',
    ],
    [
      'a skill requirement naming an undeclared scheme',
      {
        ...card,
        skills: [
          { ...skill, securityRequirements: [{ schemes: { bearer: {} } }, { schemes: { ghost: {} } }] },
        ],
      },
      'unknown-security-scheme at $.skills[0].securityRequirements[1].schemes',
    ],
    ['a v0.3 security list', { ...card, securityRequirements: [{ google: ['openid'] }] }, undefined],
    [
      'a signature that is not base64url',
      { ...minimal, signatures: [{ protected: 'eyJ+', signature: 'c2ln' }] },
      'base64 at $.signatures[0].protected',
    ],
    [
      'a duplicate extension',
      {
        ...minimal,
        capabilities: { extensions: [{ uri: 'https://e.example' }, { uri: 'https://e.example' }] },
      },
      'unique at $.capabilities.extensions[1].uri',
    ],
    [
      'an extension without a uri',
      { ...minimal, capabilities: { extensions: [{ description: 'x' }] } },
      'required at $.capabilities.extensions[0].uri',
    ],
  ])('refuses %s', (_name, value, expected) => {
    expect(rule(AgentCard, value)).toBe(expected);
  });

  it('holds extension params like metadata: 256 entries, 257 refused', () => {
    const withParams = (count: number) => ({
      ...minimal,
      capabilities: {
        extensions: [
          { uri: 'https://e.example/v1', params: Object.fromEntries(times(count, (i) => [`p${i}`, i])) },
        ],
      },
    });
    expect(rule(AgentCard, withParams(256))).toBeUndefined();
    expect(rule(AgentCard, withParams(257))).toBe('max-entries at $.capabilities.extensions[0].params');
  });

  it('masks the peer’s own key names in a violation path', () => {
    expect(
      rule(AgentCard, {
        ...card,
        securitySchemes: { 'secret-scheme-name': { apiKeySecurityScheme: { location: 'body', name: 'k' } } },
      }),
    ).toBe('api-key-location at $.securitySchemes[*].apiKeySecurityScheme.location');
  });

  it.each([
    [
      'supportedInterfaces',
      16,
      (i: number) => ({ url: `https://a${i}.example`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }),
    ],
    ['skills', 256, (i: number) => ({ ...skill, id: `s${i}` })],
    ['defaultInputModes', 64, () => 'text/plain'],
    ['defaultOutputModes', 64, () => 'text/plain'],
    ['securityRequirements', 64, () => ({ schemes: {} })],
    ['signatures', 64, () => card.signatures[0]],
  ] as [string, number, (index: number) => unknown][])('holds %s to %i entries', (field, limit, make) => {
    expect(rule(AgentCard, { ...card, [field]: times(limit, make) })).toBeUndefined();
    expect(rule(AgentCard, { ...card, [field]: times(limit + 1, make) })).toBe(`max-items at $.${field}`);
  });

  it.each([
    ['tags', 64, () => 'tag'],
    ['examples', 64, () => 'example'],
    ['inputModes', 64, () => 'text/plain'],
    ['outputModes', 64, () => 'text/plain'],
    ['securityRequirements', 64, () => ({ schemes: {} })],
  ] as [string, number, (index: number) => unknown][])(
    'holds a skill’s %s to %i entries',
    (field, limit, make) => {
      expect(rule(AgentSkill, { ...skill, [field]: times(limit, make) })).toBeUndefined();
      expect(rule(AgentSkill, { ...skill, [field]: times(limit + 1, make) })).toBe(`max-items at $.${field}`);
    },
  );

  it('holds security schemes to 64 and a requirement to 64 schemes', () => {
    const schemes = (count: number) =>
      Object.fromEntries(times(count, (i) => [`s${i}`, { httpAuthSecurityScheme: { scheme: 'Bearer' } }]));
    expect(rule(AgentCard, { ...minimal, securitySchemes: schemes(64) })).toBeUndefined();
    expect(rule(AgentCard, { ...minimal, securitySchemes: schemes(65) })).toBe(
      'max-entries at $.securitySchemes',
    );
    const requirement = (count: number) => ({
      schemes: Object.fromEntries(times(count, (i) => [`s${i}`, {}])),
    });
    expect(
      rule(AgentCard, { ...minimal, securitySchemes: schemes(64), securityRequirements: [requirement(64)] }),
    ).toBeUndefined();
    expect(
      rule(AgentCard, { ...minimal, securitySchemes: schemes(65), securityRequirements: [requirement(65)] }),
    ).toBe('max-entries at $.securitySchemes');
    expect(
      rule(AgentCard, { ...minimal, securitySchemes: schemes(64), securityRequirements: [requirement(65)] }),
    ).toBe('max-entries at $.securityRequirements[0].schemes');
  });

  it('holds a requirement’s scopes to 128', () => {
    const withScopes = (count: number) => ({
      ...card,
      securityRequirements: [{ schemes: { google: { list: times(count, (i) => `scope${i}`) } } }],
    });
    expect(rule(AgentCard, withScopes(128))).toBeUndefined();
    expect(rule(AgentCard, withScopes(129))).toBe('max-items at $.securityRequirements[0].schemes[*].list');
  });

  it('holds text to its byte bounds', () => {
    expect(rule(AgentCard, { ...minimal, name: 'é'.repeat(256) })).toBeUndefined();
    expect(rule(AgentCard, { ...minimal, name: `${'é'.repeat(256)}a` })).toBe('max-bytes at $.name');
    expect(rule(AgentCard, { ...minimal, description: 'a'.repeat(16 * 1024) })).toBeUndefined();
    expect(rule(AgentCard, { ...minimal, description: 'a'.repeat(16 * 1024 + 1) })).toBe(
      'max-bytes at $.description',
    );
    const longUrl = (length: number) => `https://a.example/${'a'.repeat(length - 18)}`;
    const withUrl = (length: number) => ({
      ...minimal,
      supportedInterfaces: [{ url: longUrl(length), protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    });
    expect(rule(AgentCard, withUrl(4096))).toBeUndefined();
    expect(rule(AgentCard, withUrl(4097))).toBe('max-bytes at $.supportedInterfaces[0].url');
  });

  it('holds a signature part to 1 MiB (the card bound makes that reachable only alone)', () => {
    const signature = (length: number) => ({ protected: 'eyJ9', signature: 'a'.repeat(length) });
    expect(rule(AgentCardSignature, signature(1024 * 1024))).toBeUndefined();
    expect(rule(AgentCardSignature, signature(1024 * 1024 + 1))).toBe('max-bytes at $.signature');
    expect(
      rule(AgentCardSignature, {
        ...signature(4),
        header: Object.fromEntries(times(257, (i) => [`h${i}`, 1])),
      }),
    ).toBe('max-entries at $.header');
  });

  it('holds the whole card, unknown members included, to 1 MiB of compact JSON', () => {
    const size = JSON.stringify({ ...minimal, padding: '' }).length;
    const padded = (bytes: number) => ({ ...minimal, padding: 'a'.repeat(bytes - size) });
    expect(JSON.stringify(padded(1024 * 1024)).length).toBe(1024 * 1024);
    expect(rule(AgentCard, padded(1024 * 1024))).toBeUndefined();
    expect(rule(AgentCard, padded(1024 * 1024 + 1))).toBe('max-bytes at $');
  });

  it('types the card with its read defaults', () => {
    expectTypeOf<AgentCard['capabilities']>().toEqualTypeOf<AgentCapabilities>();
    expectTypeOf<AgentCapabilities['streaming']>().toEqualTypeOf<boolean>();
    expectTypeOf<AgentCard['supportedInterfaces']>().toEqualTypeOf<AgentInterface[]>();
    expectTypeOf<AgentCard['securitySchemes']>().toEqualTypeOf<Record<string, SecurityScheme>>();
    expectTypeOf<AgentSkill['inputModes']>().toEqualTypeOf<string[] | undefined>();
  });
});

describe('SecurityScheme', () => {
  it.each(Object.entries(card.securitySchemes))('reads the %s scheme', (_name, scheme) => {
    expect(decode(SecurityScheme, scheme)).toEqual({ ok: true, value: scheme });
  });

  it.each([
    ['no member', {}, 'oneof-none at $'],
    ['a v0.3 OpenAPI scheme', { type: 'http', scheme: 'bearer' }, 'oneof-none at $'],
    [
      'two members',
      { httpAuthSecurityScheme: { scheme: 'Bearer' }, mtlsSecurityScheme: {} },
      'oneof-many at $',
    ],
    [
      'the ts-proto leak of a2a-js (docs/interop.md#the-official-js-sdk-server)',
      { scheme: { $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer' } } },
      'oneof-none at $',
    ],
    [
      'an API key in the body',
      { apiKeySecurityScheme: { location: 'body', name: 'k' } },
      'api-key-location at $.apiKeySecurityScheme.location',
    ],
    [
      'a v0.3 API key `in`',
      { apiKeySecurityScheme: { in: 'header', name: 'k' } },
      'required at $.apiKeySecurityScheme.location',
    ],
    [
      'an HTTP scheme without a scheme name',
      { httpAuthSecurityScheme: {} },
      'required at $.httpAuthSecurityScheme.scheme',
    ],
    [
      'an OIDC scheme without a URL',
      { openIdConnectSecurityScheme: {} },
      'required at $.openIdConnectSecurityScheme.openIdConnectUrl',
    ],
    [
      'an OAuth scheme without flows',
      { oauth2SecurityScheme: {} },
      'required at $.oauth2SecurityScheme.flows',
    ],
  ])('refuses %s', (_name, scheme, expected) => {
    expect(rule(SecurityScheme, scheme)).toBe(expected);
  });

  it('narrows by the present member', () => {
    const httpScheme = (scheme: SecurityScheme): string | undefined => {
      if ('httpAuthSecurityScheme' in scheme) {
        expectTypeOf(scheme.httpAuthSecurityScheme.scheme).toEqualTypeOf<string>();
        return scheme.httpAuthSecurityScheme.scheme;
      }
      return undefined;
    };
    expect(httpScheme({ mtlsSecurityScheme: {} })).toBeUndefined();
    expect(httpScheme({ httpAuthSecurityScheme: { scheme: 'Bearer' } })).toBe('Bearer');
  });
});

describe('OAuthFlows', () => {
  const code = {
    authorizationUrl: 'https://auth.example/authorize',
    tokenUrl: 'https://auth.example/token',
    scopes: { read: 'Read' },
  };

  it.each([
    [{ authorizationCode: code }, { authorizationCode: { ...code, pkceRequired: false } }],
    [
      { clientCredentials: { tokenUrl: code.tokenUrl, scopes: {} } },
      { clientCredentials: { tokenUrl: code.tokenUrl, scopes: {} } },
    ],
    [
      { deviceCode: { deviceAuthorizationUrl: 'https://auth.example/device', tokenUrl: code.tokenUrl } },
      {
        deviceCode: {
          deviceAuthorizationUrl: 'https://auth.example/device',
          tokenUrl: code.tokenUrl,
          scopes: {},
        },
      },
    ],
    // Deprecated, not removed (A2A spec §4.5.7).
    [
      { implicit: { authorizationUrl: code.authorizationUrl, scopes: {} } },
      { implicit: { authorizationUrl: code.authorizationUrl, scopes: {} } },
    ],
    [{ password: { tokenUrl: code.tokenUrl } }, { password: { tokenUrl: code.tokenUrl, scopes: {} } }],
  ])('reads %j', (flows, expected) => {
    expect(decode(OAuthFlows, flows)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['no flow', {}, 'oneof-none at $'],
    [
      'two flows',
      { authorizationCode: code, clientCredentials: { tokenUrl: code.tokenUrl, scopes: {} } },
      'oneof-many at $',
    ],
    ['whats-new’s wrong key', { authorizationCodeFlow: code }, 'oneof-none at $'],
    [
      'a flow without a token URL',
      { clientCredentials: { scopes: {} } },
      'required at $.clientCredentials.tokenUrl',
    ],
    [
      '129 scopes',
      {
        clientCredentials: {
          tokenUrl: code.tokenUrl,
          scopes: Object.fromEntries(times(129, (i) => [`s${i}`, ''])),
        },
      },
      'max-entries at $.clientCredentials.scopes',
    ],
  ])('refuses %s', (_name, flows, expected) => {
    expect(rule(OAuthFlows, flows)).toBe(expected);
  });

  it('keeps 128 scopes', () => {
    const scopes = Object.fromEntries(times(128, (i) => [`s${i}`, 'description']));
    expect(rule(OAuthFlows, { clientCredentials: { tokenUrl: code.tokenUrl, scopes } })).toBeUndefined();
  });
});
