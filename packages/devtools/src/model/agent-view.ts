/**
@module
The Agent panel's model: what the client was built from (its card, the card's digest, the pinned interface,
the security choice, the extensions) and whether the peer honours idempotency keys, read from the client's
public fields and from what the devtools know of the connection.
*/
import type { AgentCard, InterfacePin, ProtocolBinding } from '@surecall/client';
import { idempotencyExtensionUri } from '@surecall/client/idempotency';

/** The public fields of a client the panel reads; `honoursIdempotency` is read when the client has it. */
export type AgentSource = {
  readonly card: AgentCard;
  readonly cardDigest: string;
  readonly binding: ProtocolBinding;
};

/** The security a client was built with, without its token. */
export type SecurityChoice =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'bearer'; readonly scheme: string };

/**
How a card was trusted: TLS (an `https:` card URL), a digest given beforehand, or the digest of the first
fetch (a loopback `http:` card, which TLS cannot vouch for).
*/
export type TrustChoice = 'tls' | 'expected-digest' | 'first-fetch-digest';

/**
How the card was asked for (docs/interop.md#browsers): `versioned`, a GET carrying `A2A-Version: 1.0`, or
`plain-fallback`, the one plain GET discovery sends after the agent refused the CORS preflight that header
causes (a `card-fallback` event).
*/
export type CardRequest = 'versioned' | 'plain-fallback';

/** What whoever built the client knows and the client does not publish. */
export type ConnectionFacts = {
  readonly cardUrl?: string;
  readonly trust?: TrustChoice;
  readonly cardRequest?: CardRequest;
  readonly pin?: InterfacePin;
  readonly security?: SecurityChoice;
  /** The extension URIs the client requests. */
  readonly extensions?: readonly string[];
};

/** One interface of the card. */
export type InterfaceRow = {
  readonly url: string;
  readonly binding: string;
  readonly version: string;
  readonly tenant: string | undefined;
  readonly pinned: boolean;
};

/** One extension of the card. */
export type ExtensionRow = {
  readonly uri: string;
  readonly description: string | undefined;
  readonly required: boolean;
  /** Whether the client requests it; `undefined` when that is not known. */
  readonly requested: boolean | undefined;
};

/** `yes`/`no` once the client says so; `unknown` until it does. */
export type Honouring = 'yes' | 'no' | 'unknown';

/** Everything the Agent panel shows. */
export type AgentView = {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly provider: string | undefined;
  readonly digest: string;
  readonly cardUrl: string | undefined;
  readonly trust: TrustChoice | undefined;
  readonly cardRequest: CardRequest | undefined;
  readonly binding: ProtocolBinding;
  readonly interfaces: readonly InterfaceRow[];
  /**
  `connection` when the pin is known (from whoever built the client, or from the client itself); `inferred`
  when the card has exactly one 1.0 interface of the client's binding; `ambiguous` otherwise.
  */
  readonly pinSource: 'connection' | 'inferred' | 'ambiguous';
  readonly security: SecurityChoice | undefined;
  readonly securitySchemes: readonly string[];
  readonly extensions: readonly ExtensionRow[];
  readonly capabilities: {
    readonly streaming: boolean;
    readonly pushNotifications: boolean;
    readonly extendedAgentCard: boolean;
  };
  readonly skills: readonly { readonly id: string; readonly name: string; readonly description: string }[];
  readonly idempotency: { readonly honours: Honouring; readonly advertised: boolean };
};

function sameUrl(left: string, right: string): boolean {
  try {
    return new URL(left).href === new URL(right).href;
  } catch {
    return false;
  }
}

/**
Whether the client says the peer honours idempotency keys: its `honoursIdempotency` field when it has one as a
boolean, else `unknown`.

@example
```ts
honours({ honoursIdempotency: true }); // 'yes'
honours({}); // 'unknown'
```
*/
export function honours(client: object): Honouring {
  const value: unknown = 'honoursIdempotency' in client ? client.honoursIdempotency : undefined;
  if (typeof value !== 'boolean') {
    return 'unknown';
  }
  return value ? 'yes' : 'no';
}

/**
The interface the client reports it is pinned to, when it has a public `pin` of that shape; `undefined`
otherwise.

@example
```ts
reportedPin({ pin: { binding: 'JSONRPC', url: 'https://h/a2a' } }); // { binding: 'JSONRPC', url: 'https://h/a2a' }
```
*/
export function reportedPin(client: object): InterfacePin | undefined {
  const pin: unknown = 'pin' in client ? client.pin : undefined;
  if (typeof pin !== 'object' || pin === null || !('binding' in pin) || !('url' in pin)) {
    return undefined;
  }
  const { binding, url } = pin;
  const tenant: unknown = 'tenant' in pin ? pin.tenant : undefined;
  if ((binding !== 'JSONRPC' && binding !== 'HTTP+JSON') || typeof url !== 'string') {
    return undefined;
  }
  return { binding, url, ...(typeof tenant === 'string' ? { tenant } : {}) };
}

/**
The Agent panel's view of a client.

@example
```ts
const view = agentView(client, { cardUrl, pin, security: { kind: 'anonymous' }, extensions: [] });
view.pinSource; // 'connection'
```
*/
export function agentView(client: AgentSource, facts: ConnectionFacts = {}): AgentView {
  const { card } = client;
  const candidates = card.supportedInterfaces.filter(
    (entry) => entry.protocolVersion === '1.0' && entry.protocolBinding === client.binding,
  );
  const pin = facts.pin ?? reportedPin(client);
  const isPinned = (entry: AgentCard['supportedInterfaces'][number]): boolean =>
    pin === undefined
      ? candidates.length === 1 && candidates[0] === entry
      : entry.protocolBinding === pin.binding &&
        entry.protocolVersion === '1.0' &&
        entry.tenant === pin.tenant &&
        sameUrl(entry.url, pin.url);
  return {
    name: card.name,
    description: card.description,
    version: card.version,
    provider: card.provider?.organization,
    digest: client.cardDigest,
    cardUrl: facts.cardUrl,
    trust: facts.trust,
    cardRequest: facts.cardRequest,
    binding: client.binding,
    interfaces: card.supportedInterfaces.map((entry) => ({
      url: entry.url,
      binding: entry.protocolBinding,
      version: entry.protocolVersion,
      tenant: entry.tenant,
      pinned: isPinned(entry),
    })),
    pinSource: pin !== undefined ? 'connection' : candidates.length === 1 ? 'inferred' : 'ambiguous',
    security: facts.security,
    securitySchemes: Object.keys(card.securitySchemes),
    extensions: card.capabilities.extensions.map((extension) => ({
      uri: extension.uri,
      description: extension.description,
      required: extension.required,
      requested: facts.extensions === undefined ? undefined : facts.extensions.includes(extension.uri),
    })),
    capabilities: {
      streaming: card.capabilities.streaming,
      pushNotifications: card.capabilities.pushNotifications,
      extendedAgentCard: card.capabilities.extendedAgentCard,
    },
    skills: card.skills.map((skill) => ({ id: skill.id, name: skill.name, description: skill.description })),
    idempotency: {
      honours: honours(client),
      advertised: card.capabilities.extensions.some((extension) => extension.uri === idempotencyExtensionUri),
    },
  };
}
