/**
@module
What a remote skill sends and accepts (README.md#remote-skills-as-typed-functions): the media its card entry
declares, decided once when the function is built; the one part a message carries; and the value read back
from an answer's one part, checked by the caller's Standard Schema validator. A validator's issue messages are
never kept: they may quote the peer's value, and no remote text leaves the client (ARCHITECTURE.md#errors);
only the issue paths are, built by the rule of core/violation-path.ts.
*/
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { A2aClient } from '../client/client.js';
import { InvalidResponseError, OptionsError, RequestError } from '../core/errors.js';
import { indexSegment, isPlainKey, maskedKey } from '../core/violation-path.js';
import type { AgentSkill } from '../protocol/agent-card.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { Part } from '../protocol/message.js';

/**
How a skill's input or output travels: one `application/json` data part, or one `text/plain` text part.

@example
```ts
const media: SkillMedia = 'data';
```
*/
export type SkillMedia = 'data' | 'text';

/**
One issue a validator found, by where it is: a path into the value, `$` for the value itself, `[n]` for an
array index. In the caller's own input a member reads `.name` when its name is a plain identifier of at most
64 characters, else `[*]`; in an answer every member reads `[*]`, since its keys are the peer's text
(ARCHITECTURE.md#errors).

@example
```ts
const input: SkillIssue = { path: '$.items[2].price' }; // the caller's input refused
const output: SkillIssue = { path: '$[*][2][*]' }; // the same place in an answer refused
```
*/
export type SkillIssue = { readonly path: string };

// A2A spec §4.4.5: modes are media types; a JSON value can be sent where any of these is accepted.
const jsonModes = new Set(['application/json', 'application/*', '*/*']);
const textModes = new Set(['text/plain', 'text/*', '*/*']);

function essence(mode: string): string {
  const semicolon = mode.indexOf(';');
  return (semicolon === -1 ? mode : mode.slice(0, semicolon)).trim().toLowerCase();
}

function mediaOf(modes: readonly string[], option: string): SkillMedia {
  const essences = modes.map(essence);
  if (essences.some((mode) => jsonModes.has(mode))) {
    return 'data';
  }
  if (essences.some((mode) => textModes.has(mode))) {
    return 'text';
  }
  throw new OptionsError(option, 'not-satisfied');
}

/**
Finds `skill` in the client's card and decides its media (A2A spec §4.4.5: a skill's `inputModes` and
`outputModes` override the card's defaults): data when a JSON mode is accepted, else text when `text/plain`
is. Throws `OptionsError('skill', 'not-in-card')` for a skill the card does not list,
`OptionsError('skill.inputModes' | 'skill.outputModes', 'not-satisfied')` for one that takes or gives neither.

@example
```ts
skillMedia(client, 'sum'); // { skill: { id: 'sum', … }, input: 'data', output: 'data' }
```
*/
export function skillMedia(
  client: A2aClient,
  skill: string,
): { readonly skill: AgentSkill; readonly input: SkillMedia; readonly output: SkillMedia } {
  const entry = client.card.skills.find((candidate) => candidate.id === skill);
  if (entry === undefined) {
    throw new OptionsError('skill', 'not-in-card');
  }
  return {
    skill: entry,
    input: mediaOf(entry.inputModes ?? client.card.defaultInputModes, 'skill.inputModes'),
    output: mediaOf(entry.outputModes ?? client.card.defaultOutputModes, 'skill.outputModes'),
  };
}

/**
Whose value a validator checked: the caller's own input, or an answer from the peer. It decides what a path
may name (ARCHITECTURE.md#errors, `redact.violation-path`).

@example
```ts
await check(Sum, input, 'caller');
```
*/
export type ValueOrigin = 'caller' | 'peer';

/**
The path of one issue. A validator's path cannot tell a key the caller's schema names from one the peer chose
(a `record<string, number>` key is the peer's, and a token such as `abc123` looks like any member name), so in
an answer every key reads `[*]`, the wire layer's rule for a key it does not know
(docs/protocol-checks.md#bounded-json). The caller's own input is never remote, so its keys may be named, but
only plain identifiers of at most 64 characters: a path then never holds a line break, an escape sequence, or
a `.` or `[0]` that would make it ambiguous. Only a number is an index; a symbol, or an index that is no whole
number, reads `[*]` too.
*/
function pathOf(issue: StandardSchemaV1.Issue, origin: ValueOrigin): string {
  let path = '$';
  for (const segment of issue.path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    if (typeof key === 'number') {
      path += indexSegment(key);
    } else {
      path += origin === 'caller' && typeof key === 'string' && isPlainKey(key) ? `.${key}` : maskedKey;
    }
  }
  return path;
}

/** A validator's verdict: the value, or the paths of its issues. */
export type Checked<T> =
  | { readonly ok: true; readonly value: T; readonly issues?: never }
  | { readonly ok: false; readonly issues: readonly SkillIssue[]; readonly value?: never };

/**
Runs a Standard Schema validator (synchronous or not) and keeps the value or the issue paths, never the issue
messages; `origin` says whose value it is, which decides what the paths may name.

@example
```ts
await check(v.object({ a: v.number() }), { a: 'x' }, 'caller'); // { ok: false, issues: [{ path: '$.a' }] }
await check(v.object({ a: v.number() }), { a: 'x' }, 'peer'); // { ok: false, issues: [{ path: '$[*]' }] }
```
*/
export async function check<T>(
  schema: StandardSchemaV1<unknown, T>,
  value: unknown,
  origin: ValueOrigin,
): Promise<Checked<T>> {
  const result = await schema['~standard'].validate(value);
  if (result.issues === undefined) {
    return { ok: true, value: result.value };
  }
  const issues = result.issues.map((issue) => ({ path: pathOf(issue, origin) }));
  return { ok: false, issues: issues.length > 0 ? issues : [{ path: '$' }] };
}

/** The input refused before anything leaves: `RequestError('invalid-params')`, never dispatched. */
export function inputError(issues: readonly SkillIssue[], rule = 'skill-input'): RequestError {
  return new RequestError('invalid-params', { violation: { rule, path: issues[0]?.path ?? '$' } });
}

/** An answer that is not the skill's output: `InvalidResponseError('schema')`, dispatched. */
export function outputError(issues: readonly SkillIssue[], rule = 'skill-output'): InvalidResponseError {
  return new InvalidResponseError('schema', {
    dispatched: true,
    violation: { rule, path: issues[0]?.path ?? '$' },
  });
}

/** The one part a skill's message carries, or `undefined` when the validated input does not fit the media. */
export function inputPart(media: SkillMedia, value: unknown): Part | undefined {
  if (media === 'text') {
    return typeof value === 'string' && value.length > 0
      ? { text: value, mediaType: 'text/plain' }
      : undefined;
  }
  return value === undefined ? undefined : { data: value as JsonValue, mediaType: 'application/json' };
}

/**
The raw output of an answer's parts: the content of exactly one part of the skill's media, else `undefined`.
*/
export function outputOf(media: SkillMedia, parts: readonly Part[]): { readonly raw: unknown } | undefined {
  if (parts.length !== 1) {
    return undefined;
  }
  const [part] = parts as [Part];
  if (media === 'data') {
    return 'data' in part ? { raw: part.data } : undefined;
  }
  return 'text' in part ? { raw: part.text } : undefined;
}
