// The README's walkthrough of the surecall command (README.md#the-surecall-command), run as written: its one
// `sh` block, in this directory, where the installed tarballs put `surecall` and `surecall-mock-agent` in
// node_modules/.bin. The block ends with `surecall devtools`, which serves until stopped: once it prints its
// link, this checks what every command printed, that the lost answer was reconciled with one execution (the
// agent's own counter, by the record's message id), and that the devtools serve the app and the same ledger,
// then stops the block's process group.
// Usage: node walkthrough.mjs <path of README.md>
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const readme = readFileSync(process.argv[2] ?? 'README.md', 'utf8');
const section = readme.slice(readme.indexOf('\n## The surecall command\n'));
const block = /\n```sh\n([\s\S]*?)\n```\n/.exec(section)?.[1];
assert.ok(block !== undefined, "README.md's surecall section has no sh block");
writeFileSync('walkthrough.sh', `${block}\n`);
// A user's first run: no ledger yet, so every record the commands print is this run's.
assert.ok(!existsSync('.surecall'), 'run the walkthrough in a directory with no .surecall yet');

// The block names port 4100: a port already taken would make the curl loop reach someone else's server.
await new Promise((done, fail) => {
  const probe = createServer().once('error', () =>
    fail(new Error('port 4100 is taken: the walkthrough needs it')),
  );
  probe.listen(4100, '127.0.0.1', () => probe.close(done));
});

const npxPath = `${resolve('node_modules/.bin')}:${process.env.PATH ?? ''}`;
// Its own process group, so that stopping it stops the agent the block started in the background too.
const child = spawn('bash', ['walkthrough.sh'], {
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, PATH: npxPath },
});
let stdout = '';
let stderr = '';
child.stdout.on('data', (chunk) => {
  stdout += chunk.toString('utf8');
});
child.stderr.on('data', (chunk) => {
  stderr += chunk.toString('utf8');
});
const exited = new Promise((done) => child.on('close', done));
const stop = () => {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
};

const devtoolsLine =
  /^surecall devtools over the ledger (\S+), read-only: (http:\/\/127\.0\.0\.1:\d+)\/#ledger=(\S+)$/m;
try {
  // Waits for the state (the devtools' link), bounded by a deadline, not for a time.
  const deadline = Date.now() + 180_000;
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  while (!devtoolsLine.test(stdout)) {
    assert.ok(!ended, 'the walkthrough ended before `surecall devtools` printed its link');
    assert.ok(Date.now() < deadline, 'the walkthrough did not reach `surecall devtools` within 3 minutes');
    await new Promise((done) => setTimeout(done, 100));
  }
  const journal = join(process.cwd(), '.surecall', 'ledgers', 'sends.jsonl');
  const card = 'http://127.0.0.1:4100/.well-known/agent-card.json';
  const lines = stdout.split('\n');
  const after = (pattern) => {
    const index = lines.findIndex((line) => pattern.test(line));
    assert.ok(index >= 0, `no line matches ${pattern}`);
    return lines.slice(index);
  };
  const token = /^READY 4100 token=(\S+)$/m.exec(stdout)?.[1];
  assert.ok(token !== undefined, 'the agent printed no READY line');
  assert.match(stdout, /^digest sha256:[0-9a-f]{64}$/m);
  assert.match(stdout, /^message: echo hello$/m);
  assert.match(stdout, /^COMPLETED: done\nstream closed after 5 frames$/m);
  assert.match(stdout, /^\{"id":"fault-\d+"\}$/m);
  // The durable send: the path it writes, then unknown, with the command that reconciles it.
  const [where, unknown, listed, summary] = after(/^ledger /);
  assert.equal(where, `ledger ${journal}`);
  const id = unknown.split(' ')[0];
  assert.equal(
    unknown,
    `${id} unknown (transport network): it may have run, so never resend it; reconcile it: surecall sends reconcile ${id} --ledger sends.jsonl --card ${card} --loopback`,
  );
  // `sends list` read the same file.
  assert.match(listed, new RegExp(`^unknown +\\d+s  ${id} unknown `));
  assert.equal(summary, '1 send, 1 not settled');
  // `sends reconcile` wrote the same file, and committed the send.
  const [again, committed, report] = lines.slice(lines.indexOf(summary) + 1);
  assert.equal(again, `ledger ${journal}`);
  assert.match(committed, new RegExp(`^${id} committed task \\S+: the agent accepted it$`));
  assert.equal(report, '1 claimed: 1 committed, 0 pending, 0 unresolved, 0 skipped, 0 superseded');
  assert.match(stdout, /^\{"total":3\}$/m);

  // The devtools over the same file: the app, and the record committed, whose message ran once.
  const [, served, origin, devtoolsToken] = devtoolsLine.exec(stdout);
  assert.equal(served, journal);
  const page = await fetch(`${origin}/`);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<!doctype html>/i);
  const answer = await fetch(`${origin}/api/ledger/records`, {
    headers: { authorization: `Bearer ${devtoolsToken}` },
  });
  const { records } = await answer.json();
  assert.deepEqual(
    records.map(({ record, status }) => [record.id, status]),
    [[id, 'committed']],
  );
  const messageId = records[0].record.attempts[0].messageId;
  const executions = await fetch(
    `http://127.0.0.1:4100/__executions?messageId=${encodeURIComponent(messageId)}`,
    {
      headers: { 'x-surecall-mock-token': token },
    },
  );
  assert.deepEqual((await executions.json()).byMessageId, { [messageId]: 1 });
  console.log(`the README's walkthrough ran as written: ${id} unknown, then committed, with one execution`);
} catch (error) {
  console.error(`walkthrough stdout:\n${stdout}\nwalkthrough stderr:\n${stderr}`);
  throw error;
} finally {
  stop();
  await exited;
}
