import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../core/errors.js';
import { parseAgentCard } from '../protocol/decode.js';
import type { SecurityRequirement, SecurityScheme } from '../protocol/security-scheme.js';
import { type ResolvedSecurity, resolveSecurity, type SecurityOptions, selectScopes } from './security.js';
import { skillScopes } from './skill-scopes.js';

const token = async (): Promise<string> => 'token';
const bearer = (scheme: string): SecurityOptions => ({ kind: 'bearer', scheme, token });
const anonymous: SecurityOptions = { kind: 'anonymous' };

const schemes = {
  http: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
  lower: { httpAuthSecurityScheme: { scheme: 'bearer' } },
  basic: { httpAuthSecurityScheme: { scheme: 'Basic' } },
  oauth: {
    oauth2SecurityScheme: {
      flows: {
        clientCredentials: { tokenUrl: 'https://auth.example/token', scopes: { 'agent.invoke': 'Invoke' } },
      },
    },
  },
  oidc: {
    openIdConnectSecurityScheme: {
      openIdConnectUrl: 'https://auth.example/.well-known/openid-configuration',
    },
  },
  key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } },
  mtls: { mtlsSecurityScheme: {} },
} satisfies Readonly<Record<string, SecurityScheme>>;

function alternative(entries: Readonly<Record<string, readonly string[]>>): SecurityRequirement {
  return {
    schemes: Object.fromEntries(Object.entries(entries).map(([name, list]) => [name, { list: [...list] }])),
  };
}

function outcome(requirements: readonly SecurityRequirement[], security: SecurityOptions): string {
  try {
    return JSON.stringify(selectScopes(requirements, schemes, security, 'security'));
  } catch (error) {
    return error instanceof OptionsError ? `${error.option}: ${error.reason}` : 'unexpected';
  }
}

describe('selectScopes (docs/protocol-checks.md#security-selection)', () => {
  it.each([
    ['absent or empty requirements', [], '[]'],
    ['an empty alternative among others', [alternative({ oidc: ['a'] }), alternative({})], '[]'],
    ['only non-empty alternatives', [alternative({ oidc: ['a'] })], 'security: not-satisfied'],
  ])('anonymous with %s', (_name, requirements, expected) => {
    expect(outcome(requirements, anonymous)).toBe(expected);
  });

  it.each([
    ['HTTP Bearer', 'http', '["s"]'],
    ['HTTP bearer, compared case-insensitively', 'lower', '["s"]'],
    ['OAuth 2.0', 'oauth', '["s"]'],
    ['OpenID Connect', 'oidc', '["s"]'],
    ['HTTP Basic', 'basic', 'security.scheme: unsupported'],
    ['an API key', 'key', 'security.scheme: unsupported'],
    ['mutual TLS', 'mtls', 'security.scheme: unsupported'],
    ['an undeclared scheme', 'missing', 'security.scheme: not-in-card'],
    ['an empty name', '', 'security.scheme: malformed'],
    ['a name with surrounding space', ' oidc', 'security.scheme: malformed'],
    ['a name with a control character', 'oi\u0007dc', 'security.scheme: malformed'],
    ['a name over 512 bytes', 'x'.repeat(513), 'security.scheme: malformed'],
  ])('bearer through %s', (_name, scheme, expected) => {
    expect(outcome([alternative({ [scheme]: ['s'] })], bearer(scheme))).toBe(expected);
  });

  it.each([
    ['no requirements at all: a bearer token is never sent unasked', [], 'security: not-satisfied'],
    ['only an empty alternative', [alternative({})], 'security: not-satisfied'],
    [
      'only an AND-group naming the scheme',
      [alternative({ oidc: ['a'], oauth: ['b'] })],
      'security: not-satisfied',
    ],
    [
      'an AND-group skipped for a later single-scheme alternative',
      [alternative({ oidc: ['a'], oauth: ['b'] }), alternative({ oidc: ['c'] })],
      '["c"]',
    ],
    ['another scheme alone', [alternative({ oauth: ['a'] })], 'security: not-satisfied'],
    [
      'the first single-scheme alternative wins',
      [alternative({ oidc: ['b'] }), alternative({ oidc: ['a'] })],
      '["b"]',
    ],
    [
      'scopes sorted and de-duplicated',
      [alternative({ oidc: ['tasks', 'agent', 'tasks', 'Agent'] })],
      '["Agent","agent","tasks"]',
    ],
    ['no scopes', [alternative({ oidc: [] })], '[]'],
  ])('bearer with %s', (_name, requirements, expected) => {
    expect(outcome(requirements, bearer('oidc'))).toBe(expected);
  });

  it('returns frozen, sorted, unique scopes for any list (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 20 }), (list) => {
        const scopes = selectScopes([alternative({ oidc: list })], schemes, bearer('oidc'), 'security');
        expect(Object.isFrozen(scopes)).toBe(true);
        expect(new Set(scopes).size).toBe(scopes.length);
        expect(new Set(scopes)).toEqual(new Set(list));
        expect([...scopes].sort()).toEqual(scopes);
      }),
    );
  });
});

