/**
@module
A v0.3 agent card as the v1.0 card the client reads (read by `bindings/v03/versions.ts` for discovery, and for
the extended card by the v0.3 binding). v0.3 names one interface at the top (`url`, `preferredTransport`,
default `JSONRPC`) and more in `additionalInterfaces` (`{ url, transport }`), all of the card's one
`protocolVersion`; its security schemes are OpenAPI's, told apart by `type`; its requirements map scheme names
to scope lists; `supportsAuthenticatedExtendedCard` is v1.0's `capabilities.extendedAgentCard`. The interfaces
become `supportedInterfaces` entries of version `0.3`, the preferred one first (A2A spec §8.3.2: the client
takes the first it supports). What v0.3 says that v1.0 cannot (several OAuth flows in one scheme) is refused
with a violation; the rest is left to the v1.0 card contract, which the mapped card then passes or fails like
any other (docs/protocol-checks.md#agent-card).
*/
import { isJsonObject, type JsonObject, type JsonValue } from '../json-value.js';
import { jsonName } from '../protojson.js';
import { Refusal, type V03Mapping, violationOf } from './refusal.js';

function present(source: JsonObject, names: readonly string[]): JsonObject {
  const kept: JsonObject = {};
  for (const name of names) {
    const value = source[name];
    if (value !== undefined && value !== null) {
      kept[name] = value;
    }
  }
  return kept;
}

function objectOr(value: JsonValue | undefined, path: string): JsonObject {
  if (value === undefined || value === null) {
    return {};
  }
  if (!isJsonObject(value)) {
    throw new Refusal('invalid_type', path);
  }
  return value;
}

function listOr(value: JsonValue | undefined, path: string): readonly JsonValue[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw new Refusal('invalid_type', path);
  }
  return value;
}

const flowNames = ['authorizationCode', 'clientCredentials', 'implicit', 'password'] as const;

function openApiScheme(value: JsonValue, path: string): JsonObject {
  const source = objectOr(value, path);
  const described = present(source, ['description']);
  switch (source['type']) {
    case 'apiKey':
      return {
        apiKeySecurityScheme: { ...described, ...present(source, ['name']), location: source['in'] ?? null },
      };
    case 'http':
      return { httpAuthSecurityScheme: { ...described, ...present(source, ['scheme', 'bearerFormat']) } };
    case 'openIdConnect':
      return { openIdConnectSecurityScheme: { ...described, ...present(source, ['openIdConnectUrl']) } };
    case 'mutualTLS':
      return { mtlsSecurityScheme: described };
    case 'oauth2': {
      const flows = objectOr(source['flows'], `${path}.flows`);
      const named = flowNames.filter((name) => flows[name] !== undefined && flows[name] !== null);
      // v1.0's OAuthFlows is a oneof; a v0.3 scheme offering two flows cannot be said as one scheme.
      if (named.length > 1) {
        throw new Refusal('oneof-many', `${path}.flows`);
      }
      const flow = named[0];
      return {
        oauth2SecurityScheme: {
          ...described,
          ...present(source, ['oauth2MetadataUrl']),
          flows: flow === undefined ? {} : { [flow]: flows[flow] ?? null },
        },
      };
    }
    default:
      throw new Refusal(source['type'] == null ? 'required' : 'oneof-unknown', `${path}.type`);
  }
}

function scopeLists(value: JsonValue | undefined, path: string): JsonValue[] {
  return listOr(value, path).map((entry, index) => {
    const schemes: JsonObject = {};
    for (const [name, scopes] of Object.entries(objectOr(entry, `${path}[${index}]`))) {
      schemes[name] = { list: scopes };
    }
    return { schemes };
  });
}

