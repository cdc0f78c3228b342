/**
@module
The fault lab over gRPC (internal to the gRPC mount): the same specs as over HTTP (`mocks/src/faults/`),
spent by the same lab, applied to a call's messages instead of a `Response`. Which kinds do what here:

| kind | over gRPC |
|---|---|
| `drop-before` | the connection is reset before the agent sees the call |
| `drop-after` | the agent does the work (a stream is read to its end), then the connection is reset |
| `delay` | the call is answered `ms` later, before or after the work, as over HTTP |
| `status-after` | the work is done, then the call ends `UNAVAILABLE` (for 503) or `INTERNAL`, with no A2A details |
| `cut-stream` | the connection is reset after `afterFrames` messages; a unary answer passes |
| `premature-eof` | a stream ends `OK` before its last message (or after `afterFrames`); a unary answer passes |
| `bad-status-details` | an error's `google.rpc.Status` lies or is malformed (`status.ts`) |
| `blocking-submitted`, `different-task-id`, `altered-history`, `altered-data`, `foreign-message-ids` | the answer (or message `frame`) is rewritten before it is encoded, as over HTTP+JSON |
| the rest | passes: a media type, an HTML page, a redirect, an SSE line, a JSON-RPC envelope, a key written twice and a second oneof member are things only HTTP or JSON text can carry |

A reset ends the TCP connection that carried the call, as the loopback HTTP mount destroys the socket of a
dropped answer: the client sees the call fail with nothing from the peer.
*/
import { type DocumentFault, frameOf, rewriteDocument, rewritesDocuments } from '../faults/documents.js';
import type { Call, FaultSpec, StatusAfterFault } from '../faults/fault-types.js';

// One wait for both mounts.
export { sleep } from '../faults/rewrites.js';

/** Whether a rewrite fault changes what a gRPC answer says (a second oneof member cannot be encoded). */
function rewritesMessages(spec: FaultSpec): spec is DocumentFault {
  return (
    rewritesDocuments(spec) &&
    spec.kind !== 'duplicate-keys' &&
    spec.kind !== 'wrong-jsonrpc-id' &&
    spec.kind !== 'result-and-error' &&
    spec.kind !== 'two-union-members'
  );
}

/**
One answer (a unary value, or stream message number `index`) as the fault leaves it: rewritten as the
HTTP+JSON bare result would be (`documents.ts`), or unchanged.

@example
```ts
rewriteAnswer({ kind: 'different-task-id', operation: 'GetTask' }, call, task, 0).id; // `${task.id}-substituted`
```
*/
export function rewriteAnswer(
  spec: FaultSpec | undefined,
  call: Call,
  value: unknown,
  index: number | undefined,
): unknown {
  if (spec === undefined || !rewritesMessages(spec)) {
    return value;
  }
  if (index === undefined ? false : index !== frameOf(spec)) {
    return value;
  }
  if (index !== undefined && spec.kind === 'blocking-submitted') {
    // As over HTTP: a blocking send's SUBMITTED is a unary rule; a stream may start SUBMITTED.
    return value;
  }
  return JSON.parse(rewriteDocument(JSON.stringify(value), { status: 200, call, spec })) as unknown;
}

/** The gRPC status `status-after` ends a call with: UNAVAILABLE for 503, else INTERNAL. */
export function statusAfterCode(spec: StatusAfterFault): number {
  return (spec.status ?? 503) === 503 ? 14 : 13;
}
