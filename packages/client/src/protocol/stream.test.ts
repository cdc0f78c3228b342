import { describe, expect, expectTypeOf, it } from 'vitest';
import { decode } from './decode.js';
import type { Message } from './message.js';
import { SendMessageResponse } from './send-message.js';
import { StreamResponse, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from './stream.js';
import type { Task } from './task.js';

function rule(schema: Parameters<typeof decode>[0], value: unknown): string | undefined {
  const result = decode(schema, value);
  return result.ok ? undefined : `${result.error.violation.rule} at ${result.error.violation.path}`;
}

const ids = { taskId: '8297f7d5', contextId: '39f222c5' };
const user = { messageId: '98d9ecb3', ...ids, role: 'ROLE_USER', parts: [{ text: 'task x y' }] };
const working = {
  messageId: '9d0892e0',
  ...ids,
  role: 'ROLE_AGENT',
  parts: [{ text: 'working', mediaType: 'text/plain' }],
};
const task = {
  id: ids.taskId,
  contextId: ids.contextId,
  status: { state: 'TASK_STATE_SUBMITTED', timestamp: '2026-11-29T15:37:54.948Z' },
  history: [user],
  metadata: { peerMode: 'task' },
};
const message = {
  messageId: '5ef72132',
  contextId: '49fd8b51',
  role: 'ROLE_AGENT',
  parts: [{ text: 'echo: echo hi', mediaType: 'text/plain' }],
};
const statusUpdate = {
  ...ids,
  status: { state: 'TASK_STATE_WORKING', message: working, timestamp: '2026-11-29T15:37:55Z' },
};
const artifactUpdate = {
  ...ids,
  artifact: {
    artifactId: 'text',
    name: 'text',
    description: 'streamed text',
    parts: [{ text: 'x ', mediaType: 'text/plain' }],
  },
};

describe('StreamResponse', () => {
  // The `result` of each frame of the official server's SendStreamingMessage capture
  // (docs/interop.md#the-official-js-sdk-server).
  it.each([
    ['task', { task }, { task }],
    ['statusUpdate', { statusUpdate }, { statusUpdate }],
    [
      'first artifact chunk, no flags',
      { artifactUpdate },
      { artifactUpdate: { ...artifactUpdate, append: false, lastChunk: false } },
    ],
    [
      'appended last chunk',
      { artifactUpdate: { ...artifactUpdate, append: true, lastChunk: true } },
      { artifactUpdate: { ...artifactUpdate, append: true, lastChunk: true } },
    ],
    [
      'data artifact, last chunk only',
      {
        artifactUpdate: {
          ...ids,
          artifact: { artifactId: 'summary', parts: [{ data: { words: 2 } }] },
          lastChunk: true,
        },
      },
      {
        artifactUpdate: {
          ...ids,
          artifact: { artifactId: 'summary', parts: [{ data: { words: 2 } }] },
          append: false,
          lastChunk: true,
        },
      },
    ],
    ['message', { message }, { message }],
  ])('reads the %s frame', (_name, frame, expected) => {
    expect(decode(StreamResponse, frame)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['no member', {}, 'oneof-none at $'],
    ['only unknown members', { kind: 'status-update', final: true }, 'oneof-none at $'],
    ['two members', { task, message }, 'oneof-many at $'],
    ['three members', { task, statusUpdate, artifactUpdate }, 'oneof-many at $'],
    ['all four', { task, message, statusUpdate, artifactUpdate }, 'oneof-many at $'],
    ['a bare v0.3 status event', { kind: 'status-update', ...statusUpdate }, 'oneof-none at $'],
    [
      'a bad member',
      { statusUpdate: { ...statusUpdate, contextId: undefined } },
      'required at $.statusUpdate.contextId',
    ],
    ['only a null member (null is absence)', { task: null }, 'oneof-none at $'],
    ['not an object', [], 'invalid_type at $'],
  ])('refuses %s', (_name, frame, expected) => {
    expect(rule(StreamResponse, frame)).toBe(expected);
  });

  it('ignores unknown siblings of the one member (A2A spec §5.7)', () => {
    expect(decode(StreamResponse, { task, index: 3 })).toEqual({ ok: true, value: { task } });
  });

  it('narrows by the present member', () => {
    const result = decode(StreamResponse, { statusUpdate });
    if (!result.ok) {
      throw new Error('expected an event');
    }
    const event: StreamResponse = result.value;
    if ('statusUpdate' in event) {
      expectTypeOf(event.statusUpdate).toEqualTypeOf<TaskStatusUpdateEvent>();
    } else if ('artifactUpdate' in event) {
      expectTypeOf(event.artifactUpdate).toEqualTypeOf<TaskArtifactUpdateEvent>();
    } else if ('task' in event) {
      expectTypeOf(event.task).toEqualTypeOf<Task>();
    } else {
      expectTypeOf(event.message).toEqualTypeOf<Message>();
    }
    expect('statusUpdate' in event).toBe(true);
  });
});

describe('SendMessageResponse', () => {
  it.each([[{ task }], [{ message }]])('accepts %j', (response) => {
    expect(decode(SendMessageResponse, response).ok).toBe(true);
  });

  it.each([
    ['neither member', {}, 'oneof-none at $'],
    ['both members', { task, message }, 'oneof-many at $'],
    ['a stream-only member', { statusUpdate }, 'oneof-none at $'],
    ['a v0.3 bare task', { kind: 'task', ...task }, 'oneof-none at $'],
  ])('refuses %s', (_name, response, expected) => {
    expect(rule(SendMessageResponse, response)).toBe(expected);
  });

  it('types exactly one member', () => {
    expectTypeOf<SendMessageResponse>().toEqualTypeOf<{ task: Task } | { message: Message }>();
  });
});

describe('TaskStatusUpdateEvent', () => {
  it.each([
    ['a missing taskId', { ...statusUpdate, taskId: undefined }, 'required at $.taskId'],
    ['a missing status', { ...statusUpdate, status: undefined }, 'required at $.status'],
    [
      'AUTH_REQUIRED without a message',
      { ...statusUpdate, status: { state: 'TASK_STATE_AUTH_REQUIRED' } },
      'auth-required-message at $.status.message',
    ],
  ])('refuses %s', (_name, event, expected) => {
    expect(rule(TaskStatusUpdateEvent, event)).toBe(expected);
  });

  it('drops the v0.3 `final` flag', () => {
    expect(decode(TaskStatusUpdateEvent, { ...statusUpdate, final: true })).toEqual({
      ok: true,
      value: statusUpdate,
    });
  });
});

describe('TaskArtifactUpdateEvent', () => {
  it.each([
    ['append not a bool', { ...artifactUpdate, append: 'true' }, 'invalid_type at $.append'],
    ['a missing artifact', { ...ids }, 'required at $.artifact'],
    [
      'an artifact without parts',
      { ...artifactUpdate, artifact: { artifactId: 'a', parts: [] } },
      'required at $.artifact.parts',
    ],
  ])('refuses %s', (_name, event, expected) => {
    expect(rule(TaskArtifactUpdateEvent, event)).toBe(expected);
  });

  it('types the flags as read with their defaults', () => {
    expectTypeOf<TaskArtifactUpdateEvent['append']>().toEqualTypeOf<boolean>();
    expectTypeOf<TaskArtifactUpdateEvent['lastChunk']>().toEqualTypeOf<boolean>();
  });
});
