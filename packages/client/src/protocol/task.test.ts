import { describe, expect, expectTypeOf, it } from 'vitest';
import { decode } from './decode.js';
import type { Message } from './message.js';
import {
  Artifact,
  interruptedStates,
  isInterrupted,
  isTerminal,
  Task,
  TaskState,
  TaskStatus,
  terminalStates,
} from './task.js';

function rule(schema: Parameters<typeof decode>[0], value: unknown): string | undefined {
  const result = decode(schema, value);
  return result.ok ? undefined : `${result.error.violation.rule} at ${result.error.violation.path}`;
}

const userMessage = {
  messageId: '98d9ecb3',
  contextId: '39f222c5',
  taskId: '8297f7d5',
  role: 'ROLE_USER',
  parts: [{ text: 'task x y' }],
};

const agentMessage = {
  messageId: 'afcc6ddd',
  contextId: '39f222c5',
  taskId: '8297f7d5',
  role: 'ROLE_AGENT',
  parts: [{ text: 'done', mediaType: 'text/plain' }],
};

// The official server's blocking answer (docs/interop.md#the-official-js-sdk-server), with its elided parts
// filled in.
const completedTask = {
  id: '8297f7d5',
  contextId: '39f222c5',
  status: { state: 'TASK_STATE_COMPLETED', message: agentMessage, timestamp: '2026-11-29T15:37:54.948Z' },
  artifacts: [
    {
      artifactId: 'text',
      name: 'text',
      description: 'streamed text',
      parts: [{ text: 'alpha ' }, { text: 'beta ' }, { text: 'gamma' }],
    },
    {
      artifactId: 'summary',
      name: 'summary',
      parts: [{ data: { words: 3 }, mediaType: 'application/json' }],
    },
  ],
  history: [userMessage, agentMessage],
  metadata: { peerMode: 'task' },
};

const allStates = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;

describe('TaskState', () => {
  it.each(allStates.map((state, index) => [state, index + 1] as const))(
    'reads %s and its number %i',
    (state, n) => {
      expect(decode(TaskState, state)).toEqual({ ok: true, value: state });
      expect(decode(TaskState, n)).toEqual({ ok: true, value: state });
    },
  );

  it.each([
    ['TASK_STATE_UNSPECIFIED', 'unspecified'],
    [0, 'unspecified'],
    [undefined, 'required'],
    ['completed', 'enum'],
    ['TASK_STATE_CANCELLED', 'enum'],
    [9, 'enum'],
    ['3', 'enum'],
  ])('refuses %j (%s)', (input, expected) => {
    const result = decode(TaskState, input);
    expect(result.ok ? undefined : result.error.violation.rule).toBe(expected);
  });

  it.each([
    ['TASK_STATE_SUBMITTED', false, false],
    ['TASK_STATE_WORKING', false, false],
    ['TASK_STATE_COMPLETED', true, false],
    ['TASK_STATE_FAILED', true, false],
    ['TASK_STATE_CANCELED', true, false],
    ['TASK_STATE_REJECTED', true, false],
    ['TASK_STATE_INPUT_REQUIRED', false, true],
    ['TASK_STATE_AUTH_REQUIRED', false, true],
  ] as const)('classes %s: terminal %s, interrupted %s', (state, terminal, interrupted) => {
    expect(isTerminal(state)).toBe(terminal);
    expect(isInterrupted(state)).toBe(interrupted);
    expect(terminalStates.has(state)).toBe(terminal);
    expect(interruptedStates.has(state)).toBe(interrupted);
  });

  it('types the eight real states', () => {
    expectTypeOf<TaskState>().toEqualTypeOf<(typeof allStates)[number]>();
  });
});

describe('TaskStatus', () => {
  it.each([
    [{ state: 'TASK_STATE_WORKING' }],
    [{ state: 'TASK_STATE_SUBMITTED', timestamp: '2026-11-29T15:37:54Z' }],
    [{ state: 'TASK_STATE_INPUT_REQUIRED', message: agentMessage }],
    [
      {
        state: 'TASK_STATE_AUTH_REQUIRED',
        message: agentMessage,
        timestamp: '2026-11-29T15:37:54.123456789Z',
      },
    ],
  ])('accepts %j', (status) => {
    expect(decode(TaskStatus, status)).toEqual({ ok: true, value: status });
  });

  it.each([
    [
      'AUTH_REQUIRED without a message (A2A spec §7.6)',
      { state: 'TASK_STATE_AUTH_REQUIRED' },
      'auth-required-message at $.message',
    ],
    ['a missing state (ProtoJSON: UNSPECIFIED)', {}, 'required at $.state'],
    ['TASK_STATE_UNSPECIFIED', { state: 'TASK_STATE_UNSPECIFIED' }, 'required at $.state'],
    [
      'an offset timestamp',
      { state: 'TASK_STATE_WORKING', timestamp: '2026-11-29T15:37:54+01:00' },
      'timestamp at $.timestamp',
    ],
    [
      'a bad status message',
      { state: 'TASK_STATE_WORKING', message: { ...agentMessage, parts: [] } },
      'required at $.message.parts',
    ],
  ])('refuses %s', (_name, status, expected) => {
    expect(rule(TaskStatus, status)).toBe(expected);
  });
});

