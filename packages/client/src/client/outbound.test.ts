import { describe, expect, it } from 'vitest';
import { AuthorizationError, CapabilityError, RequestError } from '../core/errors.js';
import type { AgentCard } from '../protocol/agent-card.js';
import { parseAgentCard } from '../protocol/decode.js';
import { operationSchemas } from '../protocol/operation-schemas.js';
import type { ClientMethod } from '../protocol/operations.js';
import { type PrepareInput, prepareCall as prepareWith } from './outbound.js';
import { type ResolvedSecurity, resolveSecurity } from './security.js';
import { skillCallScopes } from './skill-scopes.js';

// The call runner hands prepareCall the operation's request schema (`schemasOf`); the tests take it from the
// table.
function prepareCall(input: Omit<PrepareInput, 'schema'>) {
  return prepareWith({ ...input, schema: operationSchemas[input.operation].request });
}

function makeCard(capabilities: Readonly<Record<string, boolean>>): AgentCard {
  return parseAgentCard({
    name: 'Agent',
    description: 'An agent.',
    supportedInterfaces: [
      { url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    version: '1.0',
    capabilities,
    securitySchemes: {
      oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://auth.example/oidc' } },
      key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } },
    },
    securityRequirements: [{ schemes: {} }, { schemes: { oidc: { list: ['agent.invoke'] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      { id: 'plain', name: 'Plain', description: 'Card scopes.', tags: ['t'] },
      {
        id: 'invoke',
        name: 'Invoke',
        description: 'Own scope.',
        tags: ['t'],
        securityRequirements: [{ schemes: { oidc: { list: ['skill.invoke'] } } }],
      },
      {
        id: 'keyed',
        name: 'Keyed',
        description: 'API key.',
        tags: ['t'],
        securityRequirements: [{ schemes: { key: {} } }],
      },
    ],
  });
}

const capable = makeCard({ streaming: true, pushNotifications: true, extendedAgentCard: true });
const incapable = makeCard({});
const bearer = resolveSecurity(capable, { kind: 'bearer', scheme: 'oidc', token: async () => 't' });
const anonymous = resolveSecurity(capable, { kind: 'anonymous' });

const message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
const push = { url: 'https://hooks.example/a2a' };

function attempt(
  operation: ClientMethod,
  params: unknown,
  options: { card?: AgentCard; security?: ResolvedSecurity; skill?: string } = {},
): string {
  try {
    const prepared = prepareCall({
      card: options.card ?? capable,
      security: options.security ?? bearer,
      operation,
      params,
      skill: options.skill === undefined ? undefined : { id: options.skill, scopesOf: skillCallScopes },
    });
    return JSON.stringify({ taskId: prepared.taskId, scopes: prepared.scopes });
  } catch (error) {
    if (error instanceof RequestError) {
      return `request ${error.violation?.rule ?? ''} ${error.violation?.path ?? ''}`.trim();
    }
    if (error instanceof CapabilityError || error instanceof AuthorizationError) {
      return `${error.kind} ${error.reason} dispatched=${String(error.dispatched)}`;
    }
    return 'unexpected';
  }
}

describe('the outbound contract (docs/protocol-checks.md#requests)', () => {
  it.each<[string, ClientMethod, unknown, string]>([
    [
      'an agent-role send',
      'sendMessage',
      { message: { ...message, role: 'ROLE_AGENT' } },
      'request role $.message.role',
    ],
    [
      'an unspecified role',
      'sendMessage',
      { message: { ...message, role: 'ROLE_UNSPECIFIED' } },
      'request required $.message.role',
    ],
    [
      'a send whose push config names a task',
      'sendMessage',
      { message, configuration: { taskPushNotificationConfig: { ...push, taskId: 't-1' } } },
      'request push-config-task-id $.configuration.taskPushNotificationConfig.taskId',
    ],
    ['historyLength 257', 'getTask', { id: 't-1', historyLength: 257 }, 'request range $.historyLength'],
    [
      'a send historyLength 257',
      'sendStreamingMessage',
      { message, configuration: { historyLength: 257 } },
      'request range $.configuration.historyLength',
    ],
    ['ListTasks pageSize 0', 'listTasks', { pageSize: 0 }, 'request range $.pageSize'],
    ['ListTasks pageSize 101', 'listTasks', { pageSize: 101 }, 'request range $.pageSize'],
    [
      'push-config pageSize 257',
      'listTaskPushNotificationConfigs',
      { taskId: 't-1', pageSize: 257 },
      'request range $.pageSize',
    ],
    ['a task id over 512 bytes', 'getTask', { id: 'x'.repeat(513) }, 'request max-bytes $.id'],
    [
      'a message id over 512 bytes',
      'sendMessage',
      { message: { ...message, messageId: 'é'.repeat(257) } },
      'request max-bytes $.message.messageId',
    ],
    [
      'a page token over 2048 bytes',
      'listTasks',
      { pageToken: 'x'.repeat(2049) },
      'request max-bytes $.pageToken',
    ],
    ['a caller tenant', 'getTask', { id: 't-1', tenant: 'other' }, 'request tenant $.tenant'],
    ['a caller tenant set to undefined', 'listTasks', { tenant: undefined }, 'request tenant $.tenant'],
    ['a missing task id', 'getTask', {}, 'request required $.id'],
    ['no params', 'cancelTask', undefined, 'request required $.id'],
    [
      'a new push config without its task',
      'createTaskPushNotificationConfig',
      push,
      'request required $.taskId',
    ],
    ['a non-object', 'getTask', 'task-1', 'request invalid_type $'],
  ])('refuses %s, before dispatch', (_name, operation, params, expected) => {
    expect(attempt(operation, params)).toBe(expected);
  });

  it.each<[string, ClientMethod, unknown]>([
    ['historyLength 256', 'getTask', { id: 't-1', historyLength: 256 }],
    ['ListTasks pageSize 100', 'listTasks', { pageSize: 100 }],
    ['push-config pageSize 256', 'listTaskPushNotificationConfigs', { taskId: 't-1', pageSize: 256 }],
    ['a 512-byte id', 'getTask', { id: 'x'.repeat(512) }],
    ['a 2048-byte page token', 'listTasks', { pageToken: 'x'.repeat(2048) }],
    ['the extended card without params', 'getExtendedAgentCard', undefined],
  ])('admits %s', (_name, operation, params) => {
    expect(attempt(operation, params)).toMatch(/^\{/);
  });

  it('sends the decoded request: unknown members dropped, enum numbers by name', () => {
    const { request } = prepareCall({
      card: capable,
      security: bearer,
      operation: 'sendMessage',
      params: { message: { ...message, role: 1, extra: 'dropped' }, unknown: true },
      skill: undefined,
    });
    expect(request).toEqual({ message });
  });
});

describe('capability gates (docs/protocol-checks.md#requests, docs/protocol-checks.md#extended-card)', () => {
  it.each<[ClientMethod, unknown, string]>([
    ['sendStreamingMessage', { message }, 'capability streaming'],
    ['subscribeToTask', { id: 't-1' }, 'capability streaming'],
    ['createTaskPushNotificationConfig', { ...push, taskId: 't-1' }, 'capability push-notifications'],
    ['getTaskPushNotificationConfig', { taskId: 't-1', id: 'c-1' }, 'capability push-notifications'],
    ['listTaskPushNotificationConfigs', { taskId: 't-1' }, 'capability push-notifications'],
    ['deleteTaskPushNotificationConfig', { taskId: 't-1', id: 'c-1' }, 'capability push-notifications'],
    [
      'sendMessage',
      { message, configuration: { taskPushNotificationConfig: push } },
      'capability push-notifications',
    ],
    [
      'sendStreamingMessage',
      { message, configuration: { taskPushNotificationConfig: push } },
      'capability streaming',
    ],
    ['getExtendedAgentCard', {}, 'capability extended-agent-card'],
  ])('refuses %s on a card without the capability', (operation, params, expected) => {
    expect(attempt(operation, params, { card: incapable })).toBe(`${expected} dispatched=false`);
    expect(attempt(operation, params, { card: capable })).toMatch(/^\{/);
  });

  it('checks capabilities before the request itself', () => {
    expect(attempt('subscribeToTask', { tenant: 'x' }, { card: incapable })).toBe(
      'capability streaming dispatched=false',
    );
  });

  it('admits a send without a push config on a card without push notifications', () => {
    expect(
      attempt('sendMessage', { message, configuration: { returnImmediately: true } }, { card: incapable }),
    ).toMatch(/^\{/);
  });

  it('refuses the extended card to an anonymous client', () => {
    expect(attempt('getExtendedAgentCard', {}, { security: anonymous })).toBe(
      'authorization unauthenticated dispatched=false',
    );
  });
});

describe('the token context of a request (docs/protocol-checks.md#token-provider)', () => {
  it.each<[ClientMethod, unknown, string | undefined]>([
    ['sendMessage', { message }, undefined],
    ['sendMessage', { message: { ...message, taskId: 'task-1' } }, 'task-1'],
    ['sendStreamingMessage', { message: { ...message, taskId: 'task-1' } }, 'task-1'],
    ['getTask', { id: 'task-1' }, 'task-1'],
    ['cancelTask', { id: 'task-1' }, 'task-1'],
    ['subscribeToTask', { id: 'task-1' }, 'task-1'],
    ['createTaskPushNotificationConfig', { ...push, taskId: 'task-1' }, 'task-1'],
    ['getTaskPushNotificationConfig', { taskId: 'task-1', id: 'c-1' }, 'task-1'],
    ['listTaskPushNotificationConfigs', { taskId: 'task-1' }, 'task-1'],
    ['deleteTaskPushNotificationConfig', { taskId: 'task-1', id: 'c-1' }, 'task-1'],
    ['listTasks', { contextId: 'ctx-1' }, undefined],
    ['getExtendedAgentCard', {}, undefined],
  ])('names the task of %s %j', (operation, params, taskId) => {
    expect(prepareCall({ card: capable, security: bearer, operation, params, skill: undefined }).taskId).toBe(
      taskId,
    );
  });

  it.each([
    ['no skill: the card scopes', undefined, '{"scopes":["agent.invoke"]}'],
    ['a skill without requirements: the card scopes', 'plain', '{"scopes":["agent.invoke"]}'],
    ['a skill with its own: the skill scopes win', 'invoke', '{"scopes":["skill.invoke"]}'],
    ['a skill the client cannot satisfy', 'keyed', 'request skill-security'],
    ['an unknown skill', 'nope', 'request unknown-skill'],
  ])('takes %s', (_name, skill, expected) => {
    expect(
      attempt('getTask', { id: 'task-1' }, skill === undefined ? {} : { skill }).replace(
        '"taskId":"task-1",',
        '',
      ),
    ).toBe(expected);
  });
});
