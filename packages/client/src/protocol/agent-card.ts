import * as z from 'zod/mini';
import { contractBounds } from './bounds.js';
import { boundedMessage, boundedStruct } from './json-value.js';
import {
  Bool,
  type CheckPayload,
  checkUnique,
  items,
  protoMap,
  protoString,
  violate,
  wireObject,
} from './scalars.js';
import { SecurityRequirements, SecurityScheme } from './security-scheme.js';
import {
  Description,
  Id,
  isAbsoluteUrl,
  Label,
  label,
  MediaType,
  prose,
  RequiredDescription,
  Uri,
  Url,
} from './text.js';

/**
The bindings this client speaks; an interface with another binding (e.g. `GRPC`, whose url is `host:port`) is
kept but never selected.
*/
const SPOKEN_BINDINGS: ReadonlySet<string> = new Set(['JSONRPC', 'HTTP+JSON']);

/**
One way to reach the agent (A2A spec §8.3, §4.4.6): a URL, an open-ended `protocolBinding` (`JSONRPC`,
`HTTP+JSON`, `GRPC`, or a URI), a `protocolVersion` like `1.0`, and an optional `tenant`. For a binding this
client speaks, the URL must be absolute, with a host and no userinfo (docs/protocol-checks.md#agent-card).

@example
```ts
const jsonRpc: AgentInterface = { url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' };
```
*/
export const AgentInterface = wireObject({
  url: label(contractBounds.urlBytes),
  protocolBinding: Label,
  tenant: z.optional(Id),
  protocolVersion: Label,
}).check((payload) => {
  if (SPOKEN_BINDINGS.has(payload.value.protocolBinding.toUpperCase()) && !isAbsoluteUrl(payload.value.url)) {
    violate(payload, 'interface-url', ['url']);
  }
});
/** One way to reach the agent. */
export type AgentInterface = z.infer<typeof AgentInterface>;

/** Who runs the agent. */
export const AgentProvider = wireObject({
  url: Url,
  organization: Label,
});
/** Who runs the agent. */
export type AgentProvider = z.infer<typeof AgentProvider>;

/**
A protocol extension the agent supports (A2A spec §4.6, §4.4.4). The proto marks nothing REQUIRED, but an
extension without a URI cannot be requested, so `uri` is required here (docs/protocol-checks.md#agent-card);
`required` is a plain bool, missing reads `false`.

@example
```ts
const idempotency: AgentExtension = { uri: 'https://a2a-rust.com/extensions/idempotency/v1', required: false };
```
*/
export const AgentExtension = wireObject({
  uri: Uri,
  description: z.optional(Description),
  required: z._default(Bool, false),
  params: z.optional(boundedStruct(contractBounds.metadataEntries, contractBounds.metadataBytes)),
});
/** A protocol extension the agent supports. */
export type AgentExtension = z.infer<typeof AgentExtension>;

/**
What the agent can do beyond the core operations (A2A spec §3.3.4, §4.4.3). The three flags are
`optional bool`s and a missing one is treated as false by the spec, so they read `false`; `extensions` reads
`[]` when missing, URIs unique.

@example
```ts
if (!card.capabilities.streaming) {
  // neither SendStreamingMessage nor SubscribeToTask may be called
}
```
*/
export const AgentCapabilities = wireObject(
  {
    streaming: z._default(Bool, false),
    pushNotifications: z._default(Bool, false),
    extensions: z._default(
      items(AgentExtension, 0, contractBounds.extensions).check((payload) => {
        checkUnique(payload, (extension) => extension.uri, 'uri');
      }),
      () => [],
    ),
    extendedAgentCard: z._default(Bool, false),
  },
  ['streaming', 'pushNotifications', 'extendedAgentCard'],
);
/** What the agent can do beyond the core operations. */
export type AgentCapabilities = z.infer<typeof AgentCapabilities>;

/** Input or output modes: media types, ≤ 64. */
const Modes = items(MediaType, 0, contractBounds.modes);

/**
A focused ability of the agent (A2A spec §4.4.5). `inputModes`, `outputModes` and `securityRequirements` stay
optional: their absence means "the card's", which an empty default would erase.

@example
```ts
const skill: AgentSkill = { id: 'summarise', name: 'Summarise', description: 'Summarises documents.', tags: ['text'] };
```
*/
export const AgentSkill = wireObject({
  id: Id,
  name: Label,
  description: RequiredDescription,
  tags: items(Label, 1, contractBounds.tagsPerSkill),
  examples: z.optional(
    items(prose(contractBounds.descriptionBytes, { required: true }), 0, contractBounds.tagsPerSkill),
  ),
  inputModes: z.optional(Modes),
  outputModes: z.optional(Modes),
  securityRequirements: z.optional(SecurityRequirements),
});
/** A focused ability of the agent. */
export type AgentSkill = z.infer<typeof AgentSkill>;

