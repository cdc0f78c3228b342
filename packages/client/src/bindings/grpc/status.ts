/**
@module
How a gRPC call ends badly, as one of the closed errors (docs/protocol-checks.md#grpc; A2A spec §10.6): a
`google.rpc.Status` in the `grpc-status-details-bin` trailer names the A2A error by its one `ErrorInfo`, whose
code is authoritative only when the call's status code is the one the error table gives it (A2A spec §5.4);
a connection that fails after the call started is a `TransportError` with `dispatched: true`, since the peer
may have done the work. Everything here happens after dispatch.
*/
import {
  type ExchangeError,
  HttpProtocolError,
  InvalidResponseError,
  RemoteError,
  remoteTexts,
  TransportError,
} from '../../core/errors.js';
import { optionalMembers } from '../../core/optional-members.js';
import { errorFromDetails } from '../../protocol/error-envelope.js';
import { remoteText } from '../remote-error.js';
import type { GrpcStatusDetails } from './codec.js';

/** Why the client itself ended a call: its deadline, the idle bound, the caller, or an answer too large. */
export type Cancelled = 'timeout' | 'idle' | 'aborted' | 'too-large';

/** Reads a `grpc-status-details-bin` trailer (`codec.ts`). */
export type GrpcTrailers = (bytes: Uint8Array) => GrpcStatusDetails | undefined;

/** What the channel saw of a call's end: its status code and the status details it carried, if any. */
export type GrpcEnd = {
  readonly code: number;
  /** The `grpc-status-details-bin` trailer, when the peer sent one. */
  readonly statusDetails?: Uint8Array;
  /**
  Whether the status came in trailers the peer sent (grpc-js makes up its own when the connection fails).
  */
  readonly fromPeer: boolean;
};

/** The gRPC status codes (gRPC's `statuscodes.md`), by the names A2A spec §5.4 uses. */
export const grpcCodeNames: readonly string[] = Object.freeze([
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
]);

const code = Object.freeze({
  cancelled: 1,
  unknown: 2,
  deadline: 4,
  exhausted: 8,
  internal: 13,
  unavailable: 14,
});

/** What the call knew when it ended. */
export type FailureContext = {
  /** Whether the peer had sent its headers (a stream was established). */
  readonly established: boolean;
  /** Set when the client ended the call itself. */
  readonly why: Cancelled | undefined;
  readonly trailers: GrpcTrailers;
};

function remote(end: GrpcEnd, trailers: GrpcTrailers): ExchangeError {
  if (end.statusDetails === undefined) {
    return new RemoteError({ dispatched: true });
  }
  const status = trailers(end.statusDetails);
  // A status detail that is no google.rpc.Status, or names another code than the call's, is no error model
  // the binding can read (A2A spec §10.6: the status is the call's).
  if (status === undefined || status.code !== end.code) {
    return new HttpProtocolError('error-envelope', { dispatched: true });
  }
  const info = errorFromDetails(status.details);
  const name = grpcCodeNames[end.code];
  const agreed = info !== undefined && (info.status === name || info.legacyStatus === name);
  const error = new RemoteError({
    dispatched: true,
    ...(info === undefined ? {} : { reason: info.reason }),
    ...optionalMembers({ remoteCode: agreed ? info.code : undefined }),
  });
  // The peer's own words, as the HTTP bindings keep an error body's (ARCHITECTURE.md#errors): the status's
  // message and its details, masked, cut and escaped when the caller reads them.
  remoteTexts.set(error, remoteText({ message: status.message, details: status.details }));
  return error;
}

/**
The error for a call that ended without its answer. The client's own reasons come first (`timeout`, `idle`,
`aborted`, `body-too-large`); then a failed connection (`UNAVAILABLE`, or a status grpc-js made up rather
than received) is `TransportError` — `network` before a stream was established, `read` after; a
`DEADLINE_EXCEEDED` is `timeout`; every other status the peer sent is its `RemoteError`.

@example
```ts
grpcFailure({ code: 5, statusDetails, fromPeer: true }, { established: false, why: undefined, trailers }); // RemoteError TASK_NOT_FOUND
```
*/
export function grpcFailure(end: GrpcEnd | null, context: FailureContext): ExchangeError {
  const { why, established } = context;
  if (why === 'too-large') {
    return new InvalidResponseError('body-too-large', { dispatched: true });
  }
  if (why !== undefined) {
    return new TransportError(why, { dispatched: true });
  }
  if (end === null) {
    return new TransportError(established ? 'read' : 'network', { dispatched: true });
  }
  if (end.code === code.exhausted && !end.fromPeer) {
    // grpc-js refuses a message above `grpc.max_receive_message_length` itself.
    return new InvalidResponseError('body-too-large', { dispatched: true });
  }
  if (end.code === code.deadline) {
    return new TransportError('timeout', { dispatched: true });
  }
  const broken =
    end.code === code.unavailable ||
    (!end.fromPeer &&
      (end.code === code.cancelled || end.code === code.internal || end.code === code.unknown));
  if (broken) {
    return new TransportError(established ? 'read' : 'network', {
      dispatched: true,
      cause: { code: grpcCodeNames[end.code] },
    });
  }
  return remote(end, context.trailers);
}
