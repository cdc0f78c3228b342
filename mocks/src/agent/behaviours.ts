import { skillMetadataKey } from '@surecall/client';
import type { JsonValue } from '@surecall/client/protocol';
import { AgentError } from './remote-errors.js';
import type { Message, Part, TaskState } from './wire.js';

/** The scripted behaviours, chosen by the first word of the message's first text part (case-insensitive). */
export type BehaviourName = 'echo' | 'task' | 'input' | 'auth' | 'slow' | 'fail' | 'reject' | 'big' | 'files';

/**
The data skills, chosen by the skill id a message names in its metadata (under `skillMetadataKey`, as
`remoteSkill` of `@surecall/client` writes it) rather than by a word.
*/
export type DataSkillName = 'sum' | 'sum-task' | 'sum-extended';

/** One scripted change to a task. */
export type Step =
  | {
      readonly kind: 'status';
      readonly state: TaskState;
      /** The agent's status message, also kept in the history. */
      readonly text?: string;
    }
  | {
      readonly kind: 'artifact';
      readonly artifactId: string;
      readonly name: string;
      /**
      The text of this chunk's single part; never empty, since an empty string would be left out by ProtoJSON
      and leave the part without content.
      */
      readonly text: string;
      /**
      When present, the chunk's single part is this JSON value as `application/json` instead of the text.
      */
      readonly data?: JsonValue;
      /** When present, the chunk's parts, in place of the single text or data part. */
      readonly parts?: readonly Part[];
      readonly append: boolean;
      readonly lastChunk: boolean;
    }
  /** Nothing changes: time passes, as while an out-of-band sign-in completes. */
  | { readonly kind: 'pause' };

/** A step and how long to wait before it: `step` is the agent's `stepMs`, a number is fixed milliseconds. */
export type TimedStep = { readonly delay: 'step' | number; readonly step: Step };

/** What a user message starts. */
export type Plan =
  /** A direct Message: no task is created (A2A spec §3.1.1 allows either). */
  | {
      readonly kind: 'reply';
      readonly behaviour: BehaviourName | DataSkillName;
      readonly text: string;
      /**
      When present, the reply's single part is this JSON value as `application/json` instead of the text.
      */
      readonly data?: JsonValue;
    }
  /** A task, created SUBMITTED, that then runs these steps. */
  | {
      readonly kind: 'task';
      readonly behaviour: BehaviourName | DataSkillName | 'default';
      readonly steps: readonly TimedStep[];
      /** How many follow-ups the task waits for in INPUT_REQUIRED before it completes (`input N`). */
      readonly inputTurns?: number;
    };

/** The description of one behaviour, as the agent card's skills list them. */
export type BehaviourInfo = {
  readonly name: BehaviourName;
  readonly summary: string;
  readonly example: string;
};

/** Every behaviour, in the order the card lists them. */
export const behaviours: readonly BehaviourInfo[] = Object.freeze([
  {
    name: 'echo',
    summary: 'Answers with a direct Message echoing the text; no task is created.',
    example: 'echo hello',
  },
  {
    name: 'task',
    summary:
      'A task that goes SUBMITTED, WORKING, streams an artifact one chunk per word, then COMPLETED. Any unknown first word does the same with all the words.',
    example: 'task alpha beta gamma',
  },
  {
    name: 'input',
    summary:
      'Stops in INPUT_REQUIRED; a follow-up message carrying the taskId completes it. `input N` asks N times: each follow-up but the last gets INPUT_REQUIRED again.',
    example: 'input 2',
  },
  {
    name: 'auth',
    summary: 'Stops in AUTH_REQUIRED with a status message, then completes by itself a few steps later.',
    example: 'auth',
  },
  {
    name: 'slow',
    summary: 'Works for N seconds, one progress chunk per second; cancel it with CancelTask.',
    example: 'slow 5',
  },
  { name: 'fail', summary: 'Ends in FAILED.', example: 'fail' },
  { name: 'reject', summary: 'Ends in REJECTED.', example: 'reject' },
  { name: 'big', summary: 'Completes with one text part of N KiB.', example: 'big 1024' },
  {
    name: 'files',
    summary: 'Completes with one artifact of two file parts: the same text file as raw bytes and as a URL.',
    example: 'files',
  },
]);

