import { describe, expect, it } from 'vitest';
import { RequestError } from '../../core/errors.js';
import type { JsonValue } from '../json-value.js';
import type { ClientMethod } from '../operations.js';
import { v03Route } from './routes.js';

const message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
const content = [{ text: 'hi' }];

describe('v1.0 requests as v0.3 HTTP+JSON routes and proto bodies', () => {
  it.each<[ClientMethod, JsonValue, string, string, JsonValue | undefined]>([
    [
      'sendMessage',
      { message },
      'POST',
      '/v1/message:send',
      { message: { messageId: 'm-1', role: 'ROLE_USER', content }, configuration: { blocking: true } },
    ],
    [
      'sendStreamingMessage',
      {
        message: {
          ...message,
          parts: [
            { raw: 'AA==', mediaType: 'image/png', filename: 'x.png' },
            { data: { a: 1 }, metadata: { k: 1 } },
          ],
        },
        configuration: {
          returnImmediately: true,
          historyLength: 2,
          taskPushNotificationConfig: {
            url: 'https://hooks.example/a',
            authentication: { scheme: 'Bearer' },
          },
        },
        metadata: { k: 2 },
      },
      'POST',
      '/v1/message:stream',
      {
        message: {
          messageId: 'm-1',
          role: 'ROLE_USER',
          content: [
            { file: { fileWithBytes: 'AA==', mimeType: 'image/png' } },
            { data: { data: { a: 1 } }, metadata: { k: 1 } },
          ],
        },
        configuration: {
          historyLength: 2,
          pushNotification: { url: 'https://hooks.example/a', authentication: { schemes: ['Bearer'] } },
          blocking: false,
        },
        metadata: { k: 2 },
      },
    ],
    ['getTask', { id: 't 1', historyLength: 0 }, 'GET', '/v1/tasks/t%201?historyLength=0', undefined],
    ['getTask', { id: 't-1' }, 'GET', '/v1/tasks/t-1', undefined],
    ['cancelTask', { id: 'a/b' }, 'POST', '/v1/tasks/a%2Fb:cancel', undefined],
    ['subscribeToTask', { id: 't-1' }, 'POST', '/v1/tasks/t-1:subscribe', undefined],
    [
      'createTaskPushNotificationConfig',
      { taskId: 't-1', url: 'https://hooks.example/a', token: 'tok' },
      'POST',
      '/v1/tasks/t-1/pushNotificationConfigs',
      {
        name: 'tasks/t-1/pushNotificationConfigs/',
        pushNotificationConfig: { url: 'https://hooks.example/a', token: 'tok' },
      },
    ],
    [
      'getTaskPushNotificationConfig',
      { taskId: 't-1', id: 'p-1' },
      'GET',
      '/v1/tasks/t-1/pushNotificationConfigs/p-1',
      undefined,
    ],
    [
      'deleteTaskPushNotificationConfig',
      { taskId: 't-1', id: 'p-1' },
      'DELETE',
      '/v1/tasks/t-1/pushNotificationConfigs/p-1',
      undefined,
    ],
    // v0.3 lists every config at once: no page query.
    [
      'listTaskPushNotificationConfigs',
      { taskId: 't-1', pageSize: 1, pageToken: 'x' },
      'GET',
      '/v1/tasks/t-1/pushNotificationConfigs',
      undefined,
    ],
    ['getExtendedAgentCard', {}, 'GET', '/v1/card', undefined],
  ])('%s', (operation, request, method, path, body) => {
    expect(v03Route(operation, request)).toEqual({
      ok: true,
      method,
      path,
      ...(body === undefined ? {} : { body }),
    });
  });

  it.each<[string, ClientMethod, JsonValue, { rule: string; path: string }]>([
    ['ListTasks, which v0.3 has not', 'listTasks', {}, { rule: 'no-list-tasks', path: '$' }],
    ['a tenant', 'getTask', { id: 't-1', tenant: 'acme' }, { rule: 'no-tenant', path: '$.tenant' }],
    [
      'a data part that is no object',
      'sendMessage',
      { message: { ...message, parts: [{ data: 'x' }] } },
      { rule: 'invalid_type', path: '$.message.parts[0].data' },
    ],
    [
      'a message’s referenceTaskIds, which the v0.3 proto’s Message has not',
      'sendMessage',
      { message: { ...message, referenceTaskIds: ['t-0'] } },
      { rule: 'unsupported', path: '$.message.referenceTaskIds' },
    ],
    [
      'a cancel’s metadata, which the v0.3 proto’s CancelTaskRequest has not',
      'cancelTask',
      { id: 't-1', metadata: {} },
      { rule: 'unsupported', path: '$.metadata' },
    ],
  ])('refuses %s', (_, operation, request, error) => {
    expect(v03Route(operation, request)).toEqual({ ok: false, error });
  });

  it('refuses an id that cannot be one path segment, as the v1.0 routes do', () => {
    expect(() => v03Route('getTask', { id: '..' })).toThrow(RequestError);
  });
});
