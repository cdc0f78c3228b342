/**
@module
The one interface both protocol bindings implement (ARCHITECTURE.md#layers-of-the-client, layer "bindings"):
the client speaks to a `Binding` and never to HTTP. JSON-RPC (`jsonrpc.ts`) and HTTP+JSON (`rest.ts`) build
the request their way and run the same transport-level checks of docs/protocol-checks.md#unary-answers,
docs/protocol-checks.md#stream-establishment, docs/protocol-checks.md#sse-decoding and
docs/protocol-checks.md#stream-events on the answer, so that what comes back is a decoded, union-exact value
or one of the closed error kinds. The semantic checks (task identity, lifecycle, pages, stream order) sit on
top, in `checks.ts` and `stream.ts`.
*/
import type { Limits } from '../core/limits.js';
import type { AgentInterface } from '../protocol/agent-card.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { ClientMethod, OperationRequest, OperationResponse } from '../protocol/operations.js';
import type { StreamResponse } from '../protocol/stream.js';
import type { CheckedExtraHeaders, FetchFunction } from '../wire/http.js';

export type { AnswerHead, CheckedTarget, ExtraHeaders, FetchFunction, HeaderTarget } from '../wire/http.js';

/** The nine operations answered with one document. */
export type UnaryMethod = Exclude<ClientMethod, 'sendStreamingMessage' | 'subscribeToTask'>;

/** The two operations answered with an SSE stream of `StreamResponse` (A2A spec, §3.1.2 and §3.1.6). */
export type StreamMethod = 'sendStreamingMessage' | 'subscribeToTask';

/**
What one call adds to the binding's fixed options: members of the `wire/http` request of the same names,
spread into it as they are.
*/
export type CallContext = {
  /** Ends the call: before dispatch a `RequestError('aborted')`, after it a `TransportError('aborted')`. */
  readonly signal?: AbortSignal;
  /** Bearer token for exactly this HTTP request, called inside its deadline (wire/http `authorize`). */
  readonly authorize?: (signal: AbortSignal) => Promise<string>;
  /** Called immediately before fetch, with the request's HTTP method. */
  readonly onDispatch?: (method: 'GET' | 'POST' | 'DELETE') => void;
  /** Extra request headers, e.g. A2A-Extensions. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
  The caller's extra headers for this request (`ClientOptions.headers`), asked with its URL and method and
  already checked.
  */
  readonly extraHeaders?: CheckedExtraHeaders;
  /**
  The client's `fetch` (`ClientOptions.fetch`); absent, the platform's, looked up when the request leaves.
  */
  readonly fetch?: FetchFunction;
};

/**
A checked unary answer: `value` is decoded and contract-valid; `raw` is the parsed JSON of the result before
decoding (needed where absence or exact bytes matter).
*/
export type UnaryResult<T> = { readonly value: T; readonly raw: JsonValue; readonly httpStatus: number };

/**
One decoded stream event: `event` is one StreamResponse member (exactly one key), `raw` its JSON, `wireBytes`
from the SSE decoder.
*/
export type StreamFrame = {
  readonly event: StreamResponse;
  readonly raw: JsonValue;
  readonly wireBytes: number;
};

/**
One protocol binding to one agent interface. Every failure is a `ClientError`: before dispatch `request` or
`authorization` (nothing was sent), after it `transport`, `http-protocol`, `remote` or `invalid-response`, all
with `dispatched: true`. Nothing is ever retried and no redirect is followed.

@example
```ts
const binding = createRestBinding({ url: 'https://agent.example/a2a', limits: resolveLimits() });
const { value: task } = await binding.unary('getTask', { id: 'task-1' }, { signal });
const frames = await binding.stream('subscribeToTask', { id: task.id }, {});
try {
  for await (const frame of frames) handle(frame.event);
} finally {
  await frames.return?.();
}
```
*/
export type Binding = {
  readonly protocolBinding: 'JSONRPC' | 'HTTP+JSON' | 'GRPC';
  unary<N extends UnaryMethod>(
    operation: N,
    request: OperationRequest<N>,
    context: CallContext,
  ): Promise<UnaryResult<OperationResponse<N>>>;
  /**
  Resolves once the stream is established (2xx text/event-stream, deadline = establishment); iterate for
  frames; `return()` releases it.
  */
  stream<N extends StreamMethod>(
    operation: N,
    request: OperationRequest<N>,
    context: CallContext,
  ): Promise<AsyncIterableIterator<StreamFrame>>;
};