/**
The data skills the card lists after the behaviours: JSON in, JSON out. One, `sum-extended`, is listed on the
extended card only, as a skill an agent offers its authenticated callers (A2A spec §3.1.11).
*/
export const dataSkills: readonly {
  readonly name: DataSkillName;
  readonly summary: string;
  readonly extendedOnly?: true;
}[] = Object.freeze([
  {
    name: 'sum',
    summary:
      'Adds two numbers: `{ "a": 1, "b": 2 }` in one data part, a direct Message with `{ "sum": 3 }` out.',
  },
  {
    name: 'sum-task',
    summary:
      'The same sum as a task: SUBMITTED, WORKING, then COMPLETED with one `result` artifact holding `{ "sum": 3 }`.',
  },
  {
    name: 'sum-extended',
    summary: 'The same sum as `sum`, listed on the extended card only.',
    extendedOnly: true,
  },
]);

/** Spacing of the `slow` behaviour's progress chunks: one per second, whatever `stepMs` is. */
export const slowTickMs = 1000;
/** The longest `slow N`: one hour. */
export const maxSlowSeconds = 3600;
/** The largest `big N`: 32 MiB. */
export const maxBigKiB = 32 * 1024;
/** The most follow-ups `input N` waits for. */
export const maxInputTurns = 16;

/**
The file the `files` behaviour answers with (`hello, file\n`), as raw bytes and as a URL (RFC 2606:
example.com).
*/
export const filesArtifact: readonly Part[] = Object.freeze([
  { raw: 'aGVsbG8sIGZpbGUK', mediaType: 'text/plain', filename: 'hello.txt' },
  { url: 'https://example.com/surecall/hello.txt', mediaType: 'text/plain', filename: 'hello.txt' },
]);

const step = (s: Step): TimedStep => ({ delay: 'step', step: s });
const status = (state: TaskState, text?: string): TimedStep =>
  step({ kind: 'status', state, ...(text === undefined ? {} : { text }) });

/** The text of the message's first text part, or `''`. */
export function firstText(message: Pick<Message, 'parts'>): string {
  for (const part of message.parts) {
    if ('text' in part && typeof part.text === 'string') {
      return part.text;
    }
  }
  return '';
}

function wholeNumber(word: string | undefined, min: number, max: number, usage: string): number {
  const value = word !== undefined && /^\d{1,9}$/.test(word) ? Number(word) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new AgentError('InvalidParams', usage);
  }
  return value;
}

function wordChunks(words: readonly string[]): TimedStep[] {
  return words.map((word, index) =>
    step({
      kind: 'artifact',
      artifactId: 'text',
      name: 'text',
      // The chunks concatenate back to the words separated by single spaces.
      text: index < words.length - 1 ? `${word} ` : word,
      append: index > 0,
      lastChunk: index === words.length - 1,
    }),
  );
}

function bigText(kib: number): string {
  // 64 ASCII bytes, so N KiB is exactly 16·N lines.
  const line = `${'0123456789abcdef'.repeat(3)}0123456789abcde\n`;
  return line.repeat(kib * 16);
}

/** The data skill a message names in its metadata, if it names one of ours. */
export function dataSkillOf(message: Pick<Message, 'metadata'>): DataSkillName | undefined {
  const named = message.metadata?.[skillMetadataKey];
  return dataSkills.find((skill) => skill.name === named)?.name;
}

/**
The sum of a data skill's input: exactly one data part holding an object with the finite numbers `a` and `b`.
*/
function sumOf(message: Pick<Message, 'parts'>): number {
  const [part, ...rest] = message.parts;
  const input = part !== undefined && 'data' in part ? part.data : undefined;
  if (rest.length > 0 || typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new AgentError('InvalidParams', 'sum needs one data part holding { "a": number, "b": number }');
  }
  const { a, b } = input;
  if (typeof a !== 'number' || typeof b !== 'number' || !Number.isFinite(a + b)) {
    throw new AgentError('InvalidParams', 'sum needs one data part holding { "a": number, "b": number }');
  }
  return a + b;
}

