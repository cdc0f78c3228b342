import { describe, expect, it } from 'vitest';
import {
  askAgainSteps,
  behaviours,
  continuationSteps,
  filesArtifact,
  firstText,
  maxBigKiB,
  maxInputTurns,
  maxSlowSeconds,
  type Plan,
  planFor,
  slowTickMs,
  type TimedStep,
} from './behaviours.js';
import { AgentError } from './remote-errors.js';
import type { Part } from './wire.js';

const plan = (text: string): Plan => planFor({ parts: [{ text }] });
const steps = (text: string): readonly TimedStep[] => {
  const result = plan(text);
  if (result.kind !== 'task') {
    throw new Error('expected a task plan');
  }
  return result.steps;
};
// A compact picture of a plan: `WORKING`, `+text` for an appended chunk, `text|` for a last chunk, `…` for a
// pause.
const shape = (text: string): string[] =>
  steps(text).map(({ step }) => {
    if (step.kind === 'status') {
      return step.state.replace('TASK_STATE_', '');
    }
    if (step.kind === 'artifact') {
      return `${step.append ? '+' : ''}${step.text}${step.lastChunk ? '|' : ''}`;
    }
    return '…';
  });

describe('planFor', () => {
  it.each([
    ['task a b', ['WORKING', 'a ', '+b|', 'COMPLETED']],
    ['task', ['WORKING', 'task|', 'COMPLETED']],
    ['TASK solo', ['WORKING', 'solo|', 'COMPLETED']],
    ['input', ['WORKING', 'INPUT_REQUIRED']],
    ['input 3', ['WORKING', 'INPUT_REQUIRED']],
    ['files', ['WORKING', 'files|', 'COMPLETED']],
    ['auth', ['WORKING', 'AUTH_REQUIRED', '…', '…', 'WORKING', 'authorized|', 'COMPLETED']],
    ['fail', ['WORKING', 'FAILED']],
    ['reject', ['REJECTED']],
    ['slow 2', ['WORKING', 'tick 1/2\n', '+tick 2/2\n|', 'COMPLETED']],
    ['hello big world', ['WORKING', 'hello ', '+big ', '+world|', 'COMPLETED']],
    ['   ', ['WORKING', '(no ', '+text)|', 'COMPLETED']],
  ])('%j → %j', (text, expected) => {
    expect(shape(text)).toEqual(expected);
  });

  it('echo answers a direct message with the whole text', () => {
    expect(plan('echo  hi there')).toEqual({ kind: 'reply', behaviour: 'echo', text: 'echo  hi there' });
  });

  it('reads the first text part, skipping parts of other kinds', () => {
    const parts: Part[] = [{ data: { echo: true } }, { text: 'echo from text' }, { text: 'fail' }];
    expect(planFor({ parts })).toMatchObject({ kind: 'reply', behaviour: 'echo' });
    expect(firstText({ parts: [{ url: 'https://x.example/' }] })).toBe('');
  });

  it('spaces slow ticks a second apart and every other step by stepMs', () => {
    const delays = steps('slow 3').map((entry) => entry.delay);
    expect(delays).toEqual(['step', slowTickMs, slowTickMs, slowTickMs, 'step']);
  });

  it('makes big N exactly N KiB of ASCII', () => {
    const [, chunk] = steps('big 5');
    expect(chunk?.step).toMatchObject({ kind: 'artifact', lastChunk: true, append: false });
    const text = chunk?.step.kind === 'artifact' ? chunk.step.text : '';
    expect(new TextEncoder().encode(text).length).toBe(5 * 1024);
    expect(text.length).toBe(5 * 1024);
  });

  it.each([
    'slow',
    'slow 0',
    `slow ${maxSlowSeconds + 1}`,
    'slow -1',
    'slow 2.5',
    'slow 1e3',
    'big',
    'big 0',
    `big ${maxBigKiB + 1}`,
    'big ten',
    'input 0',
    `input ${maxInputTurns + 1}`,
    'input two',
  ])('%j is refused with InvalidParams', (text) => {
    expect(() => plan(text)).toThrow(AgentError);
    try {
      plan(text);
    } catch (error) {
      expect(error).toMatchObject({ error: 'InvalidParams' });
    }
  });

  it('waits for as many follow-ups as `input N` says, one when it says none', () => {
    expect(plan('input')).toMatchObject({ kind: 'task', inputTurns: 1 });
    expect(plan(`input ${maxInputTurns}`)).toMatchObject({ kind: 'task', inputTurns: maxInputTurns });
  });

  it('answers `files` with one artifact of a raw and a url file part', () => {
    const [, chunk] = steps('files');
    expect(chunk?.step).toMatchObject({ kind: 'artifact', parts: filesArtifact, lastChunk: true });
    expect(
      atob(filesArtifact[0] !== undefined && 'raw' in filesArtifact[0] ? filesArtifact[0].raw : ''),
    ).toBe('hello, file\n');
  });

  it.each([`slow ${maxSlowSeconds}`, `big ${maxBigKiB}`, 'slow 1', 'big 1'])(
    '%j is the largest or smallest allowed',
    (text) => {
      expect(plan(text).kind).toBe('task');
    },
  );
});

