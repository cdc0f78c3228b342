// The runtime × check matrix of the installed tarballs (docs/interop.md#runtimes), printed by
// scripts/tarballs.sh once `runtimes.mjs` has run in Node, Bun and Deno and `workerd.mjs` in workerd: one row
// per check, one column per runtime, each cell `pass` with what the runtime saw. Every check a runtime wrote
// held (a failed one exited before writing); a check missing from a runtime fails here unless that runtime
// cannot run it: workerd has no file journal, Node runs first and so opens no journal of another runtime, and
// only workerd's `@surecall/client/ledger` is the refusal. Argument: the folder of the
// `<runtime>.checks.json` files.
import { readFileSync } from 'node:fs';

const runtimes = ['node', 'bun', 'deno', 'workerd'];
const folder = process.argv[2] ?? '';
const cannot = {
  node: (name) => name === 'the journal another runtime wrote' || name === '@surecall/client/ledger',
  bun: (name) => name === '@surecall/client/ledger',
  deno: (name) => name === '@surecall/client/ledger',
  workerd: (name) =>
    name.startsWith('file ledger') ||
    name === 'a durable send, file ledger' ||
    name === 'the journal another runtime wrote',
};

const seen = new Map(
  runtimes.map((runtime) => {
    const report = JSON.parse(readFileSync(`${folder}/${runtime}.checks.json`, 'utf8'));
    if (report.runtime !== runtime || report.checks.length === 0) {
      throw new Error(`${runtime}.checks.json is not ${runtime}'s report`);
    }
    return [runtime, new Map(report.checks)];
  }),
);
// The checks in the order the runtimes ran them: each one's own order, merged.
const names = [...new Set(runtimes.flatMap((runtime) => [...seen.get(runtime).keys()]))];
const cell = (text) => text.replaceAll('|', '\\|');
const rows = names.map((name) => {
  const cells = runtimes.map((runtime) => {
    const found = seen.get(runtime).get(name);
    if (found !== undefined) {
      return `pass: ${cell(found)}`;
    }
    if (!cannot[runtime](name)) {
      throw new Error(`${runtime} did not run the check "${name}"`);
    }
    return '—';
  });
  return `| ${cell(name)} | ${cells.join(' | ')} |`;
});
console.log(
  [
    `the installed tarballs, runtime × check (${names.length} checks):`,
    '',
    `| check | ${runtimes.join(' | ')} |`,
    `| --- | ${runtimes.map(() => '---').join(' | ')} |`,
    ...rows,
  ].join('\n'),
);
