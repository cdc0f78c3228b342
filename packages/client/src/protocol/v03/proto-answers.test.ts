import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../json-value.js';
import {
  protoPushConfigFromV03,
  protoPushConfigListFromV03,
  protoSendResultFromV03,
  protoStreamEventFromV03,
  protoTaskFromV03,
} from './proto-answers.js';

const task = { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_WORKING' } };

describe('v0.3 proto answers as v1.0 values', () => {
  it('reads a task with its parts in `content`, its files and data, and v0.3’s CANCELLED', () => {
    expect(
      protoTaskFromV03({
        id: 't-1',
        context_id: 'c-1',
        status: {
          state: 'TASK_STATE_CANCELLED',
          update: { message_id: 'm-1', role: 'ROLE_AGENT', content: [{ text: 'bye' }] },
        },
        artifacts: [
          {
            artifact_id: 'a',
            parts: [
              { file: { file_with_uri: 'https://f.example/x', mime_type: 'text/plain' } },
              { file: { fileWithBytes: 'AA==', mimeType: '' } },
              { data: { data: { n: 1 } }, metadata: { k: 1 } },
            ],
          },
        ],
        history: null,
      }),
    ).toEqual({
      ok: true,
      value: {
        id: 't-1',
        contextId: 'c-1',
        status: {
          state: 'TASK_STATE_CANCELED',
          message: { messageId: 'm-1', role: 'ROLE_AGENT', parts: [{ text: 'bye' }] },
        },
        artifacts: [
          {
            artifactId: 'a',
            parts: [
              { url: 'https://f.example/x', mediaType: 'text/plain' },
              { raw: 'AA==' },
              { data: { n: 1 }, metadata: { k: 1 } },
            ],
          },
        ],
      },
    });
  });

  it.each<[string, JsonValue, { rule: string; path: string }]>([
    [
      'v1.0’s spelling of a state',
      { ...task, status: { state: 'TASK_STATE_CANCELED' } },
      { rule: 'enum', path: '$.status.state' },
    ],
    ['a state of no name', { ...task, status: { state: 'done' } }, { rule: 'enum', path: '$.status.state' }],
    ['a task with no status', { id: 't-1', contextId: 'c-1' }, { rule: 'required', path: '$.status' }],
    [
      'a part with two members',
      { ...task, history: [{ messageId: 'm', content: [{ text: 'a', data: { data: {} } }] }] },
      { rule: 'oneof-many', path: '$.history[0].content[0]' },
    ],
    [
      'a file with neither uri nor bytes',
      { ...task, history: [{ messageId: 'm', content: [{ file: { mimeType: 'text/plain' } }] }] },
      { rule: 'oneof-none', path: '$.history[0].content[0].file' },
    ],
    [
      'a status naming its message both ways',
      { ...task, status: { state: 'TASK_STATE_WORKING', message: {}, update: {} } },
      { rule: 'duplicate-key', path: '$.status.message' },
    ],
    [
      'content that is no list',
      { ...task, history: [{ messageId: 'm', content: {} }] },
      { rule: 'invalid_type', path: '$.history[0].content' },
    ],
  ])('refuses %s', (_, raw, error) => {
    expect(protoTaskFromV03(raw)).toEqual({ ok: false, error });
  });

  it('reads a send answer’s `task`, `message` and the proto’s `msg`', () => {
    expect(protoSendResultFromV03({ task })).toMatchObject({ ok: true, value: { task: { id: 't-1' } } });
    const reply = { messageId: 'm-1', role: 'ROLE_AGENT', content: [{ text: 'hi' }] };
    const expected = {
      ok: true,
      value: { message: { messageId: 'm-1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } },
    };
    expect(protoSendResultFromV03({ message: reply })).toEqual(expected);
    expect(protoSendResultFromV03({ msg: reply })).toEqual(expected);
    expect(protoSendResultFromV03({ task, msg: reply })).toEqual({
      ok: false,
      error: { rule: 'oneof-many', path: '$' },
    });
  });

  it('reads stream events, a status update’s `final` read and dropped', () => {
    expect(
      protoStreamEventFromV03({
        status_update: { task_id: 't-1', context_id: 'c-1', status: { state: 3 }, final: true },
      }),
    ).toEqual({
      ok: true,
      value: { statusUpdate: { taskId: 't-1', contextId: 'c-1', status: { state: 3 } } },
    });
    expect(
      protoStreamEventFromV03({
        artifactUpdate: {
          taskId: 't-1',
          contextId: 'c-1',
          artifact: { artifactId: 'a', parts: [{ text: 'x' }] },
          lastChunk: true,
        },
      }),
    ).toEqual({
      ok: true,
      value: {
        artifactUpdate: {
          taskId: 't-1',
          contextId: 'c-1',
          lastChunk: true,
          artifact: { artifactId: 'a', parts: [{ text: 'x' }] },
        },
      },
    });
    expect(protoStreamEventFromV03({ statusUpdate: { ...task, final: 1 } })).toEqual({
      ok: false,
      error: { rule: 'invalid_type', path: '$.statusUpdate.final' },
    });
  });

  it('reads a push config’s task from its name, its one scheme as v1.0’s', () => {
    expect(
      protoPushConfigFromV03({
        name: 'tasks/t-1/pushNotificationConfigs/p-1',
        push_notification_config: {
          id: 'p-1',
          url: 'https://hooks.example/a',
          authentication: { schemes: ['Bearer'], credentials: 'c' },
        },
      }),
    ).toEqual({
      ok: true,
      value: {
        taskId: 't-1',
        id: 'p-1',
        url: 'https://hooks.example/a',
        authentication: { scheme: 'Bearer', credentials: 'c' },
      },
    });
  });

  it.each<[string, JsonValue, { rule: string; path: string }]>([
    [
      'no name',
      { pushNotificationConfig: { id: 'p-1', url: 'https://h.example' } },
      { rule: 'required', path: '$.name' },
    ],
    [
      'a name that is no config path',
      { name: 'p-1', pushNotificationConfig: { id: 'p-1' } },
      { rule: 'pattern', path: '$.name' },
    ],
    [
      'a name of another config',
      { name: 'tasks/t-1/pushNotificationConfigs/p-2', pushNotificationConfig: { id: 'p-1' } },
      { rule: 'pattern', path: '$.name' },
    ],
    [
      'two schemes, which v1.0 cannot say',
      {
        name: 'tasks/t-1/pushNotificationConfigs/p-1',
        pushNotificationConfig: { authentication: { schemes: ['a', 'b'] } },
      },
      { rule: 'max-items', path: '$.pushNotificationConfig.authentication.schemes' },
    ],
  ])('refuses a push config with %s', (_, raw, error) => {
    expect(protoPushConfigFromV03(raw)).toEqual({ ok: false, error });
  });

  it('reads a config list, empty when ProtoJSON leaves it out', () => {
    expect(protoPushConfigListFromV03({})).toEqual({ ok: true, value: { configs: [] } });
    expect(
      protoPushConfigListFromV03({
        configs: [{ name: 'tasks/t-1/pushNotificationConfigs/p-1', pushNotificationConfig: {} }],
      }),
    ).toEqual({ ok: true, value: { configs: [{ taskId: 't-1', id: 'p-1' }] } });
  });
});
