import type {
  Binding,
  CallContext,
  HeaderTarget,
  StreamFrame,
  StreamMethod,
  UnaryMethod,
} from './bindings/binding.js';
import { checkTask } from './bindings/checks.js';
import { createJsonRpcBinding } from './bindings/jsonrpc.js';
import { createRestBinding } from './bindings/rest.js';
import { createStreamValidator } from './bindings/stream.js';
import {
  AuthorizationError,
  ExchangeError,
  nameOperation,
  RemoteError,
  TransportError,
} from './core/errors.js';
import { type EventHub, errorJson, type StreamBreakReason, streamEventKind } from './events.js';
import {
  carriesIdempotencyKey,
  notAppliedCodes,
  type RetryNotice,
  runWithRetry,
} from './idempotency/retry.js';
import type { ResolvedClientOptions } from './options.js';
import { type PreparedCall, prepareCall } from './outbound.js';
import type {
  ClientMethod,
  OperationName,
  OperationRequest,
  OperationResponse,
  StreamResponse,
  Task,
} from './protocol/index.js';
import { isInterrupted, isTerminal, operations } from './protocol/index.js';
import {
  breakOf,
  isTransientResumeFailure,
  pause,
  type ResumeOptions,
  type ResumePolicy,
  resolveResumePolicy,
  resumeDelayMs,
} from './resumption.js';
import type { TokenAttempt, TokenContext } from './security.js';

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
) => void;

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

