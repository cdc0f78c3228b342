import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { InvalidResponseError } from '../core/errors.js';
import { AgentCard } from './agent-card.js';
import {
  type DecodeResult,
  decode,
  decodeOrThrow,
  parseAgentCard,
  parseMessage,
  parseTask,
  safeParseAgentCard,
  safeParseMessage,
  safeParseTask,
} from './decode.js';
import { JsonRpcError, RestErrorEnvelope } from './error-envelope.js';
import { Message, Part } from './message.js';
import { operationSchemas } from './operation-schemas.js';
import { TaskPushNotificationConfig } from './push.js';
import { ListTaskPushNotificationConfigsResponse, ListTasksResponse } from './requests.js';
import { isKnownField } from './scalars.js';
import { SecurityScheme } from './security-scheme.js';
import { SendMessageConfiguration, SendMessageResponse } from './send-message.js';
import { StreamResponse } from './stream.js';
import { Task, TaskStatus } from './task.js';

const task = {
  id: 't1',
  contextId: 'c1',
  status: { state: 'TASK_STATE_WORKING', timestamp: '2026-11-29T15:37:54.948Z' },
  history: [{ messageId: 'm1', contextId: 'c1', taskId: 't1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
};

const card = {
  name: 'Echo',
  description: 'Echoes.',
  supportedInterfaces: [
    { url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  version: '0.1.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes text.', tags: ['echo'] }],
};

const allSchemas = {
  ...Object.fromEntries(
    Object.entries(operationSchemas).flatMap(([name, op]) => [
      [`${name}.request`, op.request],
      [`${name}.response`, op.response],
    ]),
  ),
  Part,
  Message,
  TaskStatus,
  SecurityScheme,
  SendMessageConfiguration,
  TaskPushNotificationConfig,
  ListTaskPushNotificationConfigsResponse,
  JsonRpcError,
  RestErrorEnvelope,
};

// A path is `$` followed by indexes, protocol member names, and `[*]` for any key the peer chose.
function isPublicPath(path: string): boolean {
  const segments = path.slice(1).match(/\[\d+\]|\[\*\]|\.[A-Za-z@]+/g) ?? [];
  return (
    path.startsWith('$') &&
    segments.join('') === path.slice(1) &&
    segments.every((segment: string) => !segment.startsWith('.') || isKnownField(segment.slice(1)))
  );
}

describe('decode', () => {
  it('returns the decoded value or the first violation, with `?: never` on the other arm', () => {
    const ok = decode(Task, task);
    expect(ok).toEqual({ ok: true, value: task });
    const failed = decode(Task, { ...task, history: [{ ...task.history[0], parts: [] }] });
    expect(failed).toEqual({
      ok: false,
      error: { violation: { rule: 'required', path: '$.history[0].parts' } },
    });
    expectTypeOf(ok).toEqualTypeOf<DecodeResult<Task>>();
    if (ok.ok) {
      expectTypeOf(ok.error).toEqualTypeOf<undefined>();
    } else {
      expectTypeOf(ok.value).toEqualTypeOf<undefined>();
    }
  });

  it.each([
    ['a missing member', { ...task, id: undefined }, 'required', '$.id'],
    ['a wrong type', { ...task, id: 7 }, 'invalid_type', '$.id'],
    ['null', null, 'invalid_type', '$'],
    ['a nested missing member', { task: { ...task, status: {} } }, 'required', '$.task.status.state'],
  ])('tells %s (%s) apart', (_name, value, rule, path) => {
    const schema = 'task' in (value ?? {}) ? StreamResponse : Task;
    expect(decode(schema, value).error?.violation).toEqual({ rule, path });
  });

  it('masks keys the peer chose, keeping only protocol member names in a path', () => {
    const result = decode(Message, {
      ...task.history[0],
      metadata: { 'user@example.com': 1, ok: 2, ' secret-token ': 3 },
    });
    expect(result.error?.violation).toEqual({ rule: 'whitespace', path: '$.metadata' });
    const scheme = decode(AgentCard, { ...card, securitySchemes: { 'acme-internal-sso': {} } });
    expect(scheme.error?.violation).toEqual({ rule: 'oneof-none', path: '$.securitySchemes[*]' });
    const key = decode(AgentCard, { ...card, securitySchemes: { ' bad key ': { mtlsSecurityScheme: {} } } });
    expect(key.error?.violation).toEqual({ rule: 'whitespace', path: '$.securitySchemes[*]' });
  });

  it('never throws and never leaks input into a violation, for any JSON value and any schema', () => {
    const schemas = Object.values(allSchemas);
    fc.assert(
      fc.property(fc.constantFrom(...schemas), fc.jsonValue(), (schema, value) => {
        const result = decode(schema, value);
        expect(typeof result.ok).toBe('boolean');
        if (!result.ok) {
          expect(isPublicPath(result.error.violation.path ?? '')).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on near-valid frames: any member of a valid event replaced by any JSON value', () => {
    const frames = [
      { task },
      { message: task.history[0] },
      { statusUpdate: { taskId: 't1', contextId: 'c1', status: task.status } },
    ];
    const mutate = (value: unknown, path: readonly string[], replacement: unknown): unknown => {
      if (path.length === 0 || typeof value !== 'object' || value === null) {
        return replacement;
      }
      const [head = '', ...rest] = path;
      if (Array.isArray(value)) {
        const copy: unknown[] = [...value];
        copy[Number(head)] = mutate(copy[Number(head)], rest, replacement);
        return copy;
      }
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      copy[head] = mutate(copy[head], rest, replacement);
      return copy;
    };
    const paths = (value: unknown, prefix: string[] = []): string[][] =>
      typeof value === 'object' && value !== null
        ? Object.entries(value).flatMap(([key, inner]) => [
            [...prefix, key],
            ...paths(inner, [...prefix, key]),
          ])
        : [];
    fc.assert(
      fc.property(
        fc
          .constantFrom(...frames)
          .chain((frame) => fc.tuple(fc.constant(frame), fc.constantFrom(...paths(frame)), fc.jsonValue())),
        ([frame, path, replacement]) => {
          const result = decode(StreamResponse, mutate(frame, path, replacement));
          if (!result.ok) {
            expect(isPublicPath(result.error.violation.path ?? '')).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('returns ok for what it accepted, re-decoding to the same value', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          task,
          { ...task, artifacts: [] },
          { ...task, status: { state: 8, message: task.history[0] } },
        ),
        (value) => {
          const first = decode(Task, value);
          expect(first.ok && decode(Task, first.value)).toEqual(first);
        },
      ),
    );
  });
});

describe('decodeOrThrow', () => {
  it('throws InvalidResponseError("schema") carrying the exchange’s dispatched flag and the violation only', () => {
    const secret = 'tok_live_4f9a-secret';
    let caught: unknown;
    try {
      decodeOrThrow(SendMessageResponse, { task: { ...task, id: secret, contextId: 7 } }, true);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidResponseError);
    const error = caught as InvalidResponseError;
    expect([error.reason, error.dispatched, error.violation]).toEqual([
      'schema',
      true,
      { rule: 'invalid_type', path: '$.task.contextId' },
    ]);
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain(secret);
  });

  it('returns the decoded value', () => {
    expect(decodeOrThrow(ListTasksResponse, {}, false)).toEqual({
      tasks: [],
      nextPageToken: '',
      pageSize: 0,
      totalSize: 0,
    });
  });
});

describe('parse / safeParse pairs (CONTRIBUTING.md#parsers)', () => {
  it.each([
    ['AgentCard', parseAgentCard, safeParseAgentCard, card, { ...card, skills: [] }],
    ['Task', parseTask, safeParseTask, task, { ...task, status: { state: 'TASK_STATE_UNSPECIFIED' } }],
    [
      'Message',
      parseMessage,
      safeParseMessage,
      task.history[0],
      { ...task.history[0], role: 'ROLE_UNSPECIFIED' },
    ],
  ] as const)('%s: parse throws, safeParse returns', (_name, parse, safeParse, valid, invalid) => {
    expect(parse(valid)).toEqual(safeParse(valid).value);
    expect(safeParse(invalid).ok).toBe(false);
    expect(() => parse(invalid)).toThrow(InvalidResponseError);
    try {
      parse(invalid);
    } catch (error) {
      // Parsing sends nothing.
      expect((error as InvalidResponseError).dispatched).toBe(false);
    }
  });

  it('types the pairs', () => {
    expectTypeOf(parseTask).returns.toEqualTypeOf<Task>();
    expectTypeOf(safeParseAgentCard).returns.toEqualTypeOf<DecodeResult<AgentCard>>();
    expectTypeOf(parseMessage).returns.toEqualTypeOf<Message>();
  });
});
