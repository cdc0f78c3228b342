/**
@module
A peer's error answer as a `RemoteError` (docs/protocol-checks.md#unary-answers: the JSON-RPC error object,
the HTTP+JSON error; docs/protocol-checks.md#stream-events). The remote text is validated (non-empty, ≤ 16
KiB) and kept out of the message: the call hands it to the caller as `remote`, inert (`remoteText`).
`reason` names the error by its one A2A `ErrorInfo` (or by an authoritative JSON-RPC
code); `remoteCode` is set only where the binding makes the code authoritative: a JSON-RPC error in a 2xx
answer or inside a stream, a REST error whose HTTP status, `status` string and single ErrorInfo agree.
*/
import { type ExchangeError, HttpProtocolError, RemoteError, remoteTexts } from '../core/errors.js';
import type { Limits } from '../core/limits.js';
import { optionalMembers } from '../core/optional-members.js';
import type { RemoteText } from '../core/remote-text.js';
import { type DecodeResult, decode } from '../protocol/decode.js';
import type { A2aErrorEntry } from '../protocol/error-codes.js';
import {
  errorByCode,
  errorFromDetails,
  JsonRpcError,
  matchesRestIdentity,
  RestErrorEnvelope,
} from '../protocol/error-envelope.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { HttpUnaryResponse } from '../wire/http.js';
import { JsonError, jsonLimitsFrom, parseJson } from '../wire/json.js';
import { parseRetryAfter } from '../wire/retry-after.js';

/**
Whether a JSON-RPC error's code can be trusted: only a 2xx answer or a stream event says it
(docs/protocol-checks.md#unary-answers). `retryAfterMs` is the answer's `Retry-After`, if it had one.
*/
export type JsonRpcAuthority = {
  readonly authoritative: boolean;
  readonly httpStatus?: number;
  readonly retryAfterMs?: number;
};

/**
What every error built from one non-2xx answer carries: dispatched, its status, and its `Retry-After` when
valid.
*/
export type FailedAnswerInit = {
  readonly dispatched: true;
  readonly httpStatus: number;
  readonly retryAfterMs?: number;
};

/** How much of each text is kept, in UTF-16 code units, before escaping. */
export const remoteTextLength = 1024;

