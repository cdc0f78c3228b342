/**
The closed error taxonomy of one exchange with an agent (ARCHITECTURE.md#errors). Every error says whether the
request may have reached the peer (`dispatched`), so that a caller, or the durable ledger, never has to guess.
Messages are constant and public-safe: no remote text, body, token or URL ever appears in a message, a stack,
`JSON.stringify(error)` or an inspector event.

@example
```ts
try {
  await client.sendMessage({ message });
} catch (error) {
  if (isClientError(error) && error.dispatched) {
    // The outcome is unknown: reconcile before doing anything else.
  }
}
```
*/
import { optionalMembers } from './optional-members.js';
import type { RemoteText } from './remote-text.js';
import { type Violation, violationText } from './violation-text.js';

// The pointer lives with its wording (`violation-text.ts`) so that neither module imports the other; callers
// keep importing it from here.
export type { RemoteText } from './remote-text.js';
export type { Violation } from './violation-text.js';
export type ErrorKind =
  | 'request'
  | 'authorization'
  | 'capability'
  | 'transport'
  | 'http-protocol'
  | 'remote'
  | 'invalid-response';

/** Why a request was refused before it left: the caller's input broke a bound or a rule. */
export type RequestReason = 'body-too-large' | 'invalid-params' | 'aborted';

/**
Why no credentials went out (docs/protocol-checks.md#token-provider, docs/protocol-checks.md#extended-card):
the provider failed or timed out, refused this request, or the client has none for an operation that needs
them.
*/
export type AuthorizationReason = 'unavailable' | 'permission-denied' | 'unauthenticated';

/** Why the bytes did not arrive whole. */
export type TransportReason = 'network' | 'timeout' | 'aborted' | 'idle' | 'read';

/** Why the peer's HTTP answer is not A2A at all. */
export type HttpProtocolReason =
  | 'redirect'
  | 'status'
  | 'media-type'
  | 'error-envelope'
  | 'result-on-error-status';

/** Why an answer that looked like A2A was refused. */
export type InvalidResponseReason =
  | 'body-too-large'
  | 'json'
  | 'sse'
  | 'jsonrpc-envelope'
  | 'schema'
  | 'identity'
  | 'lifecycle'
  | 'page'
  | 'stream';

type ErrorInit = {
  readonly dispatched: boolean;
  readonly httpStatus?: number;
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
};

/**
The public-safe cause of a broken exchange: the platform's error code (`ECONNRESET`, `ECONNREFUSED`,
`UND_ERR_SOCKET`), never its message, which may hold a host name or an address.
*/
export type TransportCause = { readonly code: string };

// An error code is a constant identifier; anything else (a message, a URL) is never copied.
const ERROR_CODE = /^[A-Z][A-Z0-9_]{1,63}$/;

/**
The code of a platform failure, read along its `cause` chain (Node's fetch wraps the socket's error): a POSIX
code (`E…`) first, else the first code found.
*/
export function transportCause(error: unknown): TransportCause | undefined {
  let found: string | undefined;
  let current = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && ERROR_CODE.test(code)) {
      if (code.startsWith('E')) {
        return Object.freeze({ code });
      }
      found ??= code;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return found === undefined ? undefined : Object.freeze({ code: found });
}

// What follows the operation in an exchange error's message: the kind, the reason and the violation, never a
// value.
const details = new WeakMap<object, string>();

/**
The abstract base class of the seven errors an exchange with an agent throws: `instanceof ExchangeError` holds
for exactly the members of {@link ClientError}. Discovery, options, ledger and canonical-JSON errors are
separate classes and do not extend it. Narrow with `switch (error.kind)`.
*/
export abstract class ExchangeError extends Error {
  abstract readonly kind: ErrorKind;
  abstract readonly reason: string;
  /**
  True once the request may have reached the peer: every failure after that point leaves the outcome open.
  */
  readonly dispatched: boolean;
  /** The HTTP status of the answer, where one was received. */
  readonly httpStatus: number | undefined;
  /**
  How long the peer asked the client to wait before trying again, in milliseconds: its `Retry-After` (RFC
  9110, §10.2.3), where the error answer carried a valid one. A retry policy waits this long instead of its
  backoff, clamped to its cap.
  */
  readonly retryAfterMs: number | undefined;
  /** The A2A operation that failed (`SendMessage`), once the error left a client call. */
  readonly operation: string | undefined;

