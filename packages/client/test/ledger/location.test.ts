/**
Where the file ledger puts its journal (docs/durable-send.md#where-the-file-ledger-lives), and that its errors
name the file.
*/
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LedgerError } from '../../src/core/errors.js';
import { ledgerPath, openLedger } from '../../src/ledger/file.js';
import { defaultLedgerDirectory, journalPath } from '../../src/ledger/location.js';
import * as memory from '../../src/ledger/memory.js';

let directory = '';
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-ledger-location-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the journal path of a ledger name', () => {
  it('keeps an absolute name, and puts a relative one under the ledger directory, never the working directory', async () => {
    expect(await journalPath(join(directory, 'abs', '..', 'sends'))).toBe(join(directory, 'sends'));
    const under = join(directory, 'configured');
    expect(await journalPath('sends', { SURECALL_LEDGER_DIR: under })).toBe(join(under, 'sends'));
    expect(await journalPath('team/sends', { SURECALL_LEDGER_DIR: under })).toBe(
      join(under, 'team', 'sends'),
    );
    expect(statSync(join(under, 'team')).mode & 0o777).toBe(0o700);
    expect(defaultLedgerDirectory).toBe(join('.surecall', 'ledgers'));
  });

  it('opens a relative name there, and says where', async () => {
    const under = join(directory, 'env');
    vi.stubEnv('SURECALL_LEDGER_DIR', under);
    const ledger = await openLedger({ name: 'sends' });
    try {
      expect(ledgerPath(ledger)).toBe(join(under, 'sends'));
      expect(existsSync(join(under, 'sends.lock'))).toBe(true);
      expect(existsSync(resolve('sends.lock'))).toBe(false);
    } finally {
      await ledger.close();
    }
    expect(() => ledgerPath(memoryLedger)).toThrow(LedgerError);
  });

  it('names the lock file another writer holds', async () => {
    const path = join(directory, 'held');
    const first = await openLedger({ name: path });
    try {
      const error = await openLedger({ name: path }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(LedgerError);
      expect(error).toMatchObject({ reason: 'locked', path: `${path}.lock` });
      expect((error as LedgerError).message).toContain(`${path}.lock`);
      expect((error as LedgerError).message).toContain('another writer holds it');
      expect(JSON.parse(JSON.stringify(error))).toMatchObject({ reason: 'locked', path: `${path}.lock` });
    } finally {
      await first.close();
    }
  });
});

let memoryLedger: Awaited<ReturnType<typeof memory.openLedger>>;
beforeAll(async () => {
  memoryLedger = await memory.openLedger({ name: 'label' });
});
