import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError, type InvalidResponseReason } from '../core/errors.js';
import type { Message } from '../protocol/message.js';
import type { StreamResponse } from '../protocol/stream.js';
import type { Task, TaskState } from '../protocol/task.js';
import { createStreamValidator, type StreamOrigin } from './stream.js';

const owner = { taskId: 'task-1', contextId: 'context-1' };
const agent = (fields: Partial<Message> = {}): Message => ({
  messageId: 'm-agent',
  ...owner,
  role: 'ROLE_AGENT',
  parts: [{ text: 'working' }],
  ...fields,
});
const user = (fields: Partial<Message> = {}): Message => ({
  messageId: 'm-user',
  role: 'ROLE_USER',
  parts: [{ text: 'task x y' }],
  ...fields,
});
const { taskId: _taskId, ...reply } = agent();

const snapshot = (state: TaskState = 'TASK_STATE_WORKING', fields: Partial<Task> = {}): StreamResponse => ({
  task: { id: owner.taskId, contextId: owner.contextId, status: { state }, history: [], ...fields },
});
const status = (
  state: TaskState,
  fields: { taskId?: string; contextId?: string; message?: Message } = {},
): StreamResponse => {
  const { message, ...ids } = fields;
  return {
    statusUpdate: { ...owner, ...ids, status: message === undefined ? { state } : { state, message } },
  };
};
const chunk = (
  artifactId: string,
  flags: { append?: boolean; lastChunk?: boolean } = {},
  ids: { taskId?: string; contextId?: string } = {},
): StreamResponse => ({
  artifactUpdate: {
    ...owner,
    ...ids,
    artifact: { artifactId, parts: [{ text: 'x' }] },
    append: flags.append ?? false,
    lastChunk: flags.lastChunk ?? false,
  },
});

const subscribe: StreamOrigin = { kind: 'subscribe', taskId: owner.taskId };
const send: StreamOrigin = { kind: 'send', request: { message: user() } };
const followUp: StreamOrigin = {
  kind: 'send',
  request: { message: user(owner), configuration: { historyLength: 0 } },
};

/**
Where the stream must fail: the index of the refused event (`events.length` for the end), then reason, rule
and path.
*/
type Failure = readonly [number, InvalidResponseReason, string, string?];

/** Feeds every event, then ends; returns how far it got and what it threw. */
function play(origin: StreamOrigin, events: readonly StreamResponse[]): { at: number; error: unknown } {
  const validator = createStreamValidator(origin);
  let at = 0;
  try {
    for (const event of events) {
      validator.accept(event);
      at++;
    }
    validator.end();
    return { at, error: undefined };
  } catch (error) {
    return { at, error };
  }
}

function expectFailure(result: { at: number; error: unknown }, failure: Failure): void {
  const [at, reason, rule, path] = failure;
  expect(result.error).toBeInstanceOf(InvalidResponseError);
  expect(result.error).toMatchObject({
    kind: 'invalid-response',
    reason,
    dispatched: true,
    violation: { rule },
  });
  expect((result.error as InvalidResponseError).violation?.path).toBe(path);
  expect(result.at).toBe(at);
}

const completed = status('TASK_STATE_COMPLETED');

