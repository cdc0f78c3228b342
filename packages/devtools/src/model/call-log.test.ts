import { type ClientEvent, discover, userMessage } from '@surecall/client';
import { startMockAgent } from '@surecall/mocks/node';
import { describe, expect, it } from 'vitest';
import { emptyCallLog, maxCallsKept, reduceCallLog } from './call-log.js';

describe('reduceCallLog', () => {
  it('logs each unary call with its raw events, leaves streams out, and holds no URL or token', async () => {
    const token = 'call-log-bearer-0d9f2a7c';
    const mock = await startMockAgent({ port: 0, stepMs: 1 });
    try {
      const client = await discover({
        cardUrl: mock.cardUrl,
        pins: [{ binding: 'JSONRPC', url: `${mock.origin}/a2a/jsonrpc` }],
        loopback: true,
        trust: { kind: 'first-fetch' },
        security: { kind: 'bearer', scheme: 'bearer', token: async () => token },
      });
      let log = emptyCallLog;
      const seen: ClientEvent[] = [];
      const stop = client.events.subscribe((event) => {
        seen.push(event);
        log = reduceCallLog(log, event);
      });
      const answer = await client.sendMessage({ message: userMessage('task logged') });
      const taskId = 'task' in answer ? answer.task.id : '';
      for await (const _ of client.sendStreamingMessage({ message: userMessage('task streamed') })) {
        // Read to the end: a stream is the Streams panel's, not the log's.
      }
      await client.getTask({ id: taskId });
      await expect(client.getTask({ id: 'no-such-task' })).rejects.toMatchObject({ kind: 'remote' });
      stop();

      expect(log.calls.map((call) => [call.operation, call.outcome])).toEqual([
        ['GetTask', expect.stringMatching(/^failed: remote \S+$/)],
        ['GetTask', 'answered 200'],
        ['SendMessage', 'answered 200'],
      ]);
      const [failed, fetched, sent] = log.calls;
      expect(sent?.events.map((event) => event.type)).toEqual(['request', 'response']);
      // The very events the client emitted, not copies.
      expect(sent?.events[0]).toBe(seen.find((event) => event.callId === sent?.callId));
      expect(fetched?.events[0]).toMatchObject({ type: 'request', taskId });
      expect(failed?.durationMs).toEqual(expect.any(Number));
      const text = JSON.stringify(log);
      expect(text).not.toContain(token);
      expect(text).not.toContain(mock.origin);
      expect(text).not.toContain('task logged');
    } finally {
      await mock.close();
    }
  });

  it('keeps the newest calls, and logs a call that failed before its request left', () => {
    const base = { operation: 'GetTask', binding: 'JSONRPC', time: 0 } as const;
    let log = emptyCallLog;
    for (let callId = 1; callId <= maxCallsKept + 5; callId++) {
      log = reduceCallLog(log, { ...base, callId, type: 'request', httpMethod: 'POST', rpcId: callId });
    }
    expect(log.calls).toHaveLength(maxCallsKept);
    expect(log.calls[0]?.callId).toBe(maxCallsKept + 5);
    const refused = reduceCallLog(emptyCallLog, {
      ...base,
      callId: 9,
      type: 'error',
      durationMs: 0,
      error: { name: 'RequestError', kind: 'request', reason: 'invalid-params', dispatched: false },
    });
    expect(refused.calls.map((call) => call.outcome)).toEqual(['failed: request invalid-params']);
  });
});
