import * as z from 'zod/mini';
import { InvalidResponseError, type Violation } from '../core/errors.js';
import { AgentCard } from './agent-card.js';
import { Message } from './message.js';
import { canonical } from './protojson.js';
import { isKnownField } from './scalars.js';
import { Task } from './task.js';

/** Why a value did not decode: one public-safe pointer (rule and path), never the value. */
export type DecodeFailure = { readonly violation: Violation };

/** The outcome of {@link decode}: the decoded value, or the first violation. */
export type DecodeResult<T> =
  | { readonly ok: true; readonly value: T; readonly error?: never }
  | { readonly ok: false; readonly error: DecodeFailure; readonly value?: never };

type Issue = z.core.$ZodIssue;

/**
Decodes an untrusted JSON value (one already through the bounded JSON parser) with a protocol schema. Never
throws for any input: a value that breaks a rule comes back as `{ ok: false }` with the first violation, e.g.
`{ rule: 'max-items', path: '$.task.history' }`.

@example
```ts
const result = decode(StreamResponse, json);
if (!result.ok) { throw new InvalidResponseError('schema', { dispatched: true, violation: result.error.violation }); }
```
*/
export function decode<S extends z.ZodMiniType>(schema: S, value: unknown): DecodeResult<z.output<S>> {
  // ProtoJSON first, once: every rule below sees the one canonical shape (docs/protocol-checks.md#protojson).
  const read = canonical(schema, value);
  if (!read.ok) {
    return { ok: false, error: { violation: { rule: 'duplicate-key', path: renderPath(read.path) } } };
  }
  const parsed = z.safeParse(schema, read.value);
  if (parsed.success) {
    return { ok: true, value: parsed.data };
  }
  // Again with the inputs kept (a failure is rare, and keeping them is not free), so a required field that
  // was missing, or held its default and was read as absent, reads `required`.
  const result = z.safeParse(schema, read.value, { reportInput: true });
  if (result.success) {
    return { ok: true, value: result.data };
  }
  return { ok: false, error: { violation: toViolation(result.error.issues[0]) } };
}

/**
Decodes like {@link decode} and throws `InvalidResponseError('schema')` on the first violation. `dispatched`
is the exchange's: every decode of a response happens after the request may have reached the peer.

@example
```ts
const task = decodeOrThrow(Task, json, true);
```
*/
export function decodeOrThrow<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  dispatched: boolean,
): z.output<S> {
  const result = decode(schema, value);
  if (!result.ok) {
    throw new InvalidResponseError('schema', { dispatched, violation: result.error.violation });
  }
  return result.value;
}

function toViolation(issue: Issue | undefined): Violation {
  if (issue === undefined) {
    return { rule: 'invalid', path: '$' };
  }
  return { rule: ruleOf(issue), path: renderPath(issue.path) };
}

function ruleOf(issue: Issue): string {
  if (issue.code === 'custom') {
    const { rule } = issue.params ?? {};
    return typeof rule === 'string' ? rule : 'custom';
  }
  if (issue.code === 'invalid_key' || issue.code === 'invalid_element') {
    // A map key or value failed: report the inner rule, the key itself stays out of the path.
    const inner = issue.issues[0];
    return inner === undefined ? issue.code : ruleOf(inner);
  }
  if (
    issue.code === 'invalid_type' &&
    issue.path.length > 0 &&
    'input' in issue &&
    issue.input === undefined
  ) {
    return 'required';
  }
  return issue.code;
}

// Array indexes and the protocol's own member names are public; any other key came from the peer (a metadata
// key, a scheme name) and is masked.
function renderPath(path: readonly PropertyKey[]): string {
  let rendered = '$';
  for (const key of path) {
    if (typeof key === 'number') {
      rendered += `[${key}]`;
    } else if (typeof key === 'string' && isKnownField(key)) {
      rendered += `.${key}`;
    } else {
      rendered += '[*]';
    }
  }
  return rendered;
}

// Marked free of side effects, so that a bundle keeps only the parsers it calls (each call below is otherwise
// kept as a module-level statement).
/* @__NO_SIDE_EFFECTS__ */
function parser<S extends z.ZodMiniType>(schema: S): (value: unknown) => z.output<S> {
  return (value) => decodeOrThrow(schema, value, false);
}

/* @__NO_SIDE_EFFECTS__ */
function safeParser<S extends z.ZodMiniType>(schema: S): (value: unknown) => DecodeResult<z.output<S>> {
  return (value) => decode(schema, value);
}

/**
Decodes an agent card held as a JSON value (from a file, a registry, a configuration) with the full card
contract, throwing `InvalidResponseError('schema')` (with `dispatched: false`: parsing sends nothing) on the
first violation. Discovery fetches and decodes cards itself.

@example
```ts
const card = parseAgentCard(JSON.parse(await readFile('agent-card.json', 'utf8')));
```
*/
export const parseAgentCard: (value: unknown) => AgentCard = parser(AgentCard);

/**
Decodes an agent card without throwing.

@example
```ts
const result = safeParseAgentCard(value);
if (!result.ok) { console.warn(result.error.violation); }
```
*/
export const safeParseAgentCard: (value: unknown) => DecodeResult<AgentCard> = safeParser(AgentCard);

/**
Decodes a task held as a JSON value (a stored snapshot, a webhook body's `task`), throwing
`InvalidResponseError('schema')` on the first violation.

@example
```ts
const task = parseTask(snapshot);
```
*/
export const parseTask: (value: unknown) => Task = parser(Task);

/**
Decodes a task without throwing.

@example
```ts
const result = safeParseTask(value);
if (result.ok) { result.value.status.state; }
```
*/
export const safeParseTask: (value: unknown) => DecodeResult<Task> = safeParser(Task);

/**
Decodes a message held as a JSON value, throwing `InvalidResponseError('schema')` on the first violation.

@example
```ts
const message = parseMessage(stored);
```
*/
export const parseMessage: (value: unknown) => Message = parser(Message);

/**
Decodes a message without throwing.

@example
```ts
const result = safeParseMessage(value);
if (!result.ok) { result.error.violation.rule; }
```
*/
export const safeParseMessage: (value: unknown) => DecodeResult<Message> = safeParser(Message);
