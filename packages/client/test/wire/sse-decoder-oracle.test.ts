import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { InvalidResponseError } from '../../src/core/errors.js';
import { defaultLimits } from '../../src/core/limits.js';
import { createSseDecoder, type SseDecoder, type SseEvent, type SseLimits } from '../../src/wire/sse.js';
import { createOracleDecoder } from './sse-oracle.js';

// The decoder finds lines in the text of each chunk; the oracle is the byte-at-a-time decoder it replaced,
// which decoded each field on its own. Both must agree on every event and on the first violation, whatever
// the chunking.

const encoder = new TextEncoder();

type Part = string | readonly number[];

const fragments: Part[] = [
  'data',
  'data:',
  'data: ',
  'event:',
  'event: ',
  'id:',
  'retry:',
  'retry: ',
  'foo:',
  ':',
  ' ',
  'x',
  'a long run of plain text',
  '\t',
  '7',
  '42',
  '\r',
  '\n',
  '\r\n',
  '\n\n',
  'é',
  '東',
  '🙂',
  '\uFEFF',
  '\uFFFD',
  [0],
  [0xff],
  [0xe6],
  [0x80],
  [0xe2, 0x82],
  [0xac],
  [0xf0, 0x90],
  [0xe0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xef, 0xbb],
  [0xef, 0xbf],
  [0xbd],
];

function bytes(parts: readonly Part[]): Uint8Array {
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

type Outcome = { readonly events: SseEvent[]; readonly error?: unknown };

// Every chunk is copied into one buffer that the next chunk overwrites, as a reader reusing its buffer would.
function run(decoder: SseDecoder, input: Uint8Array, points: readonly number[]): Outcome {
  const events: SseEvent[] = [];
  const shared = new Uint8Array(input.length + 8);
  try {
    for (let index = 1; index < points.length; index++) {
      const start = points[index - 1] as number;
      const end = points[index] as number;
      const offset = (index * 3) % 8;
      shared.set(input.subarray(start, end), offset);
      decoder.push(shared.subarray(offset, offset + end - start), (event) => events.push(event));
      shared.fill(0x41);
    }
  } catch (error) {
    // Compared by shape: the decoder loaded without Buffer has its own copy of the error classes.
    expect((error as Error).name).toBe('InvalidResponseError');
    const refused = error as InvalidResponseError;
    return { events, error: { ...refused.toJSON(), violation: refused.violation } };
  }
  return { events };
}

const chunking = (length: number) =>
  fc.oneof(
    fc.constant(Array.from({ length: length + 1 }, (_, index) => index)),
    fc
      .uniqueArray(fc.nat(), { maxLength: 12 })
      .map((cuts) => [0, ...cuts.map((cut) => cut % (length + 1)).sort((a, b) => a - b), length]),
  );

function check(bounds: SseLimits, maxParts: number, numRuns: number): Promise<void> {
  return fc.assert(
    fc.asyncProperty(
      fc
        .array(fc.constantFrom(...fragments), { maxLength: maxParts })
        .map(bytes)
        .chain((input) => fc.tuple(fc.constant(input), chunking(input.length))),
      async ([input, points]) => {
        expect(run(createSseDecoder(bounds), input, points)).toStrictEqual(
          run(createOracleDecoder(bounds), input, points),
        );
      },
    ),
    { numRuns },
  );
}

describe('createSseDecoder against the byte-at-a-time decoder it replaced', () => {
  it('agrees at tight bounds, every bound reachable', async () => {
    await check(
      {
        sseLineBytes: 24,
        sseEventBytes: 40,
        sseTotalBytes: 260,
        sseEvents: 6,
        streamIdleTimeoutMs: defaultLimits.streamIdleTimeoutMs,
      },
      60,
      1500,
    );
  });

  it('agrees at the default bounds on longer streams', async () => {
    await check(
      {
        sseLineBytes: defaultLimits.sseLineBytes,
        sseEventBytes: defaultLimits.sseEventBytes,
        sseTotalBytes: defaultLimits.sseTotalBytes,
        sseEvents: defaultLimits.sseEvents,
        streamIdleTimeoutMs: defaultLimits.streamIdleTimeoutMs,
      },
      300,
      500,
    );
  });
});

describe('createSseDecoder where the platform has no native byte search', () => {
  it('agrees with the byte-at-a-time decoder too', async () => {
    vi.stubGlobal('Buffer', undefined);
    vi.resetModules();
    try {
      const { createSseDecoder: withoutBuffer } = await import('../../src/wire/sse-decoder.js');
      const bounds: SseLimits = {
        sseLineBytes: 24,
        sseEventBytes: 40,
        sseTotalBytes: 260,
        sseEvents: 6,
        streamIdleTimeoutMs: defaultLimits.streamIdleTimeoutMs,
      };
      await fc.assert(
        fc.asyncProperty(
          fc
            .array(fc.constantFrom(...fragments), { maxLength: 60 })
            .map(bytes)
            .chain((input) => fc.tuple(fc.constant(input), chunking(input.length))),
          async ([input, points]) => {
            expect(run(withoutBuffer(bounds), input, points)).toStrictEqual(
              run(createOracleDecoder(bounds), input, points),
            );
          },
        ),
        { numRuns: 500 },
      );
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});
