import type { Binding, CallContext, HeaderTarget, StreamMethod, UnaryMethod } from './bindings/binding.js';
import { createJsonRpcBinding } from './bindings/jsonrpc.js';
import { lazyRestBinding } from './bindings/rest-loader.js';
import { schemasOf } from './bindings/result.js';
import { AuthorizationError, ExchangeError, nameOperation, RemoteError } from './core/errors.js';
import { type EventHub, errorJson } from './events.js';
import { carriesIdempotencyKey, notAppliedCodes } from './idempotency/retry.js';
import type { RetryNotice } from './idempotency/retry-loop.js';
import { loadDeferred } from './loader.js';
import type { ResolvedClientOptions } from './options.js';
import { type PreparedCall, prepareCall } from './outbound.js';
import { methods } from './protocol/methods.js';
import type {
  ClientMethod,
  OperationName,
  OperationRequest,
  OperationResponse,
} from './protocol/operations.js';
import type { StreamResponse } from './protocol/stream.js';
import type { ResumeOptions } from './resumption.js';
import type { TokenAttempt, TokenContext } from './security.js';
import type { StreamRun } from './streaming.js';

/**
What one call may add: a cancellation signal, the skill it invokes (whose own security requirements then choose the token's scopes), and, for the durable layer, the attempt it makes.

@example
```ts
await client.sendMessage({ message }, { signal: AbortSignal.timeout(5_000), skill: 'summarise' });
```
*/
export type CallOptions = {
  /** Cancels the call: before dispatch `RequestError('aborted')`, after it `TransportError('aborted')`; it also ends a stream. */
  readonly signal?: AbortSignal;
  /** A skill id of the card: the skill's `securityRequirements`, when it declares some, set the token's scopes. */
  readonly skill?: string;
  /** Passed to the token provider as `TokenContext.attempt`. A call made for a durable attempt is never retried by the client's policy. */
  readonly attempt?: TokenAttempt;
  /** Streams only: how a stream that breaks once it has named its task resumes, by SubscribeToTask and never by sending again (`resumption.ts`); `false` turns it off. Unary calls ignore it. @default { attempts: 3, initialDelayMs: 250, maxDelayMs: 5000 } */
  readonly resume?: ResumeOptions | boolean;
};

/** The semantic check of one unary answer (docs/protocol-checks.md#unary-answers), given the request actually sent. `replay` is true for the answer to a retry of a keyed send, which may be the first attempt's task in whatever state it has reached (docs/idempotency.md#replays). */
export type UnaryCheck<N extends UnaryMethod> = (
  request: OperationRequest<N>,
  value: OperationResponse<N>,
  httpStatus: number,
  replay: boolean,
) => void | Promise<void>;

/** A unary answer as the caller receives it: when `replay` was true, the answer gains `replayed: true`. */
export type UnaryAnswer<N extends UnaryMethod> = OperationResponse<N> & { readonly replayed?: true };

/** Runs the calls of one client: one binding, one JSON-RPC id counter, one call counter. */
export type Caller = {
  unary<N extends UnaryMethod>(
    operation: N,
    params: unknown,
    options: CallOptions | undefined,
    check: UnaryCheck<N>,
  ): Promise<UnaryAnswer<N>>;
  stream(
    operation: StreamMethod,
    params: unknown,
    options: CallOptions | undefined,
  ): AsyncGenerator<StreamResponse, void, undefined>;
};

/** The parts of one client's call runner that its stream half (`streaming.ts`) shares: the same binding, events, outbound contract, retry loop and token context. */
export type CallKit = {
  readonly resolved: ResolvedClientOptions;
  readonly hub: EventHub;
  readonly binding: Binding;
  readonly base: (call: Call) => {
    callId: number;
    operation: OperationName;
    binding: ResolvedClientOptions['pin']['binding'];
    time: number;
  };
  readonly elapsed: (call: Call) => number;
  readonly fail: (call: Call, error: unknown, answered?: boolean) => unknown;
  readonly prepare: (call: Call, params: unknown, options: CallOptions | undefined) => Promise<PreparedCall>;
  readonly attempts: <T>(
    call: Call,
    keyed: boolean,
    options: CallOptions | undefined,
    attempt: (number: number) => Promise<T>,
  ) => Promise<T>;
  readonly start: <T>(
    call: Call,
    prepared: PreparedCall,
    options: CallOptions | undefined,
    send: (request: object, context: CallContext) => T,
  ) => T;
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
  /** What the token provider threw, so that a deliberate `permission-denied` survives the transport's mapping. */
  providerError?: unknown;
  /** The try the client's retry policy is on, from 1; `ClientOptions.headers` is told it. */
  attempt?: number;
};