/** What a binding is built from: the selected interface (its URL and tenant) and the resolved bounds. */
export type BindingOptions = {
  /** The interface URL (`AgentInterface.url`): absolute http(s), no credentials, query or fragment. */
  readonly url: string;
  /**
  The interface's tenant (A2A spec, §8.3.2): put into every request by the binding, never taken from the
  caller.
  */
  readonly tenant?: string;
  /** From `resolveLimits()`. */
  readonly limits: Limits;
  /**
  How HTTP+JSON sends SubscribeToTask: the prose says POST, the proto GET; official servers take
  both. @default 'POST'
  */
  readonly subscribeMethod?: 'POST' | 'GET';
};

/**
A binding the client does not carry itself, handed to it in its options: the gRPC binding of
`@surecall/client/grpc`, which only Node loads (ARCHITECTURE.md#the-grpc-binding).
*/
export type GrpcBindingProvider = {
  readonly protocolBinding: 'GRPC';
  /** Builds the binding of one selected interface. */
  readonly createBinding: (options: BindingOptions) => Binding;
};

/**
What a client is given to speak to v0.3 peers as well (`v03Binding` of `@surecall/client/v03`, kept out of
the root entry so that no bundle of it grows: docs/protocol-checks.md#v03-peers). Only a client whose
`protocolVersions` names `0.3` uses it.
*/
export type V03BindingProvider = {
  readonly protocolVersion: '0.3';
  /**
  Checks `protocolVersions` (`ClientOptions.protocolVersions`, already known to be given with this provider):
  the versions it admits when they name `0.3`, `undefined` when they name `1.0` alone.

  @throws OptionsError `protocolVersions` or `protocolVersions.<index>` (`malformed`).
  */
  readonly admit: (protocolVersions: unknown) => AdmittedVersions | undefined;
};

/**
The versions a client speaks when `0.3` is among them (`V03BindingProvider.admit`): which interfaces it
speaks in which version, the reading of a v0.3 card, and the v0.3 binding.
*/
export type AdmittedVersions = {
  /**
  The version spoken over `entry`: `1.0` when admitted and `speaks` (the client has its binding), `0.3` when
  it is a v0.3 interface (`0.3` or a `0.3.x` release) over a binding the v0.3 binding has.
  */
  readonly versionOf: (entry: AgentInterface, speaks: boolean) => '1.0' | '0.3' | undefined;
  /**
  The v1.0 card JSON of a v0.3 card (one that names `0.3` or `0.3.x` at its top and fails the 1.0 card
  contract), for the 1.0 card contract to decode (docs/protocol-checks.md#v03-peers); `undefined` for any
  other card.

  @throws DiscoveryError `InvalidAgentCard` (`schema`) for what a v0.3 card says that v1.0 cannot.
  */
  readonly card: (raw: JsonValue) => JsonValue | undefined;
  /**
  Builds the binding of one selected v0.3 interface, JSON-RPC or HTTP+JSON as its pin says, drawing JSON-RPC
  ids from the client's counter (`nextId`, docs/protocol-checks.md#requests).
  */
  readonly createBinding: (nextId: () => number, target: V03Target) => Binding;
};

/**
What the v0.3 binding of one interface is built from: the client's resolved options, of which it reads the
pin, the bounds and how HTTP+JSON sends SubscribeToTask (named here by shape: the bindings floor imports no
client module).
*/
export type V03Target = {
  readonly pin: {
    readonly binding: Binding['protocolBinding'];
    readonly url: string;
    readonly tenant: string | undefined;
  };
  readonly limits: Limits;
  readonly subscribeMethod: 'POST' | 'GET';
};
