import type {
  AdmittedVersions,
  FetchFunction,
  GrpcBindingProvider,
  V03BindingProvider,
} from '../bindings/binding.js';
import { OptionsError } from '../core/errors.js';
import { type Limits, type LimitsOptions, resolveLimits } from '../core/limits.js';
import { honoursIdempotency } from '../idempotency/key.js';
import { type RetryPolicy, type RetryPolicyOptions, resolveRetryPolicy } from '../idempotency/retry.js';
import type { AgentCard } from '../protocol/agent-card.js';
import { contractBounds } from '../protocol/bounds.js';
import type { OperationName } from '../protocol/operations.js';
import { isAbsoluteUri } from '../protocol/text.js';
import { type InterfacePin, type ResolvedPin, resolvePin } from './pin.js';
import {
  type ProtocolBinding,
  type ResolvedSecurity,
  resolveSecurity,
  type SecurityOptions,
} from './security.js';

/**
What a {@link HeadersOption} is told about the HTTP request it adds headers to. Each attempt of a call is
asked again, so a header can name the attempt (a fresh `traceparent` span per try).

@example
```ts
const context: HeaderContext = { operation: 'SendMessage', binding: 'JSONRPC', method: 'POST', url: 'https://partner.example/a2a', callId: 1, attempt: 1 };
```
*/
export type HeaderContext = {
  /** The operation's name in the spec, e.g. `SendMessage`. */
  readonly operation: OperationName;
  readonly binding: ProtocolBinding;
  /** The HTTP method of this request. */
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The URL this request goes to (for HTTP+JSON, the operation's route under the interface). */
  readonly url: string;
  /** The call, as `callId` in the client's inspector events. */
  readonly callId: number;
  /** 1 for the first try, then 2, 3… for each retry the client's policy makes. */
  readonly attempt: number;
  /** The task the request targets, when it names one (as the token provider sees it). */
  readonly taskId?: string;
};

/**
Extra request headers, as a function of the request (docs/protocol-checks.md#extra-headers): a W3C
`traceparent`, a tenant header a gateway needs. Called synchronously once per HTTP request, before the token
provider; return `undefined` for none. Names must be RFC 9110 tokens, values RFC 9110 field values of visible
ASCII, and no name may be a protocol header (`A2A-Version`, `A2A-Extensions`, `Accept`, `Content-Type`,
`Authorization`, `Idempotency-Key`) or one a browser would drop (`Host`, `Cookie`, `Proxy-*`, `Sec-*`…): the
call is refused with `RequestError('invalid-params')` before anything is sent, never silently changed. A
function that throws refuses the call the same way.

@example
```ts
const headers: HeadersOption = ({ attempt }) => ({ traceparent: newTraceparent(), 'x-attempt': String(attempt) });
```
*/
export type HeadersOption = (context: HeaderContext) => Readonly<Record<string, string>> | undefined;

/**
What an {@link Interceptor}'s `after` is told about one HTTP answer: the request's {@link HeaderContext}, the
status, and the answer's headers by lowercase name (a browser shows only those CORS exposes). The body is not
here: the checked answer is what the call returns. Over gRPC it is the HTTP/2 answer's head: status 200 and
the peer's initial metadata, its `-bin` keys left out; the gRPC status is in the trailers, and reaches the
caller as the call's error (docs/protocol-checks.md#interceptors).

@example
```ts
const answer: InterceptorAnswer = { ...context, httpStatus: 200, headers: { 'x-request-id': 'r-1' } };
```
*/
export type InterceptorAnswer = HeaderContext & {
  readonly httpStatus: number;
  readonly headers: Readonly<Record<string, string>>;
};

/**
A per-call hook (docs/protocol-checks.md#interceptors). `before` is asked once per HTTP request, every retry
and stream resumption included, after `headers` and the interceptors ahead of it, and returns headers to add
under the rules of {@link HeadersOption}; it throws to refuse the call with `RequestError('invalid-params')`
before anything is sent. `after` sees each HTTP answer that arrived, before its body is read (over gRPC each
answer that sent its head; a status-only refusal has none); what it throws is ignored. Neither sees the
request's body, its idempotency key or the token, and neither can send.

@example
```ts
const tenant: Interceptor = {
  before: () => ({ 'x-tenant': 'acme' }),
  after: ({ headers }) => remember(headers['x-request-id']),
};
```
*/
export type Interceptor = {
  readonly before?: HeadersOption;
  readonly after?: (answer: InterceptorAnswer) => void;
};

/** An {@link Interceptor} as the client keeps it: its own frozen copy, each hook a function or absent. */
export type ResolvedInterceptor = {
  readonly before: HeadersOption | undefined;
  readonly after: ((answer: InterceptorAnswer) => void) | undefined;
};

/** At most this many interceptors per client. */
export const maxInterceptors = 16;

/**
Everything a client is built from. `discover()` fills these from a fetched, digested card; until then a caller
passes an already validated card (from `parseAgentCard`) and its digest (from `cardDigest(rawCard)` in
`digest.ts`, over the card's JSON exactly as received).

@example
```ts
const client = createClient({
  card,
  cardDigest: await cardDigest(rawCard),
  pin: { binding: 'JSONRPC', url: 'https://partner.example/a2a/jsonrpc' },
  security: { kind: 'anonymous' },
});
```
*/
export type ClientOptions = {
  /** The decoded public agent card. The client keeps a frozen copy. */
  readonly card: AgentCard;
  /** `sha256:` and 64 lowercase hex digits: the RFC 8785 digest of the card as received. */
  readonly cardDigest: string;
  /** The interface to talk to; the card must list it with `protocolVersion` `1.0`. */
  readonly pin: InterfacePin;
  readonly security: SecurityOptions;
  /**
  Extension URIs to request through `A2A-Extensions`, in this order; each must be declared by the card, and
  every extension the card marks `required` must be here (docs/protocol-checks.md#discovery-steps, step
  13). @default []
  */
  readonly extensions?: readonly string[];
  /** Overrides of the bounds table (`defaultLimits`). @default {} */
  readonly limits?: LimitsOptions;
  /**
  How HTTP+JSON subscribes: POST (the spec's prose, the official clients) or GET (the proto's
  annotation). @default 'POST'
  */
  readonly subscribeMethod?: 'POST' | 'GET';
  /**
  The opt-in retry policy (`retry.ts`); `{}` takes every default. Without one, nothing is ever
  re-sent. @default undefined
  */
  readonly retry?: RetryPolicyOptions;
  /**
  Whether the peer honours idempotency keys. Leave it out to read it off the card
  (`honoursIdempotency(card)`); `true` asserts it for a peer known to implement the extension whose card does
  not say so, `false` denies it whatever the card says. Only an honouring peer makes a keyed send retryable
  (docs/idempotency.md#honouring-peers). @default honoursIdempotency(card)
  */
  readonly peerHonoursIdempotency?: boolean;
  /**
  Extra headers for every request, computed per request ({@link HeadersOption}); they can add to the
  protocol's headers, never replace one. @default undefined
  */
  readonly headers?: HeadersOption;
  /**
  The `fetch` every request goes through (a proxy agent, an mTLS dispatcher, a test double): called as a plain
  function with the request's URL and an init carrying its method, headers, body, the deadline's signal and
  `redirect: 'manual'`, as a plain `fetch(url, init)` call is made. Without one,
  `globalThis.fetch` as it is when each request leaves, so MSW installed later still applies. @default
  undefined
  */
  readonly fetch?: FetchFunction;
  /**
  The gRPC binding (`grpcBinding` of `@surecall/client/grpc`, Node only): with it a `GRPC` interface can be
  pinned and selected like the other two; without it, none is. @default undefined
  */
  readonly grpc?: GrpcBindingProvider;
  /**
  Per-call hooks, run in this order on every HTTP request and answer ({@link Interceptor}). @default
  undefined
  */
  readonly interceptors?: readonly Interceptor[];
  /**
  The A2A versions this client may speak, each once: `1.0`, and `0.3` for a client also given `v03`
  (docs/protocol-checks.md#v03-peers). A 1.0 interface is preferred wherever the card lists one, whatever the
  order here. @default ['1.0']
  */
  readonly protocolVersions?: readonly ProtocolVersion[];
  /**
  The v0.3 binding (`v03Binding` of `@surecall/client/v03`), which `protocolVersions: ['1.0', '0.3']` needs:
  without it no v0.3 card or interface is taken. @default undefined
  */
  readonly v03?: V03BindingProvider;
};

export type { AdmittedVersions, V03BindingProvider } from '../bindings/binding.js';

/** An A2A version a client can speak (`ClientOptions.protocolVersions`). */
export type ProtocolVersion = '1.0' | '0.3';

/** {@link ClientOptions} after validation and defaults: nothing is optional, everything is frozen. */
export type ResolvedClientOptions = {
  readonly card: AgentCard;
  readonly cardDigest: string;
  readonly pin: ResolvedPin;
  readonly security: ResolvedSecurity;
  readonly extensions: readonly string[];
  readonly limits: Limits;
  readonly subscribeMethod: 'POST' | 'GET';
  /** `undefined` when no policy was given: a single attempt per call. */
  readonly retry: RetryPolicy | undefined;
  readonly honoursIdempotency: boolean;
  /** `undefined` when none was given: no extra header. */
  readonly headers: HeadersOption | undefined;
  /** `undefined` when none was given: the platform's `fetch`, looked up per request. */
  readonly fetch: FetchFunction | undefined;
  /** `undefined` when none was given: no `GRPC` interface can be used. */
  readonly grpc: GrpcBindingProvider | undefined;
  /** `undefined` when none was given. */
  readonly interceptors: readonly ResolvedInterceptor[] | undefined;
  /** `undefined` when 1.0 alone is spoken. */
  readonly versions: AdmittedVersions | undefined;
};

/** The defaults of the optional client options (CONTRIBUTING.md#options). */
export const defaultClientOptions = Object.freeze({
  extensions: Object.freeze([]) as readonly string[],
  limits: Object.freeze({}) as LimitsOptions,
  subscribeMethod: 'POST' as 'POST' | 'GET',
});

/**
A card digest as `cardDigest` writes it: `sha256:` and 64 lowercase hex digits
(docs/protocol-checks.md#card-trust).
*/
export const CARD_DIGEST = /^sha256:[0-9a-f]{64}$/;
// An extension URI goes into a header value as one comma-separated item: visible ASCII, no comma
// (docs/protocol-checks.md#extensions).
const HEADER_ITEM = /^[\x21-\x2b\x2d-\x7e]+$/;
const EXTENSION_HEADER_BYTES = 8 * 1024;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) {
      deepFreeze(member);
    }
  }
  return value;
}