function dataSkillPlan(skill: DataSkillName, message: Pick<Message, 'parts'>): Plan {
  const result = { sum: sumOf(message) };
  if (skill !== 'sum-task') {
    return { kind: 'reply', behaviour: skill, text: 'sum', data: result };
  }
  return {
    kind: 'task',
    behaviour: skill,
    steps: [
      status('TASK_STATE_WORKING', 'working'),
      step({
        kind: 'artifact',
        artifactId: 'result',
        name: 'result',
        text: 'result',
        data: result,
        append: false,
        lastChunk: true,
      }),
      status('TASK_STATE_COMPLETED', 'done'),
    ],
  };
}

// One plan per behaviour that has arguments or many steps, so `planFor` reads as the table of words it is.

function inputPlan(argument: string | undefined): Plan {
  const turns =
    argument === undefined
      ? 1
      : wholeNumber(argument, 1, maxInputTurns, `input needs a whole number of turns, 1 to ${maxInputTurns}`);
  return {
    kind: 'task',
    behaviour: 'input',
    inputTurns: turns,
    steps: [
      status('TASK_STATE_WORKING', 'working'),
      status(
        'TASK_STATE_INPUT_REQUIRED',
        'What is your name? Reply with a message that carries this taskId.',
      ),
    ],
  };
}

function filesPlan(): Plan {
  return {
    kind: 'task',
    behaviour: 'files',
    steps: [
      status('TASK_STATE_WORKING', 'working'),
      step({
        kind: 'artifact',
        artifactId: 'files',
        name: 'files',
        text: 'files',
        parts: filesArtifact,
        append: false,
        lastChunk: true,
      }),
      status('TASK_STATE_COMPLETED', 'done'),
    ],
  };
}

function authPlan(): Plan {
  return {
    kind: 'task',
    behaviour: 'auth',
    steps: [
      status('TASK_STATE_WORKING', 'working'),
      // A2A spec §7.6: AUTH_REQUIRED MUST come with a status message saying what is needed.
      status(
        'TASK_STATE_AUTH_REQUIRED',
        'Sign-in required: the mock agent signs itself in after a few steps.',
      ),
      step({ kind: 'pause' }),
      step({ kind: 'pause' }),
      status('TASK_STATE_WORKING', 'signed in'),
      step({
        kind: 'artifact',
        artifactId: 'text',
        name: 'text',
        text: 'authorized',
        append: false,
        lastChunk: true,
      }),
      status('TASK_STATE_COMPLETED', 'done'),
    ],
  };
}

function slowPlan(argument: string | undefined): Plan {
  const seconds = wholeNumber(
    argument,
    1,
    maxSlowSeconds,
    `slow needs a whole number of seconds, 1 to ${maxSlowSeconds}`,
  );
  const ticks: TimedStep[] = Array.from({ length: seconds }, (_, index) => ({
    delay: slowTickMs,
    step: {
      kind: 'artifact',
      artifactId: 'progress',
      name: 'progress',
      text: `tick ${index + 1}/${seconds}\n`,
      append: index > 0,
      lastChunk: index === seconds - 1,
    },
  }));
  return {
    kind: 'task',
    behaviour: 'slow',
    steps: [status('TASK_STATE_WORKING', 'working'), ...ticks, status('TASK_STATE_COMPLETED', 'done')],
  };
}

function bigPlan(argument: string | undefined): Plan {
  const kib = wholeNumber(argument, 1, maxBigKiB, `big needs a whole number of KiB, 1 to ${maxBigKiB}`);
  return {
    kind: 'task',
    behaviour: 'big',
    steps: [
      status('TASK_STATE_WORKING', 'working'),
      step({
        kind: 'artifact',
        artifactId: 'big',
        name: 'big',
        text: bigText(kib),
        append: false,
        lastChunk: true,
      }),
      status('TASK_STATE_COMPLETED', 'done'),
    ],
  };
}

