import { parseAgentCard, parseTask } from '@surecall/client/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAgentCard } from './card.js';
import {
  createSerializer,
  parseSerializerStyles,
  type SerializerStyle,
  serializerStyles,
} from './serializer.js';

const task = {
  id: 't-1',
  contextId: 'c-1',
  status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-03-12T10:00:00.000Z' },
  history: [
    { messageId: 'm-1', contextId: 'c-1', taskId: 't-1', role: 'ROLE_USER', parts: [{ text: 'task d e' }] },
  ],
  artifacts: [
    {
      artifactId: 'a-1',
      parts: [{ data: { seats: 2, class_name: 'first' }, mediaType: 'application/json' }],
    },
  ],
  metadata: { trace_id: 'x' },
};

describe('createSerializer', () => {
  it('prints nothing differently with omit-defaults', () => {
    expect(createSerializer('omit-defaults')('Task', task)).toBe(task);
  });

  it('emits every default, as the Python SDK does', () => {
    const print = createSerializer('emit-defaults');
    expect(print('Part', { text: 'done', mediaType: 'text/plain' })).toEqual({
      text: 'done',
      mediaType: 'text/plain',
      metadata: {},
      filename: '',
    });
    expect(print('Task', { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } })).toEqual({
      id: 't',
      contextId: 'c',
      status: { state: 'TASK_STATE_WORKING' },
      artifacts: [],
      history: [],
      metadata: {},
    });
  });

  it('writes proto field names, never inside metadata or a data part', () => {
    const printed = createSerializer('proto-names')('Task', task) as { metadata?: unknown };
    expect(Object.keys(printed)).toEqual(['id', 'context_id', 'status', 'artifacts', 'history', 'metadata']);
    expect(printed.metadata).toEqual({ trace_id: 'x' });
    expect(JSON.stringify(printed)).toContain('"data":{"seats":2,"class_name":"first"},"media_type"');
  });

  it('writes enums as numbers', () => {
    const printed = createSerializer('enum-numbers')('StreamResponse', {
      statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
    });
    expect(printed).toEqual({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 2 } } });
  });
});

describe('every style decodes to the same value in the client', () => {
  const combinations = fc.subarray(serializerStyles as SerializerStyle[]);
  it('for a task and a card', () => {
    const card = buildAgentCard({ origin: 'http://127.0.0.1:4000', mode: 'honouring', extended: false });
    const expectedTask = parseTask(task);
    const expectedCard = parseAgentCard(card);
    fc.assert(
      fc.property(combinations, (styles) => {
        const print = createSerializer(styles);
        expect(parseTask(print('Task', task))).toEqual(expectedTask);
        expect(parseAgentCard(print('AgentCard', card))).toEqual(expectedCard);
      }),
    );
  });
});

describe('parseSerializerStyles', () => {
  it.each([
    ['emit-defaults', ['emit-defaults']],
    ['proto-names, enum-numbers', ['proto-names', 'enum-numbers']],
    ['python', undefined],
    ['', undefined],
  ])('reads %j', (text, expected) => {
    expect(parseSerializerStyles(text)).toEqual(expected);
  });
});
