/**
@module
`discover()`, the way to build a client from an agent's published card
(docs/protocol-checks.md#discovery-steps; A2A spec §8.2, §8.3.2): validate the options before any I/O, fetch
one bounded public card, digest it, check it, select one interface, match it against the caller's egress pins,
validate the extensions and the security choice, and freeze all of it into an `A2aClient`.
*/

import { type A2aClient, createClient } from '../client/client.js';
import type { DiscoveryEvent } from '../client/events.js';
import { loadDeferred } from '../client/loader.js';
import {
  type AdmittedVersions,
  CARD_DIGEST,
  type ClientOptions,
  extensionProblem,
  resolveVersions,
} from '../client/options.js';
import { type InterfacePin, preferredInterface, speaks } from '../client/pin.js';
import { checkSecurityShape, resolveSecurity, type SecurityOptions } from '../client/security.js';
import {
  type DiscoveryDetail,
  DiscoveryError,
  type DiscoveryFix,
  type DiscoveryReason,
  type EndpointRule,
  OptionsError,
} from '../core/errors.js';
import type { JsonValue } from '../core/json-value.js';
import { type LimitsOptions, resolveLimits } from '../core/limits.js';
import { optionalMembers } from '../core/optional-members.js';
import type { AgentCard } from '../protocol/agent-card.js';
import { contractBounds } from '../protocol/bounds.js';
import { labelRule } from '../protocol/text.js';
import type { FetchFunction } from '../wire/http.js';
import { checkCardFetch, decodeCard, fetchCardJson } from './card-fetch.js';
import { cardDigest } from './digest.js';
import { endpointRule, isLiteralLoopback, sameEndpoint, tenantRule } from './endpoint.js';

/**
How the fetched card is trusted (docs/protocol-checks.md#card-trust). `tls`: the verified HTTPS server
identity plus an exact interface pin; the card URL must be `https:`. `digest`: on top of that, the card's
digest must equal a separately provisioned value. `first-fetch`, for local development only: with
`loopback: true` and a card URL on a literal loopback address (127.0.0.0/8, `[::1]`), the card this fetch
returns is trusted as it is, and its digest is `client.cardDigest` (a process on this machine is trusted
already; nothing crosses the network).

@example
```ts
const trust: CardTrust = { kind: 'digest', digest: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' };
const local: CardTrust = { kind: 'first-fetch' }; // with loopback: true and http://127.0.0.1:4100/.well-known/agent-card.json
```
*/
export type CardTrust =
  | { readonly kind: 'tls' }
  | { readonly kind: 'digest'; readonly digest: string }
  | { readonly kind: 'first-fetch' };

/**
Where the card is fetched from, and how.

@example
```ts
const options: FetchAgentCardOptions = { cardUrl: 'https://partner.example/.well-known/agent-card.json' };
```
*/
export type FetchAgentCardOptions = {
  /**
  The card URL: `https:`, no userinfo, query or fragment, the path exactly `/.well-known/agent-card.json`.
  */
  readonly cardUrl: string;
  /**
  Admit `http:` to a literal loopback address (127.0.0.0/8, `[::1]`; never `localhost`), for tests and
  sidecars; `https:` stays admitted. @default false
  */
  readonly loopback?: boolean;
  /**
  Overrides of the bounds table; the fetch uses `discoveryTimeoutMs`, `responseBodyBytes` and the `json*`
  bounds. @default {}
  */
  readonly limits?: LimitsOptions;
  /** Cancels the fetch. */
  readonly signal?: AbortSignal;
  /**
  Told what the card fetch did besides its one GET: a `card-fallback` when a browser's cross-origin card
  request with `A2A-Version` failed and the card was fetched again without it
  (docs/interop.md#browsers). What it throws is swallowed. @default none
  */
  readonly onEvent?: (event: DiscoveryEvent) => void;
  /**
  The `fetch` to fetch the card with, as `ClientOptions.fetch`; `discover()` hands it on to the client.
  `ClientOptions.headers` never applies to the card: it is no A2A operation. @default globalThis.fetch, looked
  up per request
  */
  readonly fetch?: FetchFunction;
} & Pick<ClientOptions, 'protocolVersions' | 'v03'>;

