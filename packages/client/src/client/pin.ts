/**
@module
The pin: the one interface of the card a client talks to, named by the caller or chosen by discovery, and the
rules both hold it to (docs/protocol-checks.md#discovery-steps, steps 11-12).
*/
import type { AdmittedVersions, GrpcBindingProvider } from '../bindings/binding.js';
import { OptionsError } from '../core/errors.js';
import type { AgentCard, AgentInterface } from '../protocol/agent-card.js';
import { isAbsoluteUrl } from '../protocol/text.js';
import type { ProtocolBinding } from './security.js';

/**
The one interface the client talks to: a binding, its URL and its tenant, exactly as the card lists them
(docs/protocol-checks.md#discovery-steps, step 12).

@example
```ts
const pin: InterfacePin = { binding: 'HTTP+JSON', url: 'https://partner.example/a2a', tenant: 'acme' };
```
*/
export type InterfacePin = {
  readonly binding: ProtocolBinding;
  /**
  An absolute `http(s)` URL with no userinfo, query or fragment; compared with the card's after WHATWG
  parsing, so `https://h:443/a2a` equals `https://h/a2a` but `/a2a/` does not equal `/a2a`.
  */
  readonly url: string;
  /** The interface's tenant: both absent, or byte-equal. */
  readonly tenant?: string;
};

/** An {@link InterfacePin} after {@link resolvePin}: frozen, its URL WHATWG-serialized. */
export type ResolvedPin = {
  readonly binding: ProtocolBinding;
  /** The pin's URL, WHATWG-serialized. */
  readonly url: string;
  readonly tenant: string | undefined;
  /**
  The interface's `protocolVersion`: `1.0`, or a 0.3 release (`0.3`, `0.3.x`) spoken through the v0.3
  binding.
  */
  readonly version: string;
};

function pinUrl(url: unknown): URL {
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' && isAbsoluteUrl(url) ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  // A pin names an interface, never a query or a fragment (docs/protocol-checks.md#discovery-steps: pins
  // cannot carry one).
  if (
    parsed === undefined ||
    (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') ||
    parsed.search !== '' ||
    parsed.hash !== '' ||
    (url as string).includes('#') ||
    (url as string).includes('?')
  ) {
    throw new OptionsError('pin.url', 'malformed');
  }
  return parsed;
}

function sameUrl(listed: string, pinned: URL): boolean {
  try {
    return new URL(listed).href === pinned.href;
  } catch {
    return false;
  }
}

/**
Whether a client speaks `binding`: JSON-RPC and HTTP+JSON always, gRPC when given its binding
(docs/protocol-checks.md#grpc).

@example
```ts
speaks('GRPC', undefined); // false
```
*/
export function speaks(binding: unknown, grpc: GrpcBindingProvider | undefined): binding is ProtocolBinding {
  // The provider names its binding (`GRPC`), so a value that is no provider speaks none.
  return binding === 'JSONRPC' || binding === 'HTTP+JSON' || (!!grpc && binding === grpc.protocolBinding);
}

// 1.0 alone: an interface listed as exactly `1.0` over a binding the client has.
const v10 = (entry: AgentInterface, speaking: boolean) =>
  speaking && entry.protocolVersion === '1.0' ? '1.0' : undefined;

/**
The interface of `entries` a client speaks, the first in 1.0, else the first in 0.3 where it is admitted (A2A
spec §8.3.2: the first entry a client supports; docs/protocol-checks.md#v03-peers: 1.0 wherever it is
offered).

@example
```ts
preferredInterface(card.supportedInterfaces, undefined, undefined); // the first 1.0 JSON-RPC or HTTP+JSON entry
```
*/
export function preferredInterface(
  entries: readonly AgentInterface[],
  grpc: GrpcBindingProvider | undefined,
  versions: AdmittedVersions | undefined,
): (AgentInterface & { readonly protocolBinding: ProtocolBinding }) | undefined {
  const spoken = (version: string) =>
    entries.find(
      (entry: AgentInterface): entry is AgentInterface & { readonly protocolBinding: ProtocolBinding } =>
        (versions?.versionOf ?? v10)(entry, speaks(entry.protocolBinding, grpc)) === version,
    );
  return spoken('1.0') ?? spoken('0.3');
}

/**
`pin` checked against `card`: one of its interfaces in an admitted version, on a binding this client speaks,
spoken in 1.0 where the card lists it in both.
*/
export function resolvePin(
  card: AgentCard,
  pin: InterfacePin,
  grpc: GrpcBindingProvider | undefined,
  versions: AdmittedVersions | undefined,
): ResolvedPin {
  if (pin === null || typeof pin !== 'object') {
    throw new OptionsError('pin', 'malformed');
  }
  if (!speaks(pin.binding, grpc)) {
    throw new OptionsError('pin.binding', 'unsupported');
  }
  if (pin.tenant !== undefined && typeof pin.tenant !== 'string') {
    throw new OptionsError('pin.tenant', 'malformed');
  }
  const url = pinUrl(pin.url);
  // docs/protocol-checks.md#discovery-steps, steps 11-12: same binding (exact spelling), an admitted version
  // (exactly 1.0, or 0.3 through the v0.3 binding), same parsed URL, same tenant.
  const listed = preferredInterface(
    card.supportedInterfaces.filter(
      (entry: AgentInterface) =>
        entry.protocolBinding === pin.binding && entry.tenant === pin.tenant && sameUrl(entry.url, url),
    ),
    grpc,
    versions,
  );
  if (!listed) {
    throw new OptionsError('pin', 'not-in-card');
  }
  return Object.freeze({
    binding: pin.binding,
    url: url.href,
    tenant: pin.tenant,
    version: listed.protocolVersion,
  });
}
