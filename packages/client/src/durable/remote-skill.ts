/**
@module
A remote agent's skill as a typed function (README.md#remote-skills-as-typed-functions), built on a durable
agent: the input is checked by the caller's Standard Schema validator before anything is recorded, the message
carries exactly one part and names the skill in its metadata, the send is the durable agent's (recorded before
it leaves, sent once), and the answer's one part is checked by the output validator. The outcome is the
durable one, typed: `committed` with the value or the task handle, `failed` with the typed error, `unknown`
with the record id to reconcile.
*/
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { type ClientError, isClientError, LedgerError, OptionsError } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import type { DeliveryMode } from '../ledger/ledger.js';
import { decode } from '../protocol/decode.js';
import { Message, type Part } from '../protocol/message.js';
import type { SendMessageResponse } from '../protocol/send-message.js';
import type { DurableAgent, DurableMessage } from './agent.js';
import type { DurableOutcome, DurableStatus } from './outcome.js';
import { type CompletionOptions, type SkillCompletion, skillTask } from './skill-task.js';
import {
  check,
  inputError,
  inputPart,
  outputError,
  outputOf,
  type SkillIssue,
  type SkillMedia,
  skillMedia,
} from './skill-value.js';

export type { CompletionOptions, SkillCompletion } from './skill-task.js';
export type { SkillIssue, SkillMedia } from './skill-value.js';

/**
The message metadata member that names the skill a message is for. A2A 1.0 has no request field that routes to
a skill, so a peer that dispatches by skill reads this member.

@example
```ts
const skill = message.metadata?.[skillMetadataKey]; // 'sum', on the agent's side
```
*/
export const skillMetadataKey = 'surecall/skill';

/**
What `remoteSkill` takes.

@example
```ts
const options: RemoteSkillOptions<typeof Sum, typeof Total> = { agent, skill: 'sum', input: Sum, output: Total };
```
*/
export type RemoteSkillOptions<TInput extends StandardSchemaV1, TOutput extends StandardSchemaV1> = {
  /** The durable agent every call goes through; its client's card must list `skill`. */
  readonly agent: DurableAgent;
  /** The skill's id in the pinned card. */
  readonly skill: string;
  /**
  Checks the input before anything is recorded or sent (zod 4, valibot, arktype: any Standard Schema
  validator).
  */
  readonly input: TInput;
  /** Checks the answer's one part: a direct reply's, or a completed task's. */
  readonly output: TOutput;
  /**
  The delivery the skill needs: when given, the agent must deliver so
  (`OptionsError('delivery', 'inconsistent')` otherwise), so a call site states what a re-send may do.
  */
  readonly delivery?: DeliveryMode;
};

/**
A task the skill's send created: the submission is committed; its completion is a separate read.

@example
```ts
if (outcome.status === 'committed' && outcome.task !== undefined) await outcome.task.completion({ signal });
```
*/
export type SkillTask<TOutput> = {
  readonly id: string;
  readonly contextId: string;
  /**
  Follows the task to the end (a subscription when the card declares streaming, else `GetTask` polls, within
  bounds) and reads its output.
  */
  completion(options?: CompletionOptions): Promise<SkillCompletion<TOutput>>;
};

/**
Where one call of a remote skill ended:

- `committed` with `value`: the agent answered with a Message whose one part passed the output validator;
- `committed` with `task`: the agent created a task; the submission is committed, `task.completion()` waits
  for the output;
- `failed`: known not applied (`RequestError` for input the validator refused, which never left; the durable
  send's error when it failed before dispatch or the agent refused it), or an answer that is not the skill's
  output (`InvalidResponseError('schema')`, `issues` naming where): the send is committed in the ledger then,
  and must not be sent again;
- `unknown`: the send may have run; reconcile the record `id` (`call.reconcile(id)`), never send it again.
  `durable` is the record's status (`pending` and `unresolved` for a reused id).

@example
```ts
const outcome = await sum({ a: 1, b: 2 });
if (outcome.status === 'unknown') await sum.reconcile(outcome.id);
```
*/
export type SkillOutcome<TOutput> =
  | {
      readonly status: 'committed';
      readonly id: string;
      readonly value: TOutput;
      readonly task?: never;
    }
  | {
      readonly status: 'committed';
      readonly id: string;
      readonly task: SkillTask<TOutput>;
      readonly value?: never;
    }
  | {
      readonly status: 'failed';
      /** The record's id; absent when the input was refused before anything was recorded. */
      readonly id?: string;
      /**
      Absent only for a reused id whose failure an earlier call received: the record's `state.cause`
      summarises it.
      */
      readonly error: ClientError | undefined;
      /**
      Where the validator found the input or the answer wrong; in an answer every member reads `[*]` (see
      {@link SkillIssue}).
      */
      readonly issues?: readonly SkillIssue[];
    }
  | {
      readonly status: 'unknown';
      readonly id: string;
      readonly durable: Exclude<DurableStatus, 'committed' | 'failed'>;
      readonly error?: unknown;
    };