/** A send (never an idempotent read or cancel) that may have reached the peer and was not authoritatively refused: docs/durable-send.md#classifying-a-failure. */
function sendOutcomeUnknown(call: Call, error: ExchangeError): boolean {
  const send = call.method === 'sendMessage' || call.method === 'sendStreamingMessage';
  const refused =
    error instanceof RemoteError && error.remoteCode !== undefined && notAppliedCodes.has(error.remoteCode);
  return send && error.dispatched && !refused;
}

function buildBinding(resolved: ResolvedClientOptions, nextId: () => number): Binding {
  const { pin, limits, subscribeMethod } = resolved;
  const options = {
    url: pin.url,
    limits,
    subscribeMethod,
    ...(pin.tenant === undefined ? {} : { tenant: pin.tenant }),
  };
  return pin.binding === 'JSONRPC'
    ? createJsonRpcBinding({ ...options, nextId, load: loadDeferred })
    : lazyRestBinding(options, loadDeferred);
}

/**
Creates the call runner of one client: every call goes through the outbound contract, gets its token context and inspector events, and has its answer checked; a stream goes through the lifecycle validator. With a retry policy, each attempt (a stream's establishment only) runs inside `runWithRetry`: one call, one `callId`, a `request` event per attempt and a `retry` event before each wait.

@example
```ts
const caller = createCaller(resolveClientOptions(options), createEventHub());
const task = await caller.unary('getTask', { id: 't-1' }, undefined, (request, task) => checkTask(task, { id: request.id }));
```
*/
export function createCaller(resolved: ResolvedClientOptions, hub: EventHub): Caller {
  const { card, cardDigest, pin, security, retry, honoursIdempotency, fetch } = resolved;
  const extraHeaders = resolved.headers;
  // docs/protocol-checks.md#extensions: the configured order, comma-joined, no spaces.
  const headers =
    resolved.extensions.length === 0 ? undefined : { 'a2a-extensions': resolved.extensions.join(',') };
  // docs/protocol-checks.md#requests: one JSON-RPC id counter per client, from 1, shared by every operation. The binding draws the id synchronously while `issuing` is set, so each call learns its own.
  let lastRpcId = 0;
  let issuing: Call | undefined;
  const binding = buildBinding(resolved, () => {
    lastRpcId += 1;
    if (issuing !== undefined) {
      issuing.rpcId = lastRpcId;
    }
    return lastRpcId;
  });
  let calls = 0;

  const base = (call: Call) => ({
    callId: call.id,
    operation: call.operation,
    binding: pin.binding,
    time: Date.now(),
  });
  const elapsed = (call: Call): number => performance.now() - call.started;

  function begin(method: ClientMethod): Call {
    calls += 1;
    return { id: calls, method, operation: methods[method].name, started: performance.now() };
  }

  /** Ends a failed call; `answered`: a stream already delivered a valid first event, so its send's outcome is known. */
  function fail(call: Call, error: unknown, answered = false): unknown {
    const denied = call.providerError;
    // The transport maps every provider failure to `unavailable`; the provider's own refusal is kept.
    const thrown =
      error instanceof AuthorizationError &&
      denied instanceof AuthorizationError &&
      denied.reason === 'permission-denied'
        ? new AuthorizationError('permission-denied')
        : error;
    if (thrown instanceof ExchangeError) {
      nameOperation(thrown, call.operation, !answered && sendOutcomeUnknown(call, thrown));
    }
    hub.emit(() => ({ ...base(call), type: 'error', durationMs: elapsed(call), error: errorJson(thrown) }));
    return thrown;
  }

  /** The outbound contract, once per call: every attempt sends this same request. An operation other than SendMessage loads its schemas first (ARCHITECTURE.md#decisions, "Code loads with its first use"). */
  async function prepare(
    call: Call,
    params: unknown,
    options: CallOptions | undefined,
  ): Promise<PreparedCall> {
    const { request: schema } = await schemasOf(call.method, loadDeferred);
    const id = options?.skill;
    const skill =
      id === undefined ? undefined : { id, scopesOf: (await loadDeferred(false)).skillCallScopes };
    return prepareCall({ card, security, operation: call.method, params, skill, schema });
  }

  /** Runs `attempt` under the client's retry policy, reporting each retry; `keyed` from the prepared request. A call made for a durable attempt never retries: the durable agent sends once and reconciles, and a retry would be an attempt its ledger never recorded (docs/durable-send.md#the-promise). Without a policy the attempt simply runs once, which is all `runWithRetry` would do with it. */
  function attempts<T>(
    call: Call,
    keyed: boolean,
    options: CallOptions | undefined,
    attempt: (number: number) => Promise<T>,
  ): Promise<T> {
    const policy = options?.attempt === undefined ? retry : undefined;
    if (policy === undefined) {
      return attempt(1);
    }
    // The retry loop loads with the first call a policy covers (ARCHITECTURE.md#decisions, "Code loads with its first use"), before anything is sent.
    return loadDeferred(false).then(({ runWithRetry }) =>
      runWithRetry(
        {
          policy,
          operation: call.method,
          keyed,
          signal: options?.signal,
          onRetry: ({ attempt: number, delayMs, error }: RetryNotice) =>
            hub.emit(() => ({
              ...base(call),
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

  /** One attempt: the token context and inspector hooks, then the binding's call; returns what `send` returns. */
  function start<T>(
    call: Call,
    prepared: PreparedCall,
    options: CallOptions | undefined,
    send: (request: object, context: CallContext) => T,
  ): T {
    const { operation } = call;
    const { request, taskId, scopes } = prepared;
    call.providerError = undefined;
    const tokenContext: Omit<TokenContext, 'signal'> = {
      operation,
      cardDigest,
      binding: pin.binding,
      scopes,
      ...(pin.tenant === undefined ? {} : { tenant: pin.tenant }),
      ...(taskId === undefined ? {} : { taskId }),
      ...(options?.skill === undefined ? {} : { skill: options.skill }),
      ...(options?.attempt === undefined ? {} : { attempt: options.attempt }),
    };
    const provider = security.kind === 'bearer' ? security.token : undefined;
    const attempt = call.attempt ?? 1;
    const context: CallContext = {
      ...(options?.signal === undefined ? {} : { signal: options.signal }),
      ...(headers === undefined ? {} : { headers }),
      ...(fetch === undefined ? {} : { fetch }),
      ...(extraHeaders === undefined
        ? {}
        : {
            // docs/protocol-checks.md#extra-headers: asked once per HTTP request, with what the binding built; the checks load with the first request of a client given them.
            extraHeaders: async (target: HeaderTarget) =>
              (await loadDeferred(false)).extraHeadersOf(
                ({ url, method: sentMethod }) =>
                  extraHeaders({
                    operation,
                    binding: pin.binding,
                    method: sentMethod,
                    url,
                    callId: call.id,
                    attempt,
                    ...(taskId === undefined ? {} : { taskId }),
                  }),
                target,
              ),
          }),
      ...(provider === undefined
        ? {}
        : {
            // docs/protocol-checks.md#token-provider: once per HTTP request, inside its deadline (the transport bounds the wait).
            authorize: async (signal: AbortSignal) => {
              try {
                return await provider(Object.freeze({ ...tokenContext, signal }));
              } catch (error) {
                call.providerError = error;
                throw error;
              }
            },
          }),
      onDispatch: (httpMethod) =>
        hub.emit(() => ({
          ...base(call),
          type: 'request',
          httpMethod,
          ...(call.rpcId === undefined ? {} : { rpcId: call.rpcId }),
          ...(taskId === undefined ? {} : { taskId }),
        })),
    };
    issuing = call;
    try {
      return send(request, context);
    } finally {
      issuing = undefined;
    }
  }

  async function unary<N extends UnaryMethod>(
    operation: N,
    params: unknown,
    options: CallOptions | undefined,
    check: UnaryCheck<N>,
  ): Promise<UnaryAnswer<N>> {
    const call = begin(operation);
    try {
      const prepared = await prepare(call, params, options);
      const keyed = carriesIdempotencyKey(operation, prepared.request, honoursIdempotency);
      return await attempts(call, keyed, options, async (number) => {
        call.attempt = number;
        const { value, httpStatus } = await start(call, prepared, options, (sent, context) =>
          binding.unary(operation, sent as OperationRequest<N>, context),
        );
        // docs/idempotency.md#replays: a keyed retry is answered with the key's task as it stands now, settled or not.
        const replay = keyed && number > 1;
        // The page and push-config checks load with their operation's schemas, before the request left (`client.ts`); the others run at once.
        const checking = check(prepared.request as OperationRequest<N>, value, httpStatus, replay);
        if (checking !== undefined) {
          await checking;
        }
        hub.emit(() => ({
          ...base(call),
          type: 'response',
          stream: false,
          httpStatus,
          durationMs: elapsed(call),
        }));
        // Only a send can be keyed, and its answer is always an object.
        return (replay ? { ...value, replayed: true } : value) as UnaryAnswer<N>;
      });
    } catch (error) {
      throw fail(call, error);
    }
  }

  const kit: CallKit = { resolved, hub, binding, base, elapsed, fail, prepare, attempts, start };
  let runStream: StreamRun | undefined;

  async function* stream(
    operation: StreamMethod,
    params: unknown,
    options: CallOptions | undefined,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const call = begin(operation);
    if (runStream === undefined) {
      try {
        // The stream runner, its lifecycle validator and resumption load with the first stream (ARCHITECTURE.md#decisions, "Code loads with its first use").
        runStream = (await loadDeferred(false)).streamRunner(kit);
      } catch (error) {
        throw fail(call, error);
      }
    }
    yield* runStream(call, operation, params, options);
  }

  return { unary, stream };
}
