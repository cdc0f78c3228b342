import { OptionsError } from '../core/errors.js';
import type { AgentCard } from '../protocol/agent-card.js';
import { contractBounds } from '../protocol/bounds.js';
import type { OperationName } from '../protocol/operations.js';
import type { SecurityRequirement, SecurityScheme } from '../protocol/security-scheme.js';
import { labelRule } from '../protocol/text.js';

/**
The bindings this client speaks, spelled as `AgentInterface.protocolBinding` spells them: `GRPC` only when
given the binding of `@surecall/client/grpc` (`ClientOptions.grpc`).
*/
export type ProtocolBinding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

/**
Who the durable layer is sending for, when it is the caller (docs/protocol-checks.md#token-provider,
`attempt`): the ledger record of the send and the physical attempt. Absent for direct client use.

@example
```ts
const attempt: TokenAttempt = { sendId: record.id, attemptId: record.attemptId };
```
*/
export type TokenAttempt = {
  /** The ledger record of the send. */
  readonly sendId: string;
  /** One physical attempt of it: a retry or a replay gets a new one. */
  readonly attemptId: string;
};

/**
The public-safe description of exactly one HTTP request, handed to the token provider
(docs/protocol-checks.md#token-provider) so it can mint a short-lived token scoped to it.

@example
```ts
const token = async (context: TokenContext) =>
  mint({ audience: context.cardDigest, scopes: context.scopes, task: context.taskId, signal: context.signal });
```
*/
export type TokenContext = {
  /** The operation, as the spec names it. */
  readonly operation: OperationName;
  /** The digest of the public card the client was built from. */
  readonly cardDigest: string;
  readonly binding: ProtocolBinding;
  /** The interface's tenant (the remote routing tenant), if it has one. */
  readonly tenant?: string;
  /** The task the request targets: task-scoped operations, and a send continuing a task. */
  readonly taskId?: string;
  /** The skill the caller named for this call, when it did. */
  readonly skill?: string;
  /** The scopes the selected single-scheme requirement asks for: sorted, unique. */
  readonly scopes: readonly string[];
  /** Set when the durable layer makes the call. */
  readonly attempt?: TokenAttempt;
  /** Aborts when the request's deadline passes or the caller gives up: the provider should stop then. */
  readonly signal: AbortSignal;
};

/**
Returns a bearer token for one request. It is called once per authenticated HTTP request, inside that
request's deadline; a rejection, a timeout, or anything but a non-empty RFC 6750 `b64token` string
(`undefined`, `''`, a CR or LF, a space, another type) fails the call with `AuthorizationError('unavailable')`
and nothing is sent: a bearer client never falls back to an anonymous request
(docs/protocol-checks.md#token-provider). Reject with `new AuthorizationError('permission-denied')` to say
this caller may not make this request.
*/
export type TokenProvider = (context: TokenContext) => Promise<string>;

/**
How the client authenticates (docs/protocol-checks.md#security-selection): anonymously, or with a bearer token
through one of the card's schemes (HTTP `bearer`, OAuth 2.0 or OpenID Connect) that the card lists as a
single-scheme alternative.

@example
```ts
const security: SecurityOptions = { kind: 'bearer', scheme: 'oidc', token: async (context) => mint(context) };
```
*/
export type SecurityOptions =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'bearer'; readonly scheme: string; readonly token: TokenProvider };

/** The security choice after selection: the required scopes are known. */
export type ResolvedSecurity =
  | { readonly kind: 'anonymous'; readonly scopes: readonly string[] }
  | {
      readonly kind: 'bearer';
      readonly scheme: string;
      readonly token: TokenProvider;
      readonly scopes: readonly string[];
    };

type Requirements = readonly SecurityRequirement[];
type Schemes = Readonly<Record<string, SecurityScheme>>;

