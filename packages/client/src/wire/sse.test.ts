import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidResponseError, TransportError } from '../core/errors.js';
import { defaultLimits } from '../core/limits.js';
import { createSseDecoder, decodeSse, type SseEvent, type SseLimits, type SseRule } from './sse.js';

type Part = string | readonly number[] | Uint8Array;

const encoder = new TextEncoder();

function bytes(...parts: Part[]): Uint8Array {
  const pieces = parts.map((part) =>
    typeof part === 'string' ? encoder.encode(part) : Uint8Array.from(part),
  );
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

function limits(overrides: Partial<SseLimits> = {}): SseLimits {
  return {
    sseLineBytes: defaultLimits.sseLineBytes,
    sseEventBytes: defaultLimits.sseEventBytes,
    sseTotalBytes: defaultLimits.sseTotalBytes,
    sseEvents: defaultLimits.sseEvents,
    streamIdleTimeoutMs: defaultLimits.streamIdleTimeoutMs,
    ...overrides,
  };
}

async function* iterate(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) {
    yield chunk;
  }
}

type Outcome = { readonly events: SseEvent[]; readonly error?: unknown };

async function decode(chunks: readonly Uint8Array[], bounds: SseLimits = limits()): Promise<Outcome> {
  const events: SseEvent[] = [];
  try {
    for await (const event of decodeSse(iterate(chunks), { limits: bounds })) {
      events.push(event);
    }
  } catch (error) {
    return { events, error };
  }
  return { events };
}

/** The events without `wireBytes`, which has its own table. */
async function fields(...chunks: Part[]): Promise<Omit<SseEvent, 'wireBytes'>[]> {
  const { events, error } = await decode(chunks.map((chunk) => bytes(chunk)));
  expect(error).toBeUndefined();
  return events.map(({ wireBytes: _, ...rest }) => rest);
}

