/**
@module
The `A2AService` of the gRPC mount (A2A spec §10): one handler per RPC, each reading its request message into
the ProtoJSON the agent's operations take (the same `params` the JSON-RPC binding hands them, `tenant` among
them, §10.5), calling the agent core the HTTP bindings call, and writing its answer, its stream or its error
(`status.ts`) back, with the fault lab (`faults.ts`) around the call. Metadata plays the part of the HTTP
headers: `a2a-version` must be `1.0` (A2A spec §3.6.1), `a2a-extensions` turns the idempotency extension on
and is echoed in the initial metadata, `authorization` carries the bearer token.
*/
import {
  Metadata,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  type sendUnaryData,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import {
  type ClientMethod,
  grpcMessages,
  grpcServiceName,
  type OperationName,
  operations as operationTable,
} from '@surecall/client/protocol';
import type { AgentInternals } from '../agent/agent.js';
import type { Outcome } from '../agent/call.js';
import { isObject } from '../agent/fields.js';
import { activatedExtensions, extensionHeaders, protocolVersion } from '../agent/operations.js';
import { AgentError, toAgentError } from '../agent/remote-errors.js';
import type { Call, FaultSpec, StatusAfterFault } from '../faults/fault-types.js';
import type { FaultLab } from '../faults/faults.js';
import type { GrpcCodec } from './codec.js';
import { rewriteAnswer, sleep, statusAfterCode } from './faults.js';
import { type GrpcError, grpcError } from './status.js';

/** What the handlers serve: the agent's operations, its fault lab, the codec, and how to reset a call. */
export type GrpcCallee = {
  readonly agent: Pick<AgentInternals, 'operations' | 'mode'>;
  readonly faults: FaultLab;
  readonly codec: GrpcCodec;
  /** The origin the extended card's HTTP interfaces are under. */
  readonly origin: () => string;
  /** End the connection that carried a call, named by its peer address (`call.getPeer()`), with no answer. */
  readonly reset: (peer: string) => void;
};

/** One RPC: its operation and the messages it takes and answers. */
type Rpc = { readonly operation: OperationName; readonly request: string; readonly response: string };

type AnyCall = ServerUnaryCall<Buffer, Buffer> | ServerWritableStream<Buffer, Buffer>;

/** The error a call ends with, as grpc-js sends it: the details in `grpc-status-details-bin`. */
function ending(error: GrpcError): { code: number; details: string; metadata: Metadata } {
  const metadata = new Metadata();
  metadata.set('grpc-status-details-bin', Buffer.from(error.details));
  return { code: error.code, details: error.message, metadata };
}

/** The injected end of `status-after`: a status with no A2A details. */
function injected(spec: StatusAfterFault) {
  return { code: statusAfterCode(spec), details: 'injected by the fault lab', metadata: new Metadata() };
}

function first(metadata: Metadata, name: string): string | null {
  const [value] = metadata.get(name);
  return typeof value === 'string' ? value : null;
}

/** A signal that aborts when the client cancels the call or goes away. */
function cancellation(call: AnyCall): AbortSignal {
  const controller = new AbortController();
  call.once('cancelled', () => controller.abort());
  return controller.signal;
}

/** The headers the agent's checks read, from the call's metadata. */
function headersOf(metadata: Metadata): Headers {
  const headers = new Headers();
  for (const name of ['a2a-extensions', 'authorization']) {
    const value = first(metadata, name);
    if (value !== null) {
      headers.set(name, value);
    }
  }
  return headers;
}

/** Read the request, check the version and run the operation; A2A errors are thrown as `AgentError`. */
async function run(callee: GrpcCallee, rpc: Rpc, call: AnyCall, signal: AbortSignal): Promise<Outcome> {
  // A2A spec §3.6.2: no version means 0.3; only 1.0 itself is served.
  if ((first(call.metadata, 'a2a-version') ?? '').trim() !== protocolVersion) {
    throw new AgentError(
      'VersionNotSupported',
      `The requested A2A protocol version is not supported. Supported versions: ${protocolVersion}`,
    );
  }
  let params: unknown;
  try {
    params = callee.codec.read(rpc.request, call.request);
  } catch {
    throw new AgentError('InvalidRequest', `The request is no ${rpc.request} message`);
  }
  const fields = isObject(params) ? params : {};
  const tenant = typeof fields['tenant'] === 'string' ? fields['tenant'] : '';
  return callee.agent.operations.call(rpc.operation, fields, {
    tenant,
    authorization: first(call.metadata, 'authorization'),
    origin: callee.origin(),
    signal,
  });
}

/** What a unary call would answer, before the fault decides how it ends. */
type Answer =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly error: GrpcError };

