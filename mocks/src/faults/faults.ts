/**
@module
The fault lab: deterministic switches that make the mock agent lose, delay, cut or corrupt its answers, one
operation at a time, so that every ambiguous outcome a client must handle can be produced on demand. A fault
is armed for the next `count` requests that match its `operation` (and `binding`, when given); it then disarms
itself. Only the oldest matching fault applies to a request: faults never combine.

What each kind does, and to which answers it applies (a fault whose answer has another shape lets that answer
through unchanged, and is still spent):

| kind | the work happens | unary answer | stream answer |
|---|---|---|---|
| `drop-before` | no | network error | network error |
| `drop-after` | yes | network error | whole stream consumed, then network error |
| `delay` | yes (no, if the client gives up first) | answered late | answered late |
| `status-after` | yes | 5xx, plain or empty | whole stream consumed, then 5xx |
| `cut-stream` | yes | unchanged | errored after `afterFrames` frames |
| `premature-eof` | yes | body cut at half | closed cleanly without its last frame, or after `afterFrames` frames |
| `duplicate-keys` | yes | result's first member written twice | same, in frame `frame` |
| `wrong-jsonrpc-id` | yes | JSON-RPC only: another `id` | same, in frame `frame` |
| `result-and-error` | yes | JSON-RPC only: both members | same, in frame `frame` |
| `two-union-members` | yes | `{task, message}` for a union result | same, in frame `frame` |
| `wrong-media-type` | yes | `text/plain` | `text/plain` |
| `html-413` | yes | HTML 413 page | HTML 413 page |
| `redirect` | yes | 302 with `Location` | 302 with `Location` |
| `oversized-sse-line` | yes | unchanged | a comment line of `bytes` bytes first |
| `blocking-submitted` | yes | a `{task}` result set to SUBMITTED | unchanged |
| `different-task-id` | yes | the task's id replaced | same, in frame `frame` |
| `altered-history` | yes | the user's history text changed | same, in frame `frame` |
| `altered-data` | yes | the agent's data parts hold `data` | same, in frame `frame` |
| `foreign-message-ids` | yes | messages name another context or task | same, in frame `frame` |
| `bad-status-details` | yes | gRPC only: an error's `google.rpc.Status` lies or is malformed | same |

Over gRPC (`@surecall/mocks/grpc`, `mocks/src/grpc/faults.ts`) the kinds that lose or cut an answer reset the
connection, and the kinds that rewrite an answer change the message before it is encoded; the kinds that only
HTTP or JSON text can carry (a media type, an HTML page, a redirect, an SSE line, a JSON-RPC envelope, a key
written twice, a second oneof member, a body cut at half) let the answer through.

@example
```ts
const faults = createFaultLab();
const handle = faults.wrap(agent.handle);
faults.set({ kind: 'drop-after', operation: 'SendMessage' }); // the next send is applied, its answer lost
```
*/

import { type JsonValue, type OperationName, operationNames } from '@surecall/client/protocol';
import { jsonRpcPath, restPath } from '../agent/card.js';
import { matchRestRoute } from '../http/rest.js';
import { v03OperationOf } from '../v03/methods.js';
import { matchV03RestRoute } from '../v03/rest.js';
import { isRecord } from './documents.js';
import type { Call, FaultSpec, Handle } from './fault-types.js';
import { applyFault } from './rewrites.js';
import { parseFaultSpec } from './spec.js';

// Checking a spec has its own module; the handlers and the package entry keep importing it from here.
export { parseFaultSpec, safeParseFaultSpec } from './spec.js';

/** A fault's handle in the lab, as `set` returns it and `clear` takes it. */
export type FaultId = string & { readonly __brand: 'FaultId' };

/** An armed fault, as `list` reports it. */
export type ActiveFault = {
  readonly id: FaultId;
  readonly spec: FaultSpec;
  /** Matching requests it still applies to. */
  readonly remaining: number;
};

/** The lab: arm, list and clear faults, and wrap a handler so that they apply. */
export type FaultLab = {
  /** Arm a fault; throws a `TypeError` naming the field when the spec is invalid. */
  set(fault: FaultSpec): FaultId;
  /** The armed faults, oldest first. */
  list(): readonly ActiveFault[];
  /** Disarm one fault, or all of them. */
  clear(id?: FaultId): void;
  /** A handler that applies the armed faults around `handle`. */
  wrap(handle: Handle): Handle;
  /**
  The fault that applies to one call a mount recognised without a `Request` (the gRPC mount), spent as `wrap`
  spends it; `undefined` when none does.
  */
  take(call: Call): FaultSpec | undefined;
};

