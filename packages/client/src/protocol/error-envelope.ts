/**
@module
The error a peer sends, as the wire carries it (docs/protocol-checks.md#unary-answers): the JSON-RPC `error`
member, the HTTP+JSON error envelope, and the lookups that name the A2A error of the table (`error-codes.ts`)
they carry. Only a refusal reads them, so they load with the first one (ARCHITECTURE.md#decisions, "Code loads
with its first use").
*/
import * as z from 'zod/mini';
import {
  type A2aErrorEntry,
  type A2aErrorName,
  a2aErrors,
  errorDomain,
  errorInfoType,
} from './error-codes.js';
import { isJsonObject } from './json-value.js';
import { int32, wireObject } from './scalars.js';
import { inertText, label } from './text.js';

const entries = Object.entries(a2aErrors) as [A2aErrorName, A2aErrorEntry][];
const byCode = new Map(entries.map(([name, entry]) => [entry.code, name]));
const byReason = new Map(entries.map(([name, entry]) => [entry.reason, name]));

/**
The error a JSON-RPC `error.code` stands for, or `undefined` for a code this table does not know.

@example
```ts
errorByCode(-32602)?.reason; // 'INVALID_PARAMS'
```
*/
export function errorByCode(code: number): (A2aErrorEntry & { readonly name: A2aErrorName }) | undefined {
  const name = byCode.get(code);
  return name === undefined ? undefined : { name, ...a2aErrors[name] };
}

/**
The error an `ErrorInfo.reason` stands for, or `undefined` for an unknown reason.

@example
```ts
errorByReason('TASK_NOT_CANCELABLE')?.code; // -32002
```
*/
export function errorByReason(reason: string): (A2aErrorEntry & { readonly name: A2aErrorName }) | undefined {
  const name = byReason.get(reason);
  return name === undefined ? undefined : { name, ...a2aErrors[name] };
}

/**
True when a REST error's HTTP status and `status` string are the pair the table gives this error, in the
v1.0.1 table or in the v1.0.0 one (docs/protocol-checks.md#unary-answers: the A2A code is exposed only when
they match).

@example
```ts
matchesRestIdentity(a2aErrors.TaskNotCancelable, 409, 'FAILED_PRECONDITION'); // true (v1.0.0)
```
*/
export function matchesRestIdentity(entry: A2aErrorEntry, httpStatus: number, status: string): boolean {
  if (entry.httpStatus === httpStatus && entry.status === status) {
    return true;
  }
  const legacyHttpStatus = entry.legacyHttpStatus ?? entry.httpStatus;
  const legacyStatus = entry.legacyStatus ?? entry.status;
  return legacyHttpStatus === httpStatus && legacyStatus === status;
}

/**
The one A2A error named by a list of error details (`error.data` in JSON-RPC, `error.details` in REST): an
entry with `@type` {@link ERROR_INFO_TYPE}, `domain` {@link ERROR_DOMAIN} and a reason in the table.
`undefined` when there is none, and also when there are several, since the peer then named no single error
(docs/protocol-checks.md#unary-answers).

@example
```ts
errorFromDetails([{ '@type': errorInfoType, reason: 'TASK_NOT_FOUND', domain: errorDomain }])?.name; // 'TaskNotFound'
```
*/
export function errorFromDetails(
  details: readonly unknown[],
): (A2aErrorEntry & { readonly name: A2aErrorName }) | undefined {
  let found: (A2aErrorEntry & { readonly name: A2aErrorName }) | undefined;
  let count = 0;
  for (const detail of details) {
    if (!isJsonObject(detail)) {
      continue;
    }
    const { '@type': type, domain, reason } = detail;
    const entry =
      type === errorInfoType && domain === errorDomain && typeof reason === 'string'
        ? errorByReason(reason)
        : undefined;
    if (entry !== undefined) {
      found = entry;
      count++;
    }
  }
  return count === 1 ? found : undefined;
}

/**
A remote error's human text: validated (non-empty, ≤ 16 KiB, any character;
docs/protocol-checks.md#error-answers), then kept out of every message and handed to the caller as inert data
(`RemoteError.remote`, ARCHITECTURE.md#errors).
*/
const RemoteMessage = inertText(16 * 1024, { required: true });

/**
The `error` member of a JSON-RPC response (JSON-RPC 2.0 §5.1; A2A spec §9.5). `data` is kept as sent: in v1.0
an array of `@type` objects, in v0.3 anything; read it with {@link errorFromDetails}. Whether `code` is
authoritative depends on the HTTP status, which the binding knows.

@example
```ts
const error = decodeOrThrow(JsonRpcError, envelope.error, true);
```
*/
export const JsonRpcError = wireObject({
  code: int32(),
  message: RemoteMessage,
  // Any JSON value: `z.custom()` admits all, as `z.unknown()` would, without another zod type in the chunk
  // the page shares with this module.
  data: z.optional(z.custom<unknown>()),
});
/** The `error` member of a JSON-RPC response. */
export type JsonRpcError = z.infer<typeof JsonRpcError>;

/**
The HTTP+JSON error body (A2A spec §11.6): `{ error: { code, status, message, details } }`, google.rpc.Status
in AIP-193 form. `code` is the HTTP status it was sent with (the binding compares them); `details` reads `[]`
when missing, as ProtoJSON drops an empty list.

@example
```ts
const { error } = decodeOrThrow(RestErrorEnvelope, body, true);
const known = errorFromDetails(error.details);
```
*/
export const RestErrorEnvelope = wireObject({
  error: wireObject({
    code: int32(100, 599),
    status: label(256),
    message: RemoteMessage,
    details: z._default(z.array(z.custom<unknown>()), () => []),
  }),
});
/** The HTTP+JSON error body. */
export type RestErrorEnvelope = z.infer<typeof RestErrorEnvelope>;
