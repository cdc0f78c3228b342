/**
@module
What a fault is, apart from the lab that arms it (`faults.ts`): the binding and the handler it applies around,
the specs of every kind, the result of checking one, and the call a request was recognised as. The lab, the
spec checker and the rewrites all read these, so they sit below them all and the imports go one way.
*/
import type { JsonValue, OperationName } from '@surecall/client/protocol';

/**
The three bindings, spelled as `AgentInterface.protocolBinding` spells them: the two HTTP ones, and gRPC when
a gRPC mount serves the agent (`@surecall/mocks/grpc`).
*/
export type Binding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

/** A WHATWG request handler: the shape of `MockAgent.handle`, and of what `wrap` returns. */
export type Handle = (request: Request) => Promise<Response>;

/** Which requests a fault applies to. */
export type FaultTarget = {
  /** The operation to match, or `'*'` for any of the eleven. */
  readonly operation: OperationName | '*';
  /** Only requests over this binding; every binding when absent. */
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
/**
The agent does the whole work (a stream is read to its end), then the client sees a network error: the lost
response.
*/
export type DropAfterFault = FaultTarget & { readonly kind: 'drop-after' };
/**
Wait `ms` before handling (`when: 'before'`, nothing is applied if the client gives up meanwhile) or before
answering (`'after'`: applied, then late).
*/
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
/**
The SSE body breaks (a read error, like a reset connection) after `afterFrames` frames; the agent's work
carries on.
*/
export type CutStreamFault = FaultTarget & { readonly kind: 'cut-stream'; readonly afterFrames: number };
/**
The body ends early without any error: a unary body after half its bytes, a stream before its last frame (or
after `afterFrames` frames, when given); the agent's work carries on.
*/
export type PrematureEofFault = FaultTarget & {
  readonly kind: 'premature-eof';
  /** Streams only: close cleanly after this many frames instead of before the last one. */
  readonly afterFrames?: number;
};
/**
The result object's first member is written twice, textually (same value): only a strict parser notices.
*/
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
/**
A `{task}` SendMessage result is set to TASK_STATE_SUBMITTED, which a blocking send may not return (A2A spec,
§3.2.2).
*/
export type BlockingSubmittedFault = FaultTarget & { readonly kind: 'blocking-submitted' };
/** The returned task (and its messages) carry another task id. */
export type DifferentTaskIdFault = FaultTarget &
  FrameTarget & {
    readonly kind: 'different-task-id';
    /** @default the original id with `-substituted` appended */
    readonly taskId?: string;
  };
/**
The returned task's user message keeps its messageId but its text changes: a same-id payload substitution.
*/
export type AlteredHistoryFault = FaultTarget &
  FrameTarget & {
    readonly kind: 'altered-history';
    /** @default the original text with ` (altered)` appended */
    readonly text?: string;
  };
/**
The agent's output says something else: every data part of a reply message, of a task's artifacts or of an
artifact update holds `data` instead (the history is left alone). A protocol-valid answer whose content the
caller's own schema must judge, such as a remote skill's output.
*/
export type AlteredDataFault = FaultTarget &
  FrameTarget & {
    readonly kind: 'altered-data';
    /** Any JSON value of at most 1 MiB once serialized. @default { "fault-lab": "altered" } */
    readonly data?: JsonValue;
  };

/**
The agent's messages name another context or task than the one they belong to: the `member` of each message
`where` says (a direct reply, a task's or a status update's status message, a task's history; all of them
when absent) gets `-foreign` appended, or reads `fault-lab-foreign` where the message had none. A message
inside a task belongs to that task (A2A proto `Message`), and a direct reply in another context than the send
named breaks A2A spec §3.4.1, so a client must refuse either.
*/
export type ForeignMessageIdsFault = FaultTarget &
  FrameTarget & {
    readonly kind: 'foreign-message-ids';
    /** @default 'contextId' */
    readonly member?: 'contextId' | 'taskId';
    readonly where?: 'reply' | 'status' | 'history';
  };

/**
gRPC only: the call ends with its A2A error's status, but the `google.rpc.Status` in `grpc-status-details-bin`
does not say what the status says (A2A spec §10.6): `malformed` sends bytes that are no `Status`,
`other-code` a `Status` whose code is another than the call's, `foreign-reason` one whose single `ErrorInfo`
names an error of another status. An answer that is no error passes through.
*/
export type BadStatusDetailsFault = FaultTarget & {
  readonly kind: 'bad-status-details';
  /** @default 'malformed' */
  readonly details?: 'malformed' | 'other-code' | 'foreign-reason';
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
  | AlteredDataFault
  | ForeignMessageIdsFault
  | BadStatusDetailsFault;

/** The kind of a fault. */
export type FaultKind = FaultSpec['kind'];

/** Why a fault spec was refused: the field and a fixed message, never the input. */
export type FaultSpecIssue = { readonly field: string; readonly message: string };

/** The result of `safeParseFaultSpec` (`spec.ts`). */
export type FaultSpecResult =
  | { readonly ok: true; readonly value: FaultSpec; readonly error?: never }
  | { readonly ok: false; readonly error: FaultSpecIssue; readonly value?: never };

/** A request the lab recognised as one A2A operation. */
export type Call = { readonly operation: OperationName; readonly binding: Binding };
