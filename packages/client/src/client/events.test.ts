import { describe, expect, it, vi } from 'vitest';
import { CapabilityError, InvalidResponseError, OptionsError } from '../core/errors.js';
import type { StreamResponse } from '../protocol/stream.js';
import { type ClientEvent, createEventHub, errorJson, streamEventKind } from './events.js';

const event = (callId: number): ClientEvent => ({
  type: 'error',
  callId,
  operation: 'GetTask',
  binding: 'JSONRPC',
  time: 0,
  durationMs: 1,
  error: errorJson(new CapabilityError('streaming')),
});

describe('createEventHub', () => {
  it('delivers each event, frozen, to every listener until it unsubscribes', () => {
    const hub = createEventHub();
    const first: ClientEvent[] = [];
    const second: ClientEvent[] = [];
    const stopFirst = hub.events.subscribe((received) => first.push(received));
    hub.events.subscribe((received) => second.push(received));
    hub.emit(() => event(1));
    stopFirst();
    stopFirst();
    hub.emit(() => event(2));
    expect(first.map((received) => received.callId)).toEqual([1]);
    expect(second.map((received) => received.callId)).toEqual([1, 2]);
    expect(Object.isFrozen(first[0])).toBe(true);
  });

  it('counts the same function subscribed twice as two subscriptions', () => {
    const hub = createEventHub();
    const listener = vi.fn();
    const stop = hub.events.subscribe(listener);
    hub.events.subscribe(listener);
    hub.emit(() => event(1));
    stop();
    hub.emit(() => event(2));
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('builds nothing while nobody listens', () => {
    const hub = createEventHub();
    const build = vi.fn(() => event(1));
    hub.emit(build);
    expect(build).not.toHaveBeenCalled();
    expect(hub.listening()).toBe(false);
    const stop = hub.events.subscribe(() => undefined);
    expect(hub.listening()).toBe(true);
    stop();
    expect(hub.listening()).toBe(false);
  });

  it('keeps going past a listener that throws or rejects', async () => {
    const hub = createEventHub();
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    const after = vi.fn();
    hub.events.subscribe(() => {
      throw new Error('listener bug');
    });
    hub.events.subscribe(async () => {
      throw new Error('async listener bug');
    });
    hub.events.subscribe(after);
    expect(() => hub.emit(() => event(1))).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', unhandled);
    expect(after).toHaveBeenCalledTimes(1);
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('lets a listener unsubscribe another during delivery without skipping the current event', () => {
    const hub = createEventHub();
    const late = vi.fn();
    let stopLate = (): void => undefined;
    hub.events.subscribe(() => stopLate());
    stopLate = hub.events.subscribe(late);
    hub.emit(() => event(1));
    hub.emit(() => event(2));
    expect(late).toHaveBeenCalledTimes(1);
  });
});

describe('errorJson', () => {
  it('is the error’s own public-safe form', () => {
    const error = new InvalidResponseError('identity', {
      dispatched: true,
      httpStatus: 200,
      violation: { rule: 'task-id', path: '$.id' },
    });
    expect(errorJson(error)).toEqual({
      name: 'InvalidResponseError',
      kind: 'invalid-response',
      reason: 'identity',
      dispatched: true,
      httpStatus: 200,
      violation: { rule: 'task-id', path: '$.id' },
    });
  });

  it('says only "unexpected" for anything else, whose message could hold anything', () => {
    expect(errorJson(new Error('secret text'))).toEqual({ name: 'Error', kind: 'unexpected' });
    expect(errorJson(new OptionsError('x', 'malformed'))).toEqual({ name: 'Error', kind: 'unexpected' });
    expect(errorJson('secret text')).toEqual({ name: 'Error', kind: 'unexpected' });
  });
});

describe('streamEventKind', () => {
  const status = { state: 'TASK_STATE_WORKING' } as const;
  it.each<[StreamResponse, string]>([
    [{ task: { id: 't', contextId: 'c', status, artifacts: [], history: [] } }, 'task'],
    [{ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x' }] } }, 'message'],
    [{ statusUpdate: { taskId: 't', contextId: 'c', status } }, 'statusUpdate'],
    [
      {
        artifactUpdate: {
          taskId: 't',
          contextId: 'c',
          artifact: { artifactId: 'a', parts: [{ text: 'x' }] },
          append: false,
          lastChunk: false,
        },
      },
      'artifactUpdate',
    ],
  ])('names the member of %j', (streamEvent, kind) => {
    expect(streamEventKind(streamEvent)).toBe(kind);
  });
});