  constructor(detail: string, init: ErrorInit) {
    super(
      `A2A client operation failed: ${detail}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    details.set(this, detail);
    this.dispatched = init.dispatched;
    this.httpStatus = init.httpStatus;
    this.retryAfterMs = init.retryAfterMs;
    this.operation = undefined;
  }

  /** Only public-safe fields, so logging an error can never leak a body or a token. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      reason: this.reason,
      dispatched: this.dispatched,
      ...optionalMembers({ httpStatus: this.httpStatus, retryAfterMs: this.retryAfterMs }),
    };
  }
}

// The violation, where there is one, says which rule refused what, in words (core/violation-text.ts): never
// the value.
function describe(kind: ErrorKind, reason: string, violation?: Violation): string {
  const text = violationText(violation);
  return `${kind} (${reason})${text === undefined ? '' : `: ${text}`}`;
}

/** The caller's request broke a rule or bound; nothing was sent. */
export class RequestError extends ExchangeError {
  override readonly name = 'RequestError';
  readonly kind = 'request';
  readonly reason: RequestReason;
  readonly violation: Violation | undefined;
  constructor(reason: RequestReason, options: { violation?: Violation; cause?: unknown } = {}) {
    super(describe('request', reason, options.violation), { dispatched: false, cause: options.cause });
    this.reason = reason;
    this.violation = options.violation;
  }
}

/** The token provider failed or timed out; nothing was sent. */
export class AuthorizationError extends ExchangeError {
  override readonly name = 'AuthorizationError';
  readonly kind = 'authorization';
  readonly reason: AuthorizationReason;
  constructor(reason: AuthorizationReason) {
    super(describe('authorization', reason), { dispatched: false });
    this.reason = reason;
  }
}

/** The agent's card does not declare the capability the operation needs; nothing was sent. */
export class CapabilityError extends ExchangeError {
  override readonly name = 'CapabilityError';
  readonly kind = 'capability';
  readonly reason: 'streaming' | 'push-notifications' | 'extended-agent-card';
  constructor(reason: CapabilityError['reason']) {
    super(describe('capability', reason), { dispatched: false });
    this.reason = reason;
  }
}

/** The exchange broke: a lost connection, a deadline, an abort or a stalled stream. */
export class TransportError extends ExchangeError {
  override readonly name = 'TransportError';
  readonly kind = 'transport';
  readonly reason: TransportReason;
  constructor(reason: TransportReason, init: ErrorInit) {
    const code = transportCause(init.cause)?.code;
    super(code === undefined ? describe('transport', reason) : `transport (${reason}, ${code})`, init);
    this.reason = reason;
  }
}

/** The peer answered, but not in A2A: a redirect, a wrong media type, an unparseable error body. */
export class HttpProtocolError extends ExchangeError {
  override readonly name = 'HttpProtocolError';
  readonly kind = 'http-protocol';
  readonly reason: HttpProtocolReason;
  constructor(reason: HttpProtocolReason, init: ErrorInit) {
    super(describe('http-protocol', reason), init);
    this.reason = reason;
  }
}

// A decoded peer error's text, until the call ends and knows the credential to mask (`nameOperation`).
export const remoteTexts = new WeakMap<object, (credential: string | undefined) => RemoteText>();

/** The peer answered with an A2A error. `remoteCode` is set only where the binding makes it authoritative. */
export class RemoteError extends ExchangeError {
  override readonly name = 'RemoteError';
  readonly kind = 'remote';
  readonly reason: string;
  readonly remoteCode: number | undefined;
  /**
  The peer's own text, escaped and bounded ({@link RemoteText}), once the error left a client call;
  `undefined` for an error built elsewhere.
  */
  readonly remote: RemoteText | undefined;
  constructor(init: ErrorInit & { readonly remoteCode?: number; readonly reason?: string }) {
    super(describe('remote', init.reason ?? String(init.remoteCode ?? 'unidentified')), init);
    this.remoteCode = init.remoteCode;
    this.reason = init.reason ?? 'unidentified';
    this.remote = undefined;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), ...optionalMembers({ remoteCode: this.remoteCode }) };
  }
}

/** The answer looked like A2A but broke a rule of the protocol or a bound. */
export class InvalidResponseError extends ExchangeError {
  override readonly name = 'InvalidResponseError';
  readonly kind = 'invalid-response';
  readonly reason: InvalidResponseReason;
  readonly violation: Violation | undefined;
  constructor(reason: InvalidResponseReason, init: ErrorInit & { readonly violation?: Violation }) {
    super(describe('invalid-response', reason, init.violation), init);
    this.reason = reason;
    this.violation = init.violation;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), ...optionalMembers({ violation: this.violation }) };
  }
}

/**
Names the operation in an exchange error's message (`A2A SendMessage failed: transport (network, ECONNRESET)`)
and sets `operation`; for a send whose outcome is unknown, the message adds what to do:
`outcome unknown: reconcile, do not resend`. A `RemoteError` gets its peer's text as `remote`, the
`credential` the call sent masked. Called once, where a client call ends (`client/call-context.ts`).
*/
export function nameOperation(
  error: ExchangeError,
  operation: string,
  outcomeUnknown: boolean,
  credential?: string,
): void {
  const text = remoteTexts.get(error);
  if (text !== undefined) {
    remoteTexts.delete(error);
    (error as unknown as { remote: RemoteText }).remote = text(credential);
  }
  const detail = details.get(error);
  if (detail === undefined || error.operation !== undefined) {
    return;
  }
  const before = error.message;
  (error as { operation: string | undefined }).operation = operation;
  error.message = `A2A ${operation} failed: ${detail}${outcomeUnknown ? '; outcome unknown: reconcile, do not resend' : ''}`;
  // V8 formats a stack on first read; one read already kept the old first line.
  const header = `${error.name}: ${before}`;
  if (typeof error.stack === 'string' && error.stack.startsWith(header)) {
    error.stack = `${error.name}: ${error.message}${error.stack.slice(header.length)}`;
  }
}

/**
Every error an exchange can throw, as one closed union on `kind`: the type to narrow (`switch (error.kind)`),
where {@link ExchangeError} is the class they share.
*/
export type ClientError =
  | RequestError
  | AuthorizationError
  | CapabilityError
  | TransportError
  | HttpProtocolError
  | RemoteError
  | InvalidResponseError;

const clientErrorNames: ReadonlySet<string> = new Set([
  'RequestError',
  'AuthorizationError',
  'CapabilityError',
  'TransportError',
  'HttpProtocolError',
  'RemoteError',
  'InvalidResponseError',
]);

/** True for any surecall exchange error; compares `name` too, so it works across realms and bundles. */
export function isClientError(value: unknown): value is ClientError {
  return (
    value instanceof ExchangeError ||
    (value instanceof Error && clientErrorNames.has(value.name) && 'kind' in value && 'dispatched' in value)
  );
}

/** Why an option was refused when a client, a limit table or a ledger was configured. */
export type OptionsReason =
  | 'not-a-whole-number'
  | 'below-minimum'
  | 'above-ceiling'
  | 'inconsistent'
  | 'malformed'
  | 'not-in-card'
  | 'unsupported'
  | 'not-satisfied';

/** A configuration value broke its rule. Thrown while building, never during an exchange. */
export class OptionsError extends Error {
  override readonly name = 'OptionsError';
  readonly kind = 'options';
  readonly reason: OptionsReason;
  /** The option's name, e.g. `limits.sseLineBytes`. */
  readonly option: string;
  /** The bound it broke, for `below-minimum` (the least allowed) and `above-ceiling` (the most allowed). */
  readonly bound: number | undefined;
  constructor(option: string, reason: OptionsReason, bound?: number) {
    const limit =
      bound === undefined
        ? ''
        : reason === 'below-minimum'
          ? `: at least ${bound}`
          : reason === 'above-ceiling'
            ? `: at most ${bound}`
            : '';
    super(`surecall option ${option} is invalid (${reason}${limit})`);
    this.option = option;
    this.reason = reason;
    this.bound = bound;
  }
}

// The discovery error has its own module, like the ledger's; every caller keeps importing it from here.
export {
  type DiscoveryDetail,
  DiscoveryError,
  type DiscoveryFix,
  type DiscoveryReason,
  type EndpointRule,
} from './discovery-error.js';

// The ledger's error has its own module (no page that only discovers and sends reaches it); every caller
// keeps importing it from here.
export { LedgerError, type LedgerReason } from './ledger-error.js';
