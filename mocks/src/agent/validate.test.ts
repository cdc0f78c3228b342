import { describe, expect, it } from 'vitest';
import type { Params } from './fields.js';
import { AgentError } from './remote-errors.js';
import {
  checkMessage,
  parseCreatePushConfig,
  parseGetTaskRequest,
  parseListPushConfigs,
  parseListTasksRequest,
  parsePushConfigRef,
  parseSendRequest,
  parseTaskRef,
} from './validate.js';

const message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ error: 'InvalidParams' });
    return (error as AgentError).message;
  }
  throw new Error('expected InvalidParams');
}

describe('checkMessage', () => {
  it.each<[string, unknown, string]>([
    ['not an object', 'hi', 'message is required'],
    ['an array', [message], 'message is required'],
    ['no messageId', { ...message, messageId: undefined }, 'message.messageId is required'],
    ['an empty messageId', { ...message, messageId: '' }, 'message.messageId is required'],
    ['a numeric messageId', { ...message, messageId: 1 }, 'message.messageId must be a string'],
    ['no role', { ...message, role: undefined }, 'message.role is required'],
    ['an unknown role', { ...message, role: 'user' }, 'message.role must be'],
    ['ROLE_UNSPECIFIED', { ...message, role: 'ROLE_UNSPECIFIED' }, 'message.role must be'],
    ['a numeric role', { ...message, role: 1 }, 'message.role must be'],
    ['no parts', { ...message, parts: undefined }, 'message.parts must hold at least one part'],
    ['empty parts', { ...message, parts: [] }, 'message.parts must hold at least one part'],
    ['a scalar part', { ...message, parts: ['hi'] }, 'message.parts[0] must be an object'],
    ['a part with two contents', { ...message, parts: [{ text: 'a', data: 1 }] }, 'exactly one of'],
    ['a part with no content', { ...message, parts: [{ filename: 'a' }] }, 'exactly one of'],
    ['a numeric text', { ...message, parts: [{ text: 1 }] }, 'message.parts[0].text must be a string'],
    ['a null text', { ...message, parts: [{ text: null }] }, 'message.parts[0].text must be a string'],
    [
      'raw that is not base64',
      { ...message, parts: [{ raw: 'a b' }] },
      'message.parts[0].raw must be base64',
    ],
    [
      'raw of impossible length',
      { ...message, parts: [{ raw: 'abcde' }] },
      'message.parts[0].raw must be base64',
    ],
    ['an empty url', { ...message, parts: [{ url: '' }] }, 'message.parts[0].url must not be empty'],
    [
      'part metadata that is a list',
      { ...message, parts: [{ text: 'a', metadata: [] }] },
      'metadata must be a JSON object',
    ],
    [
      'a numeric mediaType',
      { ...message, parts: [{ text: 'a', mediaType: 7 }] },
      'mediaType must be a string',
    ],
    ['a numeric contextId', { ...message, contextId: 7 }, 'message.contextId must be a string'],
    ['scalar metadata', { ...message, metadata: 'x' }, 'message.metadata must be a JSON object'],
    ['extensions that are not strings', { ...message, extensions: [1] }, 'message.extensions must be a list'],
    [
      'referenceTaskIds that are a string',
      { ...message, referenceTaskIds: 'x' },
      'referenceTaskIds must be a list',
    ],
  ])('refuses %s', (_, value, text) => {
    expect(refusal(() => checkMessage(value, 'message'))).toContain(text);
  });

  it.each<[string, unknown]>([
    ['a text part', message],
    ['an agent message', { ...message, role: 'ROLE_AGENT' }],
    [
      'every kind of part',
      {
        ...message,
        parts: [{ text: '' }, { raw: 'aGk=' }, { raw: 'aGk' }, { url: 'https://a.example/' }, { data: null }],
      },
    ],
    ['unknown fields', { ...message, vendor: { x: 1 } }],
  ])('accepts %s, returned as given', (_, value) => {
    expect(checkMessage(value, 'message')).toBe(value);
  });
});

describe('parseSendRequest', () => {
  it('reads the configuration with its defaults', () => {
    expect(parseSendRequest({ message })).toEqual({
      message,
      historyLength: undefined,
      returnImmediately: false,
      acceptedOutputModes: undefined,
      pushConfig: undefined,
    });
    const request = parseSendRequest({
      message,
      metadata: { trace: 1 },
      configuration: {
        historyLength: 2,
        returnImmediately: true,
        acceptedOutputModes: ['text/plain'],
        taskPushNotificationConfig: { url: 'http://127.0.0.1:1/h', token: 't' },
      },
    });
    expect(request).toMatchObject({
      historyLength: 2,
      returnImmediately: true,
      acceptedOutputModes: ['text/plain'],
    });
    expect(request.pushConfig).toEqual({
      id: undefined,
      url: 'http://127.0.0.1:1/h',
      token: 't',
      authentication: undefined,
    });
  });

  it.each<[string, Params, string]>([
    ['a scalar configuration', { message, configuration: 1 }, 'configuration must be an object'],
    [
      'a negative historyLength',
      { message, configuration: { historyLength: -1 } },
      'historyLength must be between',
    ],
    [
      'a fractional historyLength',
      { message, configuration: { historyLength: 1.5 } },
      'must be a whole number',
    ],
    ['a string historyLength', { message, configuration: { historyLength: '2' } }, 'must be a whole number'],
    [
      'a string returnImmediately',
      { message, configuration: { returnImmediately: 'true' } },
      'must be true or false',
    ],
    [
      'a push config without url',
      { message, configuration: { taskPushNotificationConfig: {} } },
      'taskPushNotificationConfig.url is required',
    ],
    ['scalar request metadata', { message, metadata: [] }, 'metadata must be a JSON object'],
  ])('refuses %s', (_, params, text) => {
    expect(refusal(() => parseSendRequest(params))).toContain(text);
  });
});