function interfaces(source: JsonObject): JsonValue[] {
  const version = source['protocolVersion'] ?? null;
  const preferred = {
    url: source['url'] ?? null,
    protocolBinding: source['preferredTransport'] ?? 'JSONRPC',
  };
  const more = listOr(source['additionalInterfaces'], '$.additionalInterfaces').map((entry, index) => {
    const item = objectOr(entry, `$.additionalInterfaces[${index}]`);
    return { url: item['url'] ?? null, protocolBinding: item['transport'] ?? null };
  });
  // v0.3 lets additionalInterfaces repeat the preferred one; v1.0 lists each interface once.
  const rest = more.filter(
    (entry) => entry.url !== preferred.url || entry.protocolBinding !== preferred.protocolBinding,
  );
  return [preferred, ...rest].map((entry) => ({ ...entry, protocolVersion: version }));
}

/**
A v0.3 card (the one a v0.3 agent serves, or a v0.3 `agent/getAuthenticatedExtendedCard` answer) as the
v1.0 card's JSON, for the v1.0 card contract to decode.

@example
```ts
const mapped = cardFromV03(v03Card);
if (mapped.ok) {
  const card = parseAgentCard(mapped.value); // supportedInterfaces[0] is the v0.3 card's `url`
}
```
*/
export function cardFromV03(raw: JsonValue): V03Mapping {
  return readCard(raw, false);
}

/**
The v0.3 proto's AgentCard in ProtoJSON (`GET /v1/card` over v0.3 HTTP+JSON) as the v1.0 card's JSON: the
members of the v0.3 JSON card, but with the proto's security schemes (`{ httpAuthSecurityScheme: … }`) and
requirements (`{ schemes: { name: { list } } }`), which are v1.0's own and are passed on as they are.

@example
```ts
const mapped = protoCardFromV03({ protocolVersion: '0.3.0', url: 'https://agent.example/a2a/rest', preferredTransport: 'HTTP+JSON', … });
```
*/
export function protoCardFromV03(raw: JsonValue): V03Mapping {
  return readCard(raw, true);
}

// ProtoJSON may name a member by its proto field name (`preferred_transport`): the card's own members are
// read by their JSON names, and a member named both ways is refused, as the v1.0 reading refuses it
// (docs/protocol-checks.md#protojson).
function camel(source: JsonObject, path: string): JsonObject {
  const named: JsonObject = {};
  for (const [key, value] of Object.entries(source)) {
    const name = jsonName(key);
    if (Object.hasOwn(named, name)) {
      throw new Refusal('duplicate-key', `${path}.${name}`);
    }
    named[name] = value;
  }
  return named;
}

function readCard(raw: JsonValue, proto: boolean): V03Mapping {
  const read = (value: JsonValue | undefined, path: string) =>
    proto ? camel(objectOr(value, path), path) : objectOr(value, path);
  const scheme = proto ? objectOr : openApiScheme;
  const requirements = proto
    ? (value: JsonValue | undefined, path: string) => [...listOr(value, path)]
    : scopeLists;
  try {
    const source = read(raw, '$');
    const capabilities = read(source['capabilities'], '$.capabilities');
    const extended = source['supportsAuthenticatedExtendedCard'] ?? false;
    if (typeof extended !== 'boolean') {
      throw new Refusal('invalid_type', '$.supportsAuthenticatedExtendedCard');
    }
    const schemes: JsonObject = {};
    for (const [name, value] of Object.entries(objectOr(source['securitySchemes'], '$.securitySchemes'))) {
      schemes[name] = scheme(value, '$.securitySchemes[*]');
    }
    const skills = listOr(source['skills'], '$.skills').map((entry, index) => {
      const skill = read(entry, `$.skills[${index}]`);
      const { security, ...rest } = skill;
      return {
        ...rest,
        ...(security === undefined || security === null
          ? {}
          : { securityRequirements: requirements(security, `$.skills[${index}].security`) }),
      };
    });
    const value: JsonObject = {
      ...present(source, [
        'name',
        'description',
        'provider',
        'version',
        'documentationUrl',
        'defaultInputModes',
        'defaultOutputModes',
        'signatures',
        'iconUrl',
      ]),
      supportedInterfaces: interfaces(source),
      capabilities: {
        ...present(capabilities, ['streaming', 'pushNotifications', 'extensions']),
        extendedAgentCard: extended,
      },
      securitySchemes: schemes,
      securityRequirements: requirements(source['security'], '$.security'),
      skills,
    };
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: violationOf(error) };
  }
}