describe('askAgainSteps', () => {
  it.each([
    [1, 'Thanks, Ada. 1 more answer, please: reply with a message that carries this taskId.'],
    [2, 'Thanks, Ada. 2 more answers, please: reply with a message that carries this taskId.'],
  ])('asks again, %i left', (left, text) => {
    expect(askAgainSteps({ parts: [{ text: 'Ada' }] }, left).map(({ step }) => step)).toEqual([
      { kind: 'status', state: 'TASK_STATE_INPUT_REQUIRED', text },
    ]);
  });
});

describe('continuationSteps', () => {
  it.each([
    ['Ada', 'Hello, Ada!'],
    ['  Grace Hopper ', 'Hello, Grace Hopper!'],
    ['', 'Hello, there!'],
  ])('greets %j', (text, greeting) => {
    expect(continuationSteps({ parts: [{ text }] }).map(({ step }) => step)).toEqual([
      {
        kind: 'artifact',
        artifactId: 'answer',
        name: 'answer',
        text: greeting,
        append: false,
        lastChunk: true,
      },
      { kind: 'status', state: 'TASK_STATE_COMPLETED', text: 'done' },
    ]);
  });
});

describe('behaviours', () => {
  it('lists each behaviour once, with an example that starts with its name', () => {
    const names = behaviours.map((info) => info.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(['echo', 'task', 'input', 'auth', 'slow', 'fail', 'reject', 'big', 'files']);
    for (const info of behaviours) {
      expect(info.example.split(' ')[0]).toBe(info.name);
      expect(() => plan(info.example)).not.toThrow();
    }
  });
});

describe('the data skills, named in the message metadata', () => {
  const named = (skill: string, parts: Part[]) => planFor({ parts, metadata: { 'surecall/skill': skill } });

  it('sum replies with the sum as one data part', () => {
    expect(named('sum', [{ data: { a: 1, b: 2 } }])).toEqual({
      kind: 'reply',
      behaviour: 'sum',
      text: 'sum',
      data: { sum: 3 },
    });
  });

  it('sum-extended, listed on the extended card only, replies as sum does', () => {
    expect(named('sum-extended', [{ data: { a: 1, b: 2 } }])).toEqual({
      kind: 'reply',
      behaviour: 'sum-extended',
      text: 'sum',
      data: { sum: 3 },
    });
  });

  it('sum-task completes a task whose one artifact holds the sum', () => {
    const result = named('sum-task', [{ data: { a: 40, b: 2 } }]);
    expect(result.kind === 'task' ? result.steps.map(({ step }) => step) : []).toEqual([
      { kind: 'status', state: 'TASK_STATE_WORKING', text: 'working' },
      {
        kind: 'artifact',
        artifactId: 'result',
        name: 'result',
        text: 'result',
        data: { sum: 42 },
        append: false,
        lastChunk: true,
      },
      { kind: 'status', state: 'TASK_STATE_COMPLETED', text: 'done' },
    ]);
  });

  it.each<[string, Part[]]>([
    ['no part', []],
    ['a text part', [{ text: '1 2' }]],
    ['two parts', [{ data: { a: 1, b: 2 } }, { data: { a: 1, b: 2 } }]],
    ['a missing number', [{ data: { a: 1 } }]],
    ['a string number', [{ data: { a: 1, b: '2' } }]],
    ['an array', [{ data: [1, 2] }]],
  ])('refuses %s with InvalidParams before anything runs', (_, parts) => {
    for (const skill of ['sum', 'sum-task']) {
      expect(() => named(skill, parts)).toThrow(AgentError);
    }
  });

  it('leaves a message naming no known skill to its first word', () => {
    expect(named('other', [{ text: 'echo hi' }])).toMatchObject({ kind: 'reply', behaviour: 'echo' });
  });
});
