import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode } from '../decode.js';
import type { JsonObject, JsonValue } from '../json-value.js';
import type { Message } from '../message.js';
import { SendMessageResponse } from '../send-message.js';
import { StreamResponse } from '../stream.js';
import { Task } from '../task.js';
import {
  pushConfigFromV03,
  pushConfigListFromV03,
  sendResultFromV03,
  streamEventFromV03,
  taskFromV03,
  v03States,
} from './answers.js';
import { v03Request } from './requests.js';

const text = (value: string): JsonObject => ({ kind: 'text', text: value });
const agentMessage = (extra: JsonObject = {}): JsonObject => ({
  kind: 'message',
  messageId: 'm-2',
  role: 'agent',
  parts: [text('done')],
  contextId: 'c-1',
  taskId: 't-1',
  ...extra,
});
const v03Task = (extra: JsonObject = {}): JsonObject => ({
  kind: 'task',
  id: 't-1',
  contextId: 'c-1',
  status: { state: 'completed', message: agentMessage(), timestamp: '2026-12-03T14:40:26.287Z' },
  ...extra,
});

describe('v0.3 answers as v1.0 values', () => {
  it.each<[string, () => ReturnType<typeof taskFromV03>, JsonValue]>([
    [
      'a task, its status message and history',
      () => taskFromV03(v03Task({ history: [agentMessage({ messageId: 'm-1', role: 'user' })] })),
      {
        id: 't-1',
        contextId: 'c-1',
        status: {
          state: 'TASK_STATE_COMPLETED',
          message: {
            messageId: 'm-2',
            contextId: 'c-1',
            taskId: 't-1',
            role: 'ROLE_AGENT',
            parts: [{ text: 'done' }],
          },
          timestamp: '2026-12-03T14:40:26.287Z',
        },
        history: [
          { messageId: 'm-1', contextId: 'c-1', taskId: 't-1', role: 'ROLE_USER', parts: [{ text: 'done' }] },
        ],
      },
    ],
    [
      'a task with artifacts of every part kind',
      () =>
        taskFromV03(
          v03Task({
            status: { state: 'working' },
            artifacts: [
              {
                artifactId: 'a-1',
                name: 'out',
                parts: [
                  { kind: 'data', data: { sum: 3 } },
                  { kind: 'file', file: { uri: 'https://files.example/r.pdf', mimeType: 'application/pdf' } },
                  { kind: 'file', file: { bytes: 'aGk=', name: 'hi.txt' }, metadata: { k: 1 } },
                ],
              },
            ],
          }),
        ),
      {
        id: 't-1',
        contextId: 'c-1',
        status: { state: 'TASK_STATE_WORKING' },
        artifacts: [
          {
            artifactId: 'a-1',
            name: 'out',
            parts: [
              { data: { sum: 3 } },
              { url: 'https://files.example/r.pdf', mediaType: 'application/pdf' },
              { raw: 'aGk=', filename: 'hi.txt', metadata: { k: 1 } },
            ],
          },
        ],
      },
    ],
    [
      'a direct message from message/send',
      () => sendResultFromV03(agentMessage({ taskId: null })),
      { message: { messageId: 'm-2', contextId: 'c-1', role: 'ROLE_AGENT', parts: [{ text: 'done' }] } },
    ],
    [
      'a status update, its final flag dropped',
      () =>
        streamEventFromV03({
          kind: 'status-update',
          taskId: 't-1',
          contextId: 'c-1',
          status: { state: 'input-required' },
          final: true,
        }),
      { statusUpdate: { taskId: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_INPUT_REQUIRED' } } },
    ],
    [
      'an artifact update',
      () =>
        streamEventFromV03({
          kind: 'artifact-update',
          taskId: 't-1',
          contextId: 'c-1',
          artifact: { artifactId: 'a-1', parts: [text('x')] },
          append: true,
          lastChunk: false,
        }),
      {
        artifactUpdate: {
          taskId: 't-1',
          contextId: 'c-1',
          append: true,
          lastChunk: false,
          artifact: { artifactId: 'a-1', parts: [{ text: 'x' }] },
        },
      },
    ],
    [
      'a push config with one authentication scheme',
      () =>
        pushConfigFromV03({
          taskId: 't-1',
          pushNotificationConfig: {
            id: 'p-1',
            url: 'https://hooks.example/a2a',
            token: 'tok',
            authentication: { schemes: ['Bearer'], credentials: 'secret' },
          },
        }),
      {
        taskId: 't-1',
        id: 'p-1',
        url: 'https://hooks.example/a2a',
        token: 'tok',
        authentication: { scheme: 'Bearer', credentials: 'secret' },
      },
    ],
    [
      'a push config list, a bare array',
      () =>
        pushConfigListFromV03([
          { taskId: 't-1', pushNotificationConfig: { url: 'https://hooks.example/a2a' } },
        ]),
      { configs: [{ taskId: 't-1', url: 'https://hooks.example/a2a' }] },
    ],
  ])('maps %s', (_, map, expected) => {
    expect(map()).toEqual({ ok: true, value: expected });
  });

  it.each<[string, () => ReturnType<typeof taskFromV03>, { rule: string; path: string }]>([
    ['a task without kind', () => taskFromV03(v03Task({ kind: null })), { rule: 'required', path: '$.kind' }],
    [
      'a message where a task belongs',
      () => taskFromV03(agentMessage()),
      { rule: 'oneof-unknown', path: '$.kind' },
    ],
    [
      'the v0.3 state unknown, which v1.0 has no name for',
      () => taskFromV03(v03Task({ status: { state: 'unknown' } })),
      { rule: 'enum', path: '$.status.state' },
    ],
    [
      'a v1.0 state name in a v0.3 answer',
      () => taskFromV03(v03Task({ status: { state: 'TASK_STATE_COMPLETED' } })),
      { rule: 'enum', path: '$.status.state' },
    ],
    [
      'a role in v1.0 spelling',
      () => sendResultFromV03(agentMessage({ role: 'ROLE_AGENT' })),
      { rule: 'enum', path: '$.role' },
    ],
    [
      'a part without kind',
      () => sendResultFromV03(agentMessage({ parts: [{ text: 'x' }] })),
      { rule: 'required', path: '$.parts[0].kind' },
    ],
    [
      'a text part without text',
      () => sendResultFromV03(agentMessage({ parts: [{ kind: 'text' }] })),
      { rule: 'required', path: '$.parts[0].text' },
    ],
    [
      'a file with both uri and bytes',
      () =>
        sendResultFromV03(
          agentMessage({ parts: [{ kind: 'file', file: { uri: 'https://f.example/a', bytes: 'aGk=' } }] }),
        ),
      { rule: 'oneof-many', path: '$.parts[0].file' },
    ],
    [
      'a file with neither',
      () => sendResultFromV03(agentMessage({ parts: [{ kind: 'file', file: { name: 'a' } }] })),
      { rule: 'oneof-none', path: '$.parts[0].file' },
    ],
    [
      'a data part holding an array',
      () => sendResultFromV03(agentMessage({ parts: [{ kind: 'data', data: [1] }] })),
      { rule: 'invalid_type', path: '$.parts[0].data' },
    ],
    [
      'a stream event of an unknown kind',
      () => streamEventFromV03({ kind: 'progress', taskId: 't-1' }),
      { rule: 'oneof-unknown', path: '$.kind' },
    ],
    [
      'a status update whose final is no boolean',
      () =>
        streamEventFromV03({
          kind: 'status-update',
          taskId: 't-1',
          contextId: 'c-1',
          status: { state: 'working' },
          final: 'yes',
        }),
      { rule: 'invalid_type', path: '$.final' },
    ],
    [
      'a push config with two schemes, which v1.0 cannot say',
      () =>
        pushConfigFromV03({
          taskId: 't-1',
          pushNotificationConfig: {
            url: 'https://h.example/a',
            authentication: { schemes: ['Bearer', 'Basic'] },
          },
        }),
      { rule: 'max-items', path: '$.pushNotificationConfig.authentication.schemes' },
    ],
    [
      'a push config list that is no array',
      () => pushConfigListFromV03({ configs: [] }),
      { rule: 'invalid_type', path: '$' },
    ],
  ])('refuses %s', (_, map, error) => {
    expect(map()).toEqual({ ok: false, error });
  });

  it('names every v0.3 state but unknown, each a v1.0 state the Task schema takes', () => {
    for (const [state, name] of Object.entries(v03States)) {
      const mapped = taskFromV03(v03Task({ status: { state, message: agentMessage() } }));
      expect(mapped.ok && decode(Task, mapped.value)).toMatchObject({
        ok: true,
        value: { status: { state: name } },
      });
    }
    expect(Object.keys(v03States)).toHaveLength(8);
  });

  it('hands the v1.0 contract what is not v0.3’s own difference: an empty id is refused there', () => {
    const mapped = sendResultFromV03(v03Task({ id: '' }));
    expect(mapped.ok).toBe(true);
    expect(decode(SendMessageResponse, mapped.value)).toMatchObject({ ok: false });
  });

  it('reads back, as the same v1.0 message, every message it writes as v0.3 (property)', () => {
    const label = fc.stringMatching(/^[a-z0-9-]{1,16}$/);
    const v1Part = fc.oneof(
      fc.record({ text: fc.string({ maxLength: 32 }) }),
      fc.record({ data: fc.dictionary(label, fc.integer()) }),
      fc.record(
        {
          url: label.map((path) => `https://files.example/${path}`),
          mediaType: fc.constant('text/plain'),
          filename: label,
        },
        { requiredKeys: ['url'] },
      ),
      fc.record({ raw: fc.constant('aGk='), filename: label }, { requiredKeys: ['raw'] }),
    );
    fc.assert(
      fc.property(
        label,
        fc.array(v1Part, { minLength: 1, maxLength: 4 }),
        label,
        (messageId, parts, contextId) => {
          const v1: Message = { messageId, contextId, role: 'ROLE_USER', parts };
          const built = v03Request('sendMessage', { message: v1 });
          if (!built.ok || built.params === undefined) {
            return false;
          }
          const v03 = built.params['message'] ?? null;
          const back = sendResultFromV03(v03);
          expect(back).toEqual({ ok: true, value: { message: v1 } });
          expect(decode(StreamResponse, back.value)).toMatchObject({ ok: true });
          return true;
        },
      ),
    );
  });
});
