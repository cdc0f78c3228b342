import { afterEach, describe, expect, it } from 'vitest';
import { origin, userMessage } from '../../test/support/helpers.js';
import { createAgent, type MockAgent } from '../agent/agent.js';
import type { Operations } from '../agent/operations.js';
import { handleRest, matchRestRoute } from './rest.js';

const agents: MockAgent[] = [];
afterEach(() => {
  for (const agent of agents.splice(0)) {
    agent.close();
  }
});
function agentWith(): MockAgent {
  const agent = createAgent({ stepMs: 0 });
  agents.push(agent);
  return agent;
}

describe('matchRestRoute', () => {
  it.each([
    ['POST', '/message:send', 'SendMessage', '', {}],
    ['POST', '/acme/message:send', 'SendMessage', 'acme', {}],
    ['POST', '/message:stream', 'SendStreamingMessage', '', {}],
    ['GET', '/tasks', 'ListTasks', '', {}],
    ['GET', '/a%20b/tasks', 'ListTasks', 'a b', {}],
    ['GET', '/tasks/t-1', 'GetTask', '', { id: 't-1' }],
    ['GET', '/tasks/t%2F1%3Acancel', 'GetTask', '', { id: 't/1:cancel' }],
    ['GET', '/tasks/a:b', 'GetTask', '', { id: 'a:b' }],
    ['POST', '/acme/tasks/t-1:cancel', 'CancelTask', 'acme', { id: 't-1' }],
    ['POST', '/tasks/t%3A1:cancel', 'CancelTask', '', { id: 't:1' }],
    ['GET', '/tasks/t-1:subscribe', 'SubscribeToTask', '', { id: 't-1' }],
    ['POST', '/tasks/t-1:subscribe', 'SubscribeToTask', '', { id: 't-1' }],
    ['POST', '/tasks/t-1/pushNotificationConfigs', 'CreateTaskPushNotificationConfig', '', { taskId: 't-1' }],
    [
      'GET',
      '/x/tasks/t-1/pushNotificationConfigs',
      'ListTaskPushNotificationConfigs',
      'x',
      { taskId: 't-1' },
    ],
    [
      'GET',
      '/tasks/t-1/pushNotificationConfigs/c-1',
      'GetTaskPushNotificationConfig',
      '',
      { taskId: 't-1', id: 'c-1' },
    ],
    [
      'DELETE',
      '/tasks/t-1/pushNotificationConfigs/c-1',
      'DeleteTaskPushNotificationConfig',
      '',
      { taskId: 't-1', id: 'c-1' },
    ],
    ['GET', '/extendedAgentCard', 'GetExtendedAgentCard', '', {}],
    ['GET', '/acme/extendedAgentCard', 'GetExtendedAgentCard', 'acme', {}],
    // A tenant named like an operation root cannot be addressed: the segment reads as the root.
    ['GET', '/tasks/tasks', 'GetTask', '', { id: 'tasks' }],
  ])('%s %s → %s (tenant %j)', (method, path, operation, tenant, pathParams) => {
    expect(matchRestRoute(method, path)).toMatchObject({ operation, tenant, pathParams });
  });

  it.each([
    ['GET', ''],
    ['GET', '/'],
    ['GET', '/message:send'],
    ['POST', '/tasks'],
    ['PUT', '/tasks/t-1'],
    ['POST', '/tasks/t-1'],
    ['GET', '/tasks/t-1:cancel'],
    ['DELETE', '/tasks/t-1:subscribe'],
    ['GET', '/tasks//x'],
    ['GET', '/acme'],
    ['GET', '/acme/other/tasks'],
    ['PATCH', '/tasks/t-1/pushNotificationConfigs/c-1'],
    ['DELETE', '/tasks/t-1/pushNotificationConfigs'],
    ['GET', '/tasks/t-1/other'],
    ['GET', '/tasks/t-1/pushNotificationConfigs/c-1/x'],
  ])('%s %s matches nothing', (method, path) => {
    expect(matchRestRoute(method, path)).toBeUndefined();
  });
});

