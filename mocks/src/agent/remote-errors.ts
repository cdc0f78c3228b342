import { a2aErrors, errorDomain, errorInfoType } from '@surecall/client/protocol';

/** How one error looks on each binding. */
export type AgentErrorMapping = {
  /** JSON-RPC `error.code`. */
  readonly code: number;
  /** HTTP status of the HTTP+JSON answer (the JSON-RPC binding answers 200, except for `Unauthenticated`). */
  readonly httpStatus: number;
  /** Canonical gRPC code name, the AIP-193 `status`. */
  readonly status: string;
  /**
  `google.rpc.ErrorInfo.reason`: the A2A error name in UPPER_SNAKE_CASE without `Error` (A2A spec §3.3.2).
  */
  readonly reason: string;
};

/**
Every error the agent answers with: the protocol's own table (the client's `a2aErrors`, v1.0.1 columns: A2A
spec §5.4 and §9.5) plus two of the mock's own decisions. `Unavailable` is the idempotency key cap: HTTP 503,
and -32603 over JSON-RPC because neither spec defines a throttling code
(docs/idempotency.md#errors-on-the-wire). `Unauthenticated` is -32000, outside the A2A range -32001…-32099,
because the spec defines no code for it (A2A spec §9.5); it is sent with HTTP 401 on both bindings.
`PermissionDenied` (a credential without the scope an operation needs) shares that code, told apart by its
ErrorInfo reason, with HTTP 403 over HTTP+JSON.
*/
export const agentErrors = Object.freeze({
  ...a2aErrors,
  Unavailable: { code: -32603, httpStatus: 503, status: 'UNAVAILABLE', reason: 'UNAVAILABLE' },
  Unauthenticated: { code: -32000, httpStatus: 401, status: 'UNAUTHENTICATED', reason: 'UNAUTHENTICATED' },
  PermissionDenied: {
    code: -32000,
    httpStatus: 403,
    status: 'PERMISSION_DENIED',
    reason: 'PERMISSION_DENIED',
  },
}) satisfies Readonly<Record<string, AgentErrorMapping>>;

/** The name of every error the mock agent answers with. */
export type AgentErrorName = keyof typeof agentErrors;

/** One `google.rpc.ErrorInfo` detail, as it travels in JSON-RPC `error.data` and AIP-193 `details`. */
export type ErrorInfo = {
  readonly '@type': typeof errorInfoType;
  readonly reason: string;
  readonly domain: typeof errorDomain;
  readonly metadata?: Readonly<Record<string, string>>;
};

/** A JSON-RPC 2.0 error object with A2A's `data` array (A2A spec §9.5). */
export type JsonRpcErrorObject = {
  readonly code: number;
  readonly message: string;
  readonly data: readonly ErrorInfo[];
};

/** An AIP-193 error body (A2A spec §11.6). */
export type RestErrorBody = {
  readonly error: {
    readonly code: number;
    readonly status: string;
    readonly message: string;
    readonly details: readonly ErrorInfo[];
  };
};

/**
An error the agent answers with. Thrown anywhere below a binding; the binding turns it into its wire form. The
message is the agent's own text; it never carries a request body or a header.

@example
```ts
throw new AgentError('InvalidParams', 'message.parts must hold at least one part');
```
*/
export class AgentError extends Error {
  override readonly name = 'AgentError';
  /** Which error this is; see {@link agentErrors}. */
  readonly error: AgentErrorName;
  /** `ErrorInfo.metadata`: identifiers that help the caller, such as `taskId`. */
  readonly metadata: Readonly<Record<string, string>> | undefined;
  constructor(error: AgentErrorName, message: string, metadata?: Readonly<Record<string, string>>) {
    super(message);
    this.error = error;
    this.metadata = metadata;
  }

  /** This error's wire identity. */
  get mapping(): AgentErrorMapping {
    return agentErrors[this.error];
  }
}

/** Any thrown value as an {@link AgentError}: unknown failures become `Internal`, with a fixed message. */
export function toAgentError(thrown: unknown): AgentError {
  return thrown instanceof AgentError ? thrown : new AgentError('InternalError', 'Internal error');
}

/** The `ErrorInfo` detail of an error. */
export function errorInfo(error: AgentError): ErrorInfo {
  return {
    '@type': errorInfoType,
    reason: error.mapping.reason,
    domain: errorDomain,
    ...(error.metadata === undefined ? {} : { metadata: error.metadata }),
  };
}

/**
The JSON-RPC error object of an error (A2A spec §9.5): `data` is an array holding one `ErrorInfo`.

@example
```ts
jsonRpcError(new AgentError('TaskNotFound', 'Task not found: t-1')).code; // -32001
```
*/
export function jsonRpcError(error: AgentError): JsonRpcErrorObject {
  return { code: error.mapping.code, message: error.message, data: [errorInfo(error)] };
}

/**
The AIP-193 body of an error (A2A spec §11.6): `code` is the HTTP status, `status` the gRPC code name, and
`details` holds the `ErrorInfo` that tells apart the errors sharing HTTP 400.

@example
```ts
restError(new AgentError('TaskNotCancelable', 'Task t-1 is already completed')).error.status; // 'FAILED_PRECONDITION'
```
*/
export function restError(error: AgentError): RestErrorBody {
  const { httpStatus, status } = error.mapping;
  return { error: { code: httpStatus, status, message: error.message, details: [errorInfo(error)] } };
}