describe('createStreamValidator', () => {
  it.each<[name: string, origin: StreamOrigin, events: StreamResponse[], failure?: Failure]>([
    // docs/protocol-checks.md#stream-lifecycle, artifact appends
    [
      'append before the initial chunk',
      send,
      [snapshot(), chunk('a', { append: true })],
      [1, 'stream', 'append-unknown-artifact', '$.artifactUpdate.artifact.artifactId'],
    ],
    [
      'initial chunk, append, final chunk',
      send,
      [
        snapshot(),
        chunk('a'),
        chunk('a', { append: true }),
        chunk('a', { append: true, lastChunk: true }),
        completed,
      ],
    ],
    [
      'append after the final chunk',
      send,
      [snapshot(), chunk('a', { lastChunk: true }), chunk('a', { append: true })],
      [2, 'stream', 'append-sealed-artifact', '$.artifactUpdate.artifact.artifactId'],
    ],
    [
      'a replacement after the final chunk reopens the artifact',
      send,
      [snapshot(), chunk('a', { lastChunk: true }), chunk('a'), chunk('a', { append: true }), completed],
    ],
    [
      'an append to an artifact of the snapshot',
      subscribe,
      [
        snapshot('TASK_STATE_WORKING', { artifacts: [{ artifactId: 'a', parts: [{ text: 'x' }] }] }),
        chunk('a', { append: true }),
        completed,
      ],
    ],
    [
      'appends to two artifacts, interleaved',
      send,
      [
        snapshot(),
        chunk('a'),
        chunk('b'),
        chunk('a', { append: true }),
        chunk('b', { append: true, lastChunk: true }),
        completed,
      ],
    ],
    // docs/protocol-checks.md#stream-lifecycle, task streams
    ['INPUT_REQUIRED, then the end', send, [snapshot(), status('TASK_STATE_INPUT_REQUIRED')]],
    ['a snapshot already terminal, then the end', send, [snapshot('TASK_STATE_COMPLETED')]],
    ['a second Task snapshot', subscribe, [snapshot(), snapshot()], [1, 'stream', 'second-task', '$.task']],
    [
      'a Task snapshot after the terminal state (A2A spec §11.7 allows one; refused)',
      send,
      [snapshot(), completed, snapshot('TASK_STATE_COMPLETED')],
      [2, 'lifecycle', 'event-after-terminal', '$'],
    ],
    [
      'a status update after the terminal state',
      send,
      [snapshot(), completed, completed],
      [2, 'lifecycle', 'event-after-terminal', '$'],
    ],
    ['one WORKING task, then the end', send, [snapshot()], [1, 'lifecycle', 'premature-end']],
    ['no event at all', subscribe, [], [0, 'lifecycle', 'premature-end']],
    [
      'updates after AUTH_REQUIRED until COMPLETED',
      send,
      [
        snapshot(),
        status('TASK_STATE_AUTH_REQUIRED', { message: agent() }),
        status('TASK_STATE_WORKING'),
        chunk('a', { lastChunk: true }),
        completed,
      ],
    ],
    [
      'WORKING after INPUT_REQUIRED, then the end',
      send,
      [snapshot(), status('TASK_STATE_INPUT_REQUIRED'), status('TASK_STATE_WORKING')],
      [3, 'lifecycle', 'premature-end'],
    ],
    [
      'a status update before the Task',
      send,
      [status('TASK_STATE_WORKING')],
      [0, 'stream', 'update-before-task', '$.statusUpdate'],
    ],
    [
      'an artifact update before the Task',
      subscribe,
      [chunk('a')],
      [0, 'stream', 'update-before-task', '$.artifactUpdate'],
    ],
    // Direct messages
    ['one direct Message', send, [{ message: reply }]],
    [
      'an event after the Message',
      send,
      [{ message: reply }, completed],
      [1, 'stream', 'event-after-message', '$'],
    ],
    [
      'a second Message',
      send,
      [{ message: reply }, { message: reply }],
      [1, 'stream', 'event-after-message', '$'],
    ],
    [
      'a Message on a subscription',
      subscribe,
      [{ message: reply }],
      [0, 'stream', 'message-on-subscribe', '$.message'],
    ],
    [
      'a Message inside a task stream',
      send,
      [snapshot(), { message: reply }],
      [1, 'stream', 'message-in-task-stream', '$.message'],
    ],
    [
      'a user Message',
      send,
      [{ message: user({ contextId: 'context-1' }) }],
      [0, 'identity', 'message-role', '$.message.role'],
    ],
    [
      'a Message with a taskId the request did not name',
      send,
      [{ message: agent() }],
      [0, 'identity', 'message-task-id', '$.message.taskId'],
    ],
    ['a Message of the continued task', followUp, [{ message: agent() }]],
    // Identity
    [
      'a new task for a first message',
      send,
      [
        snapshot('TASK_STATE_SUBMITTED', { id: 'task-9', contextId: 'context-9' }),
        status('TASK_STATE_COMPLETED', { taskId: 'task-9', contextId: 'context-9' }),
      ],
    ],
    [
      'another task than the continued one',
      followUp,
      [snapshot('TASK_STATE_WORKING', { id: 'task-2' })],
      [0, 'identity', 'task-id', '$.task.id'],
    ],
    [
      'more history than configured',
      followUp,
      [snapshot('TASK_STATE_WORKING', { history: [user()] })],
      [0, 'identity', 'history-length', '$.task.history'],
    ],
    [
      'another task than the subscribed one',
      subscribe,
      [snapshot('TASK_STATE_WORKING', { id: 'task-2' })],
      [0, 'identity', 'task-id', '$.task.id'],
    ],
    [
      'a snapshot whose status message is of another task',
      subscribe,
      [
        snapshot('TASK_STATE_WORKING', {
          status: { state: 'TASK_STATE_WORKING', message: agent({ taskId: 'task-2' }) },
        }),
      ],
      [0, 'identity', 'status-message-task-id', '$.task.status.message.taskId'],
    ],
    // docs/protocol-checks.md#stream-lifecycle: a status update of a foreign task in a subscription.
    [
      'a status update of another task',
      subscribe,
      [snapshot(), status('TASK_STATE_COMPLETED', { taskId: 'task-2' })],
      [1, 'identity', 'task-id', '$.statusUpdate.taskId'],
    ],
    [
      'a status update of another context',
      subscribe,
      [snapshot(), status('TASK_STATE_COMPLETED', { contextId: 'context-2' })],
      [1, 'identity', 'context-id', '$.statusUpdate.contextId'],
    ],
    [
      'a status message of this task',
      send,
      [snapshot(), status('TASK_STATE_COMPLETED', { message: agent() })],
    ],
    [
      'a user status message',
      send,
      [snapshot(), status('TASK_STATE_COMPLETED', { message: user(owner) })],
      [1, 'identity', 'status-message-role', '$.statusUpdate.status.message.role'],
    ],
    // A2A proto `Message`: the ids are optional, and a status message is its update's task's.
    [
      'a status message without taskId',
      send,
      [snapshot(), status('TASK_STATE_COMPLETED', { message: reply })],
    ],
    [
      'a status message of another task',
      send,
      [snapshot(), status('TASK_STATE_COMPLETED', { message: agent({ taskId: 'task-2' }) })],
      [1, 'identity', 'status-message-task-id', '$.statusUpdate.status.message.taskId'],
    ],
    [
      'a status message of another context',
      send,
      [snapshot(), status('TASK_STATE_COMPLETED', { message: agent({ contextId: 'context-2' }) })],
      [1, 'identity', 'status-message-context-id', '$.statusUpdate.status.message.contextId'],
    ],
    [
      'an artifact update of another task',
      send,
      [snapshot(), chunk('a', {}, { taskId: 'task-2' })],
      [1, 'identity', 'task-id', '$.artifactUpdate.taskId'],
    ],
    [
      'an artifact update of another context',
      send,
      [snapshot(), chunk('a', {}, { contextId: 'context-2' })],
      [1, 'identity', 'context-id', '$.artifactUpdate.contextId'],
    ],
  ])('%s', (_name, origin, events, failure) => {
    const result = play(origin, events);
    if (failure === undefined) {
      expect(result.error).toBeUndefined();
    } else {
      expectFailure(result, failure);
    }
  });

  it("accepts the official server's captured SendStreamingMessage stream (docs/interop.md#the-official-js-sdk-server)", () => {
    const ids = { taskId: '8297f7d5', contextId: '39f222c5' };
    const says = (text: string): Message => ({
      messageId: text,
      ...ids,
      role: 'ROLE_AGENT',
      parts: [{ text }],
    });
    const part = (text: string) => ({
      artifactId: 'text',
      name: 'text',
      parts: [{ text, mediaType: 'text/plain' }],
    });
    const events: StreamResponse[] = [
      {
        task: {
          id: ids.taskId,
          contextId: ids.contextId,
          status: { state: 'TASK_STATE_SUBMITTED' },
          history: [user(ids)],
        },
      },
      { statusUpdate: { ...ids, status: { state: 'TASK_STATE_WORKING', message: says('working') } } },
      { artifactUpdate: { ...ids, artifact: part('x '), append: false, lastChunk: false } },
      { artifactUpdate: { ...ids, artifact: part('y'), append: true, lastChunk: true } },
      {
        artifactUpdate: {
          ...ids,
          artifact: { artifactId: 'summary', parts: [{ data: { words: 2 } }] },
          append: false,
          lastChunk: true,
        },
      },
      { statusUpdate: { ...ids, status: { state: 'TASK_STATE_COMPLETED', message: says('done') } } },
    ];
    expect(play(send, events).error).toBeUndefined();
  });

  it('says when the stream may end', () => {
    const validator = createStreamValidator(send);
    const seen: boolean[] = [validator.complete];
    for (const event of [
      snapshot(),
      status('TASK_STATE_INPUT_REQUIRED'),
      status('TASK_STATE_WORKING'),
      completed,
    ]) {
      validator.accept(event);
      seen.push(validator.complete);
    }
    expect(seen).toEqual([false, false, true, false, true]);
    const message = createStreamValidator(send);
    message.accept({ message: reply });
    expect(message.complete).toBe(true);
  });

  it('keeps failing with the first error', () => {
    const validator = createStreamValidator(subscribe);
    expect(() => validator.accept(snapshot('TASK_STATE_WORKING', { id: 'task-2' }))).toThrow(
      InvalidResponseError,
    );
    let first: unknown;
    try {
      validator.accept(snapshot());
    } catch (error) {
      first = error;
    }
    expect(first).toMatchObject({ reason: 'identity', violation: { rule: 'task-id' } });
    expect(() => validator.end()).toThrow(first as Error);
    expect(validator.complete).toBe(false);
  });
});

