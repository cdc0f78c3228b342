import { describe, expect, expectTypeOf, it } from 'vitest';
import { decode } from './decode.js';
import {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  Empty,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  ListTasksResponse,
  SubscribeToTaskRequest,
} from './requests.js';
import { SendMessageConfiguration, SendMessageRequest } from './send-message.js';
import type { Task } from './task.js';

function rule(schema: Parameters<typeof decode>[0], value: unknown): string | undefined {
  const result = decode(schema, value);
  return result.ok ? undefined : `${result.error.violation.rule} at ${result.error.violation.path}`;
}

const message = { messageId: '97a8af41', role: 'ROLE_USER', parts: [{ text: 'echo hi' }] };
const task = {
  id: 't1',
  contextId: 'c1',
  status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-11-29T15:37:54.948Z' },
};

describe('SendMessageRequest', () => {
  // The official client's `params` (docs/interop.md#the-official-js-sdk-client) and the configuration fields
  // of A2A spec §3.2.2.
  it.each([
    [{ message }],
    [{ message, configuration: { returnImmediately: true } }],
    [
      {
        tenant: 'acme',
        message: { ...message, contextId: 'ctx-1', taskId: 'task-1' },
        configuration: {
          acceptedOutputModes: ['text/plain', 'application/json'],
          historyLength: 0,
          returnImmediately: true,
          taskPushNotificationConfig: { url: 'http://127.0.0.1:41241/webhook', token: 'tok-2' },
        },
        metadata: { trace: 'abc' },
      },
    ],
  ])('accepts %j', (request) => {
    expect(decode(SendMessageRequest, request)).toEqual({ ok: true, value: request });
  });

  it.each([
    [
      'an agent message (client to server is ROLE_USER)',
      { message: { ...message, role: 'ROLE_AGENT' } },
      'role at $.message.role',
    ],
    ['no message', {}, 'required at $.message'],
    ['a message without parts', { message: { ...message, parts: [] } }, 'required at $.message.parts'],
    [
      'a push config naming a task',
      {
        message,
        configuration: { taskPushNotificationConfig: { url: 'https://hooks.example/a', taskId: 't' } },
      },
      'push-config-task-id at $.configuration.taskPushNotificationConfig.taskId',
    ],
    [
      'historyLength 257',
      { message, configuration: { historyLength: 257 } },
      'range at $.configuration.historyLength',
    ],
    [
      'negative historyLength',
      { message, configuration: { historyLength: -1 } },
      'range at $.configuration.historyLength',
    ],
    [
      'fractional historyLength',
      { message, configuration: { historyLength: 1.5 } },
      'integer at $.configuration.historyLength',
    ],
    [
      'a quoted historyLength',
      { message, configuration: { historyLength: '3' } },
      'invalid_type at $.configuration.historyLength',
    ],
    [
      'a bad output mode',
      { message, configuration: { acceptedOutputModes: ['text'] } },
      'media-type at $.configuration.acceptedOutputModes[0]',
    ],
    ['a v0.3 `blocking` flag only', { message, configuration: { blocking: true } }, undefined],
  ])('refuses %s', (_name, request, expected) => {
    expect(rule(SendMessageRequest, request)).toBe(expected);
  });

  it('keeps historyLength 256 and 0', () => {
    expect(rule(SendMessageConfiguration, { historyLength: 256 })).toBeUndefined();
    expect(rule(SendMessageConfiguration, { historyLength: 0 })).toBeUndefined();
  });

  it('leaves returnImmediately absent: a caller’s missing flag means blocking (A2A spec §3.2.2)', () => {
    const result = decode(SendMessageConfiguration, {});
    expect(result).toEqual({ ok: true, value: {} });
    expectTypeOf<SendMessageConfiguration['returnImmediately']>().toEqualTypeOf<boolean | undefined>();
  });
});

describe('ListTasksRequest', () => {
  it('accepts every filter', () => {
    const request = {
      contextId: '9df33b28',
      status: 'TASK_STATE_COMPLETED',
      pageSize: 100,
      pageToken: 'MjAyNi0xMS0yOVQxNTozNzo1NC45NDhafGJlMzVj',
      historyLength: 0,
      statusTimestampAfter: '2026-11-29T15:37:54.948Z',
      includeArtifacts: true,
    };
    expect(decode(ListTasksRequest, request)).toEqual({ ok: true, value: request });
  });

  it.each([
    ['pageSize 0', { pageSize: 0 }, 'range at $.pageSize'],
    ['pageSize 101', { pageSize: 101 }, 'range at $.pageSize'],
    ['a v0.3 status filter', { status: 'completed' }, 'enum at $.status'],
    ['a 2049-byte page token', { pageToken: 'a'.repeat(2049) }, 'max-bytes at $.pageToken'],
    [
      'a local-time timestamp',
      { statusTimestampAfter: '2026-11-29T15:37:54' },
      'timestamp at $.statusTimestampAfter',
    ],
  ])('refuses %s', (_name, request, expected) => {
    expect(rule(ListTasksRequest, request)).toBe(expected);
  });

  it('keeps the bounds themselves', () => {
    expect(rule(ListTasksRequest, { pageSize: 1, pageToken: 'a'.repeat(2048) })).toBeUndefined();
  });
});

