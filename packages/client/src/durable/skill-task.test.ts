import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { A2aClient } from '../client/client.js';
import { OptionsError } from '../core/errors.js';
import type { Part } from '../protocol/message.js';
import type { Task, TaskState } from '../protocol/task.js';
import { skillTask } from './skill-task.js';

function task(state: TaskState, parts: Part[] = []): Task {
  return {
    id: 't',
    contextId: 'c',
    status: { state },
    history: [],
    ...(parts.length === 0 ? {} : { artifacts: [{ artifactId: 'result', parts }] }),
  };
}

/** A client whose GetTask answers the given tasks in turn (the last one again and again); no streaming. */
function reads(answers: Task[]) {
  const getTask = vi.fn(async () => (answers.length > 1 ? answers.shift() : answers[0]) as Task);
  const client = { card: { capabilities: { streaming: false } }, getTask } as unknown as A2aClient;
  return { client, getTask };
}

const handle = (client: A2aClient) =>
  skillTask({ client, taskId: 't', contextId: 'c', media: 'data', output: v.object({ sum: v.number() }) });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a skill task’s completion', () => {
  it('polls GetTask at the interval until the task completes, then validates its one part', async () => {
    const { client, getTask } = reads([
      task('TASK_STATE_SUBMITTED'),
      task('TASK_STATE_WORKING'),
      task('TASK_STATE_COMPLETED', [{ data: { sum: 3 } }]),
    ]);
    const done = handle(client).completion({ pollIntervalMs: 500 });
    await vi.advanceTimersByTimeAsync(499);
    expect(getTask).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toMatchObject({ status: 'completed', value: { sum: 3 } });
    expect(getTask).toHaveBeenCalledTimes(3);
  });

  it('reports running once maxPolls reads are spent, without reading again', async () => {
    const { client, getTask } = reads([task('TASK_STATE_WORKING')]);
    const done = handle(client).completion({ pollIntervalMs: 1000, maxPolls: 3 });
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(done).resolves.toMatchObject({ status: 'running' });
    expect(getTask).toHaveBeenCalledTimes(4);
  });

  it.each<[TaskState]>([
    ['TASK_STATE_FAILED'],
    ['TASK_STATE_CANCELED'],
    ['TASK_STATE_REJECTED'],
    ['TASK_STATE_INPUT_REQUIRED'],
  ])('reports %s as stopped', async (state) => {
    const { client } = reads([task(state)]);
    await expect(handle(client).completion()).resolves.toMatchObject({ status: 'stopped', state });
  });

  it.each<[string, Part[], string]>([
    ['two parts', [{ data: { sum: 1 } }, { data: { sum: 2 } }], '$.artifacts'],
    ['a text part', [{ text: '3' }], '$.artifacts'],
    // The answer's keys are the peer's text: even the member the schema names reads [*].
    ['a value the schema refuses', [{ data: { sum: 'three' } }], '$[*]'],
  ])('reports a completed task with %s as invalid', async (_, parts, path) => {
    const { client } = reads([task('TASK_STATE_COMPLETED', parts)]);
    await expect(handle(client).completion()).resolves.toMatchObject({
      status: 'invalid',
      issues: [{ path }],
      error: { kind: 'invalid-response', reason: 'schema', dispatched: true },
    });
  });

  it('stops waiting when the signal aborts', async () => {
    const { client } = reads([task('TASK_STATE_WORKING')]);
    const controller = new AbortController();
    const done = handle(client).completion({ signal: controller.signal, pollIntervalMs: 60_000 });
    const settled = expect(done).rejects.toMatchObject({ kind: 'request', reason: 'aborted' });
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await settled;
  });

  it.each([
    [{ pollIntervalMs: 0 }, new OptionsError('pollIntervalMs', 'below-minimum')],
    [{ pollIntervalMs: 3_600_001 }, new OptionsError('pollIntervalMs', 'above-ceiling')],
    [{ maxPolls: 1.5 }, new OptionsError('maxPolls', 'not-a-whole-number')],
  ])('refuses the bounds %j', async (options, error) => {
    const { client, getTask } = reads([task('TASK_STATE_WORKING')]);
    await expect(handle(client).completion(options)).rejects.toThrow(error);
    expect(getTask).not.toHaveBeenCalled();
  });
});
