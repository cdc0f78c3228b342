/**
@module
Where the file ledger puts its journal (docs/durable-send.md#where-the-file-ledger-lives). An absolute `name`
is used as it is. A relative one is resolved under the ledger directory, never the working directory:
`SURECALL_LEDGER_DIR` when set (itself resolved against the working directory), else `.surecall/ledgers` under
the working directory, created on first use with mode 0700 since the journal holds whole messages.
`ledgerPath(ledger)` says where an open ledger's journal is.
*/
import { mkdir } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { LedgerError } from '../core/errors.js';

/** The directory a relative ledger name is resolved under, unless `SURECALL_LEDGER_DIR` says otherwise. */
export const defaultLedgerDirectory = join('.surecall', 'ledgers');

/** The environment variable that moves the ledger directory. */
export const ledgerDirectoryVariable = 'SURECALL_LEDGER_DIR';

/** The absolute journal path of a ledger `name`, creating nothing: what a read-only open reads. */
export function resolveJournalPath(
  name: string,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (isAbsolute(name)) {
    return resolve(name);
  }
  const configured = environment[ledgerDirectoryVariable];
  const directory = resolve(
    configured === undefined || configured === '' ? defaultLedgerDirectory : configured,
  );
  return resolve(directory, name);
}

/** The absolute journal path of a ledger `name`, and the directory it needs (created here when missing). */
export async function journalPath(
  name: string,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string> {
  const path = resolveJournalPath(name, environment);
  if (isAbsolute(name)) {
    return path;
  }
  try {
    await mkdir(resolve(path, '..'), { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw new LedgerError('io', { rule: 'directory', path, cause });
  }
  return path;
}
