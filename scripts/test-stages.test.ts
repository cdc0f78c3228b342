/**
`npm test`'s runner, scripts/test-stages.mjs, over stages given as arguments: a green stage is one line with
its summary and none of its output, a failing one prints its whole output and stops the run with its code.
*/
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { repositoryRoot } from './source-facts.js';

const runner = join(repositoryRoot, 'scripts', 'test-stages.mjs');
// Each stage prints through escapes, so the words it prints are not in the command line the runner shows.
const stage = (script: string) => `node -e ${JSON.stringify(script)}`;

it('prints one line per green stage with its summary, and a failing stage whole, then stops', async () => {
  const stages = [
    stage(
      "console.log('a lint \\u0069nfo nobody asked for'); console.log('Checked 12 files in 40ms. No fixes applied.')",
    ),
    stage("console.error('[\\u004dSW] an error a test expects'); console.log('Tests: 3 passed, 0 failed')"),
    stage("console.error('the real failure'); process.exit(3)"),
    stage("console.log('never \\u0072un')"),
  ];
  const failed = await promisify(execFile)(process.execPath, [runner, ...stages], {
    cwd: repositoryRoot,
    env: { ...process.env, SURECALL_STAGE_LOGS: mkdtempSync(join(tmpdir(), 'surecall-stages-')) },
  }).then(
    () => undefined,
    (error: { code: number; stdout: string }) => error,
  );
  expect(failed?.code).toBe(3);
  const lines = (failed?.stdout ?? '').split('\n');
  expect(lines.slice(0, 4)).toEqual([
    `… 1/4 ${stages[0]}`,
    expect.stringMatching(/^✓ node -e .* \(\d+\.\d s\): Checked 12 files in 40ms\. No fixes applied\.$/),
    `… 2/4 ${stages[1]}`,
    expect.stringMatching(/^✓ node -e .* \(\d+\.\d s\): Tests: 3 passed, 0 failed$/),
  ]);
  const output = failed?.stdout ?? '';
  expect(output).not.toContain('a lint info nobody asked for');
  expect(output).not.toContain('[MSW]');
  expect(output).toContain('the real failure');
  expect(output).toMatch(/✗ node -e .* failed \(exit 3, \d+\.\d s\); its output is above and in (\S+)\n$/);
  expect(output).not.toContain('never run');
  const log = /its output is above and in (\S+)\n$/.exec(output)?.[1] ?? '';
  expect(readFileSync(log, 'utf8')).toBe('the real failure\n');
});
