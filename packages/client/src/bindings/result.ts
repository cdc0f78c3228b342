/**
@module
The response side both bindings share (docs/protocol-checks.md#unary-answers: bounded JSON, exact response
union, decode and contract, delete; docs/protocol-checks.md#stream-events): bytes to bounded JSON, the exact
one-key union on the raw value, and the operation's response schema. The two rules only a binding can apply
because only it knows the request's shape, the empty delete answer and the push config's tenant, are in
`push-config-answer.ts`, which loads with those operations.
*/
import { InvalidResponseError, type Violation } from '../core/errors.js';
import type { Load } from '../core/lazy.js';
import type { Limits } from '../core/limits.js';
import { decode } from '../protocol/decode.js';
import { isJsonObject, type JsonValue } from '../protocol/json-value.js';
import type { operationSchemas } from '../protocol/operation-schemas.js';
import type { ClientMethod, OperationResponse } from '../protocol/operations.js';
import { jsonName } from '../protocol/protojson.js';
import { isKnownField } from '../protocol/scalars.js';
import { SendMessageRequest, SendMessageResponse } from '../protocol/send-message.js';
import { JsonError, jsonLimitsFrom, parseJson } from '../wire/json.js';

/**
Where a result came from: the HTTP status of its answer (absent inside a stream) and the interface's tenant.
*/
export type ResultSource = { readonly httpStatus?: number; readonly tenant?: string };

/** The request schema and the answer schema of each operation (`protocol/operation-schemas.ts`). */
export type OperationSchemas = typeof operationSchemas;

/**
What {@link schemasOf} loads: the schema table of every operation, which loads with the first call of one
other than SendMessage.
*/
export type SchemaCode = { readonly operationSchemas: OperationSchemas };

const sendMessageSchemas = Object.freeze({ request: SendMessageRequest, response: SendMessageResponse });

/**
The request and answer schemas of `operation`. SendMessage's are on the path of every client; every other
operation's load with its first call through `load`, before its request leaves (ARCHITECTURE.md#decisions,
"Code loads with its first use"), so a failed load is `TransportError('network')` with `dispatched: false`.

@example
```ts
const { response } = await schemasOf('getTask', loadDeferred);
const task = decodeResult('getTask', raw, { httpStatus: 200 }, response);
```
*/
export async function schemasOf<N extends ClientMethod>(
  operation: N,
  load: Load<SchemaCode>,
): Promise<OperationSchemas[N]> {
  if (operation === 'sendMessage') {
    return sendMessageSchemas as OperationSchemas[N];
  }
  return (await load(false)).operationSchemas[operation];
}

/** The members of SendMessageResponse (A2A spec, §3.1.1). */
export const sendResponseMembers: readonly string[] = Object.freeze(['task', 'message']);

/**
The `InvalidResponseError` fields of an answer: always dispatched, with its HTTP status when there is one.
*/
export function failureInit(httpStatus: number | undefined): { dispatched: true; httpStatus?: number } {
  return httpStatus === undefined ? { dispatched: true } : { dispatched: true, httpStatus };
}

/**
Parses an answer's body or an event's data under the JSON bounds of `limits`
(docs/protocol-checks.md#bounded-json: duplicate keys, depth, sizes, trailing data, unsafe integers).

@throws InvalidResponseError `json` (dispatched) pointing at the broken rule, never quoting the body: its path
  names indexes and the protocol's own member names only.
@example
```ts
const raw = parseBody(response.body, limits, response.status);
```
*/
export function parseBody(input: Uint8Array | string, limits: Limits, httpStatus?: number): JsonValue {
  try {
    return parseJson(input, jsonLimitsFrom(limits), isKnownField);
  } catch (error) {
    if (error instanceof JsonError) {
      throw new InvalidResponseError('json', { ...failureInit(httpStatus), violation: error.toViolation() });
    }
    throw error;
  }
}

/**
Why `raw` is not exactly one member of a oneof, or `undefined` when it is: an object with exactly one key, and
that key one of `members`. Stricter than A2A spec, §5.7 on purpose (docs/protocol-checks.md#unary-answers,
exact unions): `{}`, two keys, a known key beside an unknown one, an unknown key alone and an array are all
refused, since a peer that sends them did not say which answer it meant.

@example
```ts
unionViolation({ task, extra: 1 }, sendResponseMembers); // { rule: 'oneof-many', path: '$' }
```
*/
export function unionViolation(raw: JsonValue, members: readonly string[]): Violation | undefined {
  if (!isJsonObject(raw)) {
    return { rule: 'invalid_type', path: '$' };
  }
  let only: string | undefined;
  let count = 0;
  for (const key of Object.keys(raw)) {
    // ProtoJSON: a member that is `null` is absent (`{"message":{…},"task":null}` is one member).
    if (raw[key] !== null) {
      only = key;
      count++;
    }
  }
  if (only === undefined) {
    return { rule: 'oneof-none', path: '$' };
  }
  if (count > 1) {
    return { rule: 'oneof-many', path: '$' };
  }
  // The proto field name (`status_update`) is the same member as its JSON name.
  return members.includes(jsonName(only)) ? undefined : { rule: 'oneof-unknown', path: '$' };
}

/** The error of an answer that breaks its schema or union, with the answer's HTTP status when it had one. */
export function schemaError(source: ResultSource, violation: Violation): InvalidResponseError {
  return new InvalidResponseError('schema', { ...failureInit(source.httpStatus), violation });
}

/**
Decodes the answer of a unary operation that has one (docs/protocol-checks.md#unary-answers): the exact union
for SendMessage, then the operation's response schema (`schema`, from {@link schemasOf}). SendMessage's answer
needs nothing else; the other operations' go through `decodeResult` (`push-config-answer.ts`), which adds the
empty delete answer and the push config's tenant and loads with their schemas.

@throws InvalidResponseError `schema` (dispatched).
@example
```ts
const result = decodeAnswer('sendMessage', raw, { httpStatus: 200 }, SendMessageResponse);
```
*/
export function decodeAnswer<N extends ClientMethod>(
  operation: N,
  raw: JsonValue,
  source: ResultSource,
  schema: OperationSchemas[N]['response'],
): OperationResponse<N> {
  if (operation === 'sendMessage') {
    const violation = unionViolation(raw, sendResponseMembers);
    if (violation !== undefined) {
      throw schemaError(source, violation);
    }
  }
  const result = decode(schema, raw);
  if (!result.ok) {
    throw schemaError(source, result.error.violation);
  }
  return result.value as OperationResponse<N>;
}
