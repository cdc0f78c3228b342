/**
The `surecall` command end to end: the bin (`packages/cli/bin/surecall.js`, which runs the TypeScript source
in a clone of the repository) in a child process, against the mock agent on a loopback port in this process,
so the agent's own execution counter proves what the command did.
*/
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cardDigest, type JsonValue } from '@surecall/client';
import { openLedger } from '@surecall/client/ledger/file';
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whereRelativeNamesGo } from '../src/journal-view.js';
import { documents, start, surecall } from './support/surecall.js';

let mock: RunningMockAgent;
let directory: string;

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, stepMs: 5 });
  directory = await mkdtemp(join(tmpdir(), 'surecall-cli-'));
});

afterAll(async () => {
  await mock.close();
  await rm(directory, { recursive: true, force: true });
});

describe('surecall card', () => {
  it('prints the digest the library computes, and the card as one JSON document', async () => {
    const raw = (await (await fetch(mock.cardUrl)).json()) as JsonValue;
    const digest = await cardDigest(raw);
    const json = await surecall(['card', mock.cardUrl, '--loopback', '--json']);
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const [report, ...rest] = documents(json.stdout);
    expect(rest).toEqual([]);
    expect(report).toMatchObject({
      name: 'surecall mock agent',
      digest,
      honoursIdempotency: true,
      interfaces: [
        { binding: 'JSONRPC', preferred: true },
        { binding: 'HTTP+JSON', preferred: false },
      ],
    });
    const human = await surecall(['card', mock.cardUrl, '--loopback']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`digest ${digest}\n`);
    expect(human.stdout).toMatch(/\* JSONRPC +http:\/\/127\.0\.0\.1:\d+\/a2a\/jsonrpc/);
  });

  it('fails with exit code 1 and words when the card cannot be fetched', async () => {
    const run = await surecall(['card', 'http://127.0.0.1:9/.well-known/agent-card.json', '--loopback']);
    expect(run.code).toBe(1);
    // Nothing answered: a dead agent, not a refusal.
    expect(run.stderr).toBe(
      'surecall: nothing answered at the card URL: the agent is not running there, or not on that port (nothing was sent) (surecall discovery failed: Discovery (network))\n',
    );
  });

  it('names the flag that admits an http: card URL, and the address it admits', async () => {
    const plain = await surecall(['card', mock.cardUrl]);
    expect(plain).toMatchObject({
      code: 1,
      stderr:
        'surecall: the card URL must be https:, or http: to an agent on this machine (127.0.0.1 or [::1]) with --loopback (surecall discovery failed: Discovery (https-required))\n',
    });
    const named = await surecall(['card', mock.cardUrl.replace('127.0.0.1', 'localhost'), '--loopback']);
    expect(named.code).toBe(1);
    expect(named.stderr).toMatch(
      /^surecall: --loopback admits a literal loopback address only: write 127\.0\.0\.1/,
    );
  });
});

