/**
A file ledger opened `readOnly` (docs/durable-send.md#reading-a-file-ledger): beside a writer that holds the
lock it reads what the writer wrote and then appends, follows a compaction that replaced the journal, hears
the writer's changes through `subscribe`, writes nothing, and checks every line as the writer's open does.
*/
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerError } from '../../src/core/errors.js';
import { compactLedger, ledgerPath, openLedger } from '../../src/ledger/file.js';
import type { Ledger, LedgerRecord } from '../../src/ledger/ledger.js';
import { intent } from '../support/intent.js';
import { rejectionOf } from '../support/rejection.js';

let directory = '';
let counter = 0;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-read-only-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function freshPath(): string {
  counter++;
  return join(directory, `journal-${counter}.jsonl`);
}

async function committed(ledger: Ledger, id: string): Promise<LedgerRecord> {
  const executing = await ledger.create(intent(id), { attemptId: `a-${id}`, messageId: `m-${id}-1` });
  return ledger.transition(id, executing.revision, {
    type: 'commit',
    attemptId: `a-${id}`,
    result: { kind: 'task', taskId: `t-${id}`, contextId: 'ctx' },
  });
}

const refusal = (promise: Promise<unknown>) => rejectionOf(promise, LedgerError);

describe('a file ledger opened readOnly', () => {
  it('reads beside the writer that holds the lock, and follows what it appends, taking nothing', async () => {
    const path = freshPath();
    const writer = await openLedger({ name: path });
    await committed(writer, 'w-1');
    const lock = readFileSync(`${path}.lock`, 'utf8');
    const reader = await openLedger({ name: path, readOnly: true });
    try {
      expect(ledgerPath(reader)).toBe(path);
      expect(await reader.list()).toEqual(await writer.list());
      await committed(writer, 'w-2');
      await writer.create(intent('w-3'));
      // The next read replays what was appended since.
      expect((await reader.list()).map((record) => [record.id, record.state.status])).toEqual([
        ['w-1', 'committed'],
        ['w-2', 'committed'],
        ['w-3', 'prepared'],
      ]);
      expect(await reader.history('w-2')).toEqual(await writer.history('w-2'));
      expect(await reader.get('w-3')).toEqual(await writer.get('w-3'));
      expect(await reader.get('none')).toBeUndefined();
      expect(readFileSync(`${path}.lock`, 'utf8')).toBe(lock);
    } finally {
      await reader.close();
      await writer.close();
    }
  });

  it('refuses every write and claim, and compaction, as a follower', async () => {
    const path = freshPath();
    await (await openLedger({ name: path })).close();
    const reader = await openLedger({ name: path, readOnly: true });
    try {
      for (const write of [
        reader.create(intent('r-1')),
        reader.transition('r-1', 0, { type: 'start', attemptId: 'a', messageId: 'm' }),
        reader.claimDue(),
        reader.claim('r-1'),
        compactLedger(reader),
      ]) {
        expect(await refusal(write)).toMatchObject({ reason: 'locked', rule: 'follower' });
      }
    } finally {
      await reader.close();
    }
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('hears the writer’s changes through subscribe, until closed', async () => {
    const path = freshPath();
    const writer = await openLedger({ name: path });
    const reader = await openLedger({ name: path, readOnly: true });
    const heard: string[] = [];
    const unsubscribe = reader.subscribe((change) =>
      heard.push(`${change.record.id}@${change.revision.revision} ${change.origin}`),
    );
    try {
      await committed(writer, 's-1');
      await expect
        .poll(() => heard, { timeout: 20_000 })
        .toEqual(['s-1@0 remote', 's-1@1 remote', 's-1@2 remote']);
    } finally {
      unsubscribe();
      await reader.close();
      await writer.close();
    }
  }, 30_000);

  it('reads a journal a compaction replaced anew, and goes on following it', async () => {
    const path = freshPath();
    const writer = await openLedger({ name: path });
    for (const id of ['c-1', 'c-2']) {
      await committed(writer, id);
    }
    const reader = await openLedger({ name: path, readOnly: true });
    const heard: string[] = [];
    reader.subscribe((change) => heard.push(`${change.record.id}@${change.revision.revision}`));
    try {
      expect(await reader.list()).toHaveLength(2);
      await compactLedger(writer);
      await committed(writer, 'c-3');
      expect(await reader.list()).toEqual(await writer.list());
      expect(await reader.history('c-1')).toEqual(await writer.history('c-1'));
      // Only what the reader had not read is announced, once.
      await expect.poll(() => heard, { timeout: 20_000 }).toEqual(['c-3@0', 'c-3@1', 'c-3@2']);
    } finally {
      await reader.close();
      await writer.close();
    }
  }, 30_000);

  it('leaves a line still being written for the next read', async () => {
    const source = freshPath();
    const writer = await openLedger({ name: source });
    for (const id of ['t-1', 't-2']) {
      await committed(writer, id);
    }
    await writer.close();
    const lines = readFileSync(source, 'utf8').split('\n').slice(0, -1);
    const last = lines.at(-1) as string;
    const path = freshPath();
    writeFileSync(path, `${lines.slice(0, -1).join('\n')}\n${last.slice(0, 50)}`);
    const reader = await openLedger({ name: path, readOnly: true });
    try {
      expect((await reader.get('t-2'))?.state.status).toBe('executing');
      appendFileSync(path, `${last.slice(50)}\n`);
      expect((await reader.get('t-2'))?.state.status).toBe('committed');
    } finally {
      await reader.close();
    }
  });

  it('trusts no snapshot that does not match the journal: it replays and checks the whole file', async () => {
    const path = freshPath();
    const writer = await openLedger({ name: path });
    await committed(writer, 'n-1');
    await writer.close();
    const records = readFileSync(path, 'utf8');
    writeFileSync(`${path}.snapshot`, 'not a snapshot\n');
    const reader = await openLedger({ name: path, readOnly: true });
    try {
      expect((await reader.list()).map((record) => record.id)).toEqual(['n-1']);
    } finally {
      await reader.close();
    }
    expect(readFileSync(path, 'utf8')).toBe(records);
    expect(readFileSync(`${path}.snapshot`, 'utf8')).toBe('not a snapshot\n');
  });

  it('refuses a damaged journal as the writer does, naming the line', async () => {
    const path = freshPath();
    const writer = await openLedger({ name: path });
    await committed(writer, 'd-1');
    await committed(writer, 'd-2');
    await writer.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.splice(1, 1);
    writeFileSync(path, lines.join('\n'));
    expect(await refusal(openLedger({ name: path, readOnly: true }))).toMatchObject({
      reason: 'corrupt',
      rule: 'chain',
      position: 2,
    });
  });

  it('finds no journal where there is none, and creates nothing', async () => {
    const path = join(directory, 'absent', 'sends.jsonl');
    expect(await refusal(openLedger({ name: path, readOnly: true }))).toMatchObject({
      reason: 'not-found',
      rule: 'journal',
      path,
    });
    expect(existsSync(join(directory, 'absent'))).toBe(false);
    expect(
      await refusal(openLedger({ name: freshPath(), readOnly: 'yes' as unknown as boolean })),
    ).toMatchObject({ reason: 'invalid-input', rule: 'read-only' });
  });
});