/**
The words of `task …` (or of any unknown first word), one artifact chunk each, between WORKING and COMPLETED.
*/
function wordsPlan(behaviour: 'task' | 'default', words: readonly string[]): Plan {
  return {
    kind: 'task',
    behaviour,
    steps: [
      status('TASK_STATE_WORKING', 'working'),
      ...wordChunks(words),
      status('TASK_STATE_COMPLETED', 'done'),
    ],
  };
}

/**
The plan a new user message starts: a data skill named in its metadata (`sum`, `sum-task`), else the behaviour
of the first word of its first text part. Arguments out of range (`slow 0`, `big x`) are refused with
InvalidParams before anything runs.

@example
```ts
planFor({ parts: [{ text: 'echo hi' }] }); // { kind: 'reply', behaviour: 'echo', text: 'echo hi' }
planFor({ parts: [{ text: 'task a b' }] }).kind; // 'task'
planFor({ parts: [{ data: { a: 1, b: 2 } }], metadata: { 'surecall/skill': 'sum' } }); // a reply with { sum: 3 }
```
*/
export function planFor(message: Pick<Message, 'parts' | 'metadata'>): Plan {
  const skill = dataSkillOf(message);
  if (skill !== undefined) {
    return dataSkillPlan(skill, message);
  }
  const text = firstText(message);
  const words = text.split(/\s+/).filter((word) => word !== '');
  const [first = '', second] = words;
  switch (first.toLowerCase()) {
    case 'echo':
      return { kind: 'reply', behaviour: 'echo', text };
    case 'task':
      return wordsPlan('task', words.length > 1 ? words.slice(1) : words);
    case 'input':
      return inputPlan(second);
    case 'auth':
      return authPlan();
    case 'slow':
      return slowPlan(second);
    case 'fail':
      return {
        kind: 'task',
        behaviour: 'fail',
        steps: [status('TASK_STATE_WORKING', 'working'), status('TASK_STATE_FAILED', 'failed on purpose')],
      };
    case 'reject':
      return {
        kind: 'task',
        behaviour: 'reject',
        steps: [status('TASK_STATE_REJECTED', 'rejected on purpose')],
      };
    case 'big':
      return bigPlan(second);
    case 'files':
      return filesPlan();
    default:
      return wordsPlan('default', words.length > 0 ? words : ['(no', 'text)']);
  }
}

/**
The steps of a follow-up to an `input N` task that still waits for `left` more: INPUT_REQUIRED again, asking
for the next answer. The task is already WORKING when they start.

@example
```ts
askAgainSteps({ parts: [{ text: 'Ada' }] }, 1); // INPUT_REQUIRED, 'Thanks, Ada. 1 more answer, please…'
```
*/
export function askAgainSteps(message: Pick<Message, 'parts'>, left: number): readonly TimedStep[] {
  const name = firstText(message).trim() || 'there';
  const more = left === 1 ? '1 more answer' : `${left} more answers`;
  return [
    status(
      'TASK_STATE_INPUT_REQUIRED',
      `Thanks, ${name}. ${more}, please: reply with a message that carries this taskId.`,
    ),
  ];
}

/**
The steps that finish an INPUT_REQUIRED task once the client answers: an `answer` artifact greeting the first
text of the answer, then COMPLETED. The task is already WORKING when they start.

@example
```ts
continuationSteps({ parts: [{ text: 'Ada' }] }); // artifact 'Hello, Ada!', then COMPLETED
```
*/
export function continuationSteps(message: Pick<Message, 'parts'>): readonly TimedStep[] {
  const name = firstText(message).trim() || 'there';
  return [
    step({
      kind: 'artifact',
      artifactId: 'answer',
      name: 'answer',
      text: `Hello, ${name}!`,
      append: false,
      lastChunk: true,
    }),
    status('TASK_STATE_COMPLETED', 'done'),
  ];
}
