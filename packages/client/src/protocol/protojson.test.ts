/**
ProtoJSON as the proto's own parsers read it (docs/protocol-checks.md#protojson): a default printed or
omitted, `null`, an enum's number and the proto field name all decode to the one canonical shape; what the
proto forbids stays refused.
*/
import { describe, expect, it } from 'vitest';
import { AgentCard } from './agent-card.js';
import { decode } from './decode.js';
import { Message, Part } from './message.js';
import { SendMessageResponse } from './send-message.js';
import { StreamResponse } from './stream.js';
import { Task } from './task.js';

const message = {
  messageId: 'm-1',
  contextId: 'c-1',
  taskId: 't-1',
  role: 'ROLE_USER',
  parts: [{ text: 'task d e' }],
};

const task = {
  id: 't-1',
  contextId: 'c-1',
  status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-03-12T10:00:00.000Z' },
  history: [message],
  artifacts: [{ artifactId: 'a-1', parts: [{ text: 'done', mediaType: 'text/plain' }] }],
};

function decoded(schema: Parameters<typeof decode>[0], value: unknown): unknown {
  const result = decode(schema, value);
  if (!result.ok) {
    throw new Error(`${result.error.violation.rule} at ${result.error.violation.path}`);
  }
  return result.value;
}

function refusal(schema: Parameters<typeof decode>[0], value: unknown): string | undefined {
  const result = decode(schema, value);
  return result.ok ? undefined : `${result.error.violation.rule} at ${result.error.violation.path}`;
}

describe('a task printed by every serializer style decodes to one shape', () => {
  const canonical = decoded(Task, task);
  it.each<[string, unknown]>([
    [
      'emit-defaults (every field without presence printed at its default, as the Python SDK does)',
      {
        ...task,
        metadata: {},
        history: [
          {
            ...message,
            parts: [{ text: 'task d e', filename: '', mediaType: '' }],
            extensions: [],
            referenceTaskIds: [],
            metadata: {},
          },
        ],
        artifacts: [
          {
            artifactId: 'a-1',
            name: '',
            description: '',
            parts: [{ text: 'done', mediaType: 'text/plain', filename: '' }],
            extensions: [],
            metadata: {},
          },
        ],
      },
    ],
    [
      'proto-names (the original snake_case field names)',
      {
        id: 't-1',
        context_id: 'c-1',
        status: task.status,
        history: [
          {
            message_id: 'm-1',
            context_id: 'c-1',
            task_id: 't-1',
            role: 'ROLE_USER',
            parts: [{ text: 'task d e' }],
          },
        ],
        artifacts: [{ artifact_id: 'a-1', parts: [{ text: 'done', media_type: 'text/plain' }] }],
      },
    ],
    ['enum-numbers', { ...task, status: { ...task.status, state: 3 }, history: [{ ...message, role: 1 }] }],
    [
      'null for absent fields',
      {
        ...task,
        metadata: null,
        status: { ...task.status, message: null },
        history: [{ ...message, extensions: null, metadata: null }],
      },
    ],
  ])('%s', (_name, printed) => {
    expect(decoded(Task, printed)).toEqual(canonical);
  });

  it('reads a missing history and `history: []` alike', () => {
    expect(decoded(Task, { ...task, history: [] })).toEqual(decoded(Task, { ...task, history: undefined }));
  });
});

describe('what the proto forbids stays refused after normalisation', () => {
  it.each<[string, Parameters<typeof decode>[0], unknown, string]>([
    ['a field under both its names', Task, { ...task, context_id: 'c-2' }, 'duplicate-key at $.contextId'],
    ['a required id that holds its default', Task, { ...task, id: '' }, 'required at $.id'],
    ['a required enum at 0', Task, { ...task, status: { state: 0 } }, 'required at $.status.state'],
    ['a required list printed empty', Message, { ...message, parts: [] }, 'required at $.parts'],
    [
      'two members, one of them an empty message',
      SendMessageResponse,
      { message, task: {} },
      'oneof-many at $',
    ],
    [
      'a text beside a null Value (null is a Value, so present)',
      Part,
      { text: 'x', data: null },
      'oneof-many at $',
    ],
    ['a wrong type is still a wrong type', Message, { ...message, taskId: 7 }, 'invalid_type at $.taskId'],
  ])('%s', (_name, schema, value, expected) => {
    expect(refusal(schema, value)).toBe(expected);
  });
});

describe('oneofs', () => {
  it('read a null member as absent', () => {
    expect(decoded(SendMessageResponse, { message, task: null })).toEqual({
      message: decoded(Message, message),
    });
  });

  it('read a member under its proto name', () => {
    const statusUpdate = { taskId: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_WORKING' } };
    expect(decoded(StreamResponse, { status_update: statusUpdate })).toEqual({ statusUpdate });
  });

  it('keep a Value part whose value is null', () => {
    expect(decoded(Part, { data: null })).toEqual({ data: null });
  });
});

describe('a card', () => {
  const card = {
    name: 'Echo',
    description: 'Echoes.',
    version: '1.0.0',
    supportedInterfaces: [
      { url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: {
      extensions: [{ uri: 'urn:example:echo-extension:v1', description: 'An extension named by a URN.' }],
    },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes.', tags: ['echo'] }],
  };

  it('accepts an extension named by a URN: a URI, which nothing connects to', () => {
    expect(refusal(AgentCard, card)).toBeUndefined();
  });

  it('still holds interface URLs to the URL rules', () => {
    const relative = { ...card, supportedInterfaces: [{ ...card.supportedInterfaces[0], url: '/a2a' }] };
    expect(refusal(AgentCard, relative)).toBe('interface-url at $.supportedInterfaces[0].url');
  });

  it('keeps an explicit false capability (a proto3 optional bool has presence)', () => {
    const result = decode(AgentCard, { ...card, capabilities: { ...card.capabilities, streaming: false } });
    expect(result.ok && result.value.capabilities.streaming).toBe(false);
  });
});
