/**
@module
A child process for `test/wire/json-memory.test.ts`: it parses one long number literal under a heap the test
caps on the command line, and reports the outcome on stdout as one JSON object. A scanner that built the
literal's text one character at a time would need dozens of bytes of heap per digit and die of it; one that
reads numbers in constant memory finishes.

Arguments: `<shape> <digits>`, where shape is `integer` (`9…9`), `fraction` (`1.9…9e5`) or `exponent`
(`1e9…9`).
*/
import { JsonError, parseJson } from '../../src/wire/json.js';

const [shape = 'integer', count = '0'] = process.argv.slice(2);
const digits = Number(count);
const prefix = shape === 'fraction' ? '1.' : shape === 'exponent' ? '1e' : '';
const suffix = shape === 'fraction' ? 'e5' : '';
const bytes = new Uint8Array(prefix.length + digits + suffix.length).fill(0x39);
new TextEncoder().encodeInto(prefix, bytes);
new TextEncoder().encodeInto(suffix, bytes.subarray(prefix.length + digits));

const limits = {
  jsonDepth: 64,
  jsonEntries: 8192,
  jsonValues: 131_072,
  jsonStringBytes: 1024,
  jsonKeyBytes: 1024,
  maxBytes: bytes.length,
};
try {
  const value = parseJson(bytes, limits);
  process.stdout.write(`${JSON.stringify({ outcome: 'accepted', value: String(value) })}\n`);
} catch (error) {
  process.stdout.write(
    `${JSON.stringify(error instanceof JsonError ? { outcome: 'refused', rule: error.rule } : { outcome: 'threw' })}\n`,
  );
}
