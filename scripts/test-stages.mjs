// `npm test`'s runner (CONTRIBUTING.md#contributing-to-surecall, "What `npm test` runs"): the stages of
// package.json's `test:stages`, in order, stopping at the first failure. A stage's output goes to
// test-results/stages/<n>-<name>.log; the terminal gets one line when it starts and one when it ends, with
// its time and its own summary (the test count, the sizes, the files checked), so a green run reads in a
// screen and holds no lint infos or the errors a test expects. A failing stage's whole output is printed,
// then the run stops with its exit code.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
// The stages: package.json's `test:stages`, or the commands given as arguments (scripts/test-stages.test.ts).
const stages =
  process.argv.length > 2
    ? process.argv.slice(2)
    : JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts['test:stages'].split(' && ');
// SURECALL_STAGE_LOGS moves them (scripts/test-stages.test.ts writes its own stages' logs to a scratch folder, not
// beside a real run's).
const logs = process.env.SURECALL_STAGE_LOGS ?? join(root, 'test-results', 'stages');
mkdirSync(logs, { recursive: true });

// What each stage says about itself on success, read from its output: the lines that match, joined.
const summaries = [
  /^Checked \d+ files? in .*$/,
  /^\s*Size: .*$/,
  /^Tests: \d+ passed, \d+ failed$/,
  /^\s*\d+ passed( \(.*\))?$/,
  /^\s*\d+ (skipped|flaky)$/,
  /^every tarball works as installed.*$/,
];

/** A stage's summary: the lines of `output` a pattern of {@link summaries} matches, in order. */
function summaryOf(output) {
  const lines = output.split('\n').filter((line) => summaries.some((pattern) => pattern.test(line)));
  return lines
    .map((line) =>
      line
        .trim()
        .replace(/ with all dependencies, minified and gzipped$/, '')
        .replace(/\s+/g, ' '),
    )
    .join('; ');
}

function run(command, log) {
  return new Promise((done) => {
    const child = spawn(command, {
      cwd: root,
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.env,
    });
    let output = '';
    const keep = (chunk) => {
      output += chunk.toString('utf8');
      log.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code, signal) => done({ code: code ?? (signal === null ? 1 : 130), output }));
  });
}

for (const [index, command] of stages.entries()) {
  const name = command.replace(/^npm run /, '').replace(/[^A-Za-z0-9:._-]+/g, '-');
  const path = join(logs, `${index + 1}-${name.replaceAll(':', '-')}.log`);
  const log = createWriteStream(path);
  process.stdout.write(`… ${index + 1}/${stages.length} ${command}\n`);
  const started = Date.now();
  const { code, output } = await run(command, log);
  await new Promise((done) => log.end(done));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (code !== 0) {
    process.stdout.write(
      `${output}\n✗ ${command} failed (exit ${code}, ${seconds} s); its output is above and in ${path}\n`,
    );
    process.exit(code);
  }
  const summary = summaryOf(output);
  process.stdout.write(`✓ ${command} (${seconds} s)${summary === '' ? '' : `: ${summary}`}\n`);
}
process.stdout.write(`every stage passed; their output is in ${logs}\n`);
