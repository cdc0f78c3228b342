/**
@module
Reads a Node file ledger for inspection: the file store's journal is JSON lines, each `{ "fence": n, "after": <the previous line's digest or null>, "digest": "sha256:…", "body": {…} }`, the body being the revision's digest input (`@surecall/client/ledger/file`, docs/durable-send.md#file-journal). The lines' chain is checked as the store checks it (a deleted, duplicated or reordered line breaks it), and every record's history with the ledger's own `verifyHistory` (each revision decoded, chained, a legal transition, its SHA-256 right), so a corrupt, reordered or tampered line is refused with its line number, and nothing is half-loaded.
*/
import { type LedgerRecord, type LedgerRevision, verifyHistory } from '@surecall/client/ledger';

/** One imported record with its verified history. */
export type ImportedSend = { readonly record: LedgerRecord; readonly revisions: readonly LedgerRevision[] };

/** Why a journal was refused: the 1-based line and the rule it broke. */
export type ImportProblem = { readonly line: number; readonly rule: string };

/** A whole journal, or the first problem in it. */
export type LedgerImport =
  | { readonly ok: true; readonly sends: readonly ImportedSend[]; readonly lines: number }
  | { readonly ok: false; readonly problem: ImportProblem };

type Line = {
  readonly line: number;
  readonly fence: number;
  readonly after: unknown;
  readonly digest: unknown;
  readonly revision: unknown;
};

/** A JSON object whose members are yet to be checked. */
type Members = {
  readonly fence?: unknown;
  readonly after?: unknown;
  readonly digest?: unknown;
  readonly body?: unknown;
  readonly id?: unknown;
  readonly revision?: unknown;
  readonly at?: unknown;
  readonly previous?: unknown;
  readonly transition?: unknown;
};

function isObject(value: unknown): value is Members {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MEMBERS = 'fence,after,digest,body';

/** The journal line's envelope: exactly a fence (a whole number ≥ 1), the chain link, the digest and a body with a string id; the body becomes the revision it digests. */
function envelope(text: string, line: number): Line | ImportProblem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { line, rule: 'json' };
  }
  if (!isObject(value) || Object.keys(value).join() !== MEMBERS) {
    return { line, rule: 'journal-line' };
  }
  const { fence, after, digest, body } = value;
  if (typeof fence !== 'number' || !Number.isSafeInteger(fence) || fence < 1) {
    return { line, rule: 'fence' };
  }
  if (!isObject(body) || typeof body.id !== 'string') {
    return { line, rule: 'revision' };
  }
  const number = body.revision;
  const revision = {
    id: body.id,
    revision: number,
    ...(number === 0 ? {} : { expectedRevision: typeof number === 'number' ? number - 1 : number }),
    at: body.at,
    ...(body.previous === null ? {} : { previousDigest: body.previous }),
    transition: body.transition,
    digest,
  };
  return { line, fence, after, digest, revision };
}

/**
Decodes and verifies a journal's text. Lines end with a newline; a last line without one is the torn tail of an interrupted write, which the file store never acknowledged, and is ignored as it would be. A line from an older fence after a newer one is refused, as the file store refuses it.

@example
```ts
const read = await importLedger(await file.text());
if (!read.ok) show(`line ${read.problem.line}: ${read.problem.rule}`);
```
*/
export async function importLedger(text: string): Promise<LedgerImport> {
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const texts = complete === '' ? [] : complete.slice(0, -1).split('\n');
  const byId = new Map<string, Line[]>();
  let fence = 0;
  let last: unknown = null;
  for (const [index, entry] of texts.entries()) {
    const read = envelope(entry, index + 1);
    if (!('revision' in read)) {
      return { ok: false, problem: read };
    }
    // Each line names the digest of the line before it: a deleted, duplicated or reordered line breaks the chain here.
    if (read.after !== last) {
      return { ok: false, problem: { line: read.line, rule: 'chain' } };
    }
    last = read.digest;
    if (read.fence < fence) {
      return { ok: false, problem: { line: read.line, rule: 'fence' } };
    }
    fence = read.fence;
    const id = (read.revision as { readonly id: string }).id;
    byId.set(id, [...(byId.get(id) ?? []), read]);
  }
  const sends: ImportedSend[] = [];
  for (const lines of byId.values()) {
    const verified = await verifyHistory(lines.map((entry) => entry.revision));
    if (!verified.ok) {
      const at = lines[verified.error.revision] ?? lines[0];
      return { ok: false, problem: { line: at?.line ?? 0, rule: verified.error.rule } };
    }
    // verifyHistory decoded every revision; these are the same values, now known to be well formed.
    sends.push({
      record: verified.record,
      revisions: lines.map((entry) => entry.revision as LedgerRevision),
    });
  }
  sends.sort((left, right) => right.record.createdAt - left.record.createdAt);
  return { ok: true, sends, lines: texts.length };
}