describe('the other requests', () => {
  it('GetTask needs an id; historyLength is a whole number ≥ 0', () => {
    expect(parseGetTaskRequest({ id: 't', historyLength: 0 })).toEqual({ id: 't', historyLength: 0 });
    expect(refusal(() => parseGetTaskRequest({}))).toBe('id is required');
    expect(refusal(() => parseGetTaskRequest({ id: 't', historyLength: -1 }))).toContain('historyLength');
  });

  it('CancelTask and SubscribeToTask need an id', () => {
    expect(parseTaskRef({ id: 't', metadata: {} })).toEqual({ id: 't' });
    expect(refusal(() => parseTaskRef({ id: '' }))).toBe('id is required');
    expect(refusal(() => parseTaskRef({ id: 't', metadata: 1 }))).toContain('metadata');
  });

  it('ListTasks reads its filters with their defaults', () => {
    expect(parseListTasksRequest({})).toEqual({
      contextId: undefined,
      status: undefined,
      statusTimestampAfter: undefined,
      pageSize: 50,
      pageToken: undefined,
      historyLength: undefined,
      includeArtifacts: false,
    });
    expect(
      parseListTasksRequest({
        contextId: 'c',
        status: 'TASK_STATE_WORKING',
        statusTimestampAfter: '2026-01-01T00:00:00Z',
        pageSize: 100,
        pageToken: 'p',
        historyLength: 3,
        includeArtifacts: true,
      }),
    ).toEqual({
      contextId: 'c',
      status: 'TASK_STATE_WORKING',
      statusTimestampAfter: Date.UTC(2026, 0, 1),
      pageSize: 100,
      pageToken: 'p',
      historyLength: 3,
      includeArtifacts: true,
    });
  });

  it.each<[unknown, string | undefined]>([
    ['TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED'],
    [3, 'TASK_STATE_COMPLETED'],
    [8, 'TASK_STATE_AUTH_REQUIRED'],
    ['TASK_STATE_UNSPECIFIED', undefined],
    [0, undefined],
  ])('ListTasks reads status %j as %j', (status, expected) => {
    expect(parseListTasksRequest({ status }).status).toBe(expected);
  });

  it.each<[Params, string]>([
    [{ status: 'completed' }, 'status must be a TaskState'],
    [{ status: 9 }, 'status must be a TaskState'],
    [{ pageSize: 0 }, 'pageSize must be between 1 and 100'],
    [{ pageSize: 101 }, 'pageSize must be between 1 and 100'],
    [{ includeArtifacts: 1 }, 'includeArtifacts must be true or false'],
    [{ statusTimestampAfter: '2026-01-01T00:00:00+01:00' }, 'statusTimestampAfter must be'],
    [{ contextId: 1 }, 'contextId must be a string'],
  ])('ListTasks refuses %o', (params, text) => {
    expect(refusal(() => parseListTasksRequest(params))).toContain(text);
  });

  it('push configs: taskId and url for create, taskId and id for get and delete', () => {
    expect(
      parseCreatePushConfig({
        taskId: 't',
        id: 'c',
        url: 'https://h.example/',
        token: 'k',
        authentication: { scheme: 'Bearer', credentials: 'x' },
      }),
    ).toEqual({
      taskId: 't',
      id: 'c',
      url: 'https://h.example/',
      token: 'k',
      authentication: { scheme: 'Bearer', credentials: 'x' },
    });
    expect(refusal(() => parseCreatePushConfig({ url: 'https://h.example/' }))).toBe('taskId is required');
    expect(refusal(() => parseCreatePushConfig({ taskId: 't' }))).toBe('url is required');
    expect(refusal(() => parseCreatePushConfig({ taskId: 't', url: 'mailto:a@b.example' }))).toContain(
      'http or https',
    );
    expect(
      refusal(() => parseCreatePushConfig({ taskId: 't', url: 'https://h/', authentication: 'Bearer' })),
    ).toBe('authentication must be an object');
    expect(parsePushConfigRef({ taskId: 't', id: 'c' })).toEqual({ taskId: 't', id: 'c' });
    expect(refusal(() => parsePushConfigRef({ taskId: 't' }))).toBe('id is required');
  });

  it('push config pages: 0 or absent means 100, at most 100', () => {
    expect(parseListPushConfigs({ taskId: 't' })).toEqual({
      taskId: 't',
      pageSize: 100,
      pageToken: undefined,
    });
    expect(parseListPushConfigs({ taskId: 't', pageSize: 0 }).pageSize).toBe(100);
    expect(parseListPushConfigs({ taskId: 't', pageSize: 7, pageToken: 'p' })).toEqual({
      taskId: 't',
      pageSize: 7,
      pageToken: 'p',
    });
    expect(refusal(() => parseListPushConfigs({ taskId: 't', pageSize: 101 }))).toContain('pageSize');
  });
});
