import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileForChild } from '../support/child-build.js';

// The child's whole V8 heap, in MiB: less than the text of the literal it reads would take at one heap object
// per digit (about 32 bytes each), and room for the one decoded copy of the document that parseJson keeps for
// JSON.parse.
const heapMiB = 48;
const digits = 8 * 1024 * 1024;

let directory = '';
let fixture = '';
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-json-memory-'));
  fixture = await compileForChild('test/support/json-child.ts', join(directory, 'build'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function parseInChild(shape: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [`--max-old-space-size=${heapMiB}`, '--max-semi-space-size=1', fixture, shape, String(digits)],
      { maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : (error.code as number | null), out: stdout, err: stderr });
      },
    );
  });
}

// docs/protocol-checks.md#bounded-json: a number is read in O(length) time and O(1) extra memory. The bound
// is the heap of a child process, so the result does not depend on timing or on the machine's load.
describe('reading a number literal of 8 Mi digits in a 48 MiB heap', () => {
  it.each([
    ['an integer', 'integer', { outcome: 'refused', rule: 'non-finite' }],
    ['a fraction with an exponent', 'fraction', { outcome: 'accepted', value: '200000' }],
    ['an exponent', 'exponent', { outcome: 'refused', rule: 'non-finite' }],
  ])(
    '%s',
    async (_name, shape, expected) => {
      const { code, out, err } = await parseInChild(shape);
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(out)).toStrictEqual(expected);
      // A child process that reads 8 MiB: seconds on a loaded machine.
    },
    60_000,
  );
});