/**
Everything `discover()` takes: the card URL, the egress pins, the trust mode and every `createClient` option
but the three discovery decides (`card`, `cardDigest`, `pin`), which pass through unchanged.

@example
```ts
const options: DiscoverOptions = {
  cardUrl: 'https://partner.example/.well-known/agent-card.json',
  pins: [{ binding: 'HTTP+JSON', url: 'https://partner.example/a2a' }],
  trust: { kind: 'tls' },
  security: { kind: 'anonymous' },
};
```
*/
export type DiscoverOptions = Omit<ClientOptions, 'card' | 'cardDigest' | 'pin'> &
  FetchAgentCardOptions & {
    /**
    The interfaces this caller may talk to, 1 to 16, each `(binding, url, tenant)` once; the card's preferred
    interface must be one of them.
    */
    readonly pins: readonly InterfacePin[];
    readonly trust: CardTrust;
  };

/**
A fetched card: the JSON exactly as parsed (what signatures and the digest cover), the decoded card, and its
digest.

@example
```ts
const { raw, card, digest } = await fetchAgentCard({ cardUrl });
```
*/
export type FetchedAgentCard = {
  /** The parsed card, unknown members and `signatures` included. */
  readonly raw: JsonValue;
  /** The card, decoded with the full card contract. */
  readonly card: AgentCard;
  /** `sha256:` and 64 lowercase hex digits (docs/protocol-checks.md#card-trust). */
  readonly digest: string;
};

// ARCHITECTURE.md#bounds: at most 16 interface pins.
const MAX_PINS = 16;

const loopbackFix: DiscoveryFix = { option: 'loopback', value: true };

// The refusal of an endpoint that broke `rule` (docs/protocol-checks.md#endpoints), with `loopback` as its
// fix where `loopback: true` admits it: an `http:` URL to a literal loopback address.
function endpointRefusal(
  reason: DiscoveryReason,
  rule: EndpointRule,
  url: unknown,
  role: 'card' | 'interface',
  option?: string,
): DiscoveryError {
  const admits = rule === 'https-required' && endpointRule(url, { role, loopback: true }) === undefined;
  return new DiscoveryError(reason, { detail: rule, option, fix: admits ? loopbackFix : undefined });
}

function checkCardUrl(cardUrl: unknown, loopback: boolean): void {
  const rule = endpointRule(cardUrl, { role: 'card', loopback });
  if (rule !== undefined) {
    throw endpointRefusal('Discovery', rule, cardUrl, 'card', 'cardUrl');
  }
}

function checkLoopback(loopback: unknown): boolean {
  if (loopback !== undefined && typeof loopback !== 'boolean') {
    throw new OptionsError('loopback', 'malformed');
  }
  return loopback ?? false;
}

// docs/protocol-checks.md#discovery-steps, step 1 (with the endpoint rules of
// docs/protocol-checks.md#endpoints for each pin).
function checkPins(pins: readonly InterfacePin[], loopback: boolean, grpc: ClientOptions['grpc']): void {
  if (!Array.isArray(pins)) {
    throw new OptionsError('pins', 'malformed');
  }
  if (pins.length === 0) {
    throw new DiscoveryError('MissingInterfacePin', { option: 'pins' });
  }
  if (pins.length > MAX_PINS) {
    throw new DiscoveryError('TooManyInterfacePins', { option: 'pins' });
  }
  pins.forEach((pin: InterfacePin, index) => {
    if (pin === null || typeof pin !== 'object') {
      throw new OptionsError(`pins.${index}`, 'malformed');
    }
    if (!speaks(pin.binding, grpc)) {
      throw new OptionsError(`pins.${index}.binding`, 'unsupported');
    }
    const rule = endpointRule(pin.url, { role: 'interface', loopback });
    if (rule !== undefined) {
      throw endpointRefusal('InterfacePinMismatch', rule, pin.url, 'interface', `pins.${index}.url`);
    }
    if (pin.tenant !== undefined && tenantRule(pin.tenant) !== undefined) {
      throw new DiscoveryError('InterfacePinMismatch', {
        detail: 'invalid-tenant',
        option: `pins.${index}.tenant`,
      });
    }
    if (pins.slice(0, index).some((earlier) => samePin(earlier, pin))) {
      throw new DiscoveryError('DuplicateInterfacePin', { option: `pins.${index}` });
    }
  });
}