// A2A spec §4.5.3: an HTTP scheme names its IANA auth scheme, compared case-insensitively (RFC 9110 §11.1).
function bearerCompatible(scheme: SecurityScheme): boolean {
  if ('httpAuthSecurityScheme' in scheme) {
    return scheme.httpAuthSecurityScheme.scheme.toLowerCase() === 'bearer';
  }
  return 'oauth2SecurityScheme' in scheme || 'openIdConnectSecurityScheme' in scheme;
}

function sortedUnique(scopes: readonly string[]): readonly string[] {
  return Object.freeze([...new Set(scopes)].sort());
}

/**
The scopes `security` needs under `requirements`, an OR of AND-groups
(docs/protocol-checks.md#security-selection): anonymous is allowed iff the list is empty or has an empty
alternative; bearer needs a declared, bearer-compatible scheme that some alternative names **alone** (an
AND-group of two or more schemes is never partly satisfied, so it is skipped), and takes that alternative's
scopes, sorted (UTF-16 code-unit order) and de-duplicated. Throws `OptionsError` on `option`: `malformed`
(scheme name), `not-in-card` (scheme not declared), `unsupported` (not bearer-compatible), `not-satisfied` (no
alternative admits the choice).

@example
```ts
selectScopes(card.securityRequirements, card.securitySchemes, { kind: 'anonymous' }, 'security'); // [] or OptionsError
```
*/
export function selectScopes(
  requirements: Requirements,
  schemes: Schemes,
  security: SecurityOptions,
  option: string,
): readonly string[] {
  if (security.kind === 'anonymous') {
    if (requirements.length === 0 || requirements.some((entry) => Object.keys(entry.schemes).length === 0)) {
      return Object.freeze([]);
    }
    throw new OptionsError(option, 'not-satisfied');
  }
  const name = security.scheme;
  if (typeof name !== 'string' || labelRule(name, contractBounds.labelBytes) !== undefined) {
    throw new OptionsError(`${option}.scheme`, 'malformed');
  }
  const scheme = Object.hasOwn(schemes, name) ? schemes[name] : undefined;
  if (scheme === undefined) {
    throw new OptionsError(`${option}.scheme`, 'not-in-card');
  }
  if (!bearerCompatible(scheme)) {
    throw new OptionsError(`${option}.scheme`, 'unsupported');
  }
  // docs/protocol-checks.md#security-selection, step 2: even a card with no requirements cannot be used with
  // a bearer token.
  for (const entry of requirements) {
    const names = Object.keys(entry.schemes);
    if (names.length === 1 && names[0] === name) {
      return sortedUnique(entry.schemes[name]?.list ?? []);
    }
  }
  throw new OptionsError(option, 'not-satisfied');
}

/**
Selects the client's security against the card's own requirements
(docs/protocol-checks.md#security-selection): the one place a security choice is validated.

@example
```ts
const security = resolveSecurity(card, { kind: 'bearer', scheme: 'oidc', token });
security.scopes; // e.g. ['agent.invoke']
```
*/
export function resolveSecurity(card: AgentCard, security: SecurityOptions): ResolvedSecurity {
  checkSecurityShape(security);
  const scopes = selectScopes(card.securityRequirements, card.securitySchemes, security, 'security');
  return Object.freeze(
    security.kind === 'anonymous'
      ? { kind: 'anonymous', scopes }
      : { kind: 'bearer', scheme: security.scheme, token: security.token, scopes },
  );
}

/**
The shape of a security choice, before any card is read: an object, of a known `kind`, a bearer one with a
`token` function; `OptionsError` (`malformed`) naming the member otherwise.
*/
export function checkSecurityShape(security: SecurityOptions): void {
  if (security === null || typeof security !== 'object') {
    throw new OptionsError('security', 'malformed');
  }
  if (security.kind === 'bearer' && typeof security.token !== 'function') {
    throw new OptionsError('security.token', 'malformed');
  }
  if (security.kind !== 'anonymous' && security.kind !== 'bearer') {
    throw new OptionsError('security.kind', 'malformed');
  }
}
