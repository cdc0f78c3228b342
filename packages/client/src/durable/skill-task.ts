/**
@module
The completion of a task a remote skill's send created (README.md#remote-skills-as-typed-functions). With
`returnImmediately` a task commits its submission only, not its end
(docs/durable-send.md#what-a-task-commits), so waiting for the output is a separate read: a subscription when
the card declares streaming (a hint of when to look, nothing more), then `GetTask` (the truth), polled within
bounds. Reads are safe to repeat; nothing here ever sends the message again.
*/
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { A2aClient } from '../client/client.js';
import { type InvalidResponseError, OptionsError, RequestError } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import { pause } from '../core/pause.js';
import { interruptedStates, type Task, type TaskState, terminalStates } from '../protocol/task.js';
import { check, outputError, outputOf, type SkillIssue, type SkillMedia } from './skill-value.js';

/**
How long `completion()` may wait.

@example
```ts
await task.completion({ signal, pollIntervalMs: 2000, maxPolls: 90 }); // at most about three minutes of reads
```
*/
export type CompletionOptions = {
  /** Stops waiting; the read in flight fails with its `aborted` error. */
  readonly signal?: AbortSignal;
  /** The pause between two `GetTask` reads, 1 ms to 1 h. @default 1000 */
  readonly pollIntervalMs?: number;
  /**
  The most `GetTask` reads after the first, 1 to 100 000; when they are spent the task is reported
  `running`. @default 600
  */
  readonly maxPolls?: number;
};

/**
How a skill's task ended, as far as this call saw:

- `completed`: COMPLETED, and the one part of its artifacts passed the output validator;
- `stopped`: it ended otherwise (FAILED, CANCELED, REJECTED) or waits for the caller (INPUT_REQUIRED,
  AUTH_REQUIRED): `state` says which;
- `invalid`: COMPLETED, but its artifacts do not hold exactly one part of the skill's media, or the validator
  refused it (`issues` say where);
- `running`: the bounds were spent first; call `completion()` again later.

@example
```ts
const done = await task.completion();
if (done.status === 'completed') use(done.value);
```
*/
export type SkillCompletion<TOutput> =
  | { readonly status: 'completed'; readonly value: TOutput; readonly task: Task }
  | { readonly status: 'stopped'; readonly state: TaskState; readonly task: Task }
  | {
      readonly status: 'invalid';
      readonly error: InvalidResponseError;
      readonly issues: readonly SkillIssue[];
      readonly task: Task;
    }
  | { readonly status: 'running'; readonly task: Task };

/** The defaults of {@link CompletionOptions}. */
export const defaultCompletionOptions = Object.freeze({ pollIntervalMs: 1000, maxPolls: 600 });

function whole(option: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new OptionsError(option, 'not-a-whole-number');
  }
  if (value < 1) {
    throw new OptionsError(option, 'below-minimum');
  }
  if (value > max) {
    throw new OptionsError(option, 'above-ceiling');
  }
  return value;
}

/** Validates {@link CompletionOptions} and applies the defaults; `OptionsError` names the option. */
export function resolveCompletionOptions(options: CompletionOptions = {}) {
  return {
    signal: options.signal,
    pollIntervalMs: whole(
      'pollIntervalMs',
      options.pollIntervalMs ?? defaultCompletionOptions.pollIntervalMs,
      3_600_000,
    ),
    maxPolls: whole('maxPolls', options.maxPolls ?? defaultCompletionOptions.maxPolls, 100_000),
  };
}

const settled = (state: TaskState) => terminalStates.has(state) || interruptedStates.has(state);

/** What {@link skillTask} needs. */
export type SkillTaskInput<TOutput> = {
  readonly client: A2aClient;
  readonly taskId: string;
  readonly contextId: string;
  readonly media: SkillMedia;
  readonly output: StandardSchemaV1<unknown, TOutput>;
};

/**
The handle of a skill's task: its ids, and `completion()`.

@example
```ts
const handle = skillTask({ client, taskId, contextId, media: 'data', output });
const done = await handle.completion({ signal, pollIntervalMs: 500 });
if (done.status === 'completed') use(done.value);
```
*/
export function skillTask<TOutput>(input: SkillTaskInput<TOutput>) {
  const { client, taskId, contextId, media, output } = input;

  async function finish(task: Task): Promise<SkillCompletion<TOutput>> {
    const state = task.status.state;
    if (state !== 'TASK_STATE_COMPLETED') {
      return { status: 'stopped', state, task };
    }
    const raw = outputOf(
      media,
      (task.artifacts ?? []).flatMap((artifact) => artifact.parts),
    );
    if (raw === undefined) {
      const issues = [{ path: '$.artifacts' }];
      return { status: 'invalid', error: outputError(issues, 'skill-output-part'), issues, task };
    }
    const checked = await check(output, raw.raw, 'peer');
    if (!checked.ok) {
      return { status: 'invalid', error: outputError(checked.issues), issues: checked.issues, task };
    }
    return { status: 'completed', value: checked.value, task };
  }

  async function completion(options?: CompletionOptions): Promise<SkillCompletion<TOutput>> {
    const { signal, pollIntervalMs, maxPolls } = resolveCompletionOptions(options);
    const call = optionalMembers({ signal });
    let task = await client.getTask({ id: taskId }, call);
    if (settled(task.status.state)) {
      return finish(task);
    }
    if (client.card.capabilities.streaming === true) {
      try {
        for await (const event of client.subscribeToTask({ id: taskId }, call)) {
          const state =
            'task' in event
              ? event.task.status.state
              : 'statusUpdate' in event
                ? event.statusUpdate.status.state
                : undefined;
          if (state !== undefined && settled(state)) {
            break;
          }
        }
      } catch (error) {
        // The subscription only says when to look; a broken one leaves the polls below to find the end.
        if (signal?.aborted) {
          throw error;
        }
      }
    }
    for (let polls = 0; polls < maxPolls; polls++) {
      task = await client.getTask({ id: taskId }, call);
      if (settled(task.status.state)) {
        return finish(task);
      }
      if (!(await pause(pollIntervalMs, signal))) {
        throw new RequestError('aborted');
      }
    }
    return { status: 'running', task };
  }

  return Object.freeze({ id: taskId, contextId, completion });
}
