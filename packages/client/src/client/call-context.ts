/**
@module
What one call carries and what the calls of one client share (ARCHITECTURE.md#layers-of-the-client, layer
"client"): the per-call options, the call as the runner tracks it, and the runner's state (`CallKit`: one
binding, one JSON-RPC id counter, one call counter, the client's events). Then what every call does with them:
it begins, its events name it, its request passes the outbound contract once (`prepare`), its attempts run
under the client's retry policy (`attempts`), each attempt gets its token context, extra headers and `request`
event around the binding's own call (`start`, which builds the binding's `CallContext`), and a failure ends it
named for its operation (`fail`). The unary half is `unary-call.ts`, the stream half `streaming.ts`; `call.ts`
joins them.
*/
import type { Binding, CallContext, CheckedTarget, StreamMethod } from '../bindings/binding.js';
import { type SchemaCode, schemasOf } from '../bindings/result.js';
import { AuthorizationError, ExchangeError, nameOperation, RemoteError } from '../core/errors.js';
import type { Load } from '../core/lazy.js';
import { optionalMembers } from '../core/optional-members.js';
import { notAppliedCodes } from '../idempotency/retry.js';
import type { RetryNotice, runWithRetry } from '../idempotency/retry-loop.js';
import { methods } from '../protocol/methods.js';
import type { ClientMethod, OperationName } from '../protocol/operations.js';
import type { StreamResponse } from '../protocol/stream.js';
import { type ClientEvent, type ClientEventBase, type EventHub, errorJson } from './events.js';
import type { CallHooks, callHooks } from './interceptors.js';
import type { ResolvedClientOptions } from './options.js';
import { type PreparedCall, prepareCall } from './outbound.js';
import type { ResumeOptions } from './resumption.js';
import type { TokenAttempt, TokenContext } from './security.js';
import type { skillCallScopes } from './skill-scopes.js';

/**
What one call may add: a cancellation signal, the skill it invokes (whose own security requirements then
choose the token's scopes), and, for the durable layer, the attempt it makes.

@example
```ts
await client.sendMessage({ message }, { signal: AbortSignal.timeout(5_000), skill: 'summarise' });
```
*/
export type CallOptions = {
  /**
  Cancels the call: before dispatch `RequestError('aborted')`, after it `TransportError('aborted')`; it also
  ends a stream.
  */
  readonly signal?: AbortSignal;
  /**
  A skill id of the card: the skill's `securityRequirements`, when it declares some, set the token's scopes.
  */
  readonly skill?: string;
  /**
  Passed to the token provider as `TokenContext.attempt`. A call made for a durable attempt is never retried
  by the client's policy.
  */
  readonly attempt?: TokenAttempt;
  /**
  Streams only: how a stream that breaks once it has named its task resumes, by SubscribeToTask and never by
  sending again (`resumption.ts`); `false` turns it off. Unary calls ignore it. @default { attempts: 3,
  totalAttempts: 32, totalTimeMs: 300000, initialDelayMs: 250, maxDelayMs: 5000 }
  */
  readonly resume?: ResumeOptions | boolean;
};

/** One call as the runner tracks it; a resumed stream's own exchanges share its `id`. */
export type Call = {
  readonly id: number;
  /** The client method that runs the call. */
  readonly method: ClientMethod;
  /** The operation's name in the spec, as the events and the token provider see it. */
  readonly operation: OperationName;
  readonly started: number;
  rpcId?: number;
  /**
  What the token provider threw, so that a deliberate `permission-denied` survives the transport's mapping.
  */
  providerError?: unknown;
  /**
  The last token the provider gave for this call: masked in the peer's error text (`RemoteError.remote`).
  */
  token?: string;
  /** The try the client's retry policy is on, from 1; `ClientOptions.headers` is told it. */
  attempt?: number;
};

/**
Runs one stream call already begun by the caller: yields each checked event, reports `stream-*` events, and
throws what the caller's `fail` returns.
*/
export type StreamRun = (
  call: Call,
  operation: StreamMethod,
  params: unknown,
  options: CallOptions | undefined,
) => AsyncGenerator<StreamResponse, void, undefined>;