type Call = {
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

/** What a resumption starts from: the task, the break and its reason, and the attempts already spent without progress. */
type ResumeSession = {
  readonly taskId: string;
  readonly broken: unknown;
  readonly reason: StreamBreakReason;
  readonly used: number;
};

/** The task an event of a task stream names (a direct Message ends its stream, so it never names one to resume). */
function taskIdOf(event: StreamResponse): string | undefined {
  if ('task' in event) {
    return event.task.id;
  }
  if ('statusUpdate' in event) {
    return event.statusUpdate.taskId;
  }
  return 'artifactUpdate' in event ? event.artifactUpdate.taskId : undefined;
}

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
    ? createJsonRpcBinding({ ...options, nextId })
    : createRestBinding(options);
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
    return { id: calls, method, operation: operations[method].name, started: performance.now() };
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

  /** The outbound contract, once per call: every attempt sends this same request. */
  function prepare(call: Call, params: unknown, options: CallOptions | undefined): PreparedCall {
    return prepareCall({ card, security, operation: call.method, params, skill: options?.skill });
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
    return runWithRetry(
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
    );
  }

  /** One attempt: the token context and inspector hooks, then the binding's call; returns what `send` returns. */
  function start<T>(
    call: Call,
    prepared: PreparedCall,
    options: CallOptions | undefined,
    send: (request: object, context: CallContext) => T,
  ): T {
    const { method, operation } = call;
    const { request, taskId, scopes } = prepared;
    call.providerError = undefined;
    const { http } = operations[method];
    const httpMethod =
      pin.binding === 'JSONRPC'
        ? 'POST'
        : method === 'subscribeToTask'
          ? resolved.subscribeMethod
          : http.method;
    const provider = security.kind === 'bearer' ? security.token : undefined;
    // Built only for a client with a token provider: an anonymous call never reads it.
    const tokenContext: Omit<TokenContext, 'signal'> | undefined =
      provider === undefined
        ? undefined
        : {
            operation,
            cardDigest,
            binding: pin.binding,
            scopes,
            ...(pin.tenant === undefined ? {} : { tenant: pin.tenant }),
            ...(taskId === undefined ? {} : { taskId }),
            ...(options?.skill === undefined ? {} : { skill: options.skill }),
            ...(options?.attempt === undefined ? {} : { attempt: options.attempt }),
          };
    const attempt = call.attempt ?? 1;
    const context: CallContext = {
      ...(options?.signal === undefined ? {} : { signal: options.signal }),
      ...(headers === undefined ? {} : { headers }),
      ...(fetch === undefined ? {} : { fetch }),
      ...(extraHeaders === undefined
        ? {}
        : {
            // docs/protocol-checks.md#extra-headers: asked once per HTTP request, with what the binding built.
            extraHeaders: ({ url, method: sentMethod }: HeaderTarget) =>
              extraHeaders({
                operation,
                binding: pin.binding,
                method: sentMethod,
                url,
                callId: call.id,
                attempt,
                ...(taskId === undefined ? {} : { taskId }),
              }),
          }),
      ...(provider === undefined || tokenContext === undefined
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
      onDispatch: () =>
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
      const prepared = prepare(call, params, options);
      const keyed = carriesIdempotencyKey(operation, prepared.request, honoursIdempotency);
      return await attempts(call, keyed, options, async (number) => {
        call.attempt = number;
        const { value, httpStatus } = await start(call, prepared, options, (sent, context) =>
          binding.unary(operation, sent as OperationRequest<N>, context),
        );
        // docs/idempotency.md#replays: a keyed retry is answered with the key's task as it stands now, settled or not.
        const replay = keyed && number > 1;
        check(prepared.request as OperationRequest<N>, value, httpStatus, replay);
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

  /** A resumption's own exchange (SubscribeToTask or GetTask) under the stream's `callId`: its `request` event names the operation it really is. */
  function exchange(call: Call, method: 'subscribeToTask' | 'getTask'): Call {
    return { id: call.id, method, operation: operations[method].name, started: call.started };
  }

  /**
  Resumes a stream that broke once its task was known (docs/protocol-checks.md#stream-resumption): waits, subscribes to the task and returns the new source; after a refusal, one GetTask returns the task when it has settled. Throws `broken` when the attempts run out, a peer asks to wait longer than allowed, or the task is still running but cannot be subscribed to; the caller's abort during a wait ends it as an abort.
  */
  async function resumeStream(
    call: Call,
    session: ResumeSession,
    policy: ResumePolicy,
    options: CallOptions | undefined,
  ): Promise<{
    readonly source: AsyncIterableIterator<StreamFrame> | undefined;
    readonly task?: Task;
    readonly used: number;
  }> {
    const { taskId, broken, reason } = session;
    const signal = options?.signal;
    // Read afresh each time: the caller may abort during any await below.
    const aborted = (): boolean => signal?.aborted === true;
    const subscribe = exchange(call, 'subscribeToTask');
    const params = { id: taskId };
    let previous: unknown = broken;
    for (let attempt = session.used + 1; attempt <= policy.attempts; attempt += 1) {
      const delayMs = resumeDelayMs(policy, attempt, previous);
      if (delayMs === undefined) {
        break;
      }
      const failure = previous;
      hub.emit(() => ({
        ...base(call),
        type: 'stream-resume',
        attempt,
        reason,
        delayMs,
        taskId,
        via: 'SubscribeToTask',
        error: errorJson(failure),
      }));
      if (!(await pause(delayMs, signal))) {
        throw new TransportError('aborted', { dispatched: true, cause: broken });
      }
      try {
        // The same binding, bounds, pin and token provider; a read of the task, never the message again.
        const prepared = prepare(subscribe, params, options);
        const source = await start(subscribe, prepared, options, (sent, context) =>
          binding.stream('subscribeToTask', sent as OperationRequest<'subscribeToTask'>, context),
        );
        return { source, used: attempt };
      } catch (error) {
        if (aborted()) {
          throw new TransportError('aborted', { dispatched: true, cause: broken });
        }
        previous = error;
        if (!isTransientResumeFailure(error)) {
          // A refusal: A2A spec §3.1.6 answers a subscription to a terminal task with UnsupportedOperation, and a peer may not serve subscriptions at all. One GetTask tells whether anything is left to wait for.
          hub.emit(() => ({
            ...base(call),
            type: 'stream-resume',
            attempt,
            reason,
            delayMs: 0,
            taskId,
            via: 'GetTask',
            error: errorJson(error),
          }));
          const task = await finalSnapshot(call, taskId, options);
          if (aborted()) {
            throw new TransportError('aborted', { dispatched: true, cause: broken });
          }
          if (task === undefined) {
            throw broken;
          }
          return { source: undefined, task, used: attempt };
        }
      }
    }
    throw broken;
  }

  /** The task by GetTask, when it has settled (terminal or interrupted); `undefined` when it has not or cannot be read. */
  async function finalSnapshot(
    call: Call,
    taskId: string,
    options: CallOptions | undefined,
  ): Promise<Task | undefined> {
    const get = exchange(call, 'getTask');
    try {
      const prepared = prepare(get, { id: taskId }, options);
      const { value, httpStatus } = await start(get, prepared, options, (sent, context) =>
        binding.unary('getTask', sent as OperationRequest<'getTask'>, context),
      );
      checkTask(value, { id: taskId }, { httpStatus });
      const { state } = value.status;
      return isTerminal(state) || isInterrupted(state) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  async function* stream(
    operation: StreamMethod,
    params: unknown,
    options: CallOptions | undefined,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const call = begin(operation);
    let frames = 0;
    let wireBytes = 0;
    let settled = false;
    const end = (reason: 'complete' | 'released'): void =>
      hub.emit(() => ({
        ...base(call),
        type: 'stream-end',
        reason,
        frames,
        wireBytes,
        durationMs: elapsed(call),
      }));
    const frameEvent = (event: StreamResponse, bytes: number): void => {
      const index = frames;
      frames += 1;
      wireBytes += bytes;
      hub.emit(() => ({
        ...base(call),
        type: 'stream-frame',
        index,
        wireBytes: bytes,
        kind: streamEventKind(event),
        event: structuredClone(event),
      }));
    };
    try {
      const policy = resolveResumePolicy(options?.resume, resolved.limits.streamIdleTimeoutMs);
      const prepared = prepare(call, params, options);
      const { request } = prepared;
      // Only the establishment is retried: once the stream is open, a break is resumed by reading the task, never by sending again (docs/idempotency.md#retry-policy, streams).
      const keyed = carriesIdempotencyKey(operation, request, honoursIdempotency);
      let source: AsyncIterableIterator<StreamFrame> | undefined = await attempts(
        call,
        keyed,
        options,
        (number) => {
          call.attempt = number;
          return start(call, prepared, options, (sent, context) =>
            binding.stream(operation, sent as OperationRequest<typeof operation>, context),
          );
        },
      );
      // A subscription names its task from the start; a send's stream names it with its first task event.
      let taskId =
        operation === 'subscribeToTask' ? (request as OperationRequest<'subscribeToTask'>).id : undefined;
      const validator = createStreamValidator(
        operation === 'subscribeToTask'
          ? { kind: 'subscribe', taskId: taskId ?? '' }
          : { kind: 'send', request: request as OperationRequest<'sendStreamingMessage'> },
      );
      hub.emit(() => ({ ...base(call), type: 'response', stream: true, durationMs: elapsed(call) }));
      // Resumption attempts spent since the stream last made progress: a resumed stream that delivers an update beyond its snapshot earns a fresh count, so a peer that breaks every subscription at once cannot keep the stream going.
      let used = 0;
      while (source !== undefined) {
        try {
          // for-await releases the binding's iterator on every exit but its own failure: a check that throws, or the caller leaving.
          for await (const frame of source) {
            if (!validator.accept(frame.event)) {
              continue;
            }
            taskId ??= taskIdOf(frame.event);
            if (!('task' in frame.event)) {
              used = 0;
            }
            frameEvent(frame.event, frame.wireBytes);
            yield frame.event;
          }
          validator.end();
          source = undefined;
        } catch (error) {
          const reason = breakOf(error);
          if (reason === undefined) {
            throw error;
          }
          // Nothing to resume: no policy, the task is unknown (the send's outcome is the durable agent's question), the caller stopped, or the task already reached a state where the stream may end (docs/protocol-checks.md#stream-resumption).
          const resumable =
            policy !== undefined &&
            used < policy.attempts &&
            taskId !== undefined &&
            options?.signal?.aborted !== true &&
            !validator.complete;
          const known = taskId;
          hub.emit(() => ({
            ...base(call),
            type: 'stream-break',
            reason,
            frames,
            resumable,
            ...(known === undefined ? {} : { taskId: known }),
            error: errorJson(error),
          }));
          if (!resumable || policy === undefined || taskId === undefined) {
            throw error;
          }
          validator.seam();
          const resumed = await resumeStream(call, { taskId, broken: error, reason, used }, policy, options);
          used = resumed.used;
          source = resumed.source;
          if (resumed.task !== undefined) {
            const event = { task: resumed.task };
            validator.accept(event);
            // GetTask's answer was no SSE event: it adds no stream bytes.
            frameEvent(event, 0);
            yield event;
            validator.end();
          }
        }
      }
      settled = true;
      end('complete');
    } catch (error) {
      settled = true;
      throw fail(call, error, frames > 0);
    } finally {
      if (!settled) {
        end('released');
      }
    }
  }

  return { unary, stream };
}