/**
What breaks an extension list (docs/protocol-checks.md#extensions; docs/protocol-checks.md#discovery-steps,
steps 2 and 13): the `problem`, and the `index` of the entry at fault where there is one. `createClient` and
`discover()` each name it in their own error.
*/
export type ExtensionProblem = {
  readonly problem:
    | 'malformed'
    | 'too-many'
    | 'duplicate'
    | 'header-too-large'
    | 'undeclared'
    | 'required-missing';
  readonly index?: number;
};

/**
The first problem of a list of extension URIs: the list alone, then, given the `card`, what it declares and
requires.
*/
export function extensionProblem(
  extensions: readonly unknown[],
  card?: AgentCard,
): ExtensionProblem | undefined {
  if (extensions.length > contractBounds.extensions) {
    return { problem: 'too-many' };
  }
  const seen = new Set<unknown>();
  for (const [index, uri] of extensions.entries()) {
    if (
      typeof uri !== 'string' ||
      uri.length > contractBounds.urlBytes ||
      !HEADER_ITEM.test(uri) ||
      !isAbsoluteUri(uri)
    ) {
      return { problem: 'malformed', index };
    }
    if (seen.has(uri)) {
      return { problem: 'duplicate', index };
    }
    seen.add(uri);
  }
  // The header value is `uri1,uri2` with no spaces, and every character is one byte.
  if (extensions.join(',').length > EXTENSION_HEADER_BYTES) {
    return { problem: 'header-too-large' };
  }
  if (card === undefined) {
    return undefined;
  }
  // docs/protocol-checks.md#discovery-steps, step 13: request only what the card declares, and everything it
  // requires.
  const declared = card.capabilities.extensions;
  const declaredUris = new Set(declared.map((entry) => entry.uri));
  const undeclared = extensions.findIndex((uri) => !declaredUris.has(uri as string));
  if (undeclared !== -1) {
    return { problem: 'undeclared', index: undeclared };
  }
  return declared.some((entry) => entry.required && !seen.has(entry.uri))
    ? { problem: 'required-missing' }
    : undefined;
}