/**
What one call may add.

@example
```ts
await sum({ a: 1, b: 2 }, { signal: AbortSignal.timeout(30_000), id: 'invoice-42' });
```
*/
export type SkillCallOptions = {
  /** Cancels the call: before dispatch it fails as not started, after it the outcome is unknown. */
  readonly signal?: AbortSignal;
  /**
  The record id; reusing one returns that record's outcome without sending (see `DurableSendOptions.id`).
  */
  readonly id?: string;
};

/**
A remote skill as a function, plus `reconcile` for an unknown outcome.

@example
```ts
const sum: RemoteSkill<{ a: number; b: number }, { sum: number }> = remoteSkill({ agent, skill: 'sum', input, output });
```
*/
export type RemoteSkill<TInput, TOutput> = {
  (input: TInput, options?: SkillCallOptions): Promise<SkillOutcome<TOutput>>;
  /** The skill's card entry, as checked. */
  readonly skill: string;
  /**
  Runs the durable agent's `reconcile` for a record of this skill and reads its outcome. A record committed
  earlier by a direct reply has no value kept (the ledger holds its summary only): that throws
  `LedgerError('invalid-input')` with the rule `reply-not-kept`.
  */
  reconcile(id: string, options?: { readonly signal?: AbortSignal }): Promise<SkillOutcome<TOutput>>;
};

/**
Turns a skill of a durable agent's pinned card into a typed function. Checked once, here: the skill is in the
card (`OptionsError('skill', 'not-in-card')`), its input modes take JSON (one data part) or else text (one
text part), its output modes give JSON or else text
(`OptionsError('skill.inputModes' | 'skill.outputModes', 'not-satisfied')`), and `delivery`, when given, is
the agent's.

@example
```ts
import * as v from 'valibot';
const sum = remoteSkill({
  agent,
  skill: 'sum',
  input: v.object({ a: v.number(), b: v.number() }),
  output: v.object({ sum: v.number() }),
});
const outcome = await sum({ a: 1, b: 2 });
if (outcome.status === 'committed' && outcome.task === undefined) outcome.value.sum; // 3
```
*/
export function remoteSkill<TInput extends StandardSchemaV1, TOutput extends StandardSchemaV1>(
  options: RemoteSkillOptions<TInput, TOutput>,
): RemoteSkill<StandardSchemaV1.InferInput<TInput>, StandardSchemaV1.InferOutput<TOutput>> {
  const state = skillState(options);
  function call(value: StandardSchemaV1.InferInput<TInput>, callOptions: SkillCallOptions = {}) {
    return callSkill(state, value, callOptions);
  }
  return Object.freeze(
    Object.assign(call, {
      skill: state.media.skill.id,
      reconcile(id: string, reconcileOptions: { readonly signal?: AbortSignal } = {}) {
        return reconcileSkill(state, id, reconcileOptions);
      },
    }),
  );
}

/**
What one remote skill holds: its agent, its checked card entry with the media of each side, and the two
validators.
*/
type SkillState<TInput extends StandardSchemaV1, TOutput> = {
  readonly agent: DurableAgent;
  /** The skill's id as the caller gave it, which its records' metadata carries. */
  readonly skill: string;
  readonly input: TInput;
  readonly output: StandardSchemaV1<unknown, TOutput>;
  readonly media: ReturnType<typeof skillMedia>;
};

/** Checks the options of `remoteSkill` (see there) and finds the skill's media in the pinned card. */
function skillState<TInput extends StandardSchemaV1, TOutput extends StandardSchemaV1>(
  options: RemoteSkillOptions<TInput, TOutput>,
): SkillState<TInput, StandardSchemaV1.InferOutput<TOutput>> {
  const { agent, skill, input, output, delivery } = options;
  if (typeof agent !== 'object' || agent === null || typeof agent.send !== 'function') {
    throw new OptionsError('agent', 'malformed');
  }
  for (const [name, schema] of [
    ['input', input],
    ['output', output],
  ] as const) {
    if (typeof schema?.['~standard']?.validate !== 'function') {
      throw new OptionsError(name, 'malformed');
    }
  }
  if (delivery !== undefined && delivery !== agent.delivery) {
    throw new OptionsError('delivery', 'inconsistent');
  }
  const media = skillMedia(agent.client, skill);
  return {
    agent,
    skill,
    input,
    output: output as StandardSchemaV1<unknown, StandardSchemaV1.InferOutput<TOutput>>,
    media,
  };
}