// A valid task stream: a Task, then status and artifact updates in any order, ending in a terminal state.
const step = fc.oneof(
  fc.record({
    kind: fc.constant('status' as const),
    state: fc.constantFrom<TaskState>(
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_AUTH_REQUIRED',
    ),
    message: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('artifact' as const),
    slot: fc.nat({ max: 2 }),
    append: fc.boolean(),
    last: fc.boolean(),
  }),
);
const validStream = fc
  .record({
    subscribe: fc.boolean(),
    first: fc.constantFrom<TaskState>('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'),
    steps: fc.array(step, { maxLength: 24 }),
    last: fc.constantFrom<TaskState>(
      'TASK_STATE_COMPLETED',
      'TASK_STATE_FAILED',
      'TASK_STATE_CANCELED',
      'TASK_STATE_REJECTED',
    ),
  })
  .map(({ subscribe: subscribing, first, steps, last }) => {
    const events: StreamResponse[] = [snapshot(first)];
    const sealed = new Map<string, boolean>();
    for (const next of steps) {
      if (next.kind === 'status') {
        // A2A spec §7.6: AUTH_REQUIRED comes with a status message.
        const message = next.message || next.state === 'TASK_STATE_AUTH_REQUIRED';
        events.push(status(next.state, message ? { message: agent() } : {}));
      } else {
        const artifactId = `artifact-${next.slot}`;
        const append = next.append && sealed.get(artifactId) === false;
        events.push(chunk(artifactId, { append, lastChunk: next.last }));
        sealed.set(artifactId, next.last);
      }
    }
    events.push(status(last));
    return { origin: subscribing ? subscribe : send, events };
  });