/**
What a call loads with its first need of it (ARCHITECTURE.md#decisions, "Code loads with its first use"):
every operation's schemas but SendMessage's, a skill's scopes, the retry loop, the caller's extra headers and
interceptors. The client hands the loader down (`loader.ts`), so this module need not import it.
*/
export type CallCode = SchemaCode & {
  readonly skillCallScopes: typeof skillCallScopes;
  readonly runWithRetry: typeof runWithRetry;
  readonly callHooks: typeof callHooks;
};

/**
The state of one client's call runner, which its stream half (`streaming.ts`) shares: the same binding,
events, outbound contract, retry policy and token context.
*/
export type CallKit = {
  readonly resolved: ResolvedClientOptions;
  readonly hub: EventHub;
  readonly binding: Binding;
  readonly load: Load<CallCode>;
  /** docs/protocol-checks.md#extensions: the configured order, comma-joined, no spaces. */
  readonly headers: { readonly 'a2a-extensions': string } | undefined;
  /** The calls begun so far: the last one's `callId`. */
  calls: number;
  /**
  docs/protocol-checks.md#requests: one JSON-RPC id counter per client, from 1, shared by every operation. The
  binding draws the id synchronously while `issuing` is set, so each call learns its own.
  */
  lastRpcId: number;
  issuing?: Call | undefined;
  /**
  The stream runner, loaded with the first stream (ARCHITECTURE.md#decisions, "Code loads with its first
  use").
  */
  runStream?: StreamRun;
};

/** Begins a call of `method`: the next `callId`, and the time its `durationMs` counts from. */
export function begin(kit: CallKit, method: ClientMethod): Call {
  kit.calls += 1;
  return { id: kit.calls, method, operation: methods[method].name, started: performance.now() };
}

/** The members of one kind of event of a call, besides what every event carries. */
type EventMembers = ClientEvent extends infer E
  ? E extends ClientEvent
    ? Omit<E, keyof ClientEventBase>
    : never
  : never;

/**
Reports an event of `call`, built only when the client's events are listened to: what every event carries
(ARCHITECTURE.md#events-and-redaction), then `build`'s own members.
*/
export function report(kit: CallKit, call: Call, build: () => EventMembers): void {
  kit.hub.emit(() => ({
    callId: call.id,
    operation: call.operation,
    binding: kit.resolved.pin.binding,
    time: Date.now(),
    ...build(),
  }));
}

/** The milliseconds since `call` began: its events' `durationMs`. */
export function elapsed(call: Call): number {
  return performance.now() - call.started;
}

/**
A send (never an idempotent read or cancel) that may have reached the peer and was not authoritatively
refused: docs/durable-send.md#classifying-a-failure.
*/
function sendOutcomeUnknown(call: Call, error: ExchangeError): boolean {
  const send = call.method === 'sendMessage' || call.method === 'sendStreamingMessage';
  const refused =
    error instanceof RemoteError && error.remoteCode !== undefined && notAppliedCodes.has(error.remoteCode);
  return send && error.dispatched && !refused;
}

/**
Ends a failed call and returns what to throw; `answered`: a stream already delivered a valid first event, so
its send's outcome is known.
*/
export function fail(kit: CallKit, call: Call, error: unknown, answered = false): unknown {
  const denied = call.providerError;
  // The transport maps every provider failure to `unavailable`; the provider's own refusal is kept.
  const thrown =
    error instanceof AuthorizationError &&
    denied instanceof AuthorizationError &&
    denied.reason === 'permission-denied'
      ? new AuthorizationError('permission-denied')
      : error;
  if (thrown instanceof ExchangeError) {
    nameOperation(thrown, call.operation, !answered && sendOutcomeUnknown(call, thrown), call.token);
  }
  report(kit, call, () => ({
    type: 'error',
    durationMs: elapsed(call),
    error: errorJson(thrown),
  }));
  return thrown;
}

/**
The outbound contract, once per call: every attempt sends this same request. An operation other than
SendMessage loads its schemas first (ARCHITECTURE.md#decisions, "Code loads with its first use").

@example
```ts
const prepared = await prepare(kit, call, { id: 'task-1' }, undefined);
```
*/
export async function prepare(
  kit: CallKit,
  call: Call,
  params: unknown,
  options: CallOptions | undefined,
): Promise<PreparedCall> {
  const { card, security } = kit.resolved;
  const { request: schema } = await schemasOf(call.method, kit.load);
  const id = options?.skill;
  const skill = id === undefined ? undefined : { id, scopesOf: (await kit.load(false)).skillCallScopes };
  return prepareCall({ card, security, operation: call.method, params, skill, schema });
}