describe('Artifact', () => {
  it('accepts the official server’s artifacts', () => {
    for (const artifact of completedTask.artifacts) {
      expect(decode(Artifact, artifact)).toEqual({ ok: true, value: artifact });
    }
  });

  it('allows a multi-line description (prose) but no other control characters', () => {
    const artifact = { artifactId: 'a', parts: [{ text: 'x' }] };
    expect(
      rule(Artifact, { ...artifact, description: 'line one\nline two\r\n\tindented\n' }),
    ).toBeUndefined();
    expect(rule(Artifact, { ...artifact, description: 'bell\u0007' })).toBe(
      'control-character at $.description',
    );
    expect(rule(Artifact, { ...artifact, description: 'é'.repeat(8192) })).toBeUndefined();
    expect(rule(Artifact, { ...artifact, description: `${'é'.repeat(8192)}a` })).toBe(
      'max-bytes at $.description',
    );
  });

  it.each([
    ['a missing artifactId', { parts: [{ text: 'x' }] }, 'required at $.artifactId'],
    ['no parts', { artifactId: 'a', parts: [] }, 'required at $.parts'],
    [
      '129 parts',
      { artifactId: 'a', parts: Array.from({ length: 129 }, () => ({ text: 'x' })) },
      'max-items at $.parts',
    ],
  ])('refuses %s', (_name, artifact, expected) => {
    expect(rule(Artifact, artifact)).toBe(expected);
  });
});

describe('Task', () => {
  it('reads the official server’s blocking answer unchanged', () => {
    expect(decode(Task, completedTask)).toEqual({ ok: true, value: completedTask });
  });

  it('reads a missing history as [] and keeps a missing artifacts list absent (includeArtifacts check)', () => {
    const result = decode(Task, { id: 't', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' } });
    expect(result).toEqual({
      ok: true,
      value: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' }, history: [] },
    });
    expect(result.ok && 'artifacts' in result.value).toBe(false);
  });

  it('reads an empty artifacts list as no artifacts (the ProtoJSON default of a repeated field)', () => {
    const result = decode(Task, { ...completedTask, artifacts: [] });
    expect(result.ok && 'artifacts' in result.value).toBe(false);
  });

  it('normalises integer enums inside the task', () => {
    const result = decode(Task, {
      ...completedTask,
      status: { state: 3 },
      history: [{ ...userMessage, role: 1 }],
    });
    expect(result.ok && [result.value.status.state, result.value.history[0]?.role]).toEqual([
      'TASK_STATE_COMPLETED',
      'ROLE_USER',
    ]);
  });

  it.each([
    ['a missing id', { ...completedTask, id: undefined }, 'required at $.id'],
    ['a missing contextId', { ...completedTask, contextId: undefined }, 'required at $.contextId'],
    ['a missing status', { ...completedTask, status: undefined }, 'required at $.status'],
    [
      'an unspecified state',
      { ...completedTask, status: { state: 'TASK_STATE_UNSPECIFIED' } },
      'required at $.status.state',
    ],
    [
      'a bad history message',
      { ...completedTask, history: [userMessage, { ...agentMessage, role: 0 }] },
      'required at $.history[1].role',
    ],
    [
      'two artifacts with one id',
      { ...completedTask, artifacts: [completedTask.artifacts[0], completedTask.artifacts[0]] },
      'unique at $.artifacts[1].artifactId',
    ],
  ])('refuses %s', (_name, task, expected) => {
    expect(rule(Task, task)).toBe(expected);
  });

  it('holds history to 256 messages and artifacts to 128', () => {
    const history = (count: number) => Array.from({ length: count }, () => userMessage);
    const artifacts = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ artifactId: `a${index}`, parts: [{ text: 'x' }] }));
    expect(rule(Task, { ...completedTask, history: history(256) })).toBeUndefined();
    expect(rule(Task, { ...completedTask, history: history(257) })).toBe('max-items at $.history');
    expect(rule(Task, { ...completedTask, artifacts: artifacts(128) })).toBeUndefined();
    expect(rule(Task, { ...completedTask, artifacts: artifacts(129) })).toBe('max-items at $.artifacts');
  });

  it('types defaults as present and artifacts as optional', () => {
    expectTypeOf<Task['history']>().toEqualTypeOf<Message[]>();
    expectTypeOf<Task['artifacts']>().toEqualTypeOf<Artifact[] | undefined>();
    expectTypeOf<Task['status']['state']>().toEqualTypeOf<TaskState>();
  });
});