function refusal(callee: GrpcCallee, thrown: unknown, spec: FaultSpec | undefined): Answer {
  const details = spec?.kind === 'bad-status-details' ? (spec.details ?? 'malformed') : undefined;
  return { ok: false, error: grpcError(toAgentError(thrown), callee.codec, details) };
}

function initialMetadata(callee: GrpcCallee, call: AnyCall): Metadata {
  const metadata = new Metadata();
  const echo = extensionHeaders(
    activatedExtensions({ headers: headersOf(call.metadata) }, callee.agent.mode),
  );
  for (const [name, value] of Object.entries(echo)) {
    metadata.set(name, value);
  }
  return metadata;
}

async function serveUnary(
  callee: GrpcCallee,
  rpc: Rpc,
  call: ServerUnaryCall<Buffer, Buffer>,
  callback: sendUnaryData<Buffer>,
): Promise<void> {
  const signal = cancellation(call);
  const target: Call = { operation: rpc.operation, binding: 'GRPC' };
  const spec = callee.faults.take(target);
  if (spec?.kind === 'drop-before') {
    callee.reset(call.getPeer());
    return;
  }
  if (spec?.kind === 'delay' && spec.when !== 'after' && !(await sleep(spec.ms, signal))) {
    return;
  }
  let answer: Answer;
  try {
    const outcome = await run(callee, rpc, call, signal);
    const value = outcome.kind === 'value' ? outcome.value : {};
    const bytes = callee.codec.write(rpc.response, rewriteAnswer(spec, target, value, undefined));
    answer = { ok: true, bytes: Buffer.from(bytes) };
  } catch (thrown) {
    answer = refusal(callee, thrown, spec);
  }
  if (spec?.kind === 'drop-after') {
    callee.reset(call.getPeer());
    return;
  }
  if (spec?.kind === 'delay' && spec.when === 'after' && !(await sleep(spec.ms, signal))) {
    return;
  }
  call.sendMetadata(initialMetadata(callee, call));
  if (spec?.kind === 'status-after') {
    callback(injected(spec));
  } else if (answer.ok) {
    callback(null, answer.bytes);
  } else {
    callback(ending(answer.error));
  }
}

/** Write one message, resolving once grpc-js has handed it to the HTTP/2 stream. */
function write(call: ServerWritableStream<Buffer, Buffer>, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    call.write(Buffer.from(bytes), () => resolve());
  });
}

/** Whether a fault reads the whole stream and sends none of it (as over HTTP). */
function silences(spec: FaultSpec | undefined): boolean {
  return spec?.kind === 'drop-after' || spec?.kind === 'status-after';
}

/** How a stream's messages reach the client under a fault: all sent, cut, or ended early. */
async function pump(
  callee: GrpcCallee,
  rpc: Rpc,
  call: ServerWritableStream<Buffer, Buffer>,
  events: ReadableStream<unknown>,
  spec: FaultSpec | undefined,
): Promise<'ended' | 'cut' | 'early'> {
  const target: Call = { operation: rpc.operation, binding: 'GRPC' };
  const limit = spec?.kind === 'cut-stream' || spec?.kind === 'premature-eof' ? spec.afterFrames : undefined;
  const stop = spec?.kind === 'cut-stream' ? 'cut' : 'early';
  // premature-eof without afterFrames ends before the last message: each one waits until the next comes.
  const holdLast = spec?.kind === 'premature-eof' && spec.afterFrames === undefined;
  let sent = 0;
  let held: { readonly event: unknown; readonly index: number } | undefined;
  let index = 0;
  const send = async (event: unknown, at: number) => {
    await write(call, callee.codec.write(rpc.response, rewriteAnswer(spec, target, event, at)));
    sent += 1;
  };
  if (limit === 0) {
    await events.cancel().catch(() => undefined);
    return stop;
  }
  for await (const event of events) {
    const at = index;
    index += 1;
    if (silences(spec)) {
      continue;
    }
    if (holdLast) {
      if (held !== undefined) {
        await send(held.event, held.index);
      }
      held = { event, index: at };
      continue;
    }
    await send(event, at);
    if (limit !== undefined && sent >= limit) {
      return stop;
    }
  }
  return holdLast ? 'early' : 'ended';
}