function samePin(pin: InterfacePin, other: InterfacePin): boolean {
  return pin.binding === other.binding && pin.tenant === other.tenant && sameEndpoint(pin.url, other.url);
}

// docs/protocol-checks.md#extensions: the list alone before the card is known
// (docs/protocol-checks.md#discovery-steps, step 2), then against the card (step 13), by the one rule
// `createClient` applies.
function checkExtensions(extensions: unknown, card?: AgentCard): readonly string[] {
  if (extensions === undefined) {
    return [];
  }
  if (!Array.isArray(extensions)) {
    throw new OptionsError('extensions', 'malformed');
  }
  const found = extensionProblem(extensions, card);
  if (found !== undefined) {
    throw new DiscoveryError(card === undefined ? 'InvalidExtensions' : 'ExtensionMismatch', {
      detail: found.problem,
      option: found.index === undefined ? 'extensions' : `extensions.${found.index}`,
    });
  }
  return extensions as readonly string[];
}

// The shape of the security choice, and the scheme name rule that the security selection checks at
// construction (docs/protocol-checks.md#security-selection).
function checkSecurity(security: SecurityOptions): void {
  checkSecurityShape(security);
  if (
    security.kind === 'bearer' &&
    (typeof security.scheme !== 'string' ||
      labelRule(security.scheme, contractBounds.labelBytes) !== undefined)
  ) {
    throw new DiscoveryError('Security', { detail: 'invalid-scheme-name', option: 'security.scheme' });
  }
}

const trustKinds: ReadonlySet<unknown> = new Set(['tls', 'digest', 'first-fetch']);

function checkTrust(trust: CardTrust, cardUrl: string, loopback: boolean): void {
  if (trust === null || typeof trust !== 'object' || !trustKinds.has(trust.kind)) {
    throw new OptionsError('trust', 'malformed');
  }
  // docs/protocol-checks.md#card-trust: trusting whatever the first fetch returns is sound only where no
  // network lies between the two processes.
  const literal = isLiteralLoopback(new URL(cardUrl));
  if (trust.kind === 'first-fetch' && !(loopback && literal)) {
    // `loopback: true` admits it only for a literal loopback card URL; another URL no option admits.
    throw new DiscoveryError('FirstFetchTrustRequiresLoopback', {
      option: 'trust',
      fix: literal ? loopbackFix : undefined,
    });
  }
  if (trust.kind === 'digest' && (typeof trust.digest !== 'string' || !CARD_DIGEST.test(trust.digest))) {
    throw new OptionsError('trust.digest', 'malformed');
  }
  // docs/protocol-checks.md#card-trust, docs/protocol-checks.md#discovery-steps step 3: over plain HTTP only
  // a separately provisioned digest says the card is the one reviewed.
  if (trust.kind === 'tls' && new URL(cardUrl).protocol !== 'https:') {
    throw new DiscoveryError('TlsTrustRequiresHttps', { option: 'trust' });
  }
}

