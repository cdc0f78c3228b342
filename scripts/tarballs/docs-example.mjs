// The example docs/durable-send.md opens with (docs/durable-send.md#in-one-example), run as a user runs it:
// its first `ts` block saved as example.ts in this project, where the installed tarballs are, and run by Node
// itself (Node 24 strips the types). Every `console.log(…); // <words>` line must print its comment's words,
// in order, and nothing else. Usage: node docs-example.mjs <path of docs/durable-send.md>
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const page = readFileSync(process.argv[2] ?? 'docs/durable-send.md', 'utf8');
const section = page.slice(page.indexOf('\n## In one example\n'));
const block = /\n```ts\n([\s\S]*?)\n```\n/.exec(section)?.[1];
assert.ok(block !== undefined, 'docs/durable-send.md#in-one-example has no ts block');
const expected = [...block.matchAll(/console\.log\(.*\); \/\/ (.+)$/gm)].map((match) => match[1]);
assert.ok(expected.length > 0, 'the example prints nothing to compare');
writeFileSync('example.ts', `${block}\n`);
const stdout = execFileSync(process.execPath, ['example.ts'], { encoding: 'utf8', timeout: 60_000 });
assert.deepEqual(stdout.split('\n'), [...expected, '']);
console.log(`docs/durable-send.md's example ran as written: ${expected.join(' / ')}`);