async function serveStream(
  callee: GrpcCallee,
  rpc: Rpc,
  call: ServerWritableStream<Buffer, Buffer>,
): Promise<void> {
  const signal = cancellation(call);
  const spec = callee.faults.take({ operation: rpc.operation, binding: 'GRPC' });
  if (spec?.kind === 'drop-before') {
    callee.reset(call.getPeer());
    return;
  }
  if (spec?.kind === 'delay' && !(await sleep(spec.ms, signal))) {
    return;
  }
  let outcome: Outcome;
  try {
    outcome = await run(callee, rpc, call, signal);
  } catch (thrown) {
    const answer = refusal(callee, thrown, spec);
    if (spec?.kind === 'drop-after') {
      callee.reset(call.getPeer());
    } else if (!answer.ok) {
      call.emit('error', ending(answer.error));
    }
    return;
  }
  if (!silences(spec)) {
    call.sendMetadata(initialMetadata(callee, call));
  }
  const events: ReadableStream<unknown> =
    outcome.kind === 'stream' ? outcome.events : new ReadableStream({ start: (c) => c.close() });
  let end: 'ended' | 'cut' | 'early';
  try {
    end = await pump(callee, rpc, call, events, spec);
  } catch {
    call.emit('error', { code: 13, details: 'the stream failed', metadata: new Metadata() });
    return;
  }
  if (end === 'cut' || spec?.kind === 'drop-after') {
    // Let the last message leave before the connection goes (grpc-js hands it to HTTP/2 first).
    setImmediate(() => callee.reset(call.getPeer()));
  } else if (spec?.kind === 'status-after') {
    call.emit('error', injected(spec));
  } else {
    call.end();
  }
}

/**
Bytes in, bytes out: the codec reads and writes the messages itself, so a bad one is the agent's refusal.
*/
const asBytes = (value: Buffer): Buffer => value;

/** Every RPC of the service, from the client's operation table (`@surecall/client/protocol`). */
const rpcs: readonly (Rpc & { readonly streams: boolean })[] = (
  Object.keys(operationTable) as ClientMethod[]
).map((method) => ({
  operation: operationTable[method].name as OperationName,
  streams: operationTable[method].streams,
  ...grpcMessages[method],
}));

/**
The service definition and its implementation for grpc-js's `Server.addService`, the eleven RPCs of
`lf.a2a.v1.A2AService` over the agent.

@example
```ts
const { definition, implementation } = createA2aService({ agent, faults, codec, origin, reset });
server.addService(definition, implementation);
```
*/
export function createA2aService(callee: GrpcCallee): {
  readonly definition: ServiceDefinition;
  readonly implementation: UntypedServiceImplementation;
} {
  const definition: Record<string, ServiceDefinition[string]> = {};
  const implementation: UntypedServiceImplementation = {};
  for (const rpc of rpcs) {
    definition[rpc.operation] = {
      path: `/${grpcServiceName}/${rpc.operation}`,
      requestStream: false,
      responseStream: rpc.streams,
      requestSerialize: asBytes,
      requestDeserialize: asBytes,
      responseSerialize: asBytes,
      responseDeserialize: asBytes,
    };
    implementation[rpc.operation] = rpc.streams
      ? (call: ServerWritableStream<Buffer, Buffer>) => {
          void serveStream(callee, rpc, call);
        }
      : (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
          void serveUnary(callee, rpc, call, callback);
        };
  }
  return { definition, implementation };
}