function isOperation(value: unknown): value is OperationName {
  return typeof value === 'string' && (operationNames as readonly string[]).includes(value);
}

function v03RestOperation(method: string, path: string): OperationName | undefined {
  try {
    return matchV03RestRoute(method, path.slice(restPath.length))?.operation;
  } catch {
    return undefined;
  }
}

function restOperation(method: string, path: string): OperationName | undefined {
  try {
    return matchRestRoute(method, path)?.operation;
  } catch {
    // A path the agent refuses (a malformed percent-encoding) is no operation.
    return undefined;
  }
}

/**
Which operation a request is: the agent's own route matching for HTTP+JSON, the `method` of a JSON-RPC body
read off a clone (a v1.0 or a v0.3 name).
*/
async function recognise(request: Request): Promise<Call | undefined> {
  const path = new URL(request.url).pathname;
  if (path.startsWith(`${restPath}/`)) {
    // A v0.3 route (mocks/src/v03/rest.ts) reads as a v1.0 one of a tenant `v1`, the same operation, but for
    // the extended card's `/v1/card`.
    const operation =
      restOperation(request.method, path.slice(restPath.length)) ?? v03RestOperation(request.method, path);
    return operation === undefined ? undefined : { operation, binding: 'HTTP+JSON' };
  }
  if (path !== jsonRpcPath || request.method !== 'POST') {
    return undefined;
  }
  try {
    // A2A spec, §9.1: the JSON-RPC method names the operation; the original body stays unread for the agent.
    const body: unknown = JSON.parse(await request.clone().text());
    const method = isRecord(body) ? body.method : undefined;
    // A v0.3 method names the operation it runs on a v0.3 agent (mocks/src/v03/methods.ts).
    const operation = isOperation(method) ? method : v03OperationOf(method);
    return operation === undefined ? undefined : { operation, binding: 'JSONRPC' };
  } catch {
    return undefined;
  }
}

type Armed = { readonly id: FaultId; readonly spec: FaultSpec; remaining: number };

/**
Create an empty fault lab. Wrap the agent's handler once; arm and clear faults at any time, from code or over
HTTP (`/__faults`, served by the handlers of this package).

@example
```ts
const faults = createFaultLab();
const handle = faults.wrap(agent.handle);
const id = faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });
faults.clear(id);
```
*/
export function createFaultLab(): FaultLab {
  let armed: Armed[] = [];
  let next = 1;

  const take = (call: Call): FaultSpec | undefined => {
    const fault = armed.find(
      ({ spec }) =>
        (spec.operation === '*' || spec.operation === call.operation) &&
        (spec.binding === undefined || spec.binding === call.binding),
    );
    if (fault === undefined) {
      return undefined;
    }
    fault.remaining -= 1;
    if (fault.remaining === 0) {
      armed = armed.filter((other) => other !== fault);
    }
    return fault.spec;
  };

  return {
    set(fault) {
      // A copy, so that a caller changing its object later cannot change an armed fault; `data` is JSON, so
      // its JSON copy is exact.
      const parsed = parseFaultSpec(fault);
      const spec = Object.freeze(
        parsed.kind === 'altered-data' && parsed.data !== undefined
          ? { ...parsed, data: JSON.parse(JSON.stringify(parsed.data)) as JsonValue }
          : { ...parsed },
      );
      const id = `fault-${next}` as FaultId;
      next += 1;
      armed.push({ id, spec, remaining: spec.count ?? 1 });
      return id;
    },
    list() {
      return armed.map(({ id, spec, remaining }) => Object.freeze({ id, spec, remaining }));
    },
    clear(id) {
      armed = id === undefined ? [] : armed.filter((fault) => fault.id !== id);
    },
    take,
    wrap(handle) {
      return async (request) => {
        if (armed.length === 0) {
          return handle(request);
        }
        const call = await recognise(request);
        const spec = call === undefined ? undefined : take(call);
        if (call === undefined || spec === undefined) {
          return handle(request);
        }
        return applyFault(spec, { call, request, handle });
      };
    },
  };
}
