/**
`npm run bench -- json`: our strict bounded parser against the two parsers a caller could use instead, on the
same ~2 MiB ListTasks page; and against `JSON.parse` on a 2 MiB integer literal, which the scanner must read
in linear time and constant memory (docs/protocol-checks.md#bounded-json).
*/
import { parse as losslessParse } from 'lossless-json';
import { parseJson } from '../packages/client/src/wire/json.js';
import { listTasksPage } from './fixtures.js';
import { type BenchRow, row, sideBySide, timeMs } from './harness.js';

const runs = 7;
// Parses per timed sample, so one sample lasts tens of milliseconds and timer resolution does not matter;
// lossless-json takes about ten times longer per parse, so fewer of its parses make a sample as long.
const parsesPerSample = 10;
const losslessParsesPerSample = 3;

/** A sampler reporting the mean milliseconds of one parse over a batch. */
function perParse(work: () => unknown, parses = parsesPerSample): () => Promise<number> {
  return async () => {
    const total = await timeMs(() => {
      for (let parse = 0; parse < parses; parse++) {
        work();
      }
    });
    return total / parses;
  };
}

/**
Measures `json-parse` (against `JSON.parse` of the decoded text) and `json-parse-lossless` (against
lossless-json, which also refuses duplicate keys).
*/
export async function run(): Promise<BenchRow[]> {
  const bytes = listTasksPage();
  const text = new TextDecoder().decode(bytes);
  const native = await sideBySide(
    runs,
    perParse(() => parseJson(bytes)),
    // The anchor pays for its decoding too: both sides start from the same bytes.
    perParse(() => JSON.parse(new TextDecoder().decode(bytes))),
  );
  const lossless = await sideBySide(
    runs,
    perParse(() => parseJson(text), losslessParsesPerSample),
    perParse(() => losslessParse(text), losslessParsesPerSample),
  );
  // A hostile answer: one integer literal filling the 2 MiB body bound. We refuse it (non-finite); JSON.parse
  // reads it as Infinity.
  const literal = new Uint8Array(2 * 1024 * 1024).fill(0x39);
  const longNumber = await sideBySide(
    runs,
    perParse(() => {
      try {
        parseJson(literal);
      } catch {
        // The refusal is the expected outcome: its cost is what is measured.
      }
    }),
    perParse(() => JSON.parse(new TextDecoder().decode(literal))),
  );
  return [
    row('json-parse', 'ms', native, 'JSON.parse + TextDecoder', { op: '<=', ratio: 2.0 }),
    row('json-long-number', 'ms', longNumber, 'JSON.parse + TextDecoder', { op: '<=', ratio: 2.0 }),
    row('json-parse-lossless', 'ms', lossless, 'lossless-json parse', { op: '<=', ratio: 1.0 }),
  ];
}
