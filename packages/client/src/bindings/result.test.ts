import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../core/errors.js';
import { resolveLimits } from '../core/limits.js';
import type { JsonValue } from '../protocol/json-value.js';
import { operationSchemas } from '../protocol/operation-schemas.js';
import type { ClientMethod } from '../protocol/operations.js';
import { decodeStreamEvent as decodeEventWith, streamResponseMembers } from './frames.js';
import { decodeResult as decodeWith } from './push-config-answer.js';
import { parseBody, sendResponseMembers, unionViolation } from './result.js';

// The bindings hand the decoders the operation's schema (`schemasOf`); the tests take it from the table.
function decodeResult<N extends Exclude<ClientMethod, 'sendStreamingMessage' | 'subscribeToTask'>>(
  operation: N,
  raw: JsonValue,
  source: Parameters<typeof decodeWith>[2],
) {
  return decodeWith(operation, raw, source, operationSchemas[operation].response);
}
function decodeStreamEvent(raw: JsonValue) {
  return decodeEventWith(raw, operationSchemas.sendStreamingMessage.response);
}

const task = { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_WORKING' } };
const message = { messageId: 'm-1', contextId: 'ctx-1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] };
const statusUpdate = { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } };
const config = { taskId: 'task-1', id: 'cfg-1', url: 'https://hooks.example/a2a' };

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('unionViolation (docs/protocol-checks.md#unary-answers, exact unions)', () => {
  it.each<[string, JsonValue, string | undefined]>([
    ['a task', { task }, undefined],
    ['a message', { message }, undefined],
    ['an empty object', {}, 'oneof-none'],
    ['two members', { task, message }, 'oneof-many'],
    ['a member and an unknown key', { task, extra: 1 }, 'oneof-many'],
    ['an unknown key alone', { extra: {} }, 'oneof-unknown'],
    ['a stream-only member', { statusUpdate }, 'oneof-unknown'],
    ['an array', [{ task }], 'invalid_type'],
    ['null', null, 'invalid_type'],
    ['a string', 'task', 'invalid_type'],
  ])('SendMessageResponse: %s', (_name, raw, rule) => {
    expect(unionViolation(raw, sendResponseMembers)?.rule).toBe(rule);
  });

  it('accepts exactly the one-key objects of a known member, for any member and any value', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue(), { maxKeys: 4 }), (object) => {
        const keys = Object.keys(object);
        const valid = keys.length === 1 && streamResponseMembers.includes(keys[0] ?? '');
        expect(unionViolation(object as JsonValue, streamResponseMembers) === undefined).toBe(valid);
      }),
    );
  });
});

describe('decodeResult', () => {
  it('decodes a SendMessage task and keeps the HTTP status in a refusal', () => {
    expect(decodeResult('sendMessage', { task }, { httpStatus: 200 })).toMatchObject({
      task: { id: 'task-1' },
    });
    const error = thrown(() => decodeResult('sendMessage', { task, message }, { httpStatus: 200 }));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({
      reason: 'schema',
      dispatched: true,
      httpStatus: 200,
      violation: { rule: 'oneof-many', path: '$' },
    });
  });

  it('refuses a known member beside an unknown one, which the schema alone would strip', () => {
    expect(thrown(() => decodeResult('sendMessage', { message, note: 'x' }, {}))).toMatchObject({
      reason: 'schema',
      violation: { rule: 'oneof-many' },
    });
  });

  it('refuses a result that breaks the contract, pointing at the field', () => {
    const error = thrown(() =>
      decodeResult('getTask', { ...task, status: { state: 'TASK_STATE_UNSPECIFIED' } }, { httpStatus: 200 }),
    );
    expect(error).toMatchObject({
      reason: 'schema',
      violation: { rule: 'required', path: '$.status.state' },
    });
  });

  it.each<[string, JsonValue, boolean]>([
    ['null', null, true],
    ['{}', {}, true],
    ['an object with a member', { deleted: true }, false],
    ['an empty array', [], false],
    ['false', false, false],
  ])('DeleteTaskPushNotificationConfig answered %s', (_name, raw, accepted) => {
    const run = () => decodeResult('deleteTaskPushNotificationConfig', raw, { httpStatus: 200 });
    if (accepted) {
      expect(run()).toEqual({});
    } else {
      expect(thrown(run)).toMatchObject({ reason: 'schema', violation: { rule: 'empty' } });
    }
  });

  it.each<[string, string | undefined, string | undefined, 'ok' | 'identity']>([
    ['no tenant on either side', undefined, undefined, 'ok'],
    ['the interface tenant repeated', 'acme', 'acme', 'ok'],
    ['another tenant', 'acme', 'other', 'identity'],
    ['a tenant where the interface has none', undefined, 'acme', 'identity'],
    ['no tenant where the interface has one', 'acme', undefined, 'ok'],
  ])('a push config with %s', (_name, interfaceTenant, answered, outcome) => {
    const raw = answered === undefined ? config : { ...config, tenant: answered };
    const source = interfaceTenant === undefined ? {} : { tenant: interfaceTenant };
    for (const operation of ['createTaskPushNotificationConfig', 'getTaskPushNotificationConfig'] as const) {
      const run = () => decodeResult(operation, raw, source);
      if (outcome === 'ok') {
        expect(run()).toEqual(config);
      } else {
        expect(thrown(run)).toMatchObject({
          reason: 'identity',
          violation: { rule: 'tenant', path: '$.tenant' },
        });
      }
    }
    const list = () => decodeResult('listTaskPushNotificationConfigs', { configs: [config, raw] }, source);
    if (outcome === 'ok') {
      expect(list()).toEqual({ configs: [config, config], nextPageToken: '' });
    } else {
      expect(thrown(list)).toMatchObject({ violation: { path: '$.configs[1].tenant' } });
    }
  });
});

describe('decodeStreamEvent', () => {
  it('decodes each member and refuses anything but exactly one', () => {
    expect(decodeStreamEvent({ statusUpdate })).toMatchObject({ statusUpdate: { taskId: 'task-1' } });
    const error = thrown(() => decodeStreamEvent({ statusUpdate, task }));
    expect(error).toMatchObject({ reason: 'schema', dispatched: true, violation: { rule: 'oneof-many' } });
    expect((error as InvalidResponseError).httpStatus).toBeUndefined();
  });
});

describe('parseBody', () => {
  const limits = resolveLimits({ responseBodyBytes: 64 });
  it.each<[string, string, string]>([
    ['duplicate keys', '{"a":1,"a":1}', 'duplicate-key'],
    ['trailing data', '{} {}', 'trailing-data'],
    ['an unsafe integer', '{"id":9007199254740993}', 'unsafe-integer'],
    ['an empty body', '', 'syntax'],
    ['a body over the bound', `{"a":"${'x'.repeat(64)}"}`, 'too-large'],
  ])('maps %s to invalid-response json', (_name, body, rule) => {
    const error = thrown(() => parseBody(new TextEncoder().encode(body), limits, 204));
    expect(error).toMatchObject({
      kind: 'invalid-response',
      reason: 'json',
      httpStatus: 204,
      violation: { rule },
    });
  });
});