function withTaskId(event: StreamResponse, taskId: string): StreamResponse {
  if ('task' in event) {
    return { task: { ...event.task, id: taskId } };
  }
  if ('statusUpdate' in event) {
    return { statusUpdate: { ...event.statusUpdate, taskId } };
  }
  if ('artifactUpdate' in event) {
    return { artifactUpdate: { ...event.artifactUpdate, taskId } };
  }
  return event;
}

describe('createStreamValidator: properties', () => {
  it('accepts every valid task stream', () => {
    fc.assert(
      fc.property(validStream, ({ origin, events }) => {
        expect(play(origin, events).error).toBeUndefined();
      }),
    );
  });

  it('accepts every valid task stream broken anywhere and resumed from a snapshot taken at any later point', () => {
    fc.assert(
      fc.property(validStream, fc.nat(), fc.nat(), ({ origin, events }, breakPick, gapPick) => {
        // A break after `at` events; the subscription's snapshot holds the task as it stood after `from`
        // events.
        const at = 1 + (breakPick % (events.length - 1));
        const from = at + (gapPick % (events.length - at));
        let state: TaskState = 'TASK_STATE_SUBMITTED';
        const artifacts = new Map<string, string>();
        for (const event of events.slice(0, from)) {
          if ('task' in event) {
            state = event.task.status.state;
          } else if ('statusUpdate' in event) {
            state = event.statusUpdate.status.state;
          } else if ('artifactUpdate' in event) {
            const { artifact, append } = event.artifactUpdate;
            artifacts.set(
              artifact.artifactId,
              `${append ? (artifacts.get(artifact.artifactId) ?? '') : ''}x`,
            );
          }
        }
        const resumed = snapshot(state, {
          artifacts: [...artifacts].map(([artifactId, text]) => ({ artifactId, parts: [{ text }] })),
        });
        const validator = createStreamValidator(origin);
        for (const event of events.slice(0, at)) {
          validator.accept(event);
        }
        validator.seam();
        for (const event of [resumed, ...events.slice(from)]) {
          validator.accept(event);
        }
        expect(() => validator.end()).not.toThrow();
      }),
    );
  });

  it('refuses the same stream with one event of another task', () => {
    fc.assert(
      fc.property(validStream, fc.nat(), ({ origin, events }, pick) => {
        const index = pick % events.length;
        const changed = events.map((event, at) => (at === index ? withTaskId(event, 'task-other') : event));
        const { error } = play(origin, changed);
        expect(error).toBeInstanceOf(InvalidResponseError);
        expect(error).toMatchObject({ reason: 'identity', dispatched: true });
      }),
    );
  });
});

