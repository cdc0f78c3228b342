import { beforeAll, describe, expect, it } from 'vitest';
import { LedgerError } from '../../core/errors.js';
import { type LedgerRevision, revisionDigestInput, type SendIntent } from '../ledger.js';
import { openLedger } from '../memory.js';
import { formatLine } from './line.js';
import { readJournal } from './reader.js';

const agent = {
  cardDigest: `sha256:${'c'.repeat(64)}`,
  binding: 'JSONRPC',
  url: 'https://agent.example/a2a',
} as const;

/** WebCrypto's SHA-256, a promise as in a browser. */
async function webCryptoSha256(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `sha256:${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
Journal lines of `revisions` in this order, each naming the line before it, as the file store writes them.
*/
function linesOf(revisions: readonly LedgerRevision[], fence = 1): string[] {
  let after: string | null = null;
  return revisions.map((revision) => {
    const line = formatLine(fence, after, revision.digest, revisionDigestInput(revision)).slice(0, -1);
    after = revision.digest;
    return line;
  });
}

const text = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join('');

/** A line with its envelope parsed, changed, and written back as JSON. */
function edited(line: string, change: (value: Record<string, unknown>) => unknown): string {
  return JSON.stringify(change(JSON.parse(line) as Record<string, unknown>));
}

let revisions: LedgerRevision[] = [];

beforeAll(async () => {
  // Two records, their lines interleaved as two writers' commits are: a committed send and an unknown one.
  const ledger = await openLedger({ name: 'journal' });
  const intent = (id: string): SendIntent => ({
    id,
    tenant: 'acme',
    run: 'run-1',
    agent,
    message: { messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: 'book it' }] },
    delivery: 'at-most-once',
  });
  await ledger.create(intent('a'), { attemptId: 'a-1', messageId: 'm-a-1' });
  await ledger.create(intent('b'), { attemptId: 'b-1', messageId: 'm-b-1' });
  await ledger.transition('a', 1, {
    type: 'commit',
    attemptId: 'a-1',
    result: { kind: 'task', taskId: 't-a', contextId: 'c-a' },
  });
  await ledger.transition('b', 1, { type: 'unknown', attemptId: 'b-1', reason: 'ambiguous-outcome' });
  const [a, b] = [await ledger.history('a'), await ledger.history('b')];
  revisions = [a[0], a[1], b[0], b[1], a[2], b[2]] as LedgerRevision[];
  await ledger.close();
});

describe('readJournal: the journal format, read without the store', () => {
  it('gives every record its verified history, in the order of first lines', async () => {
    const read = await readJournal(text(linesOf(revisions)));
    expect(read.lines).toBe(6);
    expect(
      read.records.map(({ record, revisions: history }) => [record.id, record.state.status, history.length]),
    ).toEqual([
      ['a', 'committed', 3],
      ['b', 'unknown', 3],
    ]);
    expect(read.records[0]?.revisions).toEqual(revisions.filter((revision) => revision.id === 'a'));
    expect(Object.isFrozen(read.records[0]?.record)).toBe(true);
  });

  it('reads bytes as it reads text, and the platform digest as WebCrypto’s promise', async () => {
    const journal = text(linesOf(revisions));
    const fromText = await readJournal(journal);
    expect(await readJournal(new TextEncoder().encode(journal))).toEqual(fromText);
    expect(await readJournal(journal, webCryptoSha256)).toEqual(fromText);
  });

  it('leaves the bytes after the last newline unread: a write under way, never acknowledged', async () => {
    const lines = linesOf(revisions);
    const read = await readJournal(`${text(lines.slice(0, 5))}${(lines[5] as string).slice(0, 30)}`);
    expect(read.lines).toBe(5);
    expect(read.records.map(({ record }) => record.state.status)).toEqual(['committed', 'executing']);
    expect(await readJournal('')).toEqual({ records: [], lines: 0 });
  });

  it.each<[string, (lines: string[]) => string[], number, string]>([
    ['a line that is not JSON', (lines) => lines.toSpliced(1, 1, '{"fence":1,'), 2, 'json'],
    [
      'a line with another member',
      (lines) =>
        lines.toSpliced(
          1,
          1,
          edited(lines[1] as string, (line) => ({ ...line, extra: 1 })),
        ),
      2,
      'journal-line',
    ],
    [
      'a fence that is not a whole number',
      (lines) =>
        lines.toSpliced(
          0,
          1,
          edited(lines[0] as string, (line) => ({ ...line, fence: 0 })),
        ),
      1,
      'fence',
    ],
    [
      'a line from an older fence after a newer one',
      (lines) => lines.toSpliced(0, 1, (lines[0] as string).replace('"fence":1', '"fence":2')),
      2,
      'fence',
    ],
    [
      'a body that is no revision',
      (lines) =>
        lines.toSpliced(
          0,
          1,
          edited(lines[0] as string, (line) => ({ ...line, body: { revision: 0 } })),
        ),
      1,
      'revision',
    ],
    [
      'a tampered body',
      (lines) => lines.toSpliced(2, 1, (lines[2] as string).replace('"tenant":"acme"', '"tenant":"evil"')),
      3,
      'digest',
    ],
    ['a removed line', (lines) => lines.toSpliced(1, 1), 2, 'chain'],
    ['a duplicated line', (lines) => lines.toSpliced(1, 0, lines[1] as string), 3, 'chain'],
    ['two lines swapped', (lines) => [lines[1], lines[0], ...lines.slice(2)] as string[], 1, 'chain'],
  ])('refuses %s as corrupt, naming its line', async (_, tamper, position, rule) => {
    const error = await readJournal(text(tamper(linesOf(revisions)))).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LedgerError);
    expect(error).toMatchObject({ reason: 'corrupt', position, rule });
  });

  it('refuses a body rewritten and hashed anew, which its revision’s digest no longer covers', async () => {
    const lines = linesOf(revisions);
    const first = JSON.parse(lines[0] as string) as { body: { at: number } };
    // The same revision, but not its canonical digest input (its time written as `….0`), under a digest of
    // its own.
    const body = revisionDigestInput(revisions[0] as LedgerRevision).replace(
      `"at":${first.body.at}`,
      `"at":${first.body.at}.0`,
    );
    const digest = await webCryptoSha256(body);
    const forged = formatLine(1, null, digest, body).slice(0, -1);
    await expect(readJournal(text([forged]))).rejects.toMatchObject({ rule: 'digest', position: 1 });
  });

  it('replays each record through the state machine: a record whose first line is gone is refused', async () => {
    // Record b loses its create, and the chain is linked anew around it.
    const kept = revisions.filter((revision) => !(revision.id === 'b' && revision.revision === 0));
    await expect(readJournal(text(linesOf(kept)))).rejects.toMatchObject({
      reason: 'corrupt',
      rule: 'missing-create',
      position: 3,
    });
  });

  it('refuses a complete line that is not UTF-8, read as bytes', async () => {
    const bytes = new TextEncoder().encode(text(linesOf(revisions)));
    const second = bytes.indexOf(0x0a) + 20;
    bytes[second] = 0xff;
    await expect(readJournal(bytes)).rejects.toMatchObject({ reason: 'corrupt', rule: 'utf-8', position: 2 });
  });
});
