/**
The journal format has one reader (docs/durable-send.md#file-journal): `readJournal`
(`@surecall/client/ledger/journal`, browser-safe) reads what the file store wrote, record for record and
revision for revision, before and after a compaction, and refuses what the store refuses on open.
*/
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readJournal } from '@surecall/client/ledger/journal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerError } from '../../src/core/errors.js';
import { compactLedger, openLedger } from '../../src/ledger/file.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { intent } from '../support/intent.js';
import { rejectionOf } from '../support/rejection.js';

let directory = '';
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-journal-reader-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The records and histories a ledger holds, as the reader gives them. */
async function contents(ledger: Ledger) {
  return Promise.all(
    (await ledger.list()).map(async (record) => ({ record, revisions: await ledger.history(record.id) })),
  );
}

async function filled(path: string): Promise<Ledger> {
  const ledger = await openLedger({ name: path });
  await Promise.all(
    ['r-1', 'r-2', 'r-3'].map(async (id) => {
      const executing = await ledger.create(intent(id), { attemptId: `a-${id}`, messageId: `m-${id}-1` });
      if (id !== 'r-2') {
        await ledger.transition(id, executing.revision, {
          type: 'commit',
          attemptId: `a-${id}`,
          result: { kind: 'task', taskId: `t-${id}`, contextId: 'ctx' },
        });
      }
    }),
  );
  return ledger;
}

describe('readJournal over a file ledger', () => {
  it('reads every record and revision the store holds, in its order, before and after a compaction', async () => {
    const path = join(directory, 'read.jsonl');
    const ledger = await filled(path);
    const held = await contents(ledger);
    expect(await readJournal(readFileSync(path))).toEqual({ records: held, lines: 8 });
    await compactLedger(ledger);
    expect(await readJournal(readFileSync(path, 'utf8'))).toEqual({ records: held, lines: 8 });
    await ledger.close();
  });

  it('refuses a damaged journal as the store refuses it on open, with the same rule and line', async () => {
    const path = join(directory, 'damaged.jsonl');
    await (await filled(path)).close();
    unlinkSync(`${path}.snapshot`);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.splice(3, 1);
    writeFileSync(path, lines.join('\n'));
    const read = await rejectionOf(readJournal(readFileSync(path)), LedgerError);
    const opened = await rejectionOf(openLedger({ name: path }), LedgerError);
    expect(read).toMatchObject({ reason: 'corrupt', rule: 'chain', position: 4 });
    expect({ rule: opened.rule, position: opened.position }).toEqual({
      rule: read.rule,
      position: read.position,
    });
  });
});