describe('surecall send', () => {
  it('answers a plain send with exit code 0, in words and as JSON', async () => {
    const human = await surecall(['send', mock.cardUrl, 'echo hello', '--loopback']);
    expect(human).toMatchObject({ code: 0, stdout: 'message: echo hello\n' });
    const json = await surecall([
      'send',
      mock.cardUrl,
      'task a b',
      '--loopback',
      '--json',
      '--binding',
      'HTTP+JSON',
    ]);
    expect(json.code).toBe(0);
    expect(documents(json.stdout)).toEqual([
      { status: 'answered', answer: { task: expect.objectContaining({ status: expect.any(Object) }) } },
    ]);
  });

  it('sends a data skill one data part and prints the data it answers', async () => {
    const run = await surecall([
      'send',
      mock.cardUrl,
      '--data',
      '{"a":1,"b":2}',
      '--skill',
      'sum',
      '--loopback',
    ]);
    expect(run).toMatchObject({ code: 0, stdout: 'message: {"sum":3}\n' });
    const unknownSkill = await surecall(['send', mock.cardUrl, 'hi', '--skill', 'nope', '--loopback']);
    expect(unknownSkill.code).toBe(2);
    expect(unknownSkill.stderr).toContain('the card lists no skill');
  });

  it('prints a stream’s states and artifact chunks as they arrive', async () => {
    const run = await surecall(['send', mock.cardUrl, 'task alpha beta', '--loopback', '--stream']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toEqual([
      expect.stringMatching(/^task \S+ SUBMITTED$/),
      'WORKING: working',
      'artifact text: alpha ',
      '  + text: beta (last chunk)',
      'COMPLETED: done',
      'stream closed after 5 frames',
      '',
    ]);
    const json = await surecall(['send', mock.cardUrl, 'task alpha', '--loopback', '--stream', '--json']);
    expect(documents(json.stdout).map((document) => Object.keys(document as object))).toEqual([
      ['event'],
      ['event'],
      ['event'],
      ['event'],
    ]);
  });

  it('a durable send whose answer is lost exits 3; sends reconcile then exits 0, with one execution', async () => {
    const ledger = join(directory, 'lost.jsonl');
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const sent = await surecall([
      'send',
      mock.cardUrl,
      'task book the 9:40 to Lyon',
      '--loopback',
      '--durable',
      '--ledger',
      ledger,
      '--delivery',
      'at-most-once',
      '--json',
    ]);
    expect(sent.code).toBe(3);
    const [record] = documents(sent.stdout) as { id: string; status: string }[];
    expect(record).toMatchObject({ status: 'unknown', reason: 'ambiguous-outcome', ledger });

    const listed = await surecall(['sends', 'list', '--ledger', ledger, '--json']);
    expect(listed.code).toBe(0);
    expect(documents(listed.stdout)).toEqual([
      { records: [expect.objectContaining({ id: record?.id, status: 'unknown' })] },
    ]);

    const reconciled = await surecall([
      'sends',
      'reconcile',
      '--ledger',
      ledger,
      '--card',
      mock.cardUrl,
      '--loopback',
    ]);
    expect(reconciled.code).toBe(0);
    expect(reconciled.stdout).toMatch(
      new RegExp(
        `^ledger ${ledger}\\n${record?.id} committed task \\S+: the agent accepted it\\n1 claimed: 1 committed, 0 pending, 0 unresolved, 0 skipped, 0 superseded\\n$`,
      ),
    );

    const opened = await openLedger({ name: ledger });
    const stored = await opened.get(record?.id ?? '');
    await opened.close();
    expect(stored?.state.status).toBe('committed');
    expect(mock.executions.of(stored?.attempts[0]?.messageId ?? '')).toBe(1);

    const again = await surecall([
      'sends',
      'reconcile',
      '--ledger',
      ledger,
      '--card',
      mock.cardUrl,
      '--loopback',
    ]);
    expect(again).toMatchObject({ code: 0, stdout: `ledger ${ledger}\nnothing is due\n` });
  });

  it('exits 1, sending nothing, when another process holds the ledger file', async () => {
    const ledger = join(directory, 'held.jsonl');
    const held = await openLedger({ name: ledger });
    const before = mock.executions.total();
    try {
      const run = await surecall([
        'send',
        mock.cardUrl,
        'task held',
        '--loopback',
        '--durable',
        '--ledger',
        ledger,
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^surecall: another process holds the ledger file/);
    } finally {
      await held.close();
    }
    expect(mock.executions.total()).toBe(before);
  });

  it('exits 1 for a send the agent refused before applying it', async () => {
    const run = await surecall(['send', mock.cardUrl, 'slow 0', '--loopback']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^surecall: the agent answered with an A2A error; nothing was applied/);
    // The agent's own words, after the client's (ARCHITECTURE.md#errors).
    expect(run.stderr).toContain('; the agent said: slow needs a whole number of seconds, 1 to 3600\n');
  });

  it('takes a token only from the environment or stdin, and never prints it', async () => {
    const token = 'secret-token-value-7f3a';
    const run = await surecall(
      ['send', mock.cardUrl, 'echo hi', '--loopback', '--token-env', 'SURECALL_TEST_TOKEN'],
      {
        SURECALL_TEST_TOKEN: token,
      },
    );
    expect(run.code).toBe(0);
    const unset = await surecall([
      'send',
      mock.cardUrl,
      'echo hi',
      '--loopback',
      '--token-env',
      'SURECALL_UNSET_VAR',
    ]);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('SURECALL_UNSET_VAR');
    // A token typed where its variable's name goes (one that is also a valid name) is never printed back.
    const typed = 'sk_live_4f9a2b7c1d8e6f3a0b5c9d2e7f1a4b8c';
    const mistaken = await surecall(['send', mock.cardUrl, 'echo hi', '--loopback', '--token-env', typed]);
    expect(mistaken.code).toBe(2);
    expect(mistaken.stderr).toContain('--token-env takes the variable');
    expect(`${mistaken.stdout}${mistaken.stderr}`).not.toContain(typed);
    const piped = await surecall(
      ['send', mock.cardUrl, 'echo hi', '--loopback', '--token-stdin'],
      {},
      `${token}\n`,
    );
    expect(piped.code).toBe(0);
    const empty = await surecall(['send', mock.cardUrl, 'echo hi', '--loopback', '--token-stdin'], {}, '');
    expect(empty.code).toBe(2);
    for (const output of [run.stdout, run.stderr, unset.stdout, unset.stderr, piped.stdout, piped.stderr]) {
      expect(output).not.toContain(token);
    }
  });
});

describe('trust and pins', () => {
  it('sends through a pinned interface, and refuses a card that is not the one --digest names', async () => {
    const raw = (await (await fetch(mock.cardUrl)).json()) as JsonValue;
    const digest = await cardDigest(raw);
    const pinned = await surecall([
      'send',
      mock.cardUrl,
      'echo pinned',
      '--loopback',
      '--pin',
      `${mock.origin}/a2a/jsonrpc`,
      '--digest',
      digest,
    ]);
    expect(pinned).toMatchObject({ code: 0, stdout: 'message: echo pinned\n' });
    const unpinned = await surecall([
      'send',
      mock.cardUrl,
      'echo x',
      '--loopback',
      '--pin',
      `${mock.origin}/other`,
    ]);
    expect(unpinned.code).toBe(1);
    expect(unpinned.stderr).toMatch(/^surecall: the agent card was refused: /);
    const other = await surecall([
      'send',
      mock.cardUrl,
      'echo x',
      '--loopback',
      '--digest',
      `sha256:${'0'.repeat(64)}`,
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('not the one --digest names');
  });
});

describe('a relative --ledger', () => {
  it('is one file for send, list, show, watch and reconcile, under ./.surecall/ledgers, and is printed', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'surecall-cwd-'));
    const journal = join(cwd, '.surecall', 'ledgers', 'sends.jsonl');
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const sent = await surecall(
      ['send', mock.cardUrl, 'task relative', '--loopback', '--durable', '--ledger', 'sends.jsonl'],
      {},
      undefined,
      cwd,
    );
    expect(sent.code).toBe(3);
    const [where, outcome] = sent.stdout.split('\n');
    expect(where).toBe(`ledger ${journal}`);
    const id = outcome?.split(' ')[0] ?? '';
    expect(outcome).toBe(
      `${id} unknown (transport network): it may have run, so never resend it; reconcile it: surecall sends reconcile ${id} --ledger sends.jsonl --card ${mock.cardUrl} --loopback`,
    );

    // `./sends.jsonl` and `sends.jsonl` are one name, for the readers as for the writers.
    const listed = await surecall(
      ['sends', 'list', '--ledger', './sends.jsonl', '--json'],
      {},
      undefined,
      cwd,
    );
    expect(documents(listed.stdout)).toEqual([
      { records: [expect.objectContaining({ id, status: 'unknown' })] },
    ]);
    const shown = await surecall(['sends', 'show', id, '--ledger', 'sends.jsonl'], {}, undefined, cwd);
    expect(shown.code).toBe(0);
    // A reader knows the ledger and the interface, not the card: the person fills in --card.
    expect(shown.stdout.split('\n')[0]).toBe(
      `${id} unknown (transport network): it may have run, so never resend it; reconcile it: surecall sends reconcile ${id} --ledger sends.jsonl --card <card-url> --loopback`,
    );
    const watcher = start(['sends', 'watch', '--ledger', './sends.jsonl', '--json'], {}, undefined, cwd);
    try {
      await expect
        .poll(() => documents(watcher.stdout()), { timeout: 30_000 })
        .toEqual([expect.objectContaining({ id, status: 'unknown' })]);
    } finally {
      watcher.child.kill('SIGTERM');
    }
    expect((await watcher.done).code).toBe(0);

    const reconciled = await surecall(
      ['sends', 'reconcile', '--ledger', './sends.jsonl', '--card', mock.cardUrl, '--loopback'],
      {},
      undefined,
      cwd,
    );
    expect(reconciled.code).toBe(0);
    expect(reconciled.stdout.split('\n').slice(0, 2)).toEqual([
      `ledger ${journal}`,
      expect.stringMatching(new RegExp(`^${id} committed task \\S+: the agent accepted it$`)),
    ]);
    const opened = await openLedger({ name: journal });
    const stored = await opened.get(id);
    await opened.close();
    expect(mock.executions.of(stored?.attempts[0]?.messageId ?? '')).toBe(1);

    // SURECALL_LEDGER_DIR moves every command's relative names alike; a reader that looks elsewhere says
    // where.
    const moved = await surecall(
      ['sends', 'list', '--ledger', 'sends.jsonl'],
      { SURECALL_LEDGER_DIR: 'elsewhere' },
      undefined,
      cwd,
    );
    expect(moved).toMatchObject({
      code: 2,
      stderr: `surecall: no ledger file at ${join(cwd, 'elsewhere', 'sends.jsonl')}: ${whereRelativeNamesGo}\n`,
    });
    await rm(cwd, { recursive: true, force: true });
  });
});

describe('surecall sends watch', () => {
  it('follows a ledger another process writes, without locking it, until stopped', async () => {
    const ledger = join(directory, 'watched.jsonl');
    const first = await surecall([
      'send',
      mock.cardUrl,
      'echo one',
      '--loopback',
      '--durable',
      '--ledger',
      ledger,
    ]);
    expect(first.code).toBe(0);
    const watcher = start(['sends', 'watch', '--ledger', ledger, '--json']);
    const stdout = () => watcher.stdout();
    try {
      await expect.poll(() => documents(stdout()).length, { timeout: 30_000 }).toBe(1);
      // The watcher holds no lock: this send takes the journal's lock and writes while it watches.
      const second = await surecall([
        'send',
        mock.cardUrl,
        'echo two',
        '--loopback',
        '--durable',
        '--ledger',
        ledger,
        '--json',
      ]);
      expect(second.code).toBe(0);
      const { id } = documents(second.stdout)[0] as { id: string };
      await expect
        .poll(() => documents(stdout()).filter((document) => (document as { id: string }).id === id), {
          timeout: 30_000,
        })
        .toContainEqual(expect.objectContaining({ id, status: 'committed' }));
    } finally {
      watcher.child.kill('SIGTERM');
    }
    expect((await watcher.done).code).toBe(0);
  });
});

describe('surecall sends list over a journal it cannot read', () => {
  it('says in words that the file is missing, or which line of it breaks which rule, and exits 2', async () => {
    const missing = await surecall(['sends', 'list', '--ledger', join(directory, 'none.jsonl')]);
    expect(missing).toMatchObject({
      code: 2,
      stderr: `surecall: no ledger file at ${join(directory, 'none.jsonl')}: ${whereRelativeNamesGo}\n`,
    });
    const path = join(directory, 'damaged.jsonl');
    const ledger = await openLedger({ name: path });
    for (const id of ['d-1', 'd-2', 'd-3']) {
      await ledger.create({
        id,
        tenant: 'default',
        run: 'default',
        agent: { cardDigest: `sha256:${'c'.repeat(64)}`, binding: 'JSONRPC', url: 'http://127.0.0.1:1/a2a' },
        message: { messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: 'echo' }] },
        delivery: 'at-most-once',
      });
    }
    await ledger.close();
    const [first, , ...rest] = readFileSync(path, 'utf8').split('\n');
    writeFileSync(path, [first, ...rest].join('\n'));
    unlinkSync(`${path}.snapshot`);
    const damaged = await surecall(['sends', 'list', '--ledger', path]);
    expect(damaged).toMatchObject({
      code: 2,
      stderr: 'surecall: the ledger file is corrupt: line 2 breaks the rule chain\n',
    });
  });
});

