/**
@module
How an A2A error ends a gRPC call (A2A spec §10.6, §5.4): the status code its row of the error table names,
the agent's message, and a `google.rpc.Status` in `grpc-status-details-bin` whose code is the call's and whose
one detail is the `ErrorInfo` with the error's reason, in the A2A domain, with its metadata; as the official
SDK's gRPC server ends its calls. The `bad-status-details` fault bends that `Status` here.
*/
import { errorDomain } from '@surecall/client/protocol';
import { type AgentError, agentErrors } from '../agent/remote-errors.js';
import type { BadStatusDetailsFault } from '../faults/fault-types.js';
import type { GrpcCodec } from './codec.js';

/** The gRPC status codes by name (gRPC's `statuscodes.md`), as the error table spells them. */
export const grpcCodes: Readonly<Record<string, number>> = Object.freeze({
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
});

/** How a call ends: its status code, its message, and the `grpc-status-details-bin` trailer. */
export type GrpcError = { readonly code: number; readonly message: string; readonly details: Uint8Array };

/** The bytes the `malformed` variant sends: a field of wire type 7, which no protobuf message can hold. */
const notAStatus = Uint8Array.of(0x0f, 0xff, 0xff);

/**
The end of a call refused with `error`, bent as `fault` says when one is given.

@example
```ts
grpcError(new AgentError('TaskNotFound', 'Task not found: t-1'), codec).code; // 5 (NOT_FOUND)
```
*/
export function grpcError(
  error: AgentError,
  codec: GrpcCodec,
  fault?: BadStatusDetailsFault['details'],
): GrpcError {
  const code = grpcCodes[error.mapping.status] ?? grpcCodes['UNKNOWN'] ?? 2;
  const info = { reason: error.mapping.reason, domain: errorDomain, metadata: error.metadata };
  switch (fault) {
    case undefined:
      return { code, message: error.message, details: codec.status(code, error.message, [info]) };
    case 'malformed':
      return { code, message: error.message, details: notAStatus };
    case 'other-code': {
      // INTERNAL, or DATA_LOSS for an error that is itself INTERNAL: any code but the call's.
      const other = code === 13 ? 15 : 13;
      return { code, message: error.message, details: codec.status(other, error.message, [info]) };
    }
    case 'foreign-reason': {
      const foreign = Object.values(agentErrors).find((entry) => entry.status !== error.mapping.status);
      const reason = foreign?.reason ?? 'INTERNAL';
      return {
        code,
        message: error.message,
        details: codec.status(code, error.message, [{ ...info, reason }]),
      };
    }
  }
}
