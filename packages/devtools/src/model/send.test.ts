import { describe, expect, it } from 'vitest';
import {
  latestTaskId,
  maxSendsKept,
  type SendRecord,
  sendAnswered,
  sendEnded,
  sendFailed,
  sendStarted,
  sendStreamed,
  userMessage,
  withSend,
} from './send.js';
import { chunkEvent, statusEvent, taskEvent } from './test-helpers.js';

describe('userMessage', () => {
  it('is a user message with one text part, in a context when one is given', () => {
    expect(userMessage('echo hi', 'm-1')).toEqual({
      messageId: 'm-1',
      role: 'ROLE_USER',
      parts: [{ text: 'echo hi' }],
    });
    expect(userMessage('echo hi', 'm-1', '')).not.toHaveProperty('contextId');
    expect(userMessage('echo hi', 'm-1', 'ctx')).toMatchObject({ contextId: 'ctx' });
  });
});

describe('send records', () => {
  const sending = sendStarted(userMessage('echo hello', 'm-1'), 'send', 10);

  it('starts with the text and the mode', () => {
    expect(sending).toMatchObject({
      messageId: 'm-1',
      text: 'echo hello',
      status: 'sending',
      events: 0,
      startedAt: 10,
    });
    expect(sendStarted(userMessage('task a', 'm-2'), 'stream', 10)).toMatchObject({ status: 'streaming' });
  });

  it('reads a direct reply', () => {
    const answered = sendAnswered(sending, {
      message: { messageId: 'r', contextId: 'c-1', role: 'ROLE_AGENT', parts: [{ text: 'echo hello' }] },
    });
    expect(answered).toMatchObject({ status: 'answered', outcome: 'reply “echo hello”', contextId: 'c-1' });
  });

  it('reads a task', () => {
    const answered = sendAnswered(sending, taskEvent('t-1', 'TASK_STATE_INPUT_REQUIRED') as { task: never });
    expect(answered).toMatchObject({
      status: 'answered',
      outcome: 'task input required',
      taskId: 't-1',
      contextId: 'ctx-1',
    });
  });

  it('follows a stream: the task, its states, its chunks counted', () => {
    let record = sendStarted(userMessage('task a', 'm-2'), 'stream', 10);
    for (const event of [
      taskEvent('t-1', 'TASK_STATE_SUBMITTED'),
      statusEvent('t-1', 'TASK_STATE_WORKING'),
      chunkEvent('t-1', 'a', false, true),
      statusEvent('t-1', 'TASK_STATE_COMPLETED'),
    ]) {
      record = sendStreamed(record, event);
    }
    expect(record).toMatchObject({
      status: 'streaming',
      events: 4,
      outcome: 'task completed',
      taskId: 't-1',
    });
    expect(sendEnded(record).status).toBe('answered');
  });

  it('reads a streamed direct reply', () => {
    const record = sendStreamed(sendStarted(userMessage('echo', 'm'), 'stream', 0), {
      message: { messageId: 'r', role: 'ROLE_AGENT', parts: [{ data: 1 }] },
    });
    expect(record.outcome).toBe('reply a message without text');
  });

  it('reads a failure through the error’s public-safe form', () => {
    const failed = sendFailed(sending, {
      name: 'TransportError',
      kind: 'transport',
      reason: 'network',
      dispatched: true,
    });
    expect(failed.status).toBe('failed');
    expect(failed.outcome).toContain('outcome unknown');
  });
});

describe('withSend', () => {
  const record = (messageId: string): SendRecord => sendStarted(userMessage('x', messageId), 'send', 0);

  it('puts new sends first and replaces a known one in place', () => {
    const list = withSend(withSend([], record('a')), record('b'));
    expect(list.map((entry) => entry.messageId)).toEqual(['b', 'a']);
    const updated = withSend(list, { ...record('a'), status: 'failed' });
    expect(updated.map((entry) => [entry.messageId, entry.status])).toEqual([
      ['b', 'sending'],
      ['a', 'failed'],
    ]);
  });

  it('keeps the newest sends only', () => {
    let list: SendRecord[] = [];
    for (let n = 0; n < maxSendsKept + 5; n += 1) {
      list = withSend(list, record(`m-${n}`));
    }
    expect(list).toHaveLength(maxSendsKept);
    expect(list[0]?.messageId).toBe(`m-${maxSendsKept + 4}`);
  });
});

describe('latestTaskId', () => {
  it('is the task of the newest send that named one, skipping sends that named none', () => {
    const first = sendStreamed(
      sendStarted(userMessage('task a', 'm-1'), 'stream', 1),
      taskEvent('t-1', 'TASK_STATE_COMPLETED'),
    );
    const second = sendStreamed(
      sendStarted(userMessage('task b', 'm-2'), 'stream', 2),
      taskEvent('t-2', 'TASK_STATE_WORKING'),
    );
    const pending = sendStarted(userMessage('task c', 'm-3'), 'send', 3);
    expect([first.taskId, second.taskId]).toEqual(['t-1', 't-2']);
    expect(latestTaskId([])).toBeUndefined();
    expect(latestTaskId([pending])).toBeUndefined();
    expect(latestTaskId([pending, second, first])).toBe('t-2');
  });
});
