/**
@module
One gRPC channel to one interface, the one owner of `@grpc/grpc-js` (ARCHITECTURE.md#import-rules): a call's
metadata (A2A spec §10.2: `a2a-version`, `a2a-extensions`, `authorization`, the caller's extra headers), the
answer's head shown to the caller's interceptors (docs/protocol-checks.md#interceptors), its deadline and its
cancellation, and when the request counts as sent
(docs/protocol-checks.md#dispatch-and-timing). Messages are bytes both ways: the codec (`codec.ts`) writes and
reads them, so a peer's bytes never reach a deserializer we do not check. What goes wrong becomes one of the
closed errors (`status.ts`).
*/
/// <reference types="node" preserve="true" />
import {
  Client,
  type ClientReadableStream,
  connectivityState,
  credentials,
  Metadata,
  type ServiceError,
} from '@grpc/grpc-js';
import { AuthorizationError, ExchangeError, RequestError, TransportError } from '../../core/errors.js';
import type { Limits } from '../../core/limits.js';
import type { AnswerHead, CallContext } from '../binding.js';
import { type GrpcEnd, type GrpcTrailers, grpcFailure } from './status.js';
import { type Watch, watch } from './watch.js';

/** The target of an interface URL: `host:port` and whether the channel uses TLS. */
export type GrpcTarget = { readonly address: string; readonly secure: boolean; readonly url: string };

/** One call's input: the RPC path, the request's bytes, and what the call adds. */
export type GrpcCall = {
  readonly path: string;
  readonly body: Uint8Array;
  readonly context: CallContext;
  /** Reads a `grpc-status-details-bin` trailer (`codec.ts`). */
  readonly trailers: GrpcTrailers;
};

/** An established server stream: its messages, each within the event bound, and how to release it. */
export type GrpcMessages = {
  next(): Promise<IteratorResult<Uint8Array, undefined>>;
  return(): Promise<IteratorReturnResult<undefined>>;
  [Symbol.asyncIterator](): GrpcMessages;
};

// RFC 6750, §2.1: b64token, as the HTTP bindings send it (wire/http.ts).
const bearerToken = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
What ends a call before it was sent: nothing reached the peer (docs/protocol-checks.md#dispatch-and-timing).
*/
function beforeDispatch(clock: Watch): ExchangeError {
  return clock.why === 'timeout'
    ? new TransportError('timeout', { dispatched: false })
    : new RequestError('aborted');
}

/**
The head of a gRPC answer as the interceptors' `after` is shown it (docs/protocol-checks.md#interceptors): the
HTTP/2 status every gRPC answer travels with (gRPC over HTTP/2, "Responses": `:status 200`) and the peer's
initial metadata as its headers, each key's values comma-joined as `Headers` joins them; a `-bin` key carries
bytes, not header text, and is left out. The body is empty: the messages are the call's own.
*/
function headOf(metadata: Metadata): Response {
  const headers = new Headers();
  for (const [name, values] of Object.entries(metadata.toJSON())) {
    if (!name.endsWith('-bin')) {
      for (const value of values) {
        headers.append(name, String(value));
      }
    }
  }
  return new Response(null, { status: 200, headers });
}

/** A call's metadata, and what to show its answer's head to when the caller's interceptors asked for it. */
type Prepared = { readonly metadata: Metadata; readonly head: AnswerHead | undefined };

async function metadataOf(call: GrpcCall, target: GrpcTarget, clock: Watch): Promise<Prepared> {
  const { context } = call;
  const metadata = new Metadata();
  let head: AnswerHead | undefined;
  const extra =
    context.extraHeaders === undefined
      ? {}
      : await context.extraHeaders({
          url: target.url,
          method: 'POST',
          observe: (answered) => {
            head = answered;
          },
        });
  for (const [name, value] of Object.entries(extra)) {
    metadata.set(name, value);
  }
  for (const [name, value] of Object.entries(context.headers ?? {})) {
    metadata.set(name, value);
  }
  // A2A spec §3.6.2 and §10.2: a request without A2A-Version is served as 0.3.
  metadata.set('a2a-version', '1.0');
  if (context.authorize !== undefined) {
    let token: unknown;
    try {
      const signal = clock.signal();
      token = await Promise.race([
        Promise.resolve().then(() => context.authorize?.(signal)),
        new Promise((_, reject) => clock.onCancel(reject)),
      ]);
    } catch {
      // docs/protocol-checks.md#token-provider: a provider that fails or outlives the deadline is
      // `unavailable`, never dispatched.
      throw clock.why !== undefined ? beforeDispatch(clock) : new AuthorizationError('unavailable');
    }
    if (typeof token !== 'string' || !bearerToken.test(token)) {
      throw new AuthorizationError('unavailable');
    }
    metadata.set('authorization', `Bearer ${token}`);
  }
  return { metadata, head };
}

/**
Waits until the channel is connected, so that a peer that cannot be reached fails before anything was sent:
`TransportError('network')` with `dispatched: false`. A call started on a ready channel may have reached the
peer, whatever then goes wrong.
*/
function ready(client: Client, clock: Watch): Promise<void> {
  // A channel already connected needs no wait (and no timer of grpc-js's).
  if (client.getChannel().getConnectivityState(false) === connectivityState.READY) {
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    // A promise settles once: a cancel after the channel connected changes nothing.
    clock.onCancel(() => reject(beforeDispatch(clock)));
    // grpc-js gives up at the deadline passed; ours is the watch's, so the wait is bounded by it.
    client.waitForReady(Number.POSITIVE_INFINITY, (error) => {
      if (clock.why !== undefined) {
        reject(beforeDispatch(clock));
      } else if (error === undefined || error === null) {
        resolve();
      } else {
        reject(new TransportError('network', { dispatched: false, cause: { code: 'UNAVAILABLE' } }));
      }
    });
  });
}

