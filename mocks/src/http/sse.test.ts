import { describe, expect, it, vi } from 'vitest';
import { encodeSseEvent, encodeSseStream, type SseEvent, sseHeaders } from './sse.js';

describe('encodeSseEvent', () => {
  it.each<[SseEvent, string]>([
    [{ data: '{"task":{}}' }, 'data: {"task":{}}\n\n'],
    [{ data: '' }, 'data: \n\n'],
    [{ data: 'a\nb' }, 'data: a\ndata: b\n\n'],
    [{ data: 'a\r\nb\rc' }, 'data: a\ndata: b\ndata: c\n\n'],
    [{ data: 'x', event: 'error' }, 'event: error\ndata: x\n\n'],
    [{ data: 'x', id: '7' }, 'id: 7\ndata: x\n\n'],
    [{ data: 'x', event: 'a\nb', id: 'c\rd' }, 'event: a b\nid: c d\ndata: x\n\n'],
  ])('%j → %j', (event, text) => {
    expect(encodeSseEvent(event)).toBe(text);
  });
});

describe('encodeSseStream', () => {
  it('writes one event per value, as UTF-8', async () => {
    const source = new ReadableStream<string>({
      start(controller) {
        controller.enqueue('ä');
        controller.enqueue('b');
        controller.close();
      },
    });
    const body = encodeSseStream(source, (value) => ({ data: JSON.stringify({ value }) }));
    expect(await new Response(body).text()).toBe('data: {"value":"ä"}\n\ndata: {"value":"b"}\n\n');
  });

  it('cancels the source when the reader hangs up', async () => {
    let canceled = false;
    const source = new ReadableStream<string>({
      start(controller) {
        controller.enqueue('first');
      },
      cancel() {
        canceled = true;
      },
    });
    const reader = encodeSseStream(source, (value) => ({ data: value })).getReader();
    await reader.read();
    await reader.cancel();
    // The pipe forwards the cancel on a later turn.
    await vi.waitFor(() => expect(canceled).toBe(true));
  });

  it('names the stream media type and turns off caching and proxy buffering', () => {
    expect(sseHeaders).toEqual({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
  });
});