function violationOf(error: unknown): { rule: string; offset: number | undefined } {
  expect(error).toBeInstanceOf(InvalidResponseError);
  const refused = error as InvalidResponseError;
  expect(refused.reason).toBe('sse');
  expect(refused.dispatched).toBe(true);
  return { rule: refused.violation?.rule ?? '', offset: refused.violation?.offset };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('decodeSse: WHATWG event-stream interpretation', () => {
  it.each<{ name: string; input: Part; events: Omit<SseEvent, 'wireBytes'>[] }>([
    { name: 'LF line ends', input: 'data: a\n\n', events: [{ data: 'a' }] },
    { name: 'CR line ends', input: 'data: a\r\r', events: [{ data: 'a' }] },
    { name: 'CRLF line ends', input: 'data: a\r\n\r\n', events: [{ data: 'a' }] },
    { name: 'mixed line ends', input: 'data: a\rdata: b\ndata: c\r\n\r\n', events: [{ data: 'a\nb\nc' }] },
    {
      name: 'CR CR is a line and a blank line',
      input: 'data: a\r\r\rdata: b\r\r',
      events: [{ data: 'a' }, { data: 'b' }],
    },
    {
      name: 'LF CR is two line ends',
      input: 'data: a\n\rdata: b\n\n',
      events: [{ data: 'a' }, { data: 'b' }],
    },
    { name: 'a BOM at the start is dropped', input: '\uFEFFdata: a\n\n', events: [{ data: 'a' }] },
    { name: 'only one BOM is dropped', input: '\uFEFF\uFEFFdata: a\n\ndata: b\n\n', events: [{ data: 'b' }] },
    { name: 'a BOM after the start is kept', input: 'data: a\n\n\uFEFFdata: b\n\n', events: [{ data: 'a' }] },
    { name: 'a BOM inside a value is kept', input: 'data: \uFEFFa\n\n', events: [{ data: '\uFEFFa' }] },
    { name: 'comments are ignored', input: ': hi\ndata: a\n: there\n\n', events: [{ data: 'a' }] },
    { name: 'a comment-only block dispatches nothing', input: ': ping\n\n:\n\n', events: [] },
    { name: 'data lines join with LF', input: 'data: a\ndata: b\n\n', events: [{ data: 'a\nb' }] },
    { name: 'data without a space', input: 'data:a\n\n', events: [{ data: 'a' }] },
    { name: 'only one leading space is stripped', input: 'data:  a \n\n', events: [{ data: ' a ' }] },
    { name: 'empty data dispatches an empty event', input: 'data:\n\n', events: [{ data: '' }] },
    { name: 'a field without colon has an empty value', input: 'data\n\n', events: [{ data: '' }] },
    { name: 'two empty data lines', input: 'data\ndata\n\n', events: [{ data: '\n' }] },
    { name: 'a trailing empty data line', input: 'data: a\ndata:\n\n', events: [{ data: 'a\n' }] },
    { name: 'a colon inside the value', input: 'data: a: b\n\n', events: [{ data: 'a: b' }] },
    {
      name: 'multi-byte text',
      input: 'data: naïve größe 東京 🙂\n\n',
      events: [{ data: 'naïve größe 東京 🙂' }],
    },
    { name: 'leading blank lines', input: '\n\r\n\rdata: a\n\n', events: [{ data: 'a' }] },
    { name: 'event type', input: 'event: add\ndata: a\n\n', events: [{ event: 'add', data: 'a' }] },
    { name: 'event without a space', input: 'event:add\ndata\n\n', events: [{ event: 'add', data: '' }] },
    {
      name: 'the event type resets after a dispatch',
      input: 'event: add\ndata: a\n\ndata: b\n\n',
      events: [{ event: 'add', data: 'a' }, { data: 'b' }],
    },
    {
      name: 'a blank line without data resets the event type',
      input: 'event: add\n\ndata: b\n\n',
      events: [{ data: 'b' }],
    },
    {
      name: 'an empty event type is absent',
      input: 'event: x\nevent:\ndata: a\n\n',
      events: [{ data: 'a' }],
    },
    {
      name: 'the last event id persists',
      input: 'id: 1\ndata: a\n\ndata: b\n\n',
      events: [
        { id: '1', data: 'a' },
        { id: '1', data: 'b' },
      ],
    },
    {
      name: 'an id set in a block without data carries over',
      input: 'id: 7\n\ndata: a\n\n',
      events: [{ id: '7', data: 'a' }],
    },
    {
      name: 'an empty id clears it',
      input: 'id: 1\ndata: a\n\nid\ndata: b\n\n',
      events: [{ id: '1', data: 'a' }, { data: 'b' }],
    },
    {
      name: 'an id containing NUL is ignored',
      input: 'id: 1\ndata: a\n\nid: 2\u0000\ndata: b\n\n',
      events: [
        { id: '1', data: 'a' },
        { id: '1', data: 'b' },
      ],
    },
    {
      name: 'retry of ASCII digits, persisting',
      input: 'retry: 1500\ndata: a\n\ndata: b\n\n',
      events: [
        { retry: 1500, data: 'a' },
        { retry: 1500, data: 'b' },
      ],
    },
    { name: 'retry: 0', input: 'retry:0\ndata: a\n\n', events: [{ retry: 0, data: 'a' }] },
    {
      name: 'invalid retry values are ignored',
      input:
        'retry: 15\nretry: 1x\nretry: -1\nretry: 1.5\nretry: 1:2\nretry: 1/\nretry:\nretry\nretry: ٣\nretry:  2\ndata: a\n\n',
      events: [{ retry: 15, data: 'a' }],
    },
    {
      name: 'a retry beyond the safe integers is ignored',
      input: 'retry: 99999999999999999999\ndata: a\n\n',
      events: [{ data: 'a' }],
    },
    {
      name: 'unknown fields are ignored',
      input: 'foo: bar\nDATA: x\ndata : y\nEvent: z\nids: 3\nretryx: 4\ndata: a\n\n',
      events: [{ data: 'a' }],
    },
    {
      name: 'an unterminated final event is discarded',
      input: 'data: a\n\ndata: b\n',
      events: [{ data: 'a' }],
    },
    { name: 'an unterminated final line is discarded', input: 'data: a\n\ndata: b', events: [{ data: 'a' }] },
    { name: 'a final event ended by one CR is discarded', input: 'data: a\r', events: [] },
    {
      name: 'an unterminated final line is not checked',
      input: bytes('data: a\n\ndata: \u0000', [0xff]),
      events: [{ data: 'a' }],
    },
    {
      name: 'a comment may hold any byte',
      input: bytes(':', [0xff, 0, 0xc3], '\ndata: a\n\n'),
      events: [{ data: 'a' }],
    },
  ])('$name', async ({ input, events }) => {
    expect(await fields(input)).toStrictEqual(events);
  });

  it.each<{ name: string; input: string; wireBytes: number[] }>([
    { name: 'one event', input: 'data: a\n\n', wireBytes: [9] },
    { name: 'the BOM counts', input: '\uFEFFdata: a\n\n', wireBytes: [12] },
    { name: 'bytes in UTF-8', input: 'data: é東\n\n', wireBytes: [13] },
    {
      name: 'comments and ignored blocks count',
      input: ': c\n\nevent: x\n\ndata: a\n\ndata: b\n\n',
      wireBytes: [24, 9],
    },
    // The event dispatches at the CR, so the LF of that CRLF belongs to the next event.
    { name: 'CRLF', input: 'data: a\r\n\r\ndata: b\r\n\r\n', wireBytes: [10, 11] },
  ])('wireBytes: $name', async ({ input, wireBytes }) => {
    const { events } = await decode([bytes(input)]);
    expect(events.map((event) => event.wireBytes)).toStrictEqual(wireBytes);
  });

  it('keeps a CR at the end of one chunk and an LF at the start of the next as one line end', async () => {
    expect(await fields('data: a\r', '\ndata: b\r\n\r\n')).toStrictEqual([{ data: 'a\nb' }]);
    expect(await fields('event: e\r', '\ndata: b\r', '\n', '\r', '\n')).toStrictEqual([
      { event: 'e', data: 'b' },
    ]);
    expect(await fields([0xef], [0xbb], [0xbf], 'data: a\n', '\n')).toStrictEqual([{ data: 'a' }]);
  });

  it('finds a line end or NUL at any position and chunk alignment', async () => {
    for (const special of ['\n', '\r', '\u0000']) {
      for (let offset = 0; offset < 4; offset++) {
        for (let position = 0; position < 48; position++) {
          const line = `data: ${'x'.repeat(position)}${special}data: ${'y'.repeat(40)}\n\n`;
          const chunk = bytes(' '.repeat(offset), line).subarray(offset);
          const { events, error } = await decode([chunk]);
          if (special === '\u0000') {
            expect(violationOf(error)).toStrictEqual({ rule: 'nul', offset: 6 + position });
          } else {
            expect(events.map((event) => event.data)).toStrictEqual([
              `${'x'.repeat(position)}\n${'y'.repeat(40)}`,
            ]);
          }
        }
      }
    }
  });

  it('dispatches at the CR of a blank line without waiting for the next chunk', async () => {
    let release: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* source(): AsyncGenerator<Uint8Array> {
      yield bytes('data: a\r\n\r');
      await stalled;
      yield bytes('\ndata: b\r\n\r\n');
    }
    const iterator = decodeSse(source(), { limits: limits() });
    expect((await iterator.next()).value).toStrictEqual({ data: 'a', wireBytes: 10 });
    release();
    expect((await iterator.next()).value).toStrictEqual({ data: 'b', wireBytes: 11 });
    expect((await iterator.next()).done).toBe(true);
  });

  it('yields the same events, sizes and error however the bytes are chunked', async () => {
    const fragments: Part[] = [
      'data',
      'data:',
      'data: ',
      'event:',
      'id:',
      'retry:',
      'foo:',
      ':',
      ' ',
      'x',
      'a long run of plain text',
      '\t',
      '7',
      '\r',
      '\n',
      '\r\n',
      '\n\n',
      'é',
      '東',
      '🙂',
      '\uFEFF',
      [0],
      [0xff],
      [0xe6],
    ];
    const small = limits({ sseLineBytes: 24, sseEventBytes: 40, sseTotalBytes: 260, sseEvents: 6 });
    const summary = ({ events, error }: Outcome) => ({
      events,
      error:
        error instanceof InvalidResponseError ? { ...error.toJSON(), violation: error.violation } : error,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...fragments), { maxLength: 60 }),
        fc.oneof(fc.constant('bytewise' as const), fc.uniqueArray(fc.nat(), { maxLength: 12 })),
        async (parts, cuts) => {
          const input = bytes(...parts);
          const points =
            cuts === 'bytewise'
              ? Array.from({ length: input.length + 1 }, (_, index) => index)
              : [0, ...cuts.map((cut) => cut % (input.length + 1)).sort((a, b) => a - b), input.length];
          // Views, not copies: chunks then start at every alignment, as they do on the wire.
          const chunks = points.slice(1).map((end, index) => input.subarray(points[index], end));
          expect(summary(await decode(chunks, small))).toStrictEqual(summary(await decode([input], small)));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('decodeSse: bounds, in bytes', () => {
  it.each<{
    name: string;
    bounds: Partial<SseLimits>;
    input: Part[];
    events: string[];
    refused?: [SseRule, number];
  }>([
    {
      name: 'a line at the bound',
      bounds: { sseLineBytes: 16 },
      input: ['data: 0123456789\r\n\r\n'],
      events: ['0123456789'],
    },
    {
      name: 'a line one byte past it',
      bounds: { sseLineBytes: 16 },
      input: ['data: a\n\ndata: 0123456789x\n\n'],
      events: ['a'],
      refused: ['line-too-long', 9],
    },
    {
      name: 'a comment past it',
      bounds: { sseLineBytes: 16 },
      input: [':0123456789abcdef\n\n'],
      events: [],
      refused: ['line-too-long', 0],
    },
    {
      name: 'a line past it is refused before its terminator',
      bounds: { sseLineBytes: 16 },
      input: ['data: a\n\ndata: 01234', '56789x'],
      events: ['a'],
      refused: ['line-too-long', 9],
    },
    {
      name: 'a line counts bytes, not characters',
      bounds: { sseLineBytes: 16 },
      input: ['data: éééééa\n\n'],
      events: [],
      refused: ['line-too-long', 0],
    },
    {
      name: 'event data at the bound (LF separators count)',
      bounds: { sseEventBytes: 10 },
      input: ['data: 12345\ndata: 6789\n\n'],
      events: ['12345\n6789'],
    },
    {
      name: 'event data one byte past it',
      bounds: { sseEventBytes: 10 },
      input: ['data: 12345\ndata: 67890\n\n'],
      events: [],
      refused: ['event-too-large', 12],
    },
    {
      name: 'event data counts bytes',
      bounds: { sseEventBytes: 10 },
      input: ['data: éééé\ndata: 東\n\n'],
      events: [],
      refused: ['event-too-large', 15],
    },
    {
      name: 'a stream at the total bound',
      bounds: { sseTotalBytes: 18 },
      input: ['data: a\n\ndata: b\n\n'],
      events: ['a', 'b'],
    },
    {
      name: 'a stream one byte past it',
      bounds: { sseTotalBytes: 18 },
      input: ['data: a\n\ndata: b\n', '\n:'],
      events: ['a', 'b'],
      refused: ['stream-too-large', 18],
    },
    {
      name: 'events at the count bound; blank lines without data do not count',
      bounds: { sseEvents: 2 },
      input: ['data: a\n\n\n\n: c\n\nevent: x\n\ndata: b\n\n'],
      events: ['a', 'b'],
    },
    {
      name: 'one event past the count',
      bounds: { sseEvents: 2 },
      input: ['data: a\n\ndata: b\n\ndata: c\n\n'],
      events: ['a', 'b'],
      refused: ['too-many-events', 26],
    },
  ])('$name', async ({ bounds, input, events, refused }) => {
    const outcome = await decode(
      input.map((part) => bytes(part)),
      limits(bounds),
    );
    expect(outcome.events.map((event) => event.data)).toStrictEqual(events);
    if (refused === undefined) {
      expect(outcome.error).toBeUndefined();
    } else {
      expect(violationOf(outcome.error)).toStrictEqual({ rule: refused[0], offset: refused[1] });
    }
  });
});

describe('createSseDecoder', () => {
  it('throws the first violation again on every later push', () => {
    const decoder = createSseDecoder(limits());
    const seen: string[] = [];
    const collect = (event: SseEvent) => {
      seen.push(event.data);
    };
    let first: unknown;
    try {
      decoder.push(bytes('data: a\n\ndata: ', [0], '\n'), collect);
    } catch (error) {
      first = error;
    }
    expect(violationOf(first)).toStrictEqual({ rule: 'nul', offset: 15 });
    expect(() => decoder.push(bytes('data: b\n\n'), collect)).toThrow(first as Error);
    expect(seen).toStrictEqual(['a']);
  });
});

describe('decodeSse: invalid UTF-8 and NUL', () => {
  it.each<{ name: string; input: Part[]; refused: [SseRule, number] }>([
    {
      name: 'a stray continuation byte in data',
      input: ['data: ', [0xff], '\n\n'],
      refused: ['invalid-utf8', 0],
    },
    {
      name: 'a sequence cut by a line end',
      input: [': ok\ndata: a\ndata: ', [0xc3], '\n\n'],
      refused: ['invalid-utf8', 5],
    },
    {
      name: 'a sequence cut at the end of data',
      input: ['data: ', [0xe6, 0x9d], '\n\n'],
      refused: ['invalid-utf8', 0],
    },
    { name: 'an overlong encoding', input: ['data: ', [0xc0, 0xaf], '\n\n'], refused: ['invalid-utf8', 0] },
    {
      name: 'an encoded surrogate',
      input: ['data: ', [0xed, 0xa0, 0x80], '\n\n'],
      refused: ['invalid-utf8', 0],
    },
    {
      name: 'invalid UTF-8 in event',
      input: ['data: a\nevent: ', [0xff], '\n'],
      refused: ['invalid-utf8', 8],
    },
    { name: 'invalid UTF-8 in id', input: ['id: ', [0xff], '\n'], refused: ['invalid-utf8', 0] },
    { name: 'invalid UTF-8 in retry', input: ['retry: 1', [0xff], '\n'], refused: ['invalid-utf8', 0] },
    {
      name: 'invalid UTF-8 in an unknown field',
      input: ['x', [0xff], ': y\n'],
      refused: ['invalid-utf8', 0],
    },
    {
      name: 'a BOM cut short at the start',
      input: [[0xef, 0xbb], 'data: a\n\n'],
      refused: ['invalid-utf8', 0],
    },
    { name: 'NUL in data', input: ['data: a', [0], 'b\n\n'], refused: ['nul', 7] },
    { name: 'NUL in a later data line', input: ['data: a\ndata: ', [0], '\n'], refused: ['nul', 14] },
    { name: 'NUL in event', input: ['event: ', [0], '\n'], refused: ['nul', 7] },
    { name: 'NUL in retry', input: ['retry: 1', [0], '\n'], refused: ['nul', 8] },
    { name: 'NUL in a field name', input: ['da', [0], 'ta: x\n'], refused: ['nul', 2] },
    { name: 'NUL in an unknown field', input: ['foo: ', [0], '\n'], refused: ['nul', 5] },
  ])('$name', async ({ input, refused }) => {
    const outcome = await decode([bytes(...input)]);
    expect(violationOf(outcome.error)).toStrictEqual({ rule: refused[0], offset: refused[1] });
  });

  it('yields the events before the error, then nothing more', async () => {
    const iterator = decodeSse(iterate([bytes('data: a\n\ndata: ', [0xff], '\n\ndata: c\n\n')]), {
      limits: limits(),
    });
    expect((await iterator.next()).value).toMatchObject({ data: 'a' });
    await expect(iterator.next()).rejects.toBeInstanceOf(InvalidResponseError);
    expect(await iterator.next()).toStrictEqual({ done: true, value: undefined });
  });

  it('decodes a character split across chunks', async () => {
    const input = bytes('data: 🙂\n\n');
    expect(await fields(input.slice(0, 7), input.slice(7, 8), input.slice(8))).toStrictEqual([
      { data: '🙂' },
    ]);
  });
});

/** A ReadableStream that reports its cancel and whose chunks arrive when the test says so. */
function controlledStream() {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const cancel = vi.fn();
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel,
  });
  const control = controller as unknown as ReadableStreamDefaultController<Uint8Array>;
  return {
    stream,
    cancel,
    send: (text: string) => control.enqueue(bytes(text)),
    end: () => control.close(),
    fail: (error: unknown) => control.error(error),
  };
}

/** Starts reading and records the outcome without awaiting it, so fake time can run in between. */
function pump(iterator: AsyncGenerator<SseEvent>) {
  const state: { events: string[]; error?: unknown; done: boolean } = { events: [], done: false };
  const finished = (async () => {
    try {
      for await (const event of { [Symbol.asyncIterator]: () => iterator }) {
        state.events.push(event.data);
      }
    } catch (error) {
      state.error = error;
    }
    state.done = true;
  })();
  return { state, finished };
}

describe('decodeSse: idle, read errors and abort', () => {
  const idleMs = 1000;

  it('fails with TransportError idle when a read waits the whole idle time', async () => {
    vi.useFakeTimers();
    const source = controlledStream();
    const { state } = pump(decodeSse(source.stream, { limits: limits({ streamIdleTimeoutMs: idleMs }) }));
    source.send('data: a\n\n');
    await vi.advanceTimersByTimeAsync(idleMs - 1);
    expect(state).toStrictEqual({ events: ['a'], done: false });
    await vi.advanceTimersByTimeAsync(1);
    expect(state.done).toBe(true);
    expect(state.error).toBeInstanceOf(TransportError);
    expect(state.error).toMatchObject({ reason: 'idle', dispatched: true });
    expect(source.cancel).toHaveBeenCalledOnce();
    expect(source.stream.locked).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('restarts the idle clock on every event', async () => {
    vi.useFakeTimers();
    const source = controlledStream();
    const { state } = pump(decodeSse(source.stream, { limits: limits({ streamIdleTimeoutMs: idleMs }) }));
    for (let beat = 0; beat < 10; beat++) {
      await vi.advanceTimersByTimeAsync(idleMs - 1);
      source.send(`data: ${beat}\n\n`);
    }
    await vi.advanceTimersByTimeAsync(idleMs - 1);
    source.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(state).toStrictEqual({ events: ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'], done: true });
    expect(vi.getTimerCount()).toBe(0);
  });

  it.each([
    ['keep-alive comments', ': keep-alive\n'],
    ['blank lines that dispatch nothing', '\n'],
    ['the lines of an event not yet ended', 'data: part\n'],
  ])('does not restart it on %s: the idle time is the wait between events', async (_name, beat) => {
    vi.useFakeTimers();
    const source = controlledStream();
    const { state } = pump(decodeSse(source.stream, { limits: limits({ streamIdleTimeoutMs: idleMs }) }));
    source.send('data: a\n\n');
    for (let at = 0; at < 4; at++) {
      await vi.advanceTimersByTimeAsync(idleMs / 4 - 1);
      source.send(beat);
    }
    expect(state.done).toBe(false);
    await vi.advanceTimersByTimeAsync(4);
    expect(state.events).toStrictEqual(['a']);
    expect(state.done).toBe(true);
    expect(state.error).toMatchObject({ kind: 'transport', reason: 'idle', dispatched: true });
    expect(source.cancel).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('bounds the reads only: a consumer slower than the idle time is not idle', async () => {
    vi.useFakeTimers();
    const source = controlledStream();
    const iterator = decodeSse(source.stream, { limits: limits({ streamIdleTimeoutMs: idleMs }) });
    source.send('data: a\n\n');
    expect((await iterator.next()).value).toMatchObject({ data: 'a' });
    await vi.advanceTimersByTimeAsync(3 * idleMs);
    const next = iterator.next();
    await vi.advanceTimersByTimeAsync(idleMs - 1);
    source.send('data: b\n\n');
    expect((await next).value).toMatchObject({ data: 'b' });
    let failed = false;
    const stalled = iterator.next().catch((error: unknown) => {
      failed = true;
      return error;
    });
    await vi.advanceTimersByTimeAsync(idleMs - 1);
    expect(failed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await stalled).toMatchObject({ kind: 'transport', reason: 'idle' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails with TransportError read when the source fails, after the events already read', async () => {
    const source = controlledStream();
    const { state, finished } = pump(decodeSse(source.stream, { limits: limits() }));
    const cause = Object.assign(new Error('connection reset by 10.0.0.7'), { code: 'ECONNRESET' });
    source.send('data: a\n\n');
    await Promise.resolve();
    source.fail(cause);
    await finished;
    expect(state.events).toStrictEqual(['a']);
    expect(state.error).toBeInstanceOf(TransportError);
    // Only the platform's code travels on, never its text (ARCHITECTURE.md#errors).
    expect(state.error).toMatchObject({ reason: 'read', dispatched: true, cause: { code: 'ECONNRESET' } });
    expect(JSON.stringify((state.error as TransportError).cause)).not.toContain('10.0.0.7');
    expect(source.stream.locked).toBe(false);
  });

  it('fails with TransportError aborted at once when the signal aborts during a read', async () => {
    vi.useFakeTimers();
    const source = controlledStream();
    const abort = new AbortController();
    const { state } = pump(
      decodeSse(source.stream, { limits: limits({ streamIdleTimeoutMs: idleMs }), signal: abort.signal }),
    );
    await vi.advanceTimersByTimeAsync(10);
    const reason = new Error('user left');
    abort.abort(reason);
    await vi.advanceTimersByTimeAsync(0);
    expect(state.done).toBe(true);
    expect(state.error).toMatchObject({
      kind: 'transport',
      reason: 'aborted',
      dispatched: true,
      cause: reason,
    });
    expect(source.cancel).toHaveBeenCalledOnce();
    expect(source.stream.locked).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never reads when the signal is already aborted', async () => {
    const next = vi.fn(async () => ({ done: false as const, value: bytes('data: a\n\n') }));
    const source: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => ({ next }) };
    const { state, finished } = pump(decodeSse(source, { limits: limits(), signal: AbortSignal.abort() }));
    await finished;
    expect(state.error).toMatchObject({ reason: 'aborted' });
    expect(next).not.toHaveBeenCalled();
  });

  it('stops between the events of one chunk when the signal aborts', async () => {
    const abort = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      for await (const event of decodeSse(iterate([bytes('data: a\n\ndata: b\n\n')]), {
        limits: limits(),
        signal: abort.signal,
      })) {
        seen.push(event.data);
        abort.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ reason: 'aborted' });
    expect(seen).toStrictEqual(['a']);
  });
});

describe('decodeSse: the source is always released', () => {
  type Exit = 'end' | 'break' | 'violation' | 'idle' | 'read error' | 'abort';
  it.each<{ exit: Exit; cancelled: boolean }>([
    { exit: 'end', cancelled: false },
    { exit: 'break', cancelled: true },
    { exit: 'violation', cancelled: true },
    { exit: 'idle', cancelled: true },
    { exit: 'read error', cancelled: false },
    { exit: 'abort', cancelled: true },
  ])('ReadableStream, on $exit', async ({ exit, cancelled }) => {
    vi.useFakeTimers();
    const source = controlledStream();
    const abort = new AbortController();
    const iterator = decodeSse(source.stream, {
      limits: limits({ streamIdleTimeoutMs: 100 }),
      signal: abort.signal,
    });
    const { state, finished } = pump(exit === 'break' ? breakAfterFirst(iterator) : iterator);
    source.send(exit === 'violation' ? 'data: a\n\ndata: \u0000\n\n' : 'data: a\n\n');
    await vi.advanceTimersByTimeAsync(1);
    if (exit === 'end') {
      source.end();
    } else if (exit === 'idle') {
      await vi.advanceTimersByTimeAsync(100);
    } else if (exit === 'read error') {
      source.fail(new Error('reset'));
    } else if (exit === 'abort') {
      abort.abort();
    }
    await vi.advanceTimersByTimeAsync(1);
    await finished;
    expect(state.events).toStrictEqual(['a']);
    expect(source.stream.locked).toBe(false);
    expect(source.cancel).toHaveBeenCalledTimes(cancelled ? 1 : 0);
    expect(vi.getTimerCount()).toBe(0);
  });

  async function* breakAfterFirst(iterator: AsyncGenerator<SseEvent>): AsyncGenerator<SseEvent> {
    for await (const event of { [Symbol.asyncIterator]: () => iterator }) {
      yield event;
      break;
    }
  }

  it.each<{ exit: 'end' | 'break' | 'violation' }>([
    { exit: 'end' },
    { exit: 'break' },
    { exit: 'violation' },
  ])('AsyncIterable, on $exit', async ({ exit }) => {
    const chunks = [bytes(exit === 'violation' ? 'data: a\n\nid\u0000x: 1\n' : 'data: a\n\ndata: b\n\n')];
    const returnSpy = vi.fn();
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        yield* chunks;
      } finally {
        returnSpy();
      }
    }
    const generator = source();
    const seen: string[] = [];
    try {
      for await (const event of decodeSse(generator, { limits: limits() })) {
        seen.push(event.data);
        if (exit === 'break') {
          break;
        }
      }
    } catch {
      // The violation is covered elsewhere; here only the release matters.
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen[0]).toBe('a');
    // The source generator is suspended at its yield on an early exit: its finally runs only if return() was
    // called.
    expect(returnSpy).toHaveBeenCalledOnce();
    expect(await generator.next()).toStrictEqual({ done: true, value: undefined });
  });
});

describe('decodeSse: memory stays bounded', () => {
  // Why structural rather than heap-based: vitest runs without --expose-gc, so process.memoryUsage() mostly
  // measures garbage not yet collected (every event's decoded string), which is either loose enough to pass
  // while leaking or tight enough to flake. Instead these tests pin the two facts that bound memory: the
  // decoder's own buffers never exceed one line plus one event's data, and it keeps no reference to a chunk
  // once `push` returns (the source below overwrites one buffer in place; any retained view would corrupt
  // later events). The benchmark (bench/sse.ts) measures the live heap with --expose-gc.
  const MiB = 1024 * 1024;

  /**
  64 MiB of events with one, two or three data lines of up to `maxLine` bytes, written into one reused buffer.
  */
  async function* reusedChunks(
    total: number,
    chunkBytes: number,
    maxLine: number,
  ): AsyncGenerator<Uint8Array> {
    const buffer = new Uint8Array(chunkBytes);
    let filled = 0;
    let index = 0;
    let produced = 0;
    while (produced < total) {
      const lines = (index % 3) + 1;
      let text = '';
      for (let line = 0; line < lines; line++) {
        const length = Math.min(maxLine - 6, 1000 + ((index * 7919 + line * 104_729) % (maxLine - 1006)));
        text += `data: ${String.fromCharCode(97 + ((index + line) % 26)).repeat(length)}\n`;
      }
      let event = encoder.encode(`${text}\n`);
      event = event.subarray(0, Math.min(event.length, total - produced));
      for (let at = 0; at < event.length; ) {
        const take = Math.min(event.length - at, chunkBytes - filled);
        buffer.set(event.subarray(at, at + take), filled);
        filled += take;
        at += take;
        if (filled === chunkBytes) {
          yield buffer;
          filled = 0;
        }
      }
      produced += event.length;
      index++;
    }
    if (filled > 0) {
      yield buffer.subarray(0, filled);
    }
  }

  function expectedData(index: number, maxLine: number): string {
    const lines: string[] = [];
    for (let line = 0; line < (index % 3) + 1; line++) {
      const length = Math.min(maxLine - 6, 1000 + ((index * 7919 + line * 104_729) % (maxLine - 1006)));
      lines.push(String.fromCharCode(97 + ((index + line) % 26)).repeat(length));
    }
    return lines.join('\n');
  }

  it('keeps its own buffers within one line plus one event on a 64 MiB stream', async () => {
    const bounds = limits({ sseLineBytes: 64 * 1024, sseEventBytes: 256 * 1024, sseEvents: 65_536 });
    const decoder = createSseDecoder(bounds);
    let events = 0;
    let peak = 0;
    for await (const chunk of reusedChunks(64 * MiB, 7 * 1024 + 3, bounds.sseLineBytes)) {
      decoder.push(chunk, (event) => {
        expect(event.data).toBe(expectedData(events, bounds.sseLineBytes));
        events++;
      });
      peak = Math.max(peak, decoder.retainedBytes);
    }
    expect(events).toBeGreaterThan(1000);
    expect(peak).toBeGreaterThan(bounds.sseLineBytes / 2); // the buffers were used, lines did span chunks
    expect(peak).toBeLessThanOrEqual(bounds.sseLineBytes + bounds.sseEventBytes);
  });

  it('decodes 64 MiB at the default bounds through decodeSse without holding on to chunks', async () => {
    let events = 0;
    for await (const event of decodeSse(reusedChunks(64 * MiB, 64 * 1024 - 1, 16 * 1024), {
      limits: limits(),
    })) {
      if (event.data !== expectedData(events, 16 * 1024)) {
        expect(event.data).toBe(expectedData(events, 16 * 1024));
      }
      events++;
    }
    expect(events).toBeGreaterThan(2000);
  });
});
