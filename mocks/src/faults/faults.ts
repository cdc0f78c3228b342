/**
@module
The fault lab: deterministic switches that make the mock agent lose, delay, cut or corrupt its answers, one operation at a time, so that every ambiguous outcome a client must handle can be produced on demand. A fault is armed for the next `count` requests that match its `operation` (and `binding`, when given); it then disarms itself. Only the oldest matching fault applies to a request: faults never combine.

What each kind does, and to which answers it applies (a fault whose answer has another shape lets that answer through unchanged, and is still spent):

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
import { isRecord } from './documents.js';
import { applyFault, type Call } from './rewrites.js';
import { parseFaultSpec } from './spec.js';

// Checking a spec has its own module; the handlers and the package entry keep importing it from here.
export { parseFaultSpec, safeParseFaultSpec } from './spec.js';

/** The two HTTP bindings, spelled as `AgentInterface.protocolBinding` spells them. */
export type Binding = 'JSONRPC' | 'HTTP+JSON';

/** A WHATWG request handler: the shape of `MockAgent.handle`, and of what `wrap` returns. */
export type Handle = (request: Request) => Promise<Response>;

/** A fault's handle in the lab, as `set` returns it and `clear` takes it. */
export type FaultId = string & { readonly __brand: 'FaultId' };

/** Which requests a fault applies to. */
export type FaultTarget = {
  /** The operation to match, or `'*'` for any of the eleven. */
  readonly operation: OperationName | '*';
  /** Only requests over this binding; both when absent. */
  readonly binding?: Binding;
  /** How many matching requests the fault applies to before it disarms. @default 1 */
  readonly count?: number;
};

/** For faults that rewrite one event of a stream: which one. */
export type FrameTarget = {
  /** The index of the SSE frame to rewrite, counted from 0. @default 0 */
  readonly frame?: number;
};

/** The request never reaches the agent: the client sees a network error and nothing was applied. */
export type DropBeforeFault = FaultTarget & { readonly kind: 'drop-before' };
/** The agent does the whole work (a stream is read to its end), then the client sees a network error: the lost response. */
export type DropAfterFault = FaultTarget & { readonly kind: 'drop-after' };
/** Wait `ms` before handling (`when: 'before'`, nothing is applied if the client gives up meanwhile) or before answering (`'after'`: applied, then late). */
export type DelayFault = FaultTarget & {
  readonly kind: 'delay';
  /** Milliseconds, 0 to 600 000. */
  readonly ms: number;
  /** @default 'before' */
  readonly when?: 'before' | 'after';
};
/** The agent does the work, then the client gets a 5xx that is not A2A. */
export type StatusAfterFault = FaultTarget & {
  readonly kind: 'status-after';
  /** 500 to 599. @default 503 */
  readonly status?: number;
  /** A `text/plain` line, or no body at all. @default 'plain' */
  readonly body?: 'plain' | 'empty';
  /** Adds `Retry-After` with this many seconds. */
  readonly retryAfterSeconds?: number;
};
/** The SSE body breaks (a read error, like a reset connection) after `afterFrames` frames; the agent's work carries on. */
export type CutStreamFault = FaultTarget & { readonly kind: 'cut-stream'; readonly afterFrames: number };
/** The body ends early without any error: a unary body after half its bytes, a stream before its last frame (or after `afterFrames` frames, when given); the agent's work carries on. */
export type PrematureEofFault = FaultTarget & {
  readonly kind: 'premature-eof';
  /** Streams only: close cleanly after this many frames instead of before the last one. */
  readonly afterFrames?: number;
};
/** The result object's first member is written twice, textually (same value): only a strict parser notices. */
export type DuplicateKeysFault = FaultTarget & FrameTarget & { readonly kind: 'duplicate-keys' };
/** JSON-RPC only: the response `id` is not the request's. */
export type WrongJsonRpcIdFault = FaultTarget & FrameTarget & { readonly kind: 'wrong-jsonrpc-id' };
/** JSON-RPC only: the response carries both `result` and `error`. */
export type ResultAndErrorFault = FaultTarget & FrameTarget & { readonly kind: 'result-and-error' };
/** A union result (`task`, `message`, `statusUpdate`, `artifactUpdate`) gains a second member. */
export type TwoUnionMembersFault = FaultTarget & FrameTarget & { readonly kind: 'two-union-members' };
/** The answer is labelled `text/plain`, body unchanged. */
export type WrongMediaTypeFault = FaultTarget & { readonly kind: 'wrong-media-type' };
/** The answer is an HTML "413 Payload Too Large" page, as a proxy or Express would send it. */
export type Html413Fault = FaultTarget & { readonly kind: 'html-413' };
/** The answer is a 302 to `location`, resolved against the request URL. */
export type RedirectFault = FaultTarget & {
  readonly kind: 'redirect';
  /** A path or an http(s) URL. @default '/__redirected' */
  readonly location?: string;
};
/** A comment line of `bytes` bytes is sent before the first frame, to hit a client's SSE line bound. */
export type OversizedSseLineFault = FaultTarget & {
  readonly kind: 'oversized-sse-line';
  /** The line's length, terminator excluded: 2 bytes to 64 MiB. @default 614400 (600 KiB) */
  readonly bytes?: number;
};
/** A `{task}` SendMessage result is set to TASK_STATE_SUBMITTED, which a blocking send may not return (A2A spec, §3.2.2). */
export type BlockingSubmittedFault = FaultTarget & { readonly kind: 'blocking-submitted' };
/** The returned task (and its messages) carry another task id. */
export type DifferentTaskIdFault = FaultTarget &
  FrameTarget & {
    readonly kind: 'different-task-id';
    /** @default the original id with `-substituted` appended */
    readonly taskId?: string;
  };
