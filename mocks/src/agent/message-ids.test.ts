import { describe, expect, it } from 'vitest';
import { createAgent } from './agent.js';
import { withoutMessageIds } from './message-ids.js';

const message = (role: string) => ({
  messageId: `m-${role}`,
  contextId: 'c-1',
  taskId: 't-1',
  role,
  parts: [],
});
const bare = (role: string) => ({ messageId: `m-${role}`, role, parts: [] });

describe('withoutMessageIds', () => {
  it.each<[string, unknown, unknown]>([
    ['a direct reply', { message: message('ROLE_AGENT') }, { message: bare('ROLE_AGENT') }],
    [
      'a task: its status message and history, never its own ids',
      {
        task: {
          id: 't-1',
          contextId: 'c-1',
          status: { state: 'TASK_STATE_COMPLETED', message: message('ROLE_AGENT') },
          history: [message('ROLE_USER'), message('ROLE_AGENT')],
        },
      },
      {
        task: {
          id: 't-1',
          contextId: 'c-1',
          status: { state: 'TASK_STATE_COMPLETED', message: bare('ROLE_AGENT') },
          history: [bare('ROLE_USER'), bare('ROLE_AGENT')],
        },
      },
    ],
    [
      "a status update's message, not the update's ids",
      {
        statusUpdate: {
          taskId: 't-1',
          contextId: 'c-1',
          status: { state: 3, message: message('ROLE_AGENT') },
        },
      },
      {
        statusUpdate: { taskId: 't-1', contextId: 'c-1', status: { state: 3, message: bare('ROLE_AGENT') } },
      },
    ],
    [
      'a page of tasks',
      { tasks: [{ id: 't-1', contextId: 'c-1', history: [message('ROLE_USER')] }], nextPageToken: '' },
      { tasks: [{ id: 't-1', contextId: 'c-1', history: [bare('ROLE_USER')] }], nextPageToken: '' },
    ],
    [
      'an artifact update, and metadata or data that name the members',
      {
        artifactUpdate: { taskId: 't-1', contextId: 'c-1', artifact: { artifactId: 'a', parts: [] } },
        metadata: { message: { contextId: 'kept' } },
      },
      {
        artifactUpdate: { taskId: 't-1', contextId: 'c-1', artifact: { artifactId: 'a', parts: [] } },
        metadata: { message: { contextId: 'kept' } },
      },
    ],
  ])('%s', (_name, value, expected) => {
    expect(withoutMessageIds(value)).toEqual(expected);
  });

  it('is an option of the agent, checked', () => {
    expect(() => createAgent({ messageIds: 'none' as 'set' })).toThrow(
      expect.objectContaining({ kind: 'options', option: 'messageIds' }),
    );
    createAgent({ messageIds: 'omitted' }).close();
  });
});