/**
What the status module reads of a failed call. grpc-js keeps the peer's trailers, less `grpc-status` and
`grpc-message`, as the error's metadata; a status it made up itself (a dropped connection) has none.
*/
function endOf(error: unknown): GrpcEnd | null {
  if (error === null || typeof error !== 'object' || !('code' in error) || typeof error.code !== 'number') {
    return null;
  }
  const metadata = (error as ServiceError).metadata;
  const details = metadata?.get('grpc-status-details-bin')[0];
  return {
    code: error.code,
    fromPeer: metadata !== undefined && Object.keys(metadata.getMap()).length > 0,
    ...(details instanceof Uint8Array ? { statusDetails: details } : {}),
  };
}

const identity = (value: Buffer): Buffer => value;
const serialize = (value: Uint8Array): Buffer =>
  Buffer.from(value.buffer, value.byteOffset, value.byteLength);

/** The channel of one interface. */
export type GrpcChannel = {
  /** One unary call: the answer's bytes, at most `responseBodyBytes`. */
  unary(call: GrpcCall): Promise<Uint8Array>;
  /**
  Resolves once the peer sent its headers (or a first message); each message is at most `sseEventBytes`.
  */
  stream(call: GrpcCall): Promise<GrpcMessages>;
};

/**
Opens the channel of one interface. grpc-js connects lazily, so nothing is sent before the first call; the
message bounds are the HTTP bindings' (docs/protocol-checks.md#grpc): a request above `requestBodyBytes` is
refused before it leaves, a unary answer above `responseBodyBytes` and a stream message above `sseEventBytes`
are refused as `body-too-large`.

@example
```ts
const channel = openGrpcChannel({ address: '127.0.0.1:50051', secure: false, url }, limits);
const bytes = await channel.unary({ path: '/lf.a2a.v1.A2AService/GetTask', body, context: {}, trailers });
```
*/
export function openGrpcChannel(target: GrpcTarget, limits: Limits): GrpcChannel {
  const client = new Client(
    target.address,
    target.secure ? credentials.createSsl() : credentials.createInsecure(),
    {
      'grpc.max_receive_message_length': Math.max(limits.responseBodyBytes, limits.sseEventBytes),
      'grpc.max_send_message_length': limits.requestBodyBytes,
    },
  );

  async function prepare(call: GrpcCall, clock: Watch): Promise<Prepared> {
    if (call.body.byteLength > limits.requestBodyBytes) {
      throw new RequestError('body-too-large');
    }
    clock.arm(limits.requestTimeoutMs, 'timeout');
    if (clock.why !== undefined) {
      throw beforeDispatch(clock);
    }
    const prepared = await metadataOf(call, target, clock);
    await ready(client, clock);
    call.context.onDispatch?.('POST');
    return prepared;
  }

  return {
    async unary(call) {
      const clock = watch(call.context.signal);
      try {
        const { metadata, head } = await prepare(call, clock);
        return await new Promise<Uint8Array>((resolve, reject) => {
          const pending = client.makeUnaryRequest(
            call.path,
            serialize,
            identity,
            call.body,
            metadata,
            (error: ServiceError | null, value?: Buffer) => {
              if (error !== null || value === undefined) {
                reject(
                  grpcFailure(endOf(error), { established: false, why: clock.why, trailers: call.trailers }),
                );
              } else if (value.byteLength > limits.responseBodyBytes) {
                reject(grpcFailure(null, { established: false, why: 'too-large', trailers: call.trailers }));
              } else {
                resolve(value);
              }
            },
          );
          shown(pending, head);
          clock.onCancel(() => pending.cancel());
        });
      } finally {
        clock.stop();
      }
    },

    async stream(call) {
      const clock = watch(call.context.signal);
      let prepared: Prepared;
      try {
        prepared = await prepare(call, clock);
      } catch (error) {
        clock.stop();
        throw error;
      }
      const pending = client.makeServerStreamRequest(
        call.path,
        serialize,
        identity,
        call.body,
        prepared.metadata,
      );
      shown(pending, prepared.head);
      // Read from the start: a trailers-only refusal emits its head and its error in one turn, before an
      // awaited establishment could hand the stream to a reader, and an error nobody listens to is thrown.
      const read = readerOf(pending);
      clock.onCancel(() => pending.cancel());
      try {
        await established(pending);
      } catch (error) {
        clock.stop();
        throw grpcFailure(endOf(error), { established: false, why: clock.why, trailers: call.trailers });
      }
      clock.disarm();
      return messages(pending, read, { clock, trailers: call.trailers, limits });
    },
  };
}

