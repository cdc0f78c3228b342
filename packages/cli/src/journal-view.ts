/**
@module
A read-only view of a file ledger (docs/durable-send.md#ledger-stores): the journal is read, never locked or written, so it can be inspected while a sender holds it. Each line is one revision (`{ fence, revision }`); each record's revisions are replayed and verified by `verifyHistory`, so a view shows only what the digest chain proves. The bytes after the last newline belong to a write still under way and are left for the next read. `watch` polls the file's size and modification time.
*/
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type LedgerRecord, type LedgerRevision, verifyHistory } from '@surecall/client/ledger';
import { SetupError } from './connect.js';
import type { LedgerView } from './ledger.js';

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** How often `watch` looks at the journal. */
export const watchIntervalMs = 250;

/** A journal line, as far as this view reads it. */
type Envelope = {
  readonly revision?: unknown;
  readonly after?: unknown;
  readonly digest?: unknown;
  readonly body?: {
    readonly id?: unknown;
    readonly revision?: unknown;
    readonly at?: unknown;
    readonly previous?: unknown;
    readonly transition?: unknown;
  };
};

/**
The revision a journal line holds, for `verifyHistory` to check, or `undefined`. Two line formats are read: `{ fence, revision }`, and `{ fence, after, digest, body }`, whose body is the revision's digest input and whose `after` names the previous line's digest (docs/durable-send.md#ledger-stores), so a deleted or reordered line breaks the chain.
*/
function revisionOf(value: unknown, previousLine: unknown): { readonly id: string } | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const line = value as Envelope;
  if (line.body === undefined) {
    const id = (line.revision as { readonly id?: unknown } | undefined)?.id;
    return typeof id === 'string' ? (line.revision as { readonly id: string }) : undefined;
  }
  const { body } = line;
  if (
    typeof body !== 'object' ||
    body === null ||
    typeof body.id !== 'string' ||
    line.after !== previousLine
  ) {
    return undefined;
  }
  const number = body.revision;
  return {
    id: body.id,
    revision: number,
    ...(number === 0 ? {} : { expectedRevision: typeof number === 'number' ? number - 1 : number }),
    at: body.at,
    ...(body.previous === null || body.previous === undefined ? {} : { previousDigest: body.previous }),
    transition: body.transition,
    digest: line.digest,
  } as { readonly id: string };
}

type Snapshot = { readonly records: Map<string, LedgerRecord>; readonly revisions: Map<string, unknown[]> };

async function readSnapshot(path: string): Promise<Snapshot> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new SetupError('no ledger file at the --ledger path');
    }
    throw new SetupError('the ledger file could not be read');
  }
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const revisions = new Map<string, unknown[]>();
  let number = 0;
  let last: unknown = null;
  for (const line of complete.split('\n')) {
    number++;
    if (line === '') {
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new SetupError(`the ledger file is not a surecall journal (line ${number} is not JSON)`);
    }
    const revision = revisionOf(value, last);
    if (revision === undefined) {
      throw new SetupError(
        `the ledger file is not a surecall journal, or a line is out of place (line ${number})`,
      );
    }
    last = (value as Envelope).digest;
    const list = revisions.get(revision.id) ?? [];
    list.push(revision);
    revisions.set(revision.id, list);
  }
  const records = new Map<string, LedgerRecord>();
  for (const [id, list] of revisions) {
    const verified = await verifyHistory(list, sha256);
    if (!verified.ok) {
      throw new SetupError(
        `the ledger file is corrupt: a record's revision ${verified.error.revision} breaks its chain (${verified.error.rule})`,
      );
    }
    records.set(id, verified.record);
  }
  return { records, revisions };
}

/**
Opens a read-only view of the journal at `path`.

@example
```ts
const view = await openJournalView('./sends.jsonl');
```
*/
export async function openJournalView(path: string): Promise<LedgerView> {
  const file = resolve(path);
  let snapshot = await readSnapshot(file);
  const fresh = async () => {
    snapshot = await readSnapshot(file);
    return snapshot;
  };
  return {
    // In the journal's order of first lines, which is the ledger's own sequence (a record's map entry is made at its first line).
    list: async () => [...(await fresh()).records.values()],
    get: async (id) => (await fresh()).records.get(id),
    history: async (id) => ((await fresh()).revisions.get(id) ?? []) as LedgerRevision[],
    watch(listener) {
      let last = '';
      let stopped = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const seen = new Map<string, string>();
      for (const record of snapshot.records.values()) {
        seen.set(record.id, record.digest);
      }
      const tick = async () => {
        try {
          const info = await stat(file);
          const mark = `${info.size}:${info.mtimeMs}`;
          if (mark !== last) {
            last = mark;
            for (const record of (await fresh()).records.values()) {
              if (seen.get(record.id) !== record.digest) {
                seen.set(record.id, record.digest);
                listener(record);
              }
            }
          }
        } catch {
          // A journal being compacted is renamed into place: the next look reads it whole.
        }
        if (!stopped) {
          timer = setTimeout(tick, watchIntervalMs);
        }
      };
      timer = setTimeout(tick, watchIntervalMs);
      return () => {
        stopped = true;
        clearTimeout(timer);
      };
    },
    close: async () => undefined,
  };
}
