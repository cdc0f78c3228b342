/**
@module
What a remote skill sends and accepts (README.md#remote-skills-as-typed-functions): the media its card entry declares, decided once when the function is built; the one part a message carries; and the value read back from an answer's one part, checked by the caller's Standard Schema validator. A validator's issue messages are never kept: they may quote the peer's value, and no remote text leaves the client (ARCHITECTURE.md#errors); only the issue paths are.
*/
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { A2aClient } from '../client.js';
import { InvalidResponseError, OptionsError, RequestError } from '../core/errors.js';
import type { AgentSkill, JsonValue, Part } from '../protocol/index.js';

/**
How a skill's input or output travels: one `application/json` data part, or one `text/plain` text part.

@example
```ts
const media: SkillMedia = 'data';
```
*/
export type SkillMedia = 'data' | 'text';

/**
One issue a validator found, by where it is: the path of member names and indices into the value, `$` for the value itself.

@example
```ts
const issue: SkillIssue = { path: '$.items[2].price' };
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
Finds `skill` in the client's card and decides its media (A2A spec §4.4.5: a skill's `inputModes` and `outputModes` override the card's defaults): data when a JSON mode is accepted, else text when `text/plain` is. Throws `OptionsError('skill', 'not-in-card')` for a skill the card does not list, `OptionsError('skill.inputModes' | 'skill.outputModes', 'not-satisfied')` for one that takes or gives neither.

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

function pathOf(issue: StandardSchemaV1.Issue): string {
  let path = '$';
  for (const segment of issue.path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    path += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  return path;
}

/** A validator's verdict: the value, or the paths of its issues. */
export type Checked<T> =
  | { readonly ok: true; readonly value: T; readonly issues?: never }
  | { readonly ok: false; readonly issues: readonly SkillIssue[]; readonly value?: never };

/**
Runs a Standard Schema validator (synchronous or not) and keeps the value or the issue paths, never the issue messages.

@example
```ts
await check(v.object({ a: v.number() }), { a: 'x' }); // { ok: false, issues: [{ path: '$.a' }] }
```
*/
export async function check<T>(schema: StandardSchemaV1<unknown, T>, value: unknown): Promise<Checked<T>> {
  const result = await schema['~standard'].validate(value);
  if (result.issues === undefined) {
    return { ok: true, value: result.value };
  }
  const issues = result.issues.map((issue) => ({ path: pathOf(issue) }));
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

/** The raw output of an answer's parts: the content of exactly one part of the skill's media, else `undefined`. */
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
