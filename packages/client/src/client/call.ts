/**
@module
The call runner of one client (ARCHITECTURE.md#layers-of-the-client, layer "client"): `createCaller` builds
its state (`CallKit`, `call-context.ts`) and hands each call to its half, unary (`unary-call.ts`) or stream
(`streaming.ts`, which loads with the first stream); both go through the attempts of `call-context.ts`.
*/
import type {
  AdmittedVersions,
  Binding,
  GrpcBindingProvider,
  StreamMethod,
  UnaryMethod,
} from '../bindings/binding.js';
import { createJsonRpcBinding } from '../bindings/jsonrpc.js';
import { lazyRestBinding } from '../bindings/rest-loader.js';
import { optionalMembers } from '../core/optional-members.js';
import type { StreamResponse } from '../protocol/stream.js';
import { begin, type CallKit, type CallOptions, fail } from './call-context.js';
import type { EventHub } from './events.js';
import { loadDeferred } from './loader.js';
import type { ResolvedClientOptions } from './options.js';
import { type UnaryAnswer, type UnaryCheck, unary } from './unary-call.js';

export type { Call, CallKit, CallOptions } from './call-context.js';
export type { UnaryAnswer, UnaryCheck } from './unary-call.js';

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

function buildBinding(resolved: ResolvedClientOptions, nextId: () => number): Binding {
  const { pin, limits, subscribeMethod, grpc, versions } = resolved;
  const options = {
    url: pin.url,
    limits,
    subscribeMethod,
    ...optionalMembers({ tenant: pin.tenant }),
  };
  // A `GRPC` pin is resolved only for a client given the gRPC binding (`speaks`, `pin.ts`), which builds
  // it.
  // A pin of another version than 1.0 is resolved only for a client given the v0.3 binding and
  // `protocolVersions` naming 0.3 (`preferredInterface`, `pin.ts`), which builds the JSON-RPC or HTTP+JSON
  // binding the pin names from these same options.
  return pin.version === '1.0'
    ? pin.binding === 'JSONRPC'
      ? createJsonRpcBinding({ ...options, nextId, load: loadDeferred })
      : pin.binding === 'HTTP+JSON'
        ? lazyRestBinding(options, loadDeferred)
        : (grpc as GrpcBindingProvider).createBinding(options)
    : (versions as AdmittedVersions).createBinding(nextId, resolved);
}

/**
The binding's next JSON-RPC id (docs/protocol-checks.md#requests), told to the call whose request it builds.
*/
function nextRpcId(kit: CallKit): number {
  kit.lastRpcId += 1;
  if (kit.issuing !== undefined) {
    kit.issuing.rpcId = kit.lastRpcId;
  }
  return kit.lastRpcId;
}

async function* stream(
  kit: CallKit,
  operation: StreamMethod,
  params: unknown,
  options: CallOptions | undefined,
): AsyncGenerator<StreamResponse, void, undefined> {
  const call = begin(kit, operation);
  if (kit.runStream === undefined) {
    try {
      // The stream runner, its lifecycle validator and resumption load with the first stream
      // (ARCHITECTURE.md#decisions, "Code loads with its first use").
      kit.runStream = (await loadDeferred(false)).streamRunner(kit);
    } catch (error) {
      throw fail(kit, call, error);
    }
  }
  yield* kit.runStream(call, operation, params, options);
}

/**
Creates the call runner of one client: every call goes through the outbound contract, gets its token context
and inspector events, and has its answer checked; a stream goes through the lifecycle validator. With a retry
policy, each attempt (a stream's establishment only) runs inside `runWithRetry`: one call, one `callId`, a
`request` event per attempt and a `retry` event before each wait.

@example
```ts
const caller = createCaller(resolveClientOptions(options), createEventHub());
const task = await caller.unary('getTask', { id: 't-1' }, undefined, (request, task) => checkTask(task, { id: request.id }));
```
*/
export function createCaller(resolved: ResolvedClientOptions, hub: EventHub): Caller {
  const kit: CallKit = {
    resolved,
    hub,
    // docs/protocol-checks.md#extensions: the configured order, comma-joined, no spaces.
    headers:
      resolved.extensions.length === 0 ? undefined : { 'a2a-extensions': resolved.extensions.join(',') },
    binding: buildBinding(resolved, () => nextRpcId(kit)),
    load: loadDeferred,
    calls: 0,
    lastRpcId: 0,
  };
  return {
    unary: (operation, params, options, check) => unary(kit, operation, params, options, check),
    stream: (operation, params, options) => stream(kit, operation, params, options),
  };
}