/**
Runs `attempt` under the client's retry policy, reporting each retry; `keyed` from the prepared request. A
call made for a durable attempt never retries: the durable agent sends once and reconciles, and a retry would
be an attempt its ledger never recorded (docs/durable-send.md#the-promise). Without a policy the attempt
simply runs once, which is all `runWithRetry` would do with it.

@example
```ts
const answer = await attempts(kit, call, keyed, options, (number) => send(number));
```
*/
export function attempts<T>(
  kit: CallKit,
  call: Call,
  keyed: boolean,
  options: CallOptions | undefined,
  attempt: (number: number) => Promise<T>,
): Promise<T> {
  const policy = options?.attempt === undefined ? kit.resolved.retry : undefined;
  if (policy === undefined) {
    return attempt(1);
  }
  // The retry loop loads with the first call a policy covers (ARCHITECTURE.md#decisions, "Code loads with its
  // first use"), before anything is sent.
  return kit.load(false).then(({ runWithRetry }) =>
    runWithRetry(
      {
        policy,
        operation: call.method,
        keyed,
        signal: options?.signal,
        onRetry: ({ attempt: number, delayMs, error }: RetryNotice) =>
          report(kit, call, () => ({
            type: 'retry',
            attempt: number,
            delayMs,
            error: errorJson(error),
          })),
      },
      attempt,
    ),
  );
}

/**
One attempt: the token context and inspector hooks, then the binding's call; returns what `send` returns.

@example
```ts
const { value } = await start(kit, call, prepared, options, (sent, context) => kit.binding.unary('getTask', sent, context));
```
*/
export function start<T>(
  kit: CallKit,
  call: Call,
  prepared: PreparedCall,
  options: CallOptions | undefined,
  send: (request: object, context: CallContext) => T,
): T {
  const { cardDigest, pin, security, fetch, headers: extraHeaders, interceptors } = kit.resolved;
  const { headers } = kit;
  const { operation } = call;
  const { request, taskId, scopes } = prepared;
  call.providerError = undefined;
  const tokenContext: Omit<TokenContext, 'signal'> = {
    operation,
    cardDigest,
    binding: pin.binding,
    scopes,
    ...optionalMembers({ tenant: pin.tenant, taskId, skill: options?.skill, attempt: options?.attempt }),
  };
  const provider = security.kind === 'bearer' ? security.token : undefined;
  let hooks: CallHooks | undefined;
  const context: CallContext = {
    ...optionalMembers({ signal: options?.signal, headers }),
    // An empty `interceptors` list asks nothing, as `headers` left out does: its requests go straight to
    // their `fetch`, without the hooks' per-request context, copies and load.
    ...(extraHeaders || interceptors?.length
      ? {
          // docs/protocol-checks.md#extra-headers, docs/protocol-checks.md#interceptors: asked once per HTTP
          // request, with what the binding built, always before its fetch; the hooks load with the first
          // request of a client given them.
          extraHeaders: async (target: CheckedTarget) => {
            hooks = (await kit.load(false)).callHooks(kit.resolved, {
              operation,
              binding: pin.binding,
              callId: call.id,
              attempt: call.attempt ?? 1,
              ...optionalMembers({ taskId }),
            });
            return hooks.headers(target);
          },
          fetch: (input, init) => (hooks as CallHooks).fetch(input, init),
        }
      : optionalMembers({ fetch })),
    ...(provider === undefined
      ? {}
      : {
          // docs/protocol-checks.md#token-provider: once per HTTP request, inside its deadline (the transport
          // bounds the wait).
          authorize: async (signal: AbortSignal) => {
            try {
              call.token = await provider(Object.freeze({ ...tokenContext, signal }));
              return call.token;
            } catch (error) {
              call.providerError = error;
              throw error;
            }
          },
        }),
    onDispatch: (httpMethod) =>
      report(kit, call, () => ({
        type: 'request',
        httpMethod,
        ...optionalMembers({ rpcId: call.rpcId, taskId }),
      })),
  };
  kit.issuing = call;
  try {
    return send(request, context);
  } finally {
    kit.issuing = undefined;
  }
}