/**
Fetches an agent's public card the way `discover()` does (docs/protocol-checks.md#discovery-steps, steps
5-10): one anonymous GET carrying `A2A-Version: 1.0` with no redirect, one deadline (`discoveryTimeoutMs`, 15
s) over headers and body, a 2xx JSON answer of at most `responseBodyBytes` (2 MiB), strict JSON, the digest,
then the full card contract. Use it to review a card, or verify its signatures with
`verifyCardSignature(fetched.raw, …)`, before pinning its digest in
`discover({ trust: { kind: 'digest', digest } })`.

@throws {DiscoveryError} `Discovery` (the card URL broke an endpoint rule, or the fetch failed: see `detail`
  and `httpStatus`), `InvalidAgentCard` (`body-too-large`, `json`, `schema`, with the `violation`) or
  `NoSupportedInterface` (`protocol-version-0.3`: a v0.3 card, which this client does not speak).
@throws {OptionsError} when `loopback` or `limits` are malformed.

@example
```ts
const fetched = await fetchAgentCard({ cardUrl: 'https://partner.example/.well-known/agent-card.json' });
const checks = await verifyCardSignature(fetched.raw, resolveKey);
if (checks.some((check) => check.verified)) {
  const client = await discover({ cardUrl, pins, security, trust: { kind: 'digest', digest: fetched.digest } });
}
```
*/
export async function fetchAgentCard(options: FetchAgentCardOptions): Promise<FetchedAgentCard> {
  const loopback = checkLoopback(options.loopback);
  const limits = resolveLimits(options.limits);
  const versions = resolveVersions(options.protocolVersions, options.v03);
  checkCardUrl(options.cardUrl, loopback);
  const raw = await fetchCardJson(checkCardFetch(options), limits);
  const digest = await cardDigest(raw);
  return Object.freeze({ raw, card: await decodeCard(raw, versions), digest });
}

// docs/protocol-checks.md#discovery-steps, steps 11-12; A2A spec §8.3.2: the first entry in the server's
// order that speaks 1.0 over a binding this client has, and no later one, whatever the pins say; only where
// none does and 0.3 is admitted, the first that speaks 0.3 (docs/protocol-checks.md#v03-peers).
async function selectPin(
  card: AgentCard,
  pins: readonly InterfacePin[],
  loopback: boolean,
  grpc: ClientOptions['grpc'],
  versions: AdmittedVersions | undefined,
): Promise<InterfacePin> {
  const chosen = preferredInterface(card.supportedInterfaces, grpc, versions);
  if (chosen === undefined) {
    // Step 11: where the card offers a binding this client has only in v0.3 and 0.3 is not admitted, the
    // refusal names that version; its test loads on demand (discovery/version-refusal.ts), and should it fail
    // to load, this refusal stands.
    throw (
      (!versions &&
        (await loadDeferred(false).then(
          ({ v03Interfaces }) => v03Interfaces(card, grpc),
          () => undefined,
        ))) ||
      new DiscoveryError('NoSupportedInterface', { detail: 'no-usable-interface' })
    );
  }
  const rule = endpointRule(chosen.url, { role: 'interface', loopback });
  if (rule !== undefined) {
    throw endpointRefusal('NoSupportedInterface', rule, chosen.url, 'interface');
  }
  // A tenant on one side only is a mismatch: both absent, or byte-equal.
  const pin = pins.find(
    (candidate) =>
      candidate.binding === chosen.protocolBinding &&
      candidate.tenant === chosen.tenant &&
      sameEndpoint(candidate.url, chosen.url),
  );
  if (pin === undefined) {
    // The card's preferred interface is its public data: naming it names the pin that would match.
    throw new DiscoveryError('InterfacePinMismatch', {
      detail: 'no-matching-pin',
      option: 'pins',
      fix: { option: 'pins', binding: chosen.protocolBinding, url: chosen.url },
    });
  }
  return pin;
}

