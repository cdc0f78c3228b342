import { describe, expect, expectTypeOf, it } from 'vitest';
import { RequestError } from '../core/errors.js';
import type { AgentCard } from './agent-card.js';
import {
  type ClientMethod,
  type OperationName,
  type OperationRequest,
  type OperationResponse,
  operationNames,
  operations,
} from './operations.js';
import { expandPath } from './path-template.js';
import type { ListTasksRequest } from './requests.js';
import type { SendMessageRequest, SendMessageResponse } from './send-message.js';
import type { StreamResponse } from './stream.js';
import type { Task } from './task.js';

describe('operations', () => {
  it('lists the 11 operations of A2A spec §5.3 with their routes', () => {
    const summary = Object.fromEntries(
      (Object.keys(operations) as ClientMethod[]).map((method) => {
        const { name, http, streams, idempotent } = operations[method];
        const capability = 'capability' in operations[method] ? operations[method].capability : '-';
        return [
          method,
          `${name} | ${http.method} ${http.path} (${http.fields}) | streams ${streams} | ${capability} | idempotent ${idempotent}`,
        ];
      }),
    );
    expect(summary).toMatchInlineSnapshot(`
      {
        "cancelTask": "CancelTask | POST /tasks/{id}:cancel (body) | streams false | - | idempotent true",
        "createTaskPushNotificationConfig": "CreateTaskPushNotificationConfig | POST /tasks/{taskId}/pushNotificationConfigs (body) | streams false | pushNotifications | idempotent false",
        "deleteTaskPushNotificationConfig": "DeleteTaskPushNotificationConfig | DELETE /tasks/{taskId}/pushNotificationConfigs/{id} (query) | streams false | pushNotifications | idempotent true",
        "getExtendedAgentCard": "GetExtendedAgentCard | GET /extendedAgentCard (query) | streams false | extendedAgentCard | idempotent true",
        "getTask": "GetTask | GET /tasks/{id} (query) | streams false | - | idempotent true",
        "getTaskPushNotificationConfig": "GetTaskPushNotificationConfig | GET /tasks/{taskId}/pushNotificationConfigs/{id} (query) | streams false | pushNotifications | idempotent true",
        "listTaskPushNotificationConfigs": "ListTaskPushNotificationConfigs | GET /tasks/{taskId}/pushNotificationConfigs (query) | streams false | pushNotifications | idempotent true",
        "listTasks": "ListTasks | GET /tasks (query) | streams false | - | idempotent true",
        "sendMessage": "SendMessage | POST /message:send (body) | streams false | - | idempotent false",
        "sendStreamingMessage": "SendStreamingMessage | POST /message:stream (body) | streams true | streaming | idempotent false",
        "subscribeToTask": "SubscribeToTask | POST /tasks/{id}:subscribe (none) | streams true | streaming | idempotent true",
      }
    `);
  });

  it('names each operation as the PascalCase of its client method, and lists the names in the spec order', () => {
    for (const method of Object.keys(operations) as ClientMethod[]) {
      expect(operations[method].name).toBe(method.charAt(0).toUpperCase() + method.slice(1));
    }
    expect(operationNames).toEqual(Object.values(operations).map((operation) => operation.name));
    expect(operationNames).toHaveLength(11);
  });

  it('types requests and answers per operation', () => {
    expectTypeOf<OperationName>().toEqualTypeOf<(typeof operationNames)[number]>();
    expectTypeOf<OperationName>().toEqualTypeOf<Capitalize<ClientMethod>>();
    expectTypeOf<OperationRequest<'sendMessage'>>().toEqualTypeOf<SendMessageRequest>();
    expectTypeOf<OperationResponse<'sendMessage'>>().toEqualTypeOf<SendMessageResponse>();
    expectTypeOf<OperationResponse<'subscribeToTask'>>().toEqualTypeOf<StreamResponse>();
    expectTypeOf<OperationRequest<'listTasks'>>().toEqualTypeOf<ListTasksRequest>();
    expectTypeOf<OperationResponse<'cancelTask'>>().toEqualTypeOf<Task>();
    expectTypeOf<OperationResponse<'getExtendedAgentCard'>>().toEqualTypeOf<AgentCard>();
  });
});

describe('expandPath', () => {
  it.each([
    ['/message:send', {}, undefined, '/message:send'],
    ['/tasks/{id}', { id: 'be6c17dd' }, undefined, '/tasks/be6c17dd'],
    ['/tasks/{id}:cancel', { id: 'a/b' }, 'acme', '/acme/tasks/a%2Fb:cancel'],
    ['/tasks/{id}:subscribe', { id: 'x:y?z#w' }, undefined, '/tasks/x%3Ay%3Fz%23w:subscribe'],
    [
      '/tasks/{taskId}/pushNotificationConfigs/{id}',
      { taskId: 't 1', id: 'ü' },
      'team/a',
      '/team%2Fa/tasks/t%201/pushNotificationConfigs/%C3%BC',
    ],
    ['/tasks/{id}', { id: '...' }, undefined, '/tasks/...'],
    ['/tasks/{id}', { id: '%2e%2e' }, undefined, '/tasks/%252e%252e'],
    ['/extendedAgentCard', {}, 'acme', '/acme/extendedAgentCard'],
  ])('expands %s with %j under tenant %s', (template, values, tenant, expected) => {
    expect(expandPath(template, values, tenant)).toBe(expected);
  });

  it('puts every value in exactly one segment', () => {
    const path = expandPath('/tasks/{taskId}/pushNotificationConfigs/{id}', {
      taskId: '/../..',
      id: 'a/b/c',
    });
    expect(path.split('/')).toHaveLength(5);
    // A URL parser leaves it as it is: nothing resolves as a dot segment or a separator.
    expect(new URL(`https://agent.example/a2a${path}`).pathname).toBe(`/a2a${path}`);
  });

  it.each([
    ['a missing value', '/tasks/{id}', {}, undefined, '$.id'],
    ['an empty value', '/tasks/{id}', { id: '' }, undefined, '$.id'],
    ['a dot segment', '/tasks/{id}', { id: '.' }, undefined, '$.id'],
    [
      'a dot-dot segment',
      '/tasks/{taskId}/pushNotificationConfigs/{id}',
      { taskId: 't', id: '..' },
      undefined,
      '$.id',
    ],
    ['a lone surrogate', '/tasks/{id}', { id: 'a\ud800' }, undefined, '$.id'],
    ['an empty tenant', '/tasks', {}, '', '$.tenant'],
    ['a dot-dot tenant', '/tasks', {}, '..', '$.tenant'],
  ])('refuses %s before anything is sent', (_name, template, values, tenant, path) => {
    let caught: unknown;
    try {
      expandPath(template, values, tenant);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RequestError);
    expect(caught).toMatchObject({
      reason: 'invalid-params',
      dispatched: false,
      violation: { rule: 'path-segment', path },
    });
  });
});