// JWS compact parts are base64url without padding (RFC 7515 §2).
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const JwsPart = protoString().check((payload) => {
  if (payload.value.length > contractBounds.signatureBytes) {
    violate(payload, 'max-bytes');
  } else if (!BASE64URL.test(payload.value)) {
    violate(payload, 'base64');
  }
});

/**
A JWS signature over the card (A2A spec §8.4, §4.4.7): the base64url `protected` header, the `signature`, and
an optional unprotected `header`.

@example
```ts
const signature: AgentCardSignature = { protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2lnbmF0dXJl' };
```
*/
export const AgentCardSignature = wireObject({
  protected: JwsPart,
  signature: JwsPart,
  header: z.optional(boundedStruct(contractBounds.metadataEntries, contractBounds.metadataBytes)),
});
/** A JWS signature over the card. */
export type AgentCardSignature = z.infer<typeof AgentCardSignature>;

const Interfaces = items(AgentInterface, 1, contractBounds.interfaces).check((payload) => {
  // Two entries that agree on everything the client selects by are one entry listed twice
  // (docs/protocol-checks.md#agent-card).
  checkUnique(
    payload,
    (entry) =>
      JSON.stringify([entry.url, entry.protocolBinding, entry.protocolVersion, entry.tenant ?? null]),
    'url',
  );
});

const SecuritySchemes = protoMap(Label, SecurityScheme, contractBounds.securityEntries);

const CardObject = wireObject(
  {
    name: Label,
    description: RequiredDescription,
    supportedInterfaces: Interfaces,
    provider: z.optional(AgentProvider),
    version: Label,
    documentationUrl: z.optional(Url),
    capabilities: AgentCapabilities,
    // A missing map or list means "none", exactly like an empty one (security selection treats both as
    // "anonymous allowed"), so both read empty.
    securitySchemes: z._default(SecuritySchemes, () => ({})),
    securityRequirements: z._default(SecurityRequirements, () => []),
    defaultInputModes: items(MediaType, 1, contractBounds.modes),
    defaultOutputModes: items(MediaType, 1, contractBounds.modes),
    skills: items(AgentSkill, 1, contractBounds.skills).check((payload) => {
      checkUnique(payload, (skill) => skill.id, 'id');
    }),
    signatures: z._default(items(AgentCardSignature, 0, contractBounds.signatures), () => []),
    iconUrl: z.optional(Url),
  },
  ['documentationUrl', 'iconUrl'],
).check((payload) => {
  const card = payload.value;
  checkSchemeNames(payload, card.securityRequirements, card.securitySchemes, ['securityRequirements']);
  card.skills.forEach((skill, index) => {
    checkSchemeNames(payload, skill.securityRequirements ?? [], card.securitySchemes, [
      'skills',
      index,
      'securityRequirements',
    ]);
  });
});

// Every scheme a requirement names must be declared by the card (docs/protocol-checks.md#agent-card); the
// path stops at the alternative, since the name is the peer's text.
function checkSchemeNames(
  payload: CheckPayload,
  requirements: readonly { readonly schemes: Readonly<Record<string, unknown>> }[],
  declared: Readonly<Record<string, unknown>>,
  path: readonly PropertyKey[],
): void {
  requirements.forEach((requirement, index) => {
    for (const name of Object.keys(requirement.schemes)) {
      if (!Object.hasOwn(declared, name)) {
        violate(payload, 'unknown-security-scheme', [...path, index, 'schemes']);
        return;
      }
    }
  });
}

/**
An agent’s self-description (A2A spec §8, §4.4.1), held to the full card contract of
docs/protocol-checks.md#agent-card: at most 1 MiB as compact JSON, 1..16 interfaces, 1..256 skills with unique
ids, bounded text everywhere, every security requirement naming a declared scheme. Descriptions are prose:
line breaks are allowed (see `prose` in `scalars.ts`).

@example
```ts
const card = parseAgentCard(json);
const first = card.supportedInterfaces[0];
```
*/
export const AgentCard = boundedMessage(CardObject, contractBounds.agentCardBytes);
/** An agent's self-description. */
export type AgentCard = z.infer<typeof AgentCard>;