function card(extra: Readonly<Record<string, unknown>> = {}, skills: readonly unknown[] = []) {
  return parseAgentCard({
    name: 'Agent',
    description: 'An agent.',
    supportedInterfaces: [
      { url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    version: '1.0',
    capabilities: {},
    securitySchemes: { oidc: schemes.oidc, key: schemes.key },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'plain', name: 'Plain', description: 'No requirements.', tags: ['t'] }, ...skills],
    ...extra,
  });
}

describe('resolveSecurity', () => {
  it('keeps the provider and the card-level scopes of a bearer choice', () => {
    const resolved = resolveSecurity(
      card({ securityRequirements: [{ schemes: { oidc: { list: ['agent.invoke', 'a2a'] } } }] }),
      bearer('oidc'),
    );
    expect(resolved).toEqual({ kind: 'bearer', scheme: 'oidc', token, scopes: ['a2a', 'agent.invoke'] });
    expect(Object.isFrozen(resolved)).toBe(true);
  });

  it('admits anonymous use of a card without requirements', () => {
    expect(resolveSecurity(card(), anonymous)).toEqual({ kind: 'anonymous', scopes: [] });
  });

  it.each([
    ['a missing provider', { kind: 'bearer', scheme: 'oidc' }, 'security.token: malformed'],
    [
      'a provider that is not a function',
      { kind: 'bearer', scheme: 'oidc', token: 'abc' },
      'security.token: malformed',
    ],
    ['an unknown kind', { kind: 'api-key' }, 'security.kind: malformed'],
    ['no object', null, 'security: malformed'],
  ])('refuses %s', (_name, security, expected) => {
    let thrown: unknown;
    try {
      resolveSecurity(card(), security as unknown as SecurityOptions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OptionsError);
    const error = thrown as OptionsError;
    expect(`${error.option}: ${error.reason}`).toBe(expected);
  });
});

describe('skillScopes (docs/protocol-checks.md#security-selection, skill-level security)', () => {
  const withSkills = card({ securityRequirements: [{ schemes: { oidc: { list: ['agent.invoke'] } } }] }, [
    {
      id: 'invoke',
      name: 'Invoke',
      description: 'Own scope.',
      tags: ['t'],
      securityRequirements: [{ schemes: { oidc: { list: ['skill.invoke'] } } }],
    },
    {
      id: 'keyed',
      name: 'Keyed',
      description: 'API key only.',
      tags: ['t'],
      securityRequirements: [{ schemes: { key: {} } }],
    },
    { id: 'empty', name: 'Empty', description: 'Empty list.', tags: ['t'], securityRequirements: [] },
  ]);
  const security: ResolvedSecurity = resolveSecurity(withSkills, bearer('oidc'));

  it('lets the skill scope win over the card scope', () => {
    expect(skillScopes(withSkills, security, 'invoke')).toEqual(['skill.invoke']);
  });

  it.each([
    ['declares nothing', 'plain'],
    ['declares an empty list, which ProtoJSON cannot tell from none', 'empty'],
  ])('falls back to the card scopes when the skill %s', (_name, skill) => {
    expect(skillScopes(withSkills, security, skill)).toEqual(['agent.invoke']);
  });

  it('throws OptionsError naming the skill when the client cannot satisfy it', () => {
    expect(() => skillScopes(withSkills, security, 'keyed')).toThrow(
      expect.objectContaining({ option: 'skills.2.securityRequirements', reason: 'not-satisfied' }),
    );
  });

  it('answers undefined for a skill the card does not list', () => {
    expect(skillScopes(withSkills, security, 'nope')).toBeUndefined();
  });
});
