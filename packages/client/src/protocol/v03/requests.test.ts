import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../json-value.js';
import type { ClientMethod } from '../operations.js';
import { v03Methods, v03Request } from './requests.js';

const message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };

describe('v1.0 requests as v0.3 methods and params', () => {
  it.each<[ClientMethod, JsonValue, string, JsonValue | undefined]>([
    [
      'sendMessage',
      { message },
      'message/send',
      {
        message: { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
        configuration: { blocking: true },
      },
    ],
    [
      'sendStreamingMessage',
      {
        message,
        configuration: {
          returnImmediately: true,
          historyLength: 2,
          acceptedOutputModes: ['text/plain'],
          taskPushNotificationConfig: {
            url: 'https://hooks.example/a',
            token: 't',
            authentication: { scheme: 'Bearer' },
          },
        },
        metadata: { k: 1 },
      },
      'message/stream',
      {
        message: { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
        configuration: {
          acceptedOutputModes: ['text/plain'],
          historyLength: 2,
          pushNotificationConfig: {
            url: 'https://hooks.example/a',
            token: 't',
            authentication: { schemes: ['Bearer'] },
          },
          blocking: false,
        },
        metadata: { k: 1 },
      },
    ],
    ['getTask', { id: 't-1', historyLength: 0 }, 'tasks/get', { id: 't-1', historyLength: 0 }],
    ['cancelTask', { id: 't-1' }, 'tasks/cancel', { id: 't-1' }],
    ['subscribeToTask', { id: 't-1' }, 'tasks/resubscribe', { id: 't-1' }],
    [
      'createTaskPushNotificationConfig',
      { taskId: 't-1', id: 'p-1', url: 'https://hooks.example/a' },
      'tasks/pushNotificationConfig/set',
      { taskId: 't-1', pushNotificationConfig: { id: 'p-1', url: 'https://hooks.example/a' } },
    ],
    [
      'getTaskPushNotificationConfig',
      { taskId: 't-1', id: 'p-1' },
      'tasks/pushNotificationConfig/get',
      { id: 't-1', pushNotificationConfigId: 'p-1' },
    ],
    [
      'listTaskPushNotificationConfigs',
      { taskId: 't-1', pageSize: 1 },
      'tasks/pushNotificationConfig/list',
      { id: 't-1' },
    ],
    [
      'deleteTaskPushNotificationConfig',
      { taskId: 't-1', id: 'p-1' },
      'tasks/pushNotificationConfig/delete',
      { id: 't-1', pushNotificationConfigId: 'p-1' },
    ],
    ['getExtendedAgentCard', {}, 'agent/getAuthenticatedExtendedCard', undefined],
  ])('writes %s', (operation, request, method, params) => {
    expect(v03Request(operation, request)).toEqual({ ok: true, method, params });
  });

  it('writes every part kind, a file by its URL or its bytes', () => {
    const parts = [
      { data: { a: 1 }, metadata: { m: true } },
      { url: 'https://files.example/r.pdf', mediaType: 'application/pdf', filename: 'r.pdf' },
      { raw: 'aGk=' },
    ];
    const built = v03Request('sendMessage', { message: { ...message, parts } });
    expect(built.ok && built.params?.['message']).toMatchObject({
      parts: [
        { kind: 'data', data: { a: 1 }, metadata: { m: true } },
        {
          kind: 'file',
          file: { uri: 'https://files.example/r.pdf', mimeType: 'application/pdf', name: 'r.pdf' },
        },
        { kind: 'file', file: { bytes: 'aGk=' } },
      ],
    });
  });

  it.each<[string, ClientMethod, JsonValue, { rule: string; path: string }]>([
    ['ListTasks, which v0.3 has no method for', 'listTasks', {}, { rule: 'no-list-tasks', path: '$' }],
    [
      'a tenant, which v0.3 has none of',
      'getTask',
      { id: 't-1', tenant: 'acme' },
      { rule: 'no-tenant', path: '$.tenant' },
    ],
    [
      'a data part that is not an object (v0.3 DataPart holds one)',
      'sendMessage',
      { message: { ...message, parts: [{ text: 'a' }, { data: [1, 2] }] } },
      { rule: 'invalid_type', path: '$.message.parts[1].data' },
    ],
  ])('refuses %s', (_, operation, request, error) => {
    expect(v03Request(operation, request)).toEqual({ ok: false, error });
  });

  it('has a v0.3 method for every operation but ListTasks, each once', () => {
    const names = Object.values(v03Methods);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(v03Methods)).not.toContain('listTasks');
    expect(names).toHaveLength(10);
  });
});