// How `createClient` names each problem: the option's reason, and the bound it broke.
const extensionReasons: Readonly<
  Record<ExtensionProblem['problem'], readonly [OptionsError['reason'], number?]>
> = {
  malformed: ['malformed'],
  'too-many': ['above-ceiling', contractBounds.extensions],
  duplicate: ['inconsistent'],
  'header-too-large': ['above-ceiling', EXTENSION_HEADER_BYTES],
  undeclared: ['not-in-card'],
  'required-missing': ['not-satisfied'],
};

function resolveExtensions(card: AgentCard, extensions: readonly string[]): readonly string[] {
  if (!Array.isArray(extensions)) {
    throw new OptionsError('extensions', 'malformed');
  }
  const found = extensionProblem(extensions, card);
  if (found !== undefined) {
    const [reason, bound] = extensionReasons[found.problem];
    throw new OptionsError(
      found.index === undefined ? 'extensions' : `extensions.${found.index}`,
      reason,
      bound,
    );
  }
  return Object.freeze([...extensions]);
}

/**
Checks `protocolVersions` (`ClientOptions.protocolVersions`): without the v0.3 binding only `['1.0']` (else
`OptionsError('protocolVersions', 'unsupported')`); with it, what the binding admits
(`V03BindingProvider.admit`). `undefined` means 1.0 alone. Shared by `createClient`, `discover()` and
`fetchAgentCard()`.

@example
```ts
resolveVersions(['1.0', '0.3'], v03Binding); // 1.0 and 0.3
```
*/
export function resolveVersions(versions: unknown, v03?: V03BindingProvider): AdmittedVersions | undefined {
  if (v03?.admit) {
    return v03.admit(versions);
  }
  if (versions !== undefined && !(Array.isArray(versions) && `${versions}` === '1.0')) {
    throw new OptionsError('protocolVersions', 'unsupported');
  }
  return undefined;
}

