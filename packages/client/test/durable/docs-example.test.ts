/**
The example docs/durable-send.md opens with (docs/durable-send.md#in-one-example), run as written: its first
`ts` block, saved as a file in a scratch directory and run by Node in a child process under the workspace's
source condition (CONTRIBUTING.md#source-condition), where `@surecall/client` and `@surecall/mocks` resolve as
a user's installed packages would. Every `console.log(…); // <words>` line must print its comment's words, in
order, and nothing else may be printed.
*/
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const page = readFileSync(new URL('../../../../docs/durable-send.md', import.meta.url), 'utf8');
const section = page.slice(page.indexOf('\n## In one example\n'));
const block = /\n```ts\n([\s\S]*?)\n```\n/.exec(section)?.[1] ?? '';
// Where the example runs: inside the client's package, so its imports resolve through the workspace.
const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

it('docs/durable-send.md#in-one-example runs as written and prints what its comments say', async () => {
  const expected = [...block.matchAll(/console\.log\(.*\); \/\/ (.+)$/gm)].map((match) => match[1]);
  expect(expected).toEqual(['unknown', 'true', 'committed committed', '0', '1']);
  const scratch = await mkdtemp(join(packageRoot, '.docs-example-'));
  try {
    const file = join(scratch, 'example.ts');
    await writeFile(file, block);
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@surecall/source', '--import', import.meta.resolve('tsx'), file],
      { cwd: scratch, timeout: 60_000 },
    );
    expect(stderr).toBe('');
    expect(stdout.split('\n')).toEqual([...expected, '']);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}, 90_000);
