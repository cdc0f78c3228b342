/**
@module
The A2A error table (A2A spec §3.3.2, §5.4): each error's JSON-RPC code, `ErrorInfo` reason, HTTP status and
gRPC status in every binding. The shapes a peer's error takes on the wire, and the lookups into this table,
are in `error-envelope.ts`.
*/

/** The `@type` of a `google.rpc.ErrorInfo` detail (A2A spec §3.3.2). */
export const errorInfoType = 'type.googleapis.com/google.rpc.ErrorInfo';

/** The `domain` of every A2A `ErrorInfo` (A2A spec §3.3.2). */
export const errorDomain = 'a2a-protocol.org';

/** One A2A or JSON-RPC error, identified the same way in every binding. */
export type A2aErrorEntry = {
  /** The JSON-RPC `error.code`. */
  readonly code: number;
  /** The `ErrorInfo.reason`: the error name in UPPER_SNAKE_CASE without `Error`. */
  readonly reason: string;
  /** HTTP status in the HTTP+JSON binding (v1.0.1 table). */
  readonly httpStatus: number;
  /** gRPC status name, the REST envelope's `error.status` (v1.0.1 table). */
  readonly status: string;
  /** HTTP status at v1.0.0, where it differed. */
  readonly legacyHttpStatus?: number;
  /** gRPC status at v1.0.0, where it differed. */
  readonly legacyStatus?: string;
};

/**
Every error a v1.0 peer may answer with (A2A spec §5.4 and §9.5), keyed by name. The v1.0.1 HTTP and gRPC
columns are current; v1.0.0 had 409, 415, 502 and `UNIMPLEMENTED` in places, still served by peers built on it
(docs/protocol-checks.md#unary-answers, REST identity table), so those are kept as `legacy*`. Reasons of the
JSON-RPC standard errors follow a2a-python, whose REST server sends them.

@example
```ts
a2aErrors.TaskNotFound.code;     // -32001
errorByReason('TASK_NOT_FOUND'); // a2aErrors.TaskNotFound
```
*/
export const a2aErrors = Object.freeze({
  TaskNotFound: { code: -32001, reason: 'TASK_NOT_FOUND', httpStatus: 404, status: 'NOT_FOUND' },
  TaskNotCancelable: {
    code: -32002,
    reason: 'TASK_NOT_CANCELABLE',
    httpStatus: 400,
    status: 'FAILED_PRECONDITION',
    legacyHttpStatus: 409,
  },
  PushNotificationNotSupported: {
    code: -32003,
    reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
    httpStatus: 400,
    status: 'FAILED_PRECONDITION',
    legacyStatus: 'UNIMPLEMENTED',
  },
  UnsupportedOperation: {
    code: -32004,
    reason: 'UNSUPPORTED_OPERATION',
    httpStatus: 400,
    status: 'FAILED_PRECONDITION',
    legacyStatus: 'UNIMPLEMENTED',
  },
  ContentTypeNotSupported: {
    code: -32005,
    reason: 'CONTENT_TYPE_NOT_SUPPORTED',
    httpStatus: 400,
    status: 'INVALID_ARGUMENT',
    legacyHttpStatus: 415,
  },
  InvalidAgentResponse: {
    code: -32006,
    reason: 'INVALID_AGENT_RESPONSE',
    httpStatus: 500,
    status: 'INTERNAL',
    legacyHttpStatus: 502,
  },
  ExtendedAgentCardNotConfigured: {
    code: -32007,
    reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
    httpStatus: 400,
    status: 'FAILED_PRECONDITION',
  },
  ExtensionSupportRequired: {
    code: -32008,
    reason: 'EXTENSION_SUPPORT_REQUIRED',
    httpStatus: 400,
    status: 'FAILED_PRECONDITION',
  },
  VersionNotSupported: {
    code: -32009,
    reason: 'VERSION_NOT_SUPPORTED',
    httpStatus: 400,
    status: 'FAILED_PRECONDITION',
    legacyStatus: 'UNIMPLEMENTED',
  },
  ParseError: { code: -32700, reason: 'PARSE_ERROR', httpStatus: 400, status: 'INVALID_ARGUMENT' },
  InvalidRequest: { code: -32600, reason: 'INVALID_REQUEST', httpStatus: 400, status: 'INVALID_ARGUMENT' },
  MethodNotFound: { code: -32601, reason: 'METHOD_NOT_FOUND', httpStatus: 404, status: 'NOT_FOUND' },
  InvalidParams: { code: -32602, reason: 'INVALID_PARAMS', httpStatus: 400, status: 'INVALID_ARGUMENT' },
  InternalError: { code: -32603, reason: 'INTERNAL_ERROR', httpStatus: 500, status: 'INTERNAL' },
} as const satisfies Record<string, A2aErrorEntry>);

/** The name of an error in {@link a2aErrors}, e.g. `'TaskNotFound'`. */
export type A2aErrorName = keyof typeof a2aErrors;
