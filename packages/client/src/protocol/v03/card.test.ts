import { describe, expect, it } from 'vitest';
import { AgentCard } from '../agent-card.js';
import { decode } from '../decode.js';
import type { JsonObject } from '../json-value.js';
import { cardFromV03, protoCardFromV03 } from './card.js';

const v03Card = (extra: JsonObject = {}): JsonObject => ({
  name: 'v0.3 agent',
  description: 'Speaks v0.3.',
  url: 'https://agent.example/a2a/jsonrpc',
  preferredTransport: 'JSONRPC',
  additionalInterfaces: [
    { url: 'https://agent.example/a2a/jsonrpc', transport: 'JSONRPC' },
    { url: 'https://agent.example/a2a/rest', transport: 'HTTP+JSON' },
  ],
  protocolVersion: '0.3.0',
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 's', description: 'A skill.', tags: ['t'], security: [{ oidc: ['read'] }] }],
  securitySchemes: {
    bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
    key: { type: 'apiKey', in: 'header', name: 'X-Key' },
    oidc: {
      type: 'openIdConnect',
      openIdConnectUrl: 'https://auth.example/.well-known/openid-configuration',
    },
    mtls: { type: 'mutualTLS', description: 'Client certificates.' },
    oauth: {
      type: 'oauth2',
      flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', scopes: { read: 'Read' } } },
    },
  },
  security: [{}, { bearer: [] }, { oauth: ['read'] }],
  supportsAuthenticatedExtendedCard: true,
  ...extra,
});

describe('a v0.3 card as a v1.0 card', () => {
  it('lists the preferred interface first, each once, as v0.3; maps schemes, requirements and capabilities', () => {
    const mapped = cardFromV03(v03Card());
    expect(mapped.ok).toBe(true);
    const decoded = decode(AgentCard, mapped.value);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) {
      return;
    }
    const card = decoded.value;
    expect(card.supportedInterfaces).toEqual([
      { url: 'https://agent.example/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3.0' },
      { url: 'https://agent.example/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3.0' },
    ]);
    expect(card.capabilities).toMatchObject({
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: true,
    });
    expect(card.securitySchemes).toMatchObject({
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
      key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } },
      oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: expect.any(String) } },
      mtls: { mtlsSecurityScheme: { description: 'Client certificates.' } },
      oauth: {
        oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://auth.example/token' } } },
      },
    });
    expect(card.securityRequirements).toEqual([
      { schemes: {} },
      { schemes: { bearer: { list: [] } } },
      { schemes: { oauth: { list: ['read'] } } },
    ]);
    expect(card.skills[0]?.securityRequirements).toEqual([{ schemes: { oidc: { list: ['read'] } } }]);
  });

  it('takes JSONRPC as the preferred transport when the card names none (v0.3 default)', () => {
    const { preferredTransport: _, additionalInterfaces: __, ...bare } = v03Card();
    const mapped = cardFromV03(bare);
    expect(mapped.ok && mapped.value).toMatchObject({
      supportedInterfaces: [{ url: 'https://agent.example/a2a/jsonrpc', protocolBinding: 'JSONRPC' }],
    });
  });

  it.each<[string, JsonObject, { rule: string; path: string }]>([
    [
      'an OAuth scheme with two flows, which v1.0 cannot say',
      {
        securitySchemes: {
          oauth: {
            type: 'oauth2',
            flows: {
              clientCredentials: { tokenUrl: 'https://auth.example/token', scopes: {} },
              password: { tokenUrl: 'https://auth.example/token', scopes: {} },
            },
          },
        },
      },
      { rule: 'oneof-many', path: '$.securitySchemes[*].flows' },
    ],
    [
      'a scheme of an unknown type',
      { securitySchemes: { x: { type: 'magic' } } },
      { rule: 'oneof-unknown', path: '$.securitySchemes[*].type' },
    ],
    [
      'an extended-card flag that is no boolean',
      { supportsAuthenticatedExtendedCard: 'yes' },
      { rule: 'invalid_type', path: '$.supportsAuthenticatedExtendedCard' },
    ],
    [
      'additional interfaces that are no list',
      { additionalInterfaces: {} },
      { rule: 'invalid_type', path: '$.additionalInterfaces' },
    ],
  ])('refuses %s', (_, extra, error) => {
    expect(cardFromV03(v03Card(extra))).toEqual({ ok: false, error });
  });

  it('leaves the v1.0 contract to refuse the rest: a card without skills maps, and fails there', () => {
    const mapped = cardFromV03(v03Card({ skills: [] }));
    expect(mapped.ok).toBe(true);
    expect(decode(AgentCard, mapped.value)).toMatchObject({
      ok: false,
      error: { violation: { path: '$.skills' } },
    });
  });
});

describe('the v0.3 proto’s card (`GET /v1/card` over HTTP+JSON) as a v1.0 card', () => {
  const protoCard = {
    protocol_version: '0.3.0',
    name: 'agent',
    description: 'A v0.3 agent.',
    url: 'https://agent.example/a2a/rest',
    preferred_transport: 'HTTP+JSON',
    additional_interfaces: [{ url: 'https://agent.example/a2a/jsonrpc', transport: 'JSONRPC' }],
    version: '1',
    capabilities: { streaming: true, push_notifications: true },
    security_schemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    security: [{}, { schemes: { bearer: { list: [] } } }],
    default_input_modes: ['text/plain'],
    default_output_modes: ['text/plain'],
    skills: [
      { id: 's', name: 's', description: 'A skill.', tags: ['t'], security: [{ schemes: { bearer: {} } }] },
    ],
    supports_authenticated_extended_card: true,
  };

  it('reads proto field names, and passes the proto’s schemes and requirements on as v1.0’s', () => {
    const mapped = protoCardFromV03(protoCard);
    const decoded = decode(AgentCard, mapped.value);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) {
      return;
    }
    const card = decoded.value;
    expect(card.supportedInterfaces.map((entry) => entry.protocolBinding)).toEqual(['HTTP+JSON', 'JSONRPC']);
    expect(card.capabilities).toMatchObject({
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
    });
    expect(card.securitySchemes).toEqual({ bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } });
    expect(card.securityRequirements).toEqual([{ schemes: {} }, { schemes: { bearer: { list: [] } } }]);
    expect(card.defaultInputModes).toEqual(['text/plain']);
    expect(card.skills[0]?.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
  });

  it('refuses a member named both by its JSON and its proto name', () => {
    expect(protoCardFromV03({ ...protoCard, preferredTransport: 'JSONRPC' })).toEqual({
      ok: false,
      error: { rule: 'duplicate-key', path: '$.preferredTransport' },
    });
  });
});