/**
One call: the input checked and put in the skill's one part, then the durable send, then its outcome read.
*/
async function callSkill<TInput extends StandardSchemaV1, TOutput>(
  state: SkillState<TInput, TOutput>,
  value: StandardSchemaV1.InferInput<TInput>,
  callOptions: SkillCallOptions,
): Promise<SkillOutcome<TOutput>> {
  const { agent, skill, media } = state;
  const checked = await check(state.input, value, 'caller');
  if (!checked.ok) {
    return { status: 'failed', error: inputError(checked.issues), issues: checked.issues } as const;
  }
  const part = inputPart(media.input, checked.value);
  const message: DurableMessage = {
    role: 'ROLE_USER',
    parts: part === undefined ? [] : [part],
    metadata: { [skillMetadataKey]: skill },
  };
  // The message must be a valid A2A message before the ledger records it: a value that is not JSON, or text
  // that is not a non-empty string, never leaves.
  const decoded = decode(Message, { ...message, messageId: 'surecall-skill-check' });
  if (part === undefined || !decoded.ok) {
    const issues = [{ path: '$' }];
    return { status: 'failed', error: inputError(issues, 'skill-input-media'), issues } as const;
  }
  const sent = await agent.send(message, {
    ...optionalMembers({ signal: callOptions.signal, id: callOptions.id }),
  });
  return read(state, sent, sent.answer);
}

/**
The durable agent's `reconcile` for a record of this skill, its outcome read; a record of another skill is
refused.
*/
async function reconcileSkill<TOutput>(
  state: SkillState<StandardSchemaV1, TOutput>,
  id: string,
  reconcileOptions: { readonly signal?: AbortSignal },
): Promise<SkillOutcome<TOutput>> {
  const outcome = await state.agent.reconcile(id, reconcileOptions);
  if (!isSkillRecord(outcome, state.skill)) {
    throw new LedgerError('invalid-input', { rule: 'skill-mismatch' });
  }
  return read(state, outcome, outcome.answer);
}

/**
A durable outcome as the skill's: a direct reply's value checked, a task's handle, or the failure or the
unknown as they are.
*/
async function read<TOutput>(
  state: SkillState<StandardSchemaV1, TOutput>,
  outcome: DurableOutcome,
  answer: SendMessageResponse | undefined,
): Promise<SkillOutcome<TOutput>> {
  const { id, record } = outcome;
  switch (outcome.status) {
    case 'failed':
      return { status: 'failed', id, error: failure(outcome.error) };
    case 'unknown':
    case 'pending':
    case 'unresolved':
    case 'in-flight':
      return {
        status: 'unknown',
        id,
        durable: outcome.status,
        ...optionalMembers({ error: outcome.error }),
      };
    case 'committed':
      break;
  }
  if (answer !== undefined && 'message' in answer) {
    return replyValue(state, id, state.media.output, answer.message.parts);
  }
  const task = answer === undefined ? undefined : answer.task;
  const recordState = record.state;
  const summary = recordState.status === 'committed' ? recordState.result : undefined;
  const taskId = task?.id ?? (summary?.kind === 'task' ? summary.taskId : undefined);
  const contextId = task?.contextId ?? summary?.contextId;
  if (taskId === undefined || contextId === undefined) {
    throw new LedgerError('invalid-input', { rule: 'reply-not-kept' });
  }
  return {
    status: 'committed',
    id,
    task: skillTask<TOutput>({
      client: state.agent.client,
      taskId,
      contextId,
      media: state.media.output,
      output: state.output,
    }),
  };
}

/** A direct reply's one part of the skill's media, checked by the output validator. */
async function replyValue<TOutput>(
  state: SkillState<StandardSchemaV1, TOutput>,
  id: string,
  kind: SkillMedia,
  parts: readonly Part[],
): Promise<SkillOutcome<TOutput>> {
  const raw = outputOf(kind, parts);
  if (raw === undefined) {
    const issues = [{ path: '$.parts' }];
    return { status: 'failed', id, error: outputError(issues, 'skill-output-part'), issues };
  }
  const checked = await check(state.output, raw.raw, 'peer');
  if (!checked.ok) {
    return { status: 'failed', id, error: outputError(checked.issues), issues: checked.issues };
  }
  return { status: 'committed', id, value: checked.value };
}

function isSkillRecord(outcome: DurableOutcome, skill: string): boolean {
  return outcome.record.message.metadata?.[skillMetadataKey] === skill;
}

function failure(error: unknown): ClientError | undefined {
  // A failed durable send is classified from a client error only
  // (docs/durable-send.md#classifying-a-failure); a record found failed by a reused id carries none.
  return isClientError(error) ? error : undefined;
}