describe('createStreamValidator across a resumption seam', () => {
  const at = (state: TaskState, timestamp: string): StreamResponse => ({
    statusUpdate: { ...owner, status: { state, timestamp } },
  });
  const whole = (state: TaskState, timestamp: string, sealed: boolean): StreamResponse =>
    snapshot(state, {
      status: { state, timestamp },
      artifacts: [{ artifactId: 'text', parts: [{ text: sealed ? 'alpha beta' : 'alpha' }] }],
    });

  it('takes the snapshot a resumption starts with, and appends continue from its artifacts', () => {
    const validator = createStreamValidator(send);
    expect(validator.accept(snapshot('TASK_STATE_SUBMITTED'))).toBe(true);
    expect(validator.accept(chunk('text'))).toBe(true);
    validator.seam();
    expect(validator.complete).toBe(false);
    expect(validator.accept(whole('TASK_STATE_WORKING', '2026-01-01T00:00:02Z', false))).toBe(true);
    expect(validator.accept(chunk('text', { append: true, lastChunk: true }))).toBe(true);
    expect(validator.accept(status('TASK_STATE_COMPLETED'))).toBe(true);
    expect(() => validator.end()).not.toThrow();
  });

  it('repairs a premature end: the seam clears it', () => {
    const validator = createStreamValidator(subscribe);
    validator.accept(snapshot());
    expect(() => validator.end()).toThrow(InvalidResponseError);
    validator.seam();
    validator.accept(snapshot());
    validator.accept(status('TASK_STATE_COMPLETED'));
    expect(() => validator.end()).not.toThrow();
  });

  it('keeps any other failure final', () => {
    const validator = createStreamValidator(subscribe);
    validator.accept(snapshot());
    expect(() => validator.accept(chunk('text', { append: true }))).toThrow(InvalidResponseError);
    expect(() => validator.seam()).toThrow(InvalidResponseError);
  });

  it.each<[string, StreamResponse, string]>([
    ['an update first', status('TASK_STATE_WORKING'), 'resume-without-task'],
    ['a snapshot of another task', snapshot('TASK_STATE_WORKING', { id: 'task-2' }), 'task-id'],
    [
      'a snapshot of another context',
      snapshot('TASK_STATE_WORKING', { contextId: 'context-2' }),
      'context-id',
    ],
  ])('refuses %s after the seam', (_name, event, rule) => {
    const validator = createStreamValidator(send);
    validator.accept(snapshot('TASK_STATE_SUBMITTED'));
    validator.seam();
    let thrown: unknown;
    try {
      validator.accept(event);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ violation: { rule } });
  });

  it('does not deliver again a status update older than the last one delivered', () => {
    const validator = createStreamValidator(send);
    validator.accept(snapshot('TASK_STATE_SUBMITTED'));
    validator.accept(at('TASK_STATE_WORKING', '2026-01-01T00:00:03Z'));
    validator.seam();
    validator.accept(whole('TASK_STATE_WORKING', '2026-01-01T00:00:03Z', true));
    expect(validator.accept(at('TASK_STATE_SUBMITTED', '2026-01-01T00:00:01Z'))).toBe(false);
    expect(validator.accept(at('TASK_STATE_WORKING', '2026-01-01T00:00:03.000Z'))).toBe(true);
    expect(validator.accept(at('TASK_STATE_COMPLETED', '2026-01-01T00:00:04Z'))).toBe(true);
    expect(validator.complete).toBe(true);
  });

  it('does not deliver a seam snapshot older than the status already delivered, and keeps what was held', () => {
    const validator = createStreamValidator(send);
    validator.accept(whole('TASK_STATE_SUBMITTED', '2026-01-01T00:00:01Z', false));
    validator.accept(at('TASK_STATE_INPUT_REQUIRED', '2026-01-01T00:00:03Z'));
    validator.seam();
    // A regression: the snapshot is a repeat like an older update, so the interrupted state and the open
    // artifact stand.
    expect(
      validator.accept(
        snapshot('TASK_STATE_WORKING', {
          status: { state: 'TASK_STATE_WORKING', timestamp: '2026-01-01T00:00:02Z' },
        }),
      ),
    ).toBe(false);
    expect(validator.settled).toBe('interrupted');
    expect(validator.accept(chunk('text', { append: true }))).toBe(true);
    expect(validator.accept(at('TASK_STATE_WORKING', '2026-01-01T00:00:02.5Z'))).toBe(false);
    expect(validator.accept(at('TASK_STATE_COMPLETED', '2026-01-01T00:00:04Z'))).toBe(true);
    expect(() => validator.end()).not.toThrow();
  });

  it('delivers a seam snapshot as new as the status delivered, or without a timestamp to compare', () => {
    for (const timestamp of ['2026-01-01T00:00:03Z', '2026-01-01T00:00:03.000Z', undefined]) {
      const validator = createStreamValidator(send);
      validator.accept(snapshot('TASK_STATE_SUBMITTED'));
      validator.accept(at('TASK_STATE_WORKING', '2026-01-01T00:00:03Z'));
      validator.seam();
      const status =
        timestamp === undefined
          ? { state: 'TASK_STATE_WORKING' as const }
          : { state: 'TASK_STATE_WORKING' as const, timestamp };
      expect(validator.accept(snapshot('TASK_STATE_WORKING', { status }))).toBe(true);
    }
    const unstamped = createStreamValidator(send);
    unstamped.accept(snapshot('TASK_STATE_SUBMITTED'));
    unstamped.seam();
    expect(unstamped.accept(whole('TASK_STATE_WORKING', '2026-01-01T00:00:01Z', false))).toBe(true);
  });

  it('says how far the task has come', () => {
    const validator = createStreamValidator(send);
    expect(validator.settled).toBeUndefined();
    validator.accept(snapshot('TASK_STATE_SUBMITTED'));
    expect(validator.settled).toBeUndefined();
    validator.accept(status('TASK_STATE_INPUT_REQUIRED'));
    expect(validator.settled).toBe('interrupted');
    validator.accept(status('TASK_STATE_FAILED'));
    expect(validator.settled).toBe('terminal');
  });
});
