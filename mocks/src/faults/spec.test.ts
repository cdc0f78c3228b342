import { describe, expect, it } from 'vitest';
import { parseFaultSpec, safeParseFaultSpec } from './spec.js';

describe('safeParseFaultSpec', () => {
  it.each<[string, unknown]>([
    ['drop-before', { kind: 'drop-before', operation: 'SendMessage' }],
    [
      'any operation, one binding, counted',
      { kind: 'drop-after', operation: '*', binding: 'HTTP+JSON', count: 3 },
    ],
    ['delay before', { kind: 'delay', operation: 'GetTask', ms: 0 }],
    ['delay after', { kind: 'delay', operation: 'GetTask', ms: 600_000, when: 'after' }],
    [
      'status-after',
      { kind: 'status-after', operation: 'CancelTask', status: 502, body: 'empty', retryAfterSeconds: 3 },
    ],
    ['cut-stream', { kind: 'cut-stream', operation: 'SubscribeToTask', afterFrames: 0 }],
    ['a gRPC-only fault', { kind: 'drop-after', operation: 'SendMessage', binding: 'GRPC' }],
    ['bad status details', { kind: 'bad-status-details', operation: 'GetTask', details: 'foreign-reason' }],
    ['premature-eof after N frames', { kind: 'premature-eof', operation: 'SubscribeToTask', afterFrames: 3 }],
    ['a frame', { kind: 'two-union-members', operation: 'SendStreamingMessage', frame: 2 }],
    ['redirect to a path', { kind: 'redirect', operation: 'SendMessage', location: '/elsewhere' }],
    ['redirect to a URL', { kind: 'redirect', operation: 'SendMessage', location: 'https://other.test/x' }],
    ['oversized line', { kind: 'oversized-sse-line', operation: 'SendStreamingMessage', bytes: 2 }],
    ['different task id', { kind: 'different-task-id', operation: 'GetTask', taskId: 'other' }],
    ['altered history', { kind: 'altered-history', operation: 'ListTasks', text: 'changed' }],
    ['altered data', { kind: 'altered-data', operation: 'GetTask', frame: 1, data: { a: [1, null, 'x'] } }],
    ['altered data that is null', { kind: 'altered-data', operation: 'SendMessage', data: null }],
    [
      'foreign message ids',
      { kind: 'foreign-message-ids', operation: '*', member: 'taskId', where: 'history' },
    ],
  ])('accepts %s', (_name, input) => {
    expect(safeParseFaultSpec(input)).toEqual({ ok: true, value: input });
  });

  it.each<[string, unknown, string]>([
    ['a non-object', 'drop-before', ''],
    ['an array', [], ''],
    ['an unknown kind', { kind: 'explode', operation: 'SendMessage' }, 'kind'],
    ['a missing operation', { kind: 'drop-before' }, 'operation'],
    ['an unknown operation', { kind: 'drop-before', operation: 'message/send' }, 'operation'],
    ['an unknown binding', { kind: 'drop-before', operation: '*', binding: 'WEBSOCKET' }, 'binding'],
    ['a zero count', { kind: 'drop-before', operation: '*', count: 0 }, 'count'],
    ['a fractional count', { kind: 'drop-before', operation: '*', count: 1.5 }, 'count'],
    ['a missing delay', { kind: 'delay', operation: '*' }, 'ms'],
    ['a negative delay', { kind: 'delay', operation: '*', ms: -1 }, 'ms'],
    ['a delay as text', { kind: 'delay', operation: '*', ms: '10' }, 'ms'],
    ['an unknown phase', { kind: 'delay', operation: '*', ms: 1, when: 'during' }, 'when'],
    ['unknown status details', { kind: 'bad-status-details', operation: '*', details: 'lying' }, 'details'],
    ['a 4xx status', { kind: 'status-after', operation: '*', status: 404 }, 'status'],
    ['a missing frame count', { kind: 'cut-stream', operation: '*' }, 'afterFrames'],
    ['a typo in a field', { kind: 'cut-stream', operation: '*', afterFrame: 1 }, 'afterFrame'],
    ['a parameter of another kind', { kind: 'drop-before', operation: '*', ms: 1 }, 'ms'],
    ['a relative redirect without slash', { kind: 'redirect', operation: '*', location: 'x' }, 'location'],
    [
      'a javascript: redirect',
      { kind: 'redirect', operation: '*', location: 'javascript:alert(1)' },
      'location',
    ],
    ['a one-byte line', { kind: 'oversized-sse-line', operation: '*', bytes: 1 }, 'bytes'],
    ['an empty task id', { kind: 'different-task-id', operation: '*', taskId: '' }, 'taskId'],
    ['altered data that is no JSON', { kind: 'altered-data', operation: '*', data: 1n }, 'data'],
    [
      'foreign ids of another member',
      { kind: 'foreign-message-ids', operation: '*', member: 'id' },
      'member',
    ],
    ['foreign ids elsewhere', { kind: 'foreign-message-ids', operation: '*', where: 'artifacts' }, 'where'],
    [
      'altered data over 1 MiB',
      { kind: 'altered-data', operation: '*', data: 'x'.repeat(1024 * 1024) },
      'data',
    ],
  ])('refuses %s, naming the field', (_name, input, field) => {
    const result = safeParseFaultSpec(input);
    expect(result.ok).toBe(false);
    expect(result.error?.field).toBe(field);
    expect(result.error?.message).not.toBe('');
  });

  it('names an unknown field by its first 64 characters only', () => {
    const field = 'x'.repeat(100);
    expect(safeParseFaultSpec({ kind: 'drop-before', operation: '*', [field]: 1 }).error?.field).toBe(
      'x'.repeat(64),
    );
  });

  it('throws a TypeError naming the field from parseFaultSpec', () => {
    expect(() => parseFaultSpec({ kind: 'delay', operation: '*' })).toThrow(
      new TypeError('Invalid fault field "ms": is required'),
    );
    expect(() => parseFaultSpec(null)).toThrow(/^Invalid fault spec: /);
  });
});