describe('handleRest', () => {
  const call = (
    method: string,
    path: string,
    init: { body?: string; headers?: Record<string, string> } = {},
  ) =>
    agentWith().handle(
      new Request(`${origin}/a2a/rest${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...init.headers },
        ...(init.body === undefined ? {} : { body: init.body }),
      }),
    );

  it.each<[string, string, string, { body?: string; headers?: Record<string, string> }, number, string]>([
    ['an unknown route', 'GET', '/nothing/here/at/all', {}, 404, 'METHOD_NOT_FOUND'],
    ['a wrong method', 'PUT', '/tasks', {}, 404, 'METHOD_NOT_FOUND'],
    ['malformed JSON', 'POST', '/message:send', { body: '{' }, 400, 'PARSE_ERROR'],
    ['a JSON array', 'POST', '/message:send', { body: '[]' }, 400, 'INVALID_PARAMS'],
    [
      'a text/plain body',
      'POST',
      '/message:send',
      { body: '{}', headers: { 'content-type': 'text/plain' } },
      400,
      'CONTENT_TYPE_NOT_SUPPORTED',
    ],
    [
      'a body tenant that is not the path’s',
      'POST',
      '/acme/message:send',
      { body: '{"tenant":"other"}' },
      400,
      'INVALID_PARAMS',
    ],
    [
      'a body taskId that is not the path’s',
      'POST',
      '/tasks/t/pushNotificationConfigs',
      { body: '{"taskId":"u","url":"https://h.example/"}' },
      400,
      'INVALID_PARAMS',
    ],
    ['a repeated query field', 'GET', '/tasks?pageSize=1&pageSize=2', {}, 400, 'INVALID_PARAMS'],
    ['a query number that is not one', 'GET', '/tasks?pageSize=ten', {}, 400, 'INVALID_PARAMS'],
    ['a query boolean that is not one', 'GET', '/tasks?includeArtifacts=yes', {}, 400, 'INVALID_PARAMS'],
    ['a bad percent-encoding', 'GET', '/tasks/%E0%A4%A', {}, 400, 'INVALID_PARAMS'],
    ['an unknown task with an encoded id', 'GET', '/tasks/a%2Fb', {}, 404, 'TASK_NOT_FOUND'],
  ])('answers %s with an AIP-193 body', async (_, method, path, init, status, reason) => {
    const response = await call(method, path, init);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/a2a+json');
    const body = await response.json();
    expect(body).toMatchObject({
      error: {
        code: status,
        message: expect.any(String),
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' },
        ],
      },
    });
  });

  it('reads a numeric status filter from the query', async () => {
    const response = await call('GET', '/tasks?status=3&includeArtifacts=true&historyLength=0&unknown=1');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 });
  });

  it('takes an empty cancel body as {}, and a cancel body with metadata', async () => {
    const agent = agentWith();
    const send = await agent.handle(
      new Request(`${origin}/a2a/rest/message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({ message: userMessage('input') }),
      }),
    );
    const { task } = await send.json();
    const cancel = await agent.handle(
      new Request(`${origin}/a2a/rest/tasks/${task.id}:cancel`, {
        method: 'POST',
        headers: { 'a2a-version': '1.0' },
      }),
    );
    expect(cancel.status).toBe(200);
    expect((await cancel.json()).status.state).toBe('TASK_STATE_CANCELED');
  });

  it('serves SubscribeToTask on GET too', async () => {
    const agent = agentWith();
    const send = await agent.handle(
      new Request(`${origin}/a2a/rest/message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({ message: userMessage('input') }),
      }),
    );
    const { task } = await send.json();
    const response = await agent.handle(
      new Request(`${origin}/a2a/rest/tasks/${task.id}:subscribe`, { headers: { 'a2a-version': '1.0' } }),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toContain('TASK_STATE_INPUT_REQUIRED');
  });

  it('answers an unexpected failure with 500 INTERNAL and a fixed message', async () => {
    const operations: Operations = {
      call: async () => {
        throw new TypeError('secret internals');
      },
      close: () => {},
    };
    const response = await handleRest(
      new Request(`${origin}/a2a/rest/tasks`, { headers: { 'a2a-version': '1.0' } }),
      '/tasks',
      {
        operations,
        mode: 'honouring',
      },
    );
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({
      error: { code: 500, status: 'INTERNAL', message: 'Internal error' },
    });
    expect(text).not.toContain('secret');
  });
});