// A backslash, and every code point a terminal, a log viewer or a page could act on or hide: controls (C0,
// DEL, C1), format characters (the bidi controls among them), line and paragraph separators, lone surrogates.
const unsafe = /[\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
What a peer said: its message and the details beside it (an HTTP+JSON error's `details`, a JSON-RPC error's
`data`).
*/
export type Said = { readonly message: string; readonly details?: unknown; readonly data?: unknown };

/**
The finisher of one peer error's text (`RemoteText`, ARCHITECTURE.md#errors): given the credential the call
sent, the message and the details, written as compact JSON (an empty list, which ProtoJSON prints for none,
is none), each masked, cut and escaped.

@example
```ts
remoteText({ message: 'Task not found: tok\n' })('tok'); // { message: 'Task not found: [credential]\\u{a}', truncated: false }
```
*/
export function remoteText(said: Said): (credential: string | undefined) => RemoteText {
  const details = said.details ?? said.data;
  return (credential) => {
    let truncated = false;
    const inert = (text: string): string => {
      // A peer may reflect the token this call sent back in its text: the caller's secret, never shown.
      const masked = credential ? text.split(credential).join('[credential]') : text;
      // Never half a surrogate pair.
      const cut = remoteTextLength - Number(/[\ud800-\udbff]/.test(masked.charAt(remoteTextLength - 1)));
      const kept = masked.slice(0, cut);
      truncated ||= kept.length < masked.length;
      return kept.replace(unsafe, (character) =>
        character === '\\' ? '\\\\' : `\\u{${character.codePointAt(0)?.toString(16)}}`,
      );
    };
    const none = details === undefined || (Array.isArray(details) && details.length === 0);
    return {
      message: inert(said.message),
      ...(none ? {} : { details: inert(JSON.stringify(details)) }),
      truncated,
    };
  };
}

function remote(
  said: Said,
  httpStatus: number | undefined,
  named: A2aErrorEntry | undefined,
  remoteCode: number | undefined,
  retryAfterMs?: number,
): RemoteError {
  const error = new RemoteError({
    dispatched: true,
    ...optionalMembers({ httpStatus, retryAfterMs }),
    ...(named === undefined ? {} : { reason: named.reason }),
    ...optionalMembers({ remoteCode }),
  });
  remoteTexts.set(error, remoteText(said));
  return error;
}

/**
A JSON-RPC `error` member as a `RemoteError`, or the violation that makes it no error object
(`{ code: int32, message: non-empty ≤ 16 KiB, data? }`, JSON-RPC 2.0 §5.1). With authority, `remoteCode` is
the code and `reason` the code's own reason when the table knows the code; without it, only an ErrorInfo in
`data` names the error.

@example
```ts
const result = fromJsonRpcError(envelope.error, { authoritative: true, httpStatus: 200 });
if (result.ok) throw result.value; // RemoteError, remoteCode -32001, reason TASK_NOT_FOUND
```
*/
export function fromJsonRpcError(error: unknown, authority: JsonRpcAuthority): DecodeResult<RemoteError> {
  const result = decode(JsonRpcError, error);
  if (!result.ok) {
    const { rule, path = '$' } = result.error.violation;
    return { ok: false, error: { violation: { rule, path: `$.error${path.slice(1)}` } } };
  }
  const { code, data } = result.value;
  // A2A spec, §9.5: `data` is an array of `@type` objects in v1.0; v0.3's free-form object names nothing.
  const info = Array.isArray(data) ? errorFromDetails(data) : undefined;
  const said = result.value;
  if (!authority.authoritative) {
    return { ok: true, value: remote(said, authority.httpStatus, info, undefined, authority.retryAfterMs) };
  }
  return {
    ok: true,
    value: remote(said, authority.httpStatus, errorByCode(code) ?? info, code, authority.retryAfterMs),
  };
}

/**
An HTTP+JSON error body (A2A spec, §11.6: AIP-193 `{ error: { code, status, message, details } }`) as a
`RemoteError`, or `undefined` when it is no such envelope or its `code` is not the HTTP status it came with.
The A2A code is exposed only when the HTTP status, the `status` string and exactly one A2A ErrorInfo agree, in
the v1.0.1 or the v1.0.0 table. `retryAfterMs` is the answer's `Retry-After`, if it had one.

@example
```ts
fromRestEnvelope(body, 404)?.remoteCode; // -32001 for NOT_FOUND + TASK_NOT_FOUND
```
*/
export function fromRestEnvelope(
  body: JsonValue,
  httpStatus: number,
  retryAfterMs?: number,
): RemoteError | undefined {
  const result = decode(RestErrorEnvelope, body);
  if (!result.ok || result.value.error.code !== httpStatus) {
    return undefined;
  }
  const { status, details } = result.value.error;
  const info = errorFromDetails(details);
  const agreed = info !== undefined && matchesRestIdentity(info, httpStatus, status);
  return remote(result.value.error, httpStatus, info, agreed ? info.code : undefined, retryAfterMs);
}

/**
An error sent inside an HTTP+JSON stream (docs/protocol-checks.md#stream-events), or `undefined` when the data
is neither form. The AIP-193 envelope is read without the HTTP cross-check, its own `code` standing in for the
status; a bare `{ code, message }` is authoritative only for a code of the A2A table, which holds no HTTP
status, so the two can never be confused.

@example
```ts
fromRestStreamError({ code: -32004, message: 'terminal' })?.remoteCode; // -32004
```
*/
export function fromRestStreamError(data: JsonValue): RemoteError | undefined {
  const envelope = decode(RestErrorEnvelope, data);
  if (envelope.ok) {
    const { code, status, details } = envelope.value.error;
    const info = errorFromDetails(details);
    const agreed = info !== undefined && matchesRestIdentity(info, code, status);
    return remote(envelope.value.error, undefined, info, agreed ? info.code : undefined);
  }
  const bare = decode(JsonRpcError, data);
  if (!bare.ok) {
    return undefined;
  }
  const known = errorByCode(bare.value.code);
  const said = bare.value;
  if (known !== undefined) {
    return remote(said, undefined, known, known.code);
  }
  const { data: details } = bare.value;
  return remote(said, undefined, Array.isArray(details) ? errorFromDetails(details) : undefined, undefined);
}

/**
The error for a non-2xx answer (docs/protocol-checks.md#unary-answers,
docs/protocol-checks.md#stream-establishment): what `interpret` makes of its JSON body (a `RemoteError`, or
another error the binding chose), else `HttpProtocolError` — `status` for an empty body (the peer said only
its status), `error-envelope` for any body that is not a JSON error envelope, such as a proxy's HTML 413 page.
Every one carries the answer's `Retry-After` as `retryAfterMs` when the headers hold a valid one (A2A spec
§3.3.2: a 503 MAY send it), which `interpret` receives in `init`.

@example
```ts
throw failedAnswer(response, limits, (body, init) => fromRestEnvelope(body, init.httpStatus, init.retryAfterMs));
```
*/
export function failedAnswer(
  response: Pick<HttpUnaryResponse, 'status' | 'mediaType' | 'body'> & { readonly headers?: Headers },
  limits: Limits,
  interpret: (body: JsonValue, init: FailedAnswerInit) => ExchangeError | undefined,
): ExchangeError {
  const retryAfterMs = parseRetryAfter(response.headers?.get('retry-after') ?? null, Date.now());
  const init: FailedAnswerInit = {
    dispatched: true,
    httpStatus: response.status,
    ...optionalMembers({ retryAfterMs }),
  };
  if (response.body.byteLength === 0) {
    return new HttpProtocolError('status', init);
  }
  if (response.mediaType === 'json') {
    let body: JsonValue;
    try {
      body = parseJson(response.body, jsonLimitsFrom(limits));
    } catch (error) {
      if (!(error instanceof JsonError)) {
        throw error;
      }
      return new HttpProtocolError('error-envelope', init);
    }
    const interpreted = interpret(body, init);
    if (interpreted !== undefined) {
      return interpreted;
    }
  }
  return new HttpProtocolError('error-envelope', init);
}
