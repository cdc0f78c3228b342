/**
`npm run bench -- schema`: what the protocol contract costs on the ~2 MiB ListTasks page, side by side with
`JSON.parse` of the same page. `schema-validate` is the zod/mini decode alone; `decode-page` is the whole
receive path (bounded parse, then decode) against `JSON.parse` alone, which is what a client without either
check would pay.
*/
import { decode } from '../packages/client/src/protocol/decode.js';
import { ListTasksResponse } from '../packages/client/src/protocol/requests.js';
import { parseJson } from '../packages/client/src/wire/json.js';
import { listTasksPage } from './fixtures.js';
import { type BenchRow, row, sideBySide, timeMs } from './harness.js';

const runs = 7;
// Decodes per timed sample, so one sample lasts tens of milliseconds and timer resolution does not matter.
const perSample = 5;

const collect: () => void = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/**
A sampler reporting the mean milliseconds of one call over a batch, after a collection so garbage from the
other side is not charged to it.
*/
function perCall(work: () => unknown): () => Promise<number> {
  return async () => {
    collect();
    const total = await timeMs(() => {
      for (let call = 0; call < perSample; call++) {
        work();
      }
    });
    return total / perSample;
  };
}

function decodePage(value: unknown): void {
  // A page that does not decode measures nothing: fail the bench instead.
  if (!decode(ListTasksResponse, value).ok) {
    throw new Error('the benchmark page does not decode');
  }
}

/**
Measures `schema-validate` (decode of the parsed page against `JSON.parse` of its text) and `decode-page`
(`parseJson` + decode against `JSON.parse` + `TextDecoder`, both from the same bytes).
*/
export async function run(): Promise<BenchRow[]> {
  const bytes = listTasksPage();
  const text = new TextDecoder().decode(bytes);
  const value: unknown = JSON.parse(text);
  const validate = await sideBySide(
    runs,
    perCall(() => decodePage(value)),
    perCall(() => JSON.parse(text)),
  );
  const page = await sideBySide(
    runs,
    perCall(() => decodePage(parseJson(bytes))),
    perCall(() => JSON.parse(new TextDecoder().decode(bytes))),
  );
  return [
    row('schema-validate', 'ms', validate, 'JSON.parse', { op: '<=', ratio: 3.0 }),
    row('decode-page', 'ms', page, 'JSON.parse + TextDecoder', { op: '<=', ratio: 3.0 }),
  ];
}
