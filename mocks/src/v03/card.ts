/**
@module
The card of the mock agent in its v0.3 mode: the agent's own card (`agent/card.ts`) as a v0.3 agent serves it
(A2A v0.3 `AgentCard`, as the official SDK's v0.3 layer writes one). v0.3 names its preferred interface at the
top (`url`, `preferredTransport`) and the others in `additionalInterfaces`, all of the card's one
`protocolVersion`; its security schemes are OpenAPI's, told apart by `type`; requirements map a scheme's name
to its scopes; and `supportsAuthenticatedExtendedCard` says what v1.0's `capabilities.extendedAgentCard`
says.
*/
import { field, isObject, type Params } from '../agent/fields.js';
import type { WireAgentCard } from '../agent/wire.js';

/** The version a v0.3 card states (A2A v0.3 `AgentCard.protocolVersion`, whose default it is). */
export const v03ProtocolVersion = '0.3.0';

type Json = Record<string, unknown>;

function scheme(value: unknown): Json {
  const source: Params = isObject(value) ? value : {};
  const [[member, inner] = ['', {}]] = Object.entries(source);
  const body: Params = isObject(inner) ? inner : {};
  const description = body['description'] === undefined ? {} : { description: body['description'] };
  switch (member) {
    case 'httpAuthSecurityScheme':
      return { type: 'http', scheme: field(body, 'scheme'), ...description };
    case 'apiKeySecurityScheme':
      return { type: 'apiKey', name: field(body, 'name'), in: field(body, 'location'), ...description };
    case 'openIdConnectSecurityScheme':
      return { type: 'openIdConnect', openIdConnectUrl: field(body, 'openIdConnectUrl'), ...description };
    case 'mtlsSecurityScheme':
      return { type: 'mutualTLS', ...description };
    default:
      return { type: 'oauth2', flows: field(body, 'flows') ?? {}, ...description };
  }
}

function requirements(list: readonly unknown[]): Json[] {
  return list.map((entry) => {
    const schemes = isObject(entry) && isObject(entry['schemes']) ? entry['schemes'] : {};
    return Object.fromEntries(
      Object.entries(schemes).map(([name, scopes]) => [name, isObject(scopes) ? (scopes['list'] ?? []) : []]),
    );
  });
}

/**
The v0.3 card of a v1.0 card, listing the interfaces over `bindings` only (those the v0.3 mode serves): the
first is the preferred one, the rest (each with its binding as `transport`) follow in `additionalInterfaces`,
and every one speaks v0.3.

@example
```ts
const card = v03Card(buildAgentCard({ origin: 'http://127.0.0.1:4000', mode: 'honouring', extended: false }), ['JSONRPC']);
card.url; // 'http://127.0.0.1:4000/a2a/jsonrpc'
card.protocolVersion; // '0.3.0'
```
*/
export function v03Card(card: WireAgentCard, bindings: readonly string[]): Json {
  const [preferred, ...others] = card.supportedInterfaces.filter((entry) =>
    bindings.includes(entry.protocolBinding),
  );
  const { extendedAgentCard, ...capabilities } = card.capabilities;
  return {
    protocolVersion: v03ProtocolVersion,
    name: card.name,
    description: card.description.replace('A2A v1.0', 'A2A v0.3'),
    url: preferred?.url,
    preferredTransport: preferred?.protocolBinding,
    ...(others.length === 0
      ? {}
      : {
          additionalInterfaces: others.map((entry) => ({ url: entry.url, transport: entry.protocolBinding })),
        }),
    ...(card.provider === undefined ? {} : { provider: card.provider }),
    version: card.version,
    ...(card.documentationUrl === undefined ? {} : { documentationUrl: card.documentationUrl }),
    capabilities,
    securitySchemes: Object.fromEntries(
      Object.entries(card.securitySchemes).map(([name, value]) => [name, scheme(value)]),
    ),
    security: requirements(card.securityRequirements ?? []),
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map(({ securityRequirements, ...skill }) => ({
      ...skill,
      ...(securityRequirements === undefined ? {} : { security: requirements(securityRequirements) }),
    })),
    supportsAuthenticatedExtendedCard: extendedAgentCard === true,
  };
}