/** The returned task's user message keeps its messageId but its text changes: a same-id payload substitution. */
export type AlteredHistoryFault = FaultTarget &
  FrameTarget & {
    readonly kind: 'altered-history';
    /** @default the original text with ` (altered)` appended */
    readonly text?: string;
  };
/** The agent's output says something else: every data part of a reply message, of a task's artifacts or of an artifact update holds `data` instead (the history is left alone). A protocol-valid answer whose content the caller's own schema must judge, such as a remote skill's output. */
export type AlteredDataFault = FaultTarget &
  FrameTarget & {
    readonly kind: 'altered-data';
    /** Any JSON value of at most 1 MiB once serialized. @default { "fault-lab": "altered" } */
    readonly data?: JsonValue;
  };

/** One fault to arm, discriminated by `kind`. */
export type FaultSpec =
  | DropBeforeFault
  | DropAfterFault
  | DelayFault
  | StatusAfterFault
  | CutStreamFault
  | PrematureEofFault
  | DuplicateKeysFault
  | WrongJsonRpcIdFault
  | ResultAndErrorFault
  | TwoUnionMembersFault
  | WrongMediaTypeFault
  | Html413Fault
  | RedirectFault
  | OversizedSseLineFault
  | BlockingSubmittedFault
  | DifferentTaskIdFault
  | AlteredHistoryFault
  | AlteredDataFault;

/** The kind of a fault. */
export type FaultKind = FaultSpec['kind'];

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
};

/** Why a fault spec was refused: the field and a fixed message, never the input. */
export type FaultSpecIssue = { readonly field: string; readonly message: string };

/** The result of {@link safeParseFaultSpec}. */
export type FaultSpecResult =
  | { readonly ok: true; readonly value: FaultSpec; readonly error?: never }
  | { readonly ok: false; readonly error: FaultSpecIssue; readonly value?: never };

function isOperation(value: unknown): value is OperationName {
  return typeof value === 'string' && (operationNames as readonly string[]).includes(value);
}

function restOperation(method: string, path: string): OperationName | undefined {
  try {
    return matchRestRoute(method, path)?.operation;
  } catch {
    // A path the agent refuses (a malformed percent-encoding) is no operation.
    return undefined;
  }
}

/** Which operation a request is: the agent's own route matching for HTTP+JSON, the `method` of a JSON-RPC body read off a clone. */
async function recognise(request: Request): Promise<Call | undefined> {
  const path = new URL(request.url).pathname;
  if (path.startsWith(`${restPath}/`)) {
    const operation = restOperation(request.method, path.slice(restPath.length));
    return operation === undefined ? undefined : { operation, binding: 'HTTP+JSON' };
  }
  if (path !== jsonRpcPath || request.method !== 'POST') {
    return undefined;
  }
  try {
    // A2A spec, §9.1: the JSON-RPC method names the operation; the original body stays unread for the agent.
    const body: unknown = JSON.parse(await request.clone().text());
    const method = isRecord(body) ? body.method : undefined;
    return isOperation(method) ? { operation: method, binding: 'JSONRPC' } : undefined;
  } catch {
    return undefined;
  }
}

type Armed = { readonly id: FaultId; readonly spec: FaultSpec; remaining: number };

/**
Create an empty fault lab. Wrap the agent's handler once; arm and clear faults at any time, from code or over HTTP (`/__faults`, served by the handlers of this package).

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
      // A copy, so that a caller changing its object later cannot change an armed fault; `data` is JSON, so its JSON copy is exact.
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
