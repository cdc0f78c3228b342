/**
@module
The file ledger, Node's durable store: an append-only journal of JSON lines, one line per revision, each carrying the writer's fencing counter. A commit resolves only after an `fdatasync` covers its line, and concurrent commits share one sync (group commit). The whole ledger is replayed into memory on open, each line decoded and each digest checked, so reads never touch the disk. A torn last line (bytes after the last newline: a write a crash interrupted, never acknowledged) is truncated; any complete line that fails to decode, chain or verify is `corrupt`, even the last one, since it may have been acknowledged. One process writes at a time, under the lock file `<path>.lock` (see `lock.ts`).
*/
import { hash } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { LedgerError } from '../core/errors.js';
import { type LedgerStore, openLedgerEngine } from './engine.js';
import { type Appender, openAppender, readJournal } from './journal.js';
import {
  applyTransition,
  deepFreeze,
  type Ledger,
  type LedgerOptions,
  revisionDigestInput,
} from './ledger.js';
import { journalPath } from './location.js';
import { acquireLock, type FileLock } from './lock.js';
import { decodeLedger, JournalLine, type LedgerRecord, type LedgerRevision } from './record.js';

// Every store entry exports the same names: its `openLedger`, and the shared part from `entry.ts` (written once there).
export * from './entry.js';

type Entry = { record: LedgerRecord; revisions: LedgerRevision[] };

/** Node's SHA-256, synchronous and several times cheaper per revision than WebCrypto's; the digests are the same bytes, so `verifyHistory` checks them either way. */
function nodeSha256(text: string): string {
  return `sha256:${hash('sha256', text, 'hex')}`;
}

function corruptAt(position: number, rule: string, cause?: unknown): LedgerError {
  return new LedgerError('corrupt', { rule, position, ...(cause === undefined ? {} : { cause }) });
}

/** Replays the journal's lines into records, refusing the first line that does not decode, chain, verify, or that comes from an older fence than a line before it. */
function replay(lines: readonly string[]): { entries: Map<string, Entry>; fence: number } {
  const entries = new Map<string, Entry>();
  let fence = 0;
  for (let index = 0; index < lines.length; index++) {
    const position = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(lines[index] as string);
    } catch (error) {
      throw corruptAt(position, 'json', error);
    }
    const decoded = decodeLedger(JournalLine, value);
    if (!decoded.ok) {
      throw corruptAt(position, decoded.error.rule);
    }
    // A line from an older fence after a newer one was written by a writer that had already been superseded: the journal holds two writers' histories, which a person must untangle.
    if (decoded.value.fence < fence) {
      throw corruptAt(position, 'fence');
    }
    fence = decoded.value.fence;
    const revision = deepFreeze(decoded.value.revision);
    const entry = entries.get(revision.id);
    let record: LedgerRecord;
    try {
      record = deepFreeze(applyTransition(entry?.record, revision));
    } catch (error) {
      throw corruptAt(
        position,
        error instanceof LedgerError ? (error.rule ?? error.reason) : 'replay',
        error,
      );
    }
    if (nodeSha256(revisionDigestInput(revision)) !== revision.digest) {
      throw corruptAt(position, 'digest');
    }
    if (entry === undefined) {
      entries.set(revision.id, { record, revisions: [revision] });
    } else {
      entry.record = record;
      entry.revisions.push(revision);
    }
  }
  return { entries, fence };
}

function line(fence: number, revision: LedgerRevision): string {
  return `${JSON.stringify({ fence, revision } satisfies JournalLine)}\n`;
}

type FileState = {
  readonly entries: Map<string, Entry>;
  readonly appender: Appender;
  readonly lock: FileLock;
};

function fileStore(state: FileState): LedgerStore {
  const { entries, appender, lock } = state;
  // The heads appends have claimed, durable or still queued: the compare-and-set runs against them, so two writers of one revision cannot both be queued.
  const heads = new Map<string, string>();
  for (const [id, entry] of entries) {
    heads.set(id, entry.record.digest);
  }
  let released = false;
  return {
    writable: true,
    get: async (id) => entries.get(id)?.record,
    list: async (states) =>
      [...entries.values()]
        .map((entry) => entry.record)
        .filter((record) => states === undefined || states.has(record.state.status)),
    history: async (id) => [...(entries.get(id)?.revisions ?? [])],
    async append(record, revision) {
      const head = heads.get(record.id);
      if (revision.revision === 0 ? head !== undefined : head !== revision.previousDigest) {
        throw new LedgerError('stale-revision', revision.revision === 0 ? { rule: 'exists' } : {});
      }
      heads.set(record.id, revision.digest);
      await appender.append(line(lock.fence, revision), () => {
        const entry = entries.get(record.id);
        if (entry === undefined) {
          entries.set(record.id, { record, revisions: [revision] });
        } else {
          entry.record = record;
          entry.revisions.push(revision);
        }
      });
    },
    async close() {
      if (released) {
        return;
      }
      released = true;
      try {
        await appender.close();
      } finally {
        await lock.release();
      }
    },
  };
}