/**
`value`, when it is absent or a function; else `OptionsError(option, 'malformed')`. The one check of every
callback option (`headers`, `fetch`, and discovery's `fetch` and `onEvent`).

@example
```ts
const fetch = functionOption(options.fetch, 'fetch');
```
*/
export function functionOption<T>(value: T, option: string): T {
  if (value !== undefined && typeof value !== 'function') {
    throw new OptionsError(option, 'malformed');
  }
  return value;
}

function resolveInterceptors(list: unknown): readonly ResolvedInterceptor[] | undefined {
  if (list === undefined) {
    return undefined;
  }
  if (!Array.isArray(list)) {
    throw new OptionsError('interceptors', 'malformed');
  }
  if (list.length > maxInterceptors) {
    throw new OptionsError('interceptors', 'above-ceiling', maxInterceptors);
  }
  // A copy of each hook, taken now: an interceptor object changed later changes nothing
  // (CONTRIBUTING.md#options).
  return Object.freeze(
    list.map((entry: unknown, index) => {
      if (entry === null || typeof entry !== 'object') {
        throw new OptionsError(`interceptors.${index}`, 'malformed');
      }
      const { before, after } = entry as Interceptor;
      return Object.freeze({
        before: functionOption(before, `interceptors.${index}.before`),
        after: functionOption(after, `interceptors.${index}.after`),
      });
    }),
  );
}