describe('ListTasksResponse', () => {
  it('reads the official server’s page', () => {
    const page = { tasks: [task], nextPageToken: '', pageSize: 50, totalSize: 1 };
    expect(decode(ListTasksResponse, page)).toEqual({
      ok: true,
      value: { ...page, tasks: [{ ...task, history: [] }] },
    });
  });

  it('reads what a ProtoJSON serializer drops as its default (docs/protocol-checks.md#protojson)', () => {
    expect(decode(ListTasksResponse, {})).toEqual({
      ok: true,
      value: { tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 },
    });
  });

  it.each([
    [
      '101 tasks',
      { tasks: Array.from({ length: 101 }, (_, i) => ({ ...task, id: `t${i}` })) },
      'max-items at $.tasks',
    ],
    ['a negative total', { totalSize: -1 }, 'range at $.totalSize'],
    ['a 2049-byte token', { nextPageToken: 'a'.repeat(2049) }, 'max-bytes at $.nextPageToken'],
    ['a token with a line break', { nextPageToken: 'a\nb' }, 'control-character at $.nextPageToken'],
    ['a bad task', { tasks: [task, { ...task, status: {} }] }, 'required at $.tasks[1].status.state'],
  ])('refuses %s', (_name, page, expected) => {
    expect(rule(ListTasksResponse, page)).toBe(expected);
  });

  it('keeps 100 tasks and a 2048-byte token', () => {
    const tasks = Array.from({ length: 100 }, (_, i) => ({ ...task, id: `t${i}` }));
    expect(rule(ListTasksResponse, { tasks, nextPageToken: 'a'.repeat(2048) })).toBeUndefined();
  });

  it('types the defaults as present', () => {
    expectTypeOf<ListTasksResponse>().toEqualTypeOf<{
      tasks: Task[];
      nextPageToken: string;
      pageSize: number;
      totalSize: number;
    }>();
  });
});

describe('the other requests', () => {
  it.each([
    [GetTaskRequest, { id: 't1', historyLength: 10 }],
    [CancelTaskRequest, { id: 't1', metadata: { reason: 'user' } }],
    [SubscribeToTaskRequest, { id: 't1', tenant: 'acme' }],
    [GetTaskPushNotificationConfigRequest, { taskId: 't1', id: 'cfg' }],
    [ListTaskPushNotificationConfigsRequest, { taskId: 't1', pageSize: 256, pageToken: 'p' }],
    [DeleteTaskPushNotificationConfigRequest, { taskId: 't1', id: 'cfg' }],
    [GetExtendedAgentCardRequest, {}],
    [Empty, {}],
  ])('accepts a valid request (%#)', (schema, request) => {
    expect(decode(schema, request)).toEqual({ ok: true, value: request });
  });

  it.each([
    [GetTaskRequest, {}, 'required at $.id'],
    [GetTaskRequest, { id: 't1', historyLength: 257 }, 'range at $.historyLength'],
    [CancelTaskRequest, { id: '' }, 'required at $.id'],
    [SubscribeToTaskRequest, { id: 'a'.repeat(513) }, 'max-bytes at $.id'],
    [GetTaskPushNotificationConfigRequest, { taskId: 't1' }, 'required at $.id'],
    [ListTaskPushNotificationConfigsRequest, { taskId: 't1', pageSize: 257 }, 'range at $.pageSize'],
    [DeleteTaskPushNotificationConfigRequest, { id: 'cfg' }, 'required at $.taskId'],
    [GetExtendedAgentCardRequest, { tenant: ' acme' }, 'whitespace at $.tenant'],
  ])('refuses an invalid request (%#: %j)', (schema, request, expected) => {
    expect(rule(schema, request)).toBe(expected);
  });

  it('reads `{}` with unknown members as Empty (A2A spec §5.7)', () => {
    expect(decode(Empty, { deleted: true })).toEqual({ ok: true, value: {} });
  });
});
