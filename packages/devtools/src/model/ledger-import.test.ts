import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '@surecall/client/ledger/file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lostSend, reconciledSend } from './ledger-fixtures.js';
import { importLedger } from './ledger-import.js';

let directory: string;
let journal: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-devtools-import-'));
  const path = join(directory, 'sends.jsonl');
  const ledger = await openLedger({ name: path });
  await reconciledSend(ledger, 'found');
  await lostSend(ledger, 'lost', true);
  await ledger.close();
  journal = await readFile(path, 'utf8');
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const lines = () => journal.split('\n').filter((line) => line !== '');

type JournalLine = { fence: number; body: { at: number } & Record<string, unknown> };

function replaceLine(position: number, change: (line: JournalLine) => unknown): string {
  return lines()
    .map((line, index) => (index === position ? JSON.stringify(change(JSON.parse(line))) : line))
    .map((line) => `${line}\n`)
    .join('');
}

describe('importLedger: a Node file ledger, verified with the ledger’s own rules', () => {
  it('reads every record with its whole history, newest send first', async () => {
    const read = await importLedger(journal);
    expect(read.ok).toBe(true);
    if (!read.ok) {
      return;
    }
    expect(read.lines).toBe(7);
    expect(
      read.sends.map((send) => [send.record.id, send.record.state.status, send.revisions.length]),
    ).toEqual([
      ['lost', 'unknown', 3],
      ['found', 'committed', 4],
    ]);
  });

  it('ignores a torn last line, as the file store does', async () => {
    const read = await importLedger(`${journal}{"fence":1,"revi`);
    expect(read).toMatchObject({ ok: true, lines: 7 });
  });

  it.each<[string, () => string, number, string]>([
    ['a line that is not JSON', () => journal.replace(/\n/, '\n{oops\n'), 2, 'json'],
    [
      'a line with another member',
      () => replaceLine(1, (line) => ({ ...line, extra: 1 })),
      2,
      'journal-line',
    ],
    [
      'a fence that is not a whole number',
      () => replaceLine(0, (line) => ({ ...line, fence: 0 })),
      1,
      'fence',
    ],
    [
      'a revision without an id',
      () => replaceLine(0, (line) => ({ ...line, body: { revision: 0 } })),
      1,
      'revision',
    ],
    [
      'a tampered revision',
      () =>
        replaceLine(2, (line) => ({
          ...line,
          body: { ...line.body, at: line.body.at + 1 },
        })),
      3,
      'digest',
    ],
    [
      'a removed revision',
      () =>
        lines()
          .filter((_line, index) => index !== 1)
          .map((line) => `${line}\n`)
          .join(''),
      2,
      'chain',
    ],
  ])('refuses %s, naming its line, and loads nothing', async (_name, text, line, rule) => {
    expect(await importLedger(text())).toEqual({ ok: false, problem: { line, rule } });
  });

  it('refuses a line from an older fence after a newer one', async () => {
    const text = replaceLine(0, (line) => ({ ...line, fence: 2 }));
    expect(await importLedger(text)).toEqual({ ok: false, problem: { line: 2, rule: 'fence' } });
  });
});
