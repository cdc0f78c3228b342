/**
SSE decoding, ours (`decodeSse`, every bound enforced at the defaults) against eventsource-parser@3.1.1 fed the way it is used (`TextDecoder` streaming decode of each chunk, then `feed`), on one deterministic ~64 MiB A2A HTTP+JSON stream of 4,096 artifact updates with ~16 KiB of text each, one word in ten multi-byte. Both sides consume every event's data (summing its length) and read the same chunks from the same async iterable.
*/
import { createParser } from 'eventsource-parser';
import { resolveLimits } from '../packages/client/src/core/limits.js';
import { decodeSse } from '../packages/client/src/wire/sse.js';
import { type BenchRow, row, sideBySide } from './harness.js';

const MiB = 1024 * 1024;
const events = 4096;
// Event sizes vary between 15,900 and 16,299 bytes (~62.9 MiB in all): with a fixed 16 KiB every chunk boundary would
// fall exactly between two events, which no real stream does, and no line would ever span two chunks.
const eventBytes = (index: number): number => 15_900 + ((index * 7919) % 400);
const runs = 5;
const anchorName = 'eventsource-parser@3.1.1';
// Every bound is enforced at its default; the workload sits exactly at the event-count bound (4,096) and just under the
// total one (64 MiB).
const limits = resolveLimits();

const words = [
  'agent',
  'task',
  'stream',
  'artifact',
  'context',
  'message',
  'status',
  'update',
  'part',
  'text',
];
const multiByte = ['naïve', 'größe', '東京', '🙂'];

function buildStream(): Uint8Array {
  const encoder = new TextEncoder();
  const sizes = new Map([...words, ...multiByte].map((word) => [word, encoder.encode(word).length + 1]));
  let total = 0;
  for (let i = 0; i < events; i++) {
    total += eventBytes(i);
  }
  const out = new Uint8Array(total);
  let seed = 0x2545f491;
  let at = 0;
  for (let i = 0; i < events; i++) {
    const id = String(i).padStart(4, '0');
    const head = `data: {"artifactUpdate":{"taskId":"task-${id}","contextId":"ctx-${id}","artifact":{"artifactId":"a1","parts":[{"text":"`;
    const tail = '"}]},"append":true}}\n\n';
    const budget = eventBytes(i) - encoder.encode(head + tail).length;
    const text: string[] = [];
    let textBytes = 0;
    for (;;) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const pick = seed >>> 8;
      const word =
        pick % 10 === 0
          ? (multiByte[(pick >>> 4) % multiByte.length] as string)
          : (words[pick % 10] as string);
      const size = sizes.get(word) as number;
      if (textBytes + size > budget) {
        break;
      }
      text.push(word);
      textBytes += size;
    }
    const padding = 'x'.repeat(budget - textBytes);
    at += encoder.encodeInto(`${head}${text.join(' ')} ${padding}${tail}`, out.subarray(at)).written;
  }
  if (at !== out.length) {
    throw new Error('the workload is not exactly the intended size');
  }
  return out;
}

async function* feed(stream: Uint8Array, chunkBytes: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < stream.length; at += chunkBytes) {
    yield stream.subarray(at, at + chunkBytes);
  }
}

type Probe = (eventIndex: number) => void;

async function ours(stream: Uint8Array, chunkBytes: number, probe?: Probe): Promise<number> {
  let sum = 0;
  let count = 0;
  for await (const event of decodeSse(feed(stream, chunkBytes), { limits })) {
    sum += event.data.length;
    probe?.(count++);
  }
  return sum;
}

async function anchor(stream: Uint8Array, chunkBytes: number, probe?: Probe): Promise<number> {
  let sum = 0;
  let count = 0;
  const parser = createParser({
    onEvent: (event) => {
      sum += event.data.length;
      probe?.(count++);
    },
  });
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of feed(stream, chunkBytes)) {
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  return sum;
}

type Decode = (stream: Uint8Array, chunkBytes: number, probe?: Probe) => Promise<number>;

function throughput(
  decode: Decode,
  stream: Uint8Array,
  chunkBytes: number,
  expected: number,
): () => Promise<number> {
  return async () => {
    const start = performance.now();
    const sum = await decode(stream, chunkBytes);
    const seconds = (performance.now() - start) / 1000;
    if (sum !== expected) {
      throw new Error('the two decoders disagree on the data');
    }
    return stream.length / MiB / seconds;
  };
}

// Peak growth of live memory, JS heap plus ArrayBuffers (our buffers are ArrayBuffers), sampled every 64 events right
// after a full gc(): without it the samples would mostly count decoded strings V8 has not collected yet, that is the
// young generation's sizing (semi-spaces of up to 16 MiB), not what the decoder holds.
function memory(
  decode: Decode,
  stream: Uint8Array,
  chunkBytes: number,
  gc: () => void,
): () => Promise<number> {
  const live = (): number => {
    gc();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  return async () => {
    const baseline = live();
    let peak = baseline;
    await decode(stream, chunkBytes, (index) => {
      if (index % 64 === 0) {
        peak = Math.max(peak, live());
      }
    });
    return (peak - baseline) / MiB;
  };
}

/** The `sse-*` rows of `npm run bench`. */
export async function run(): Promise<BenchRow[]> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) {
    throw new Error('run the benchmark with node --expose-gc');
  }
  const stream = buildStream();
  const expected = await anchor(stream, 64 * 1024);
  const rows: BenchRow[] = [];
  for (const [name, chunkBytes, ratio] of [
    ['sse-throughput-64k', 64 * 1024, 3.0],
    ['sse-throughput-16k', 16 * 1024, 1.0],
  ] as const) {
    const measured = await sideBySide(
      runs,
      throughput(ours, stream, chunkBytes, expected),
      throughput(anchor, stream, chunkBytes, expected),
    );
    rows.push(row(name, 'MiB/s', measured, anchorName, { op: '>=', ratio }));
  }
  const peak = await sideBySide(
    runs,
    memory(ours, stream, 64 * 1024, gc),
    memory(anchor, stream, 64 * 1024, gc),
  );
  const relative = row('sse-memory', 'MiB', peak, anchorName, { op: '<=', ratio: 1 });
  // The goal is absolute (CONTRIBUTING.md#benchmarks: at most 8 MiB of growth while decoding ~64 MiB); the ratio is context.
  rows.push({ ...relative, goal: 'value <= 8 MiB', met: peak.ours <= 8 });
  return rows;
}