// docs/protocol-checks.md#discovery-steps, step 14: the one selection of client/security.ts, its refusals
// named as ARCHITECTURE.md#errors names them.
function selectSecurity(card: AgentCard, security: SecurityOptions): void {
  try {
    resolveSecurity(card, security);
  } catch (error) {
    if (!(error instanceof OptionsError)) {
      throw error;
    }
    const detail: DiscoveryDetail =
      security.kind === 'anonymous'
        ? 'anonymous-not-allowed'
        : error.reason === 'not-satisfied'
          ? 'requirement-not-satisfied'
          : 'bearer-scheme-unsupported';
    throw new DiscoveryError('Security', { detail, option: 'security' });
  }
}

/**
Builds the client for one agent, in the exact order of docs/protocol-checks.md#discovery-steps. Before any
I/O: the card URL and every pin obey the endpoint rules (`https:`, or with `loopback: true` `http:` to a
literal loopback address; no userinfo, query or fragment; the card path exactly
`/.well-known/agent-card.json`; tenants non-empty, ≤ 512 bytes, trimmed, no control characters), 1 to 16
unique pins, well-formed extensions, a well-formed security choice, `tls` trust only for an `https:` card URL,
and `first-fetch` trust only with `loopback: true` on a literal loopback card URL. Then one bounded fetch of
the public card (see {@link fetchAgentCard}), its digest (which `digest` trust must equal, and which every
token request carries), the full card contract, the card's preferred interface (the first `1.0` entry over
`JSONRPC` or `HTTP+JSON`, never a later one), which some pin must equal exactly (binding, WHATWG-normalised
URL, tenant), the extensions (each declared; every `required` one configured) and the security choice
(docs/protocol-checks.md#security-selection). The client is built with `createClient` and is immutable:
adopting another card, interface or security means discovering again.

The card fetch is the only request; it carries no credentials. A signature on the card is data, never trust
(see `verifyCardSignature`).

@throws {DiscoveryError} on every rule above, with a public-safe `reason`, `detail` and `option` (see
  `DiscoveryReason`).
@throws {OptionsError} when an option is not even of the right shape (`trust`, `pins`, `security`, `loopback`,
  `limits`, …).

@example
```ts
const client = await discover({
  cardUrl: 'https://partner.example/.well-known/agent-card.json',
  pins: [{ binding: 'HTTP+JSON', url: 'https://partner.example/a2a' }],
  trust: { kind: 'tls' },
  security: { kind: 'bearer', scheme: 'oidc', token: async (context) => mint(context) },
});
const result = await client.sendMessage({ message });
```
*/
export async function discover(options: DiscoverOptions): Promise<A2aClient> {
  const { cardUrl, pins, trust, loopback: loopbackOption, signal, onEvent, ...clientOptions } = options;
  const loopback = checkLoopback(loopbackOption);
  const limits = resolveLimits(clientOptions.limits);
  const versions = resolveVersions(clientOptions.protocolVersions, clientOptions.v03);
  checkCardUrl(cardUrl, loopback);
  checkPins(pins, loopback, clientOptions.grpc);
  checkExtensions(clientOptions.extensions);
  checkSecurity(clientOptions.security);
  checkTrust(trust, cardUrl, loopback);

  const raw = await fetchCardJson(checkCardFetch(options), limits);
  // Step 9: the digest of the card as parsed, before its contract is even checked.
  const digest = await cardDigest(raw);
  if (trust.kind === 'digest' && digest !== trust.digest) {
    throw new DiscoveryError('AgentCardDigestMismatch', { option: 'trust.digest' });
  }
  const card = await decodeCard(raw, versions);
  const pin = await selectPin(card, pins, loopback, clientOptions.grpc, versions);
  checkExtensions(clientOptions.extensions, card);
  selectSecurity(card, clientOptions.security);
  return createClient({
    ...clientOptions,
    card,
    cardDigest: digest,
    pin: { binding: pin.binding, url: pin.url, ...optionalMembers({ tenant: pin.tenant }) },
  });
}
