/**
@module
Why `discover()` refused to build a client, thrown outside an exchange (ARCHITECTURE.md#errors), with the
option that admits what it refused where one does.
*/
import { optionalMembers } from './optional-members.js';
import { type Violation, violationText } from './violation-text.js';

/** The rule a card URL, a pin URL or a pin's tenant broke (docs/protocol-checks.md#endpoints). */
export type EndpointRule =
  | 'invalid-url'
  | 'embedded-credentials'
  | 'query-or-fragment'
  | 'missing-host'
  | 'https-required'
  | 'literal-loopback-required'
  | 'agent-card-path-required'
  | 'invalid-tenant';

/**
Why `discover()` refused (docs/protocol-checks.md#discovery-steps): one closed union, spelled as
ARCHITECTURE.md#errors spells it.
*/
export type DiscoveryReason =
  | 'MissingInterfacePin'
  | 'TooManyInterfacePins'
  | 'DuplicateInterfacePin'
  | 'InvalidExtensions'
  | 'Discovery'
  | 'InvalidAgentCard'
  | 'TlsTrustRequiresHttps'
  | 'FirstFetchTrustRequiresLoopback'
  | 'AgentCardDigestMismatch'
  | 'NoSupportedInterface'
  | 'InterfacePinMismatch'
  | 'ExtensionMismatch'
  | 'Security';

/**
The public-safe detail of a {@link DiscoveryError}: a constant, never a value.

- An {@link EndpointRule}: the card URL (`Discovery`), a pin (`InterfacePinMismatch`) or the card's chosen
  interface (`NoSupportedInterface`) broke it.
- `Discovery`: how the card fetch failed: `network`, `timeout`, `aborted`, `read`, `redirect`, `status` (not
  2xx; see `httpStatus`), `media-type`.
- `InvalidAgentCard`: `body-too-large`, `json` (strict JSON refused it) or `schema` (the card contract did),
  with the `violation`.
- `InvalidExtensions`: `malformed`, `duplicate`, `too-many`, `header-too-large`. `ExtensionMismatch`:
  `undeclared`, `required-missing`.
- `NoSupportedInterface`: `no-usable-interface`, or `protocol-version-0.3` when what the card offers is v0.3
  only: a v0.3 card, or a 1.0 card whose only interfaces over a binding this client has speak 0.3
  (docs/protocol-checks.md#discovery-steps). `InterfacePinMismatch`: `no-matching-pin`.
- `Security`: `invalid-scheme-name`, `anonymous-not-allowed`, `bearer-scheme-unsupported`,
  `requirement-not-satisfied`.
*/
export type DiscoveryDetail =
  | EndpointRule
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'read'
  | 'redirect'
  | 'status'
  | 'media-type'
  | 'body-too-large'
  | 'json'
  | 'schema'
  | 'malformed'
  | 'duplicate'
  | 'too-many'
  | 'header-too-large'
  | 'undeclared'
  | 'required-missing'
  | 'no-usable-interface'
  | 'protocol-version-0.3'
  | 'no-matching-pin'
  | 'invalid-scheme-name'
  | 'anonymous-not-allowed'
  | 'bearer-scheme-unsupported'
  | 'requirement-not-satisfied';

/**
What admits a refused discovery, where one option does (docs/protocol-checks.md#discovery-steps):

- `loopback`: `loopback: true` admits the `http:` URL to a literal loopback address that was refused as
  `https-required` (the card URL, a pin or the card's interface), and the `first-fetch` trust of a literal
  loopback card URL (`FirstFetchTrustRequiresLoopback`). An `http:` URL to anything else is admitted by no
  option, so it carries no fix.
- `pins`: the interface the card prefers, by binding and URL, which no pin equals (`InterfacePinMismatch`
  `no-matching-pin`). Both are the card's public data; a pin must also carry the interface's tenant, if it has
  one, which is never named.
- `protocolVersions`: `0.3` added to `protocolVersions`, with the v0.3 binding given as `v03`, admits a card
  or interface refused as `protocol-version-0.3` (docs/protocol-checks.md#v03-peers).

@example
```ts
if (error instanceof DiscoveryError && error.fix?.option === 'pins') {
  pins.push({ binding: error.fix.binding, url: error.fix.url }); // after a person has reviewed it
}
```
*/
export type DiscoveryFix =
  | { readonly option: 'loopback'; readonly value: true }
  | { readonly option: 'pins'; readonly binding: 'JSONRPC' | 'HTTP+JSON' | 'GRPC'; readonly url: string }
  | { readonly option: 'protocolVersions'; readonly value: '0.3' };

/**
`discover()` refused to build a client: its options broke a rule, or the agent's card could not be fetched,
did not verify, or does not fit the pins, extensions and security configured. Nothing but the card fetch was
ever sent. Redacted like every error here: the message, `JSON.stringify` and the fields name the reason, the
detail and the option (`pins.1.url`), never a URL, a tenant or card content, with one exception: the `fix` of
a pin mismatch names the URL of the interface the card prefers, the card's own public data
(ARCHITECTURE.md#errors).

@example
```ts
try {
  await discover(options);
} catch (error) {
  if (error instanceof DiscoveryError && error.reason === 'AgentCardDigestMismatch') {
    // The agent published another card than the one reviewed: review it again, never adopt it silently.
  }
}
```
*/
export class DiscoveryError extends Error {
  override readonly name = 'DiscoveryError';
  readonly kind = 'discovery';
  readonly reason: DiscoveryReason;
  readonly detail: DiscoveryDetail | undefined;
  /** The option at fault, by name (`cardUrl`, `pins.1.tenant`, `extensions.0`), where one is. */
  readonly option: string | undefined;
  /** The status of the card fetch's answer, where one was received. */
  readonly httpStatus: number | undefined;
  /** Where a refused card broke a rule: never its content. */
  readonly violation: Violation | undefined;
  /**
  What admits the refused choice, where one option does (in `toJSON()` too; the message stays constant).
  */
  readonly fix: DiscoveryFix | undefined;
  constructor(
    reason: DiscoveryReason,
    init: {
      readonly detail?: DiscoveryDetail;
      readonly option?: string | undefined;
      readonly httpStatus?: number | undefined;
      readonly violation?: Violation;
      readonly fix?: DiscoveryFix | undefined;
      readonly cause?: unknown;
    } = {},
  ) {
    super(
      `surecall discovery failed: ${reason}${init.detail === undefined ? '' : ` (${init.detail})`}${
        init.violation === undefined ? '' : `: ${violationText(init.violation)}`
      }`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.reason = reason;
    this.detail = init.detail;
    this.option = init.option;
    this.httpStatus = init.httpStatus;
    this.violation = init.violation;
    this.fix = init.fix;
  }

  /** Only public-safe fields. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      reason: this.reason,
      ...optionalMembers({
        detail: this.detail,
        option: this.option,
        httpStatus: this.httpStatus,
        violation: this.violation,
        fix: this.fix,
      }),
    };
  }
}