describe('a postgres:// ledger', () => {
  it('fails in words, never printing the connection string or its password', async () => {
    const url = 'postgres://surecall:s3cret-pw@127.0.0.1:1/ledger';
    const run = await surecall(['sends', 'list', '--ledger', url]);
    // The store is there (@surecall/client/ledger/postgres and pg); the server refuses the connection.
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^surecall: /);
    expect(`${run.stdout}${run.stderr}`).not.toContain('s3cret');
    expect(`${run.stdout}${run.stderr}`).not.toContain(url);
  });
});

describe('usage errors exit 2 with the usage', () => {
  it.concurrent.each([
    ['no command', []],
    ['an unknown command', ['fly']],
    ['an unknown flag', ['card', 'https://agent.example/.well-known/agent-card.json', '--nope']],
    ['a missing argument', ['send', 'https://agent.example/.well-known/agent-card.json']],
    [
      'a token on argv',
      ['send', 'https://a.example/.well-known/agent-card.json', 'hi', '--token=hunter2-secret'],
    ],
    [
      '--durable without a ledger',
      ['send', 'https://a.example/.well-known/agent-card.json', 'hi', '--durable'],
    ],
    [
      '--data that is not JSON',
      ['send', 'https://a.example/.well-known/agent-card.json', 'hi', '--data', '{a'],
    ],
    ['a bad binding', ['send', 'https://a.example/.well-known/agent-card.json', 'hi', '--binding', 'SOAP']],
    ['a bad digest', ['send', 'https://a.example/.well-known/agent-card.json', 'hi', '--digest', 'md5:x']],
    ['sends without a ledger', ['sends', 'list']],
    ['reconcile without a card', ['sends', 'reconcile', '--ledger', 'x.jsonl']],
    ['a schema for a file ledger', ['sends', 'list', '--ledger', 'x.jsonl', '--schema', 'app']],
    ['a malformed schema', ['sends', 'list', '--ledger', 'postgres://127.0.0.1/x', '--schema', 'App-1']],
  ])('%s', async (_, args) => {
    const run = await surecall(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^surecall: .+\nusage: surecall <command> \[options\]\n/);
    expect(run.stderr).not.toContain('hunter2');
  });

  it('prints a JSON document for a usage error under --json', async () => {
    const run = await surecall(['card', '--json']);
    expect(run.code).toBe(2);
    expect(documents(run.stdout)).toEqual([{ status: 'error', exitCode: 2, error: 'missing the card URL' }]);
  });
});