/**
Validates the client options and applies the defaults: the only place they are merged
(CONTRIBUTING.md#options). Throws `OptionsError` naming the option: `cardDigest` malformed; `pin` malformed,
`unsupported` binding or `not-in-card`; an extension malformed, repeated (`inconsistent`), `not-in-card`, too
many (`above-ceiling`) or a required one missing (`not-satisfied`); `security` as {@link resolveSecurity};
`limits.*` as {@link resolveLimits}; `subscribeMethod` malformed; `retry.*` as {@link resolveRetryPolicy};
`peerHonoursIdempotency` not a boolean, `headers` or `fetch` not a function (`malformed`); `interceptors` not
an array (`malformed`) or longer than {@link maxInterceptors} (`above-ceiling`), an entry not an object or a
hook not a function (`interceptors.<index>`, `interceptors.<index>.before`, `malformed`).

@example
```ts
const resolved = resolveClientOptions({ card, cardDigest, pin, security: { kind: 'anonymous' } });
resolved.subscribeMethod; // 'POST'
```
*/
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  if (
    options === null ||
    typeof options !== 'object' ||
    options.card === null ||
    typeof options.card !== 'object'
  ) {
    throw new OptionsError('card', 'malformed');
  }
  if (typeof options.cardDigest !== 'string' || !CARD_DIGEST.test(options.cardDigest)) {
    throw new OptionsError('cardDigest', 'malformed');
  }
  // A private frozen copy: the caller's object can change afterwards, the client's card cannot
  // (ARCHITECTURE.md#layers-of-the-client: immutable once discovered).
  let card: AgentCard;
  try {
    card = deepFreeze(structuredClone(options.card));
  } catch {
    throw new OptionsError('card', 'malformed');
  }
  const subscribeMethod = options.subscribeMethod ?? defaultClientOptions.subscribeMethod;
  if (subscribeMethod !== 'POST' && subscribeMethod !== 'GET') {
    throw new OptionsError('subscribeMethod', 'malformed');
  }
  const asserted = options.peerHonoursIdempotency;
  if (asserted !== undefined && typeof asserted !== 'boolean') {
    throw new OptionsError('peerHonoursIdempotency', 'malformed');
  }
  const headers = functionOption(options.headers, 'headers');
  const fetch = functionOption(options.fetch, 'fetch');
  const { grpc } = options;
  const versions = resolveVersions(options.protocolVersions, options.v03);
  return Object.freeze({
    card,
    cardDigest: options.cardDigest,
    pin: resolvePin(card, options.pin, grpc, versions),
    security: resolveSecurity(card, options.security),
    extensions: resolveExtensions(card, options.extensions ?? defaultClientOptions.extensions),
    limits: resolveLimits(options.limits ?? defaultClientOptions.limits),
    subscribeMethod,
    retry: options.retry === undefined ? undefined : resolveRetryPolicy(options.retry),
    // docs/idempotency.md#honouring-peers: the card is the evidence; an explicit assertion (either way) is
    // the operator's word over it.
    honoursIdempotency: asserted ?? honoursIdempotency(card),
    headers,
    fetch,
    grpc,
    interceptors: resolveInterceptors(options.interceptors),
    versions,
  });
}
