import { describe, expect, it, vi } from 'vitest';
import { resolveLimits } from '../core/limits.js';
import type { SseEvent } from '../wire/sse.js';
import type { StreamFrame } from './binding.js';
import { type EstablishedStream, frameType, streamFrames } from './frames.js';

const limits = resolveLimits();
const encoder = new TextEncoder();

/** A live body holding `chunks`, closed after them unless it stays `open`. */
function established(chunks: readonly string[], open = false) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(encoder.encode(chunk));
      }
      if (!open) {
        controller.close();
      }
    },
  });
  return { body, release: vi.fn<() => void>() } satisfies EstablishedStream;
}

const toFrame = (event: SseEvent): StreamFrame => ({
  event: { task: { id: event.data, contextId: 'c', status: { state: 'TASK_STATE_WORKING' }, history: [] } },
  raw: event.data,
  wireBytes: event.wireBytes,
});

describe('frameType (docs/protocol-checks.md#stream-events)', () => {
  it.each<[string | undefined, string]>([
    [undefined, 'message'],
    ['message', 'message'],
    ['error', 'error'],
  ])('reads the event type %s as %s', (event, expected) => {
    expect(frameType({ data: '', wireBytes: 0, ...(event === undefined ? {} : { event }) })).toBe(expected);
  });

  it.each(['update', 'Error', 'MESSAGE', ''])('refuses the event type %j', (event) => {
    expect(() => frameType({ event, data: '', wireBytes: 0 })).toThrowError(
      expect.objectContaining({
        kind: 'invalid-response',
        reason: 'sse',
        dispatched: true,
        violation: { rule: 'event-type' },
      }),
    );
  });
});

describe('streamFrames', () => {
  it('yields one frame per event with its wire size, then releases the body at the end', async () => {
    const stream = established(['data: a\n\n', ': ping\n\ndata: b\n\n']);
    const frames: StreamFrame[] = [];
    for await (const frame of streamFrames(stream, { limits }, toFrame)) {
      frames.push(frame);
    }
    expect(frames.map((frame) => [frame.raw, frame.wireBytes])).toEqual([
      ['a', 9],
      ['b', 17],
    ]);
    expect(stream.release).toHaveBeenCalledTimes(1);
  });

  it('releases the body on return() before the first next(), and yields nothing after', async () => {
    const stream = established(['data: a\n\n'], true);
    const frames = streamFrames(stream, { limits }, toFrame);
    await expect(frames.return?.()).resolves.toEqual({ done: true, value: undefined });
    expect(stream.release).toHaveBeenCalledTimes(1);
    await expect(frames.next()).resolves.toEqual({ done: true, value: undefined });
    await frames.return?.();
    expect(stream.release).toHaveBeenCalledTimes(1);
  });

  it('releases the body when the consumer breaks out of the loop', async () => {
    const stream = established(['data: a\n\ndata: b\n\n'], true);
    for await (const _frame of streamFrames(stream, { limits }, toFrame)) {
      break;
    }
    expect(stream.release).toHaveBeenCalledTimes(1);
  });

  it('ends at the first error, from the frame or the decoder, releases, and yields nothing more', async () => {
    const stream = established(['data: a\n\ndata: bad\n\ndata: c\n\n']);
    const frames = streamFrames(stream, { limits }, (event) => {
      if (event.data === 'bad') {
        throw new Error('refused frame');
      }
      return toFrame(event);
    });
    await expect(frames.next()).resolves.toMatchObject({ done: false, value: { raw: 'a' } });
    await expect(frames.next()).rejects.toThrow('refused frame');
    await expect(frames.next()).resolves.toEqual({ done: true, value: undefined });
    expect(stream.release).toHaveBeenCalledTimes(1);

    const oversized = established([`data: ${'x'.repeat(64)}\n\n`]);
    const small = resolveLimits({ sseLineBytes: 16, sseEventBytes: 16, sseTotalBytes: 1024 });
    await expect(streamFrames(oversized, { limits: small }, toFrame).next()).rejects.toMatchObject({
      kind: 'invalid-response',
      reason: 'sse',
      dispatched: true,
    });
    expect(oversized.release).toHaveBeenCalledTimes(1);
  });

  it('counts events against the bound: the (N+1)th event fails', async () => {
    const stream = established(['data: a\n\ndata: b\n\n']);
    const frames = streamFrames(stream, { limits: resolveLimits({ sseEvents: 1 }) }, toFrame);
    await expect(frames.next()).resolves.toMatchObject({ done: false });
    await expect(frames.next()).rejects.toMatchObject({
      reason: 'sse',
      violation: { rule: 'too-many-events' },
    });
  });
});