/** What a compaction wrote. */
export type Compaction = { readonly records: number; readonly revisions: number };

const compactors = new WeakMap<Ledger, () => Promise<Compaction>>();

/**
Compacts a file ledger's journal: writes a snapshot, every record's revisions together in creation order under the current fence, to `<path>.compact.tmp`, syncs it, renames it over the journal and syncs the directory. Every record and its whole digest chain survive; what goes is the interleaving of records, and the lines of earlier writers are rewritten under the current fence. It runs between two group-commit batches, so appends wait for it and none is lost.

@throws {LedgerError} `invalid-input` for a ledger that is not a file ledger; `io` or `fenced` when the rewrite fails (before the rename the old journal stays in use).

@example
```ts
const ledger = await openLedger({ name: '/var/lib/app/sends.jsonl' });
await compactLedger(ledger);
```
*/
export async function compactLedger(ledger: Ledger): Promise<Compaction> {
  const compact = compactors.get(ledger);
  if (compact === undefined) {
    throw new LedgerError('invalid-input', { rule: 'not-a-file-ledger' });
  }
  return compact();
}

const paths = new WeakMap<Ledger, string>();

/**
The absolute path of an open file ledger's journal: where a relative `name` was put (docs/durable-send.md#where-the-file-ledger-lives). Its lock file is this path plus `.lock`.

@example
```ts
const ledger = await openLedger({ name: 'sends' });
console.log(ledgerPath(ledger)); // e.g. /srv/app/.surecall/ledgers/sends
```
*/
export function ledgerPath(ledger: Ledger): string {
  const path = paths.get(ledger);
  if (path === undefined) {
    throw new LedgerError('invalid-input', { rule: 'not-a-file-ledger' });
  }
  return path;
}

/**
Opens the file ledger named `options.name`: an absolute path as it is, a relative one under the ledger directory (`SURECALL_LEDGER_DIR`, else `./.surecall/ledgers`; `ledgerPath(ledger)` says where). Takes the lock file (a live holder → `locked`; a dead one's lock is taken over with a higher fence), replays the journal (a torn last line, the bytes after the last newline, is truncated; any complete line that fails → `corrupt`, with its line number), and turns records left `executing` by a crash into `unknown`.

@example
```ts
import { openLedger } from '@surecall/client/ledger'; // the file store under Node
const ledger = await openLedger({ name: 'sends' }); // ./.surecall/ledgers/sends, and its lock file sends.lock
```
*/
export async function openLedger(options: LedgerOptions): Promise<Ledger> {
  if (typeof options.name !== 'string' || options.name.length === 0) {
    throw new LedgerError('invalid-input', { rule: 'name' });
  }
  const path = await journalPath(options.name);
  let lock: FileLock;
  try {
    lock = await acquireLock(`${path}.lock`);
  } catch (error) {
    // Name the file another writer holds: the path is this process's own configuration, never remote text.
    throw error instanceof LedgerError
      ? new LedgerError(error.reason, {
          ...(error.rule === undefined ? {} : { rule: error.rule }),
          path: `${path}.lock`,
          cause: error,
        })
      : error;
  }
  let store: LedgerStore | undefined;
  try {
    // Left by a compaction that crashed before its rename; the journal itself is whole.
    await unlink(`${path}.compact.tmp`).catch(() => undefined);
    const read = await readJournal(path);
    const { entries, fence } = replay(read.lines);
    // A fresh lock file starts at 1; the journal remembers the fences of earlier holders.
    await lock.raise(fence + 1);
    const appender = await openAppender(path, {
      ...(read.tornBytes > 0 ? { truncateTo: read.validBytes } : {}),
      created: !read.exists,
      beforeBatch: lock.check,
    });
    store = fileStore({ entries, appender, lock });
    const ledger = await openLedgerEngine(store, { sha256: nodeSha256 });
    compactors.set(ledger, async () => {
      let written: Compaction = { records: 0, revisions: 0 };
      await appender.rewrite(() => {
        const lines: string[] = [];
        for (const entry of entries.values()) {
          for (const revision of entry.revisions) {
            lines.push(line(lock.fence, revision));
          }
        }
        written = { records: entries.size, revisions: lines.length };
        return lines;
      });
      return written;
    });
    paths.set(ledger, path);
    return ledger;
  } catch (error) {
    if (store === undefined) {
      await lock.release();
    } else {
      await store.close();
    }
    throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'open', cause: error });
  }
}