/**
Shows the answer's head to the interceptors once the peer sends it. A trailers-only answer (a status with no
message, gRPC over HTTP/2 "Responses") has no head: grpc-js reads it as the call's status alone, which reaches
the caller as the call's error, and no `after` runs.
*/
function shown(
  pending: { on(event: 'metadata', listener: (metadata: Metadata) => void): unknown },
  head: AnswerHead | undefined,
): void {
  if (head !== undefined) {
    pending.on('metadata', (metadata) => head(headOf(metadata)));
  }
}

function established(pending: ClientReadableStream<Buffer>): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      pending.off('metadata', done);
      pending.off('readable', done);
      pending.off('error', reject);
      resolve();
    };
    pending.once('metadata', done);
    pending.once('readable', done);
    pending.once('error', reject);
  });
}

/**
Reads a server stream one message at a time: each message the peer sent is read before the error that ended
the call, so a stream cut after two messages delivers both, then breaks (a Node stream's own iterator drops
what it buffered once an error is emitted). The stream is paused while a message waits for its reader.
*/
function readerOf(pending: ClientReadableStream<Buffer>): () => Promise<IteratorResult<Buffer, undefined>> {
  const queue: Buffer[] = [];
  let failed: { readonly error: unknown } | undefined;
  let done = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  pending.on('data', (message: Buffer) => {
    queue.push(message);
    pending.pause();
    notify();
  });
  pending.on('end', () => {
    done = true;
    notify();
  });
  pending.on('error', (error: unknown) => {
    failed = { error };
    notify();
  });
  return async () => {
    for (;;) {
      const message = queue.shift();
      if (message !== undefined) {
        return { done: false, value: message };
      }
      if (failed !== undefined) {
        throw failed.error;
      }
      if (done) {
        return { done: true, value: undefined };
      }
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
      });
      pending.resume();
      await woken;
    }
  };
}

function messages(
  pending: ClientReadableStream<Buffer>,
  read: () => Promise<IteratorResult<Buffer, undefined>>,
  {
    clock,
    trailers,
    limits,
  }: { readonly clock: Watch; readonly trailers: GrpcTrailers; readonly limits: Limits },
): GrpcMessages {
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      clock.stop();
      pending.cancel();
    }
  };
  const finished: IteratorReturnResult<undefined> = { done: true, value: undefined };
  return {
    async next() {
      if (ended) {
        return finished;
      }
      // docs/protocol-checks.md#grpc: the stream's deadline ends at establishment, then the idle bound runs
      // between two messages.
      clock.arm(limits.streamIdleTimeoutMs, 'idle');
      try {
        const step = await read();
        clock.disarm();
        if (step.done === true) {
          end();
          return finished;
        }
        if (step.value.byteLength > limits.sseEventBytes) {
          throw grpcFailure(null, { established: true, why: 'too-large', trailers });
        }
        return { done: false, value: step.value };
      } catch (error) {
        const failure =
          error instanceof ExchangeError
            ? error
            : grpcFailure(endOf(error), { established: true, why: clock.why, trailers });
        end();
        throw failure;
      }
    },
    async return() {
      end();
      return finished;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
