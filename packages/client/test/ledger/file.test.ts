import { type ChildProcess, spawn } from 'node:child_process';
import {
  appendFileSync,
  constants,
  readFileSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  writevSync,
} from 'node:fs';
import { type FileHandle, mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LedgerError } from '../../src/core/errors.js';
import { compactLedger, openLedger } from '../../src/ledger/file.js';
import { type LoneSync, openAppender } from '../../src/ledger/journal/appender.js';
import { nodeSha256 } from '../../src/ledger/journal/writes.js';
import { type Ledger, type LedgerRecord, verifyHistory } from '../../src/ledger/ledger.js';
import { readLock } from '../../src/ledger/lock.js';
import * as memory from '../../src/ledger/memory.js';
import { compileForChild } from '../support/child-build.js';
import { intent } from '../support/intent.js';
import { rejectionOf } from '../support/rejection.js';

// The journal's writes on the event-loop thread (`loneSync: 'event-loop'`) go through these; they do what
// `node:fs` does unless a test says otherwise.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, writevSync: vi.fn(actual.writevSync), writeSync: vi.fn(actual.writeSync) };
});

let directory = '';
let counter = 0;
let fileHandlePrototype: FileHandle;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-file-ledger-'));
  fixture = await compileForChild('test/support/file-child.ts', join(directory, 'build'));
  const probe = await open(join(directory, 'probe'), 'w');
  fileHandlePrototype = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function freshPath(): string {
  counter++;
  return join(directory, `journal-${counter}.jsonl`);
}

/**
The group-commit appender on a new journal file, as the file ledger opens it, without the ledger around it.
*/
function freshAppender(path: string, loneSync: LoneSync = 'thread-pool') {
  return openAppender(path, {
    created: true,
    size: 0,
    last: null,
    fence: () => 1,
    beforeBatch: () => undefined,
    loneSync,
  });
}

/** One journal line to append: the text and its digest. */
function lineToAppend(text: string) {
  return { digest: nodeSha256(text), text };
}

async function committed(ledger: Ledger, id: string): Promise<LedgerRecord> {
  await ledger.create(intent(id));
  await ledger.transition(id, 0, { type: 'start', attemptId: `a-${id}`, messageId: `m-${id}` });
  return ledger.transition(id, 1, {
    type: 'commit',
    attemptId: `a-${id}`,
    result: { kind: 'task', taskId: `t-${id}`, contextId: 'ctx' },
  });
}

function refusal(promise: Promise<unknown>): Promise<LedgerError> {
  return rejectionOf(promise, LedgerError);
}

function journalLines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').slice(0, -1);
}

/** A journal of three committed sends (nine lines), closed. */
async function journalOfThree(): Promise<string> {
  const path = freshPath();
  const ledger = await openLedger({ name: path });
  for (const id of ['j-1', 'j-2', 'j-3']) {
    await committed(ledger, id);
  }
  await ledger.close();
  return path;
}

describe('the journal on open', () => {
  it('truncates a torn last line, the unacknowledged tail of a write a crash interrupted', async () => {
    const path = await journalOfThree();
    const whole = (await stat(path)).size;
    const line = journalLines(path)[0] as string;
    appendFileSync(path, line.slice(0, 40));
    const ledger = await openLedger({ name: path });
    expect((await ledger.list()).map((record) => record.state.status)).toEqual([
      'committed',
      'committed',
      'committed',
    ]);
    expect((await stat(path)).size).toBe(whole);
    await committed(ledger, 'j-4');
    await ledger.close();
    const reopened = await openLedger({ name: path });
    expect(await reopened.list()).toHaveLength(4);
    await reopened.close();
  });

  it.each([
    ['a line that is not JSON', (lines: string[]) => lines.splice(4, 1, '{"fence":1,'), 5, 'json'],
    [
      'a line that does not decode',
      (lines: string[]) => lines.splice(2, 1, '{"fence":1}'),
      3,
      'journal-line',
    ],
    [
      'a line whose content no longer matches its digest',
      (lines: string[]) =>
        lines.splice(3, 1, (lines[3] as string).replace('"tenant":"acme"', '"tenant":"evil"')),
      4,
      'digest',
    ],
    ['a removed line', (lines: string[]) => lines.splice(1, 1), 2, 'chain'],
    ['a duplicated line', (lines: string[]) => lines.splice(1, 0, lines[1] as string), 3, 'chain'],
    ['a whole record removed', (lines: string[]) => lines.splice(3, 3), 4, 'chain'],
    ["a record's trailing lines removed", (lines: string[]) => lines.splice(4, 2), 5, 'chain'],
    [
      'a line from an older fence after a newer one',
      (lines: string[]) => lines.splice(0, 1, (lines[0] as string).replace('"fence":1', '"fence":2')),
      2,
      'fence',
    ],
    ['a complete last line that is corrupt', (lines: string[]) => lines.splice(8, 1, 'garbage'), 9, 'json'],
  ] as const)(
    'refuses %s as corrupt, naming its line, and never skips it',
    async (_, tamper, position, rule) => {
      const path = await journalOfThree();
      // Without a snapshot the whole journal is replayed and checked line by line.
      unlinkSync(`${path}.snapshot`);
      const lines = journalLines(path);
      tamper(lines);
      writeFileSync(path, `${lines.join('\n')}\n`);
      const error = await refusal(openLedger({ name: path }));
      expect(error).toMatchObject({ reason: 'corrupt', position, rule });
      expect(error.message).not.toContain(directory);
      // The refusal released the lock: once repaired, the journal opens.
      expect(await readLock(`${path}.lock`)).toBeUndefined();
    },
  );

  it('refuses a line that is not UTF-8', async () => {
    const path = await journalOfThree();
    unlinkSync(`${path}.snapshot`);
    const bytes = readFileSync(path);
    const broken = Buffer.concat([bytes.subarray(0, 20), Buffer.from([0xff]), bytes.subarray(21)]);
    writeFileSync(path, broken);
    expect(await refusal(openLedger({ name: path }))).toMatchObject({
      reason: 'corrupt',
      position: 1,
      rule: 'utf-8',
    });
  });
});

describe('whole-journal damage and the snapshot', () => {
  async function unchanged(path: string, tamper: () => void, rule: string): Promise<void> {
    tamper();
    const before = readFileSync(path);
    const error = await refusal(openLedger({ name: path }));
    expect(error).toMatchObject({ reason: 'corrupt', rule });
    // Nothing was changed to make it fit, and the lock is released.
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(await readLock(`${path}.lock`)).toBeUndefined();
  }

  it.each([
    ['a whole record', (lines: string[]) => lines.splice(3, 3)],
    ["a record's trailing lines", (lines: string[]) => lines.splice(4, 2)],
    ['the first line', (lines: string[]) => lines.splice(0, 1)],
  ] as const)('detects %s deleted before the checkpoint', async (_, tamper) => {
    const path = await journalOfThree();
    const lines = journalLines(path);
    tamper(lines);
    await unchanged(path, () => writeFileSync(path, `${lines.join('\n')}\n`), 'checkpoint');
  });

  it('detects a line deleted after the checkpoint, whichever record it belonged to', async () => {
    const path = await journalOfThree();
    const checkpoint = readFileSync(`${path}.snapshot`);
    const ledger = await openLedger({ name: path });
    await committed(ledger, 'j-4');
    await committed(ledger, 'j-5');
    await ledger.close();
    // The snapshot of the first close: lines 10..15 are after its checkpoint, as after a crash.
    writeFileSync(`${path}.snapshot`, checkpoint);
    const lines = journalLines(path);
    lines.splice(11, 1);
    writeFileSync(path, `${lines.join('\n')}\n`);
    expect(await refusal(openLedger({ name: path }))).toMatchObject({
      reason: 'corrupt',
      rule: 'chain',
      position: 12,
    });
  });

  it.each([
    ['0x0b', 0x0b],
    ['*', 0x2a],
    ['a space', 0x20],
  ])('refuses a final newline flipped to %s and never truncates the acknowledged line', async (_, byte) => {
    const path = await journalOfThree();
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] = byte;
    // The snapshot's checkpoint covers that line: its end moved.
    await unchanged(path, () => writeFileSync(path, bytes), 'checkpoint');
    // Without the snapshot too: the tail holds a whole line, so it is never taken for a torn write.
    unlinkSync(`${path}.snapshot`);
    expect(await refusal(openLedger({ name: path }))).toMatchObject({ rule: 'unterminated-line' });
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('refuses a final newline that is missing, since the line before it may have been acknowledged', async () => {
    const path = await journalOfThree();
    const bytes = readFileSync(path);
    unlinkSync(`${path}.snapshot`);
    await unchanged(path, () => writeFileSync(path, bytes.subarray(0, -1)), 'unterminated-line');
  });

  it.each([
    ['truncated', (text: string) => text.slice(0, Math.floor(text.length / 2)), 'snapshot-truncated'],
    ['cut before its digest line ends', (text: string) => text.slice(0, -5), 'snapshot-truncated'],
    ['corrupt', (text: string) => text.replace('"lines":', '"lines" :'), 'snapshot-digest'],
    ['empty', () => '', 'snapshot-truncated'],
  ] as const)('refuses a snapshot that is %s, and changes nothing', async (_, tamper, rule) => {
    const path = await journalOfThree();
    const snapshot = `${path}.snapshot`;
    const damaged = tamper(readFileSync(snapshot, 'utf8'));
    writeFileSync(snapshot, damaged);
    await unchanged(path, () => undefined, rule);
    expect(readFileSync(snapshot, 'utf8')).toBe(damaged);
    // Deleting the snapshot by hand makes the next open replay and verify the whole journal.
    unlinkSync(snapshot);
    const ledger = await openLedger({ name: path });
    expect(await ledger.list()).toHaveLength(3);
    await ledger.close();
  });

  it('refuses a snapshot whose digest matches but whose content is not a snapshot', async () => {
    const path = await journalOfThree();
    const text = JSON.stringify({ format: 'other' });
    const { createHash } = await import('node:crypto');
    writeFileSync(`${path}.snapshot`, `${text}\nsha256:${createHash('sha256').update(text).digest('hex')}\n`);
    await unchanged(path, () => undefined, 'snapshot');
  });

  it('finds damage inside a settled record when the record is read, without a full replay on open', async () => {
    const path = await journalOfThree();
    const lines = journalLines(path);
    lines[3] = (lines[3] as string).replace('"tenant":"acme"', '"tenant":"evil"');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const ledger = await openLedger({ name: path });
    expect(await refusal(ledger.get('j-2'))).toMatchObject({ reason: 'corrupt', rule: 'digest' });
    expect((await ledger.get('j-1'))?.state.status).toBe('committed');
    expect(await refusal(compactLedger(ledger))).toMatchObject({ reason: 'corrupt', rule: 'digest' });
    await ledger.close();
  });

  it('keeps settled records out of the heap, reads them back whole, and opens from the snapshot', async () => {
    const path = freshPath();
    const ledger = await openLedger({ name: path });
    const records = [];
    for (let index = 0; index < 20; index++) {
      records.push(await committed(ledger, `h-${index}`));
    }
    await ledger.create(intent('open-1'));
    const histories = await Promise.all(records.map((record) => ledger.history(record.id)));
    await ledger.close();
    const reopened = await openLedger({ name: path });
    expect(await reopened.get('h-7')).toEqual(records[7]);
    expect(await reopened.history('h-7')).toEqual(histories[7]);
    expect(await verifyHistory(await reopened.history('h-7'))).toEqual({ ok: true, record: records[7] });
    expect((await reopened.list({ states: ['prepared'] })).map((record) => record.id)).toEqual(['open-1']);
    expect(await reopened.list({ states: ['committed'] })).toEqual(records);
    // A settled record still refuses what its state refuses.
    expect(
      await refusal(reopened.transition('h-3', 2, { type: 'start', attemptId: 'x', messageId: 'y' })),
    ).toMatchObject({
      reason: 'invalid-transition',
    });
    expect(
      await refusal(reopened.transition('h-3', 1, { type: 'start', attemptId: 'x', messageId: 'y' })),
    ).toMatchObject({
      reason: 'stale-revision',
    });
    expect(await refusal(reopened.create(intent('h-3')))).toMatchObject({ reason: 'stale-revision' });
    await reopened.close();
  });
});

describe('checkpoints', () => {
  it('writes a snapshot by itself every 4096 lines, so a crash leaves at most that much to replay', async () => {
    const path = freshPath();
    const ledger = await openLedger({ name: path });
    let next = 0;
    await Promise.all(
      Array.from({ length: 128 }, async () => {
        while (next < 4200) {
          await ledger.create(intent(`cp-${next++}`));
        }
      }),
    );
    // Not closed: the snapshot on disk is the one the appends triggered.
    await vi.waitFor(() => expect(readFileSync(`${path}.snapshot`, 'utf8')).toMatch(/"lines":(\d{4})/), {
      timeout: 30_000,
    });
    const lines = Number(/"lines":(\d+)/.exec(readFileSync(`${path}.snapshot`, 'utf8'))?.[1]);
    expect(lines).toBeGreaterThanOrEqual(4096);
    expect(lines).toBeLessThanOrEqual(4200);
    await ledger.close();
  }, 120_000);
});

describe('retention', () => {
  it('prunes settled records past the window when compacting, never an open one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const path = freshPath();
      vi.setSystemTime(1_000_000);
      const ledger = await openLedger({ name: path, retentionMs: 60_000 });
      await committed(ledger, 'old-1');
      await ledger.create(intent('old-open'));
      vi.setSystemTime(1_000_000 + 30_000);
      await committed(ledger, 'young-1');
      vi.setSystemTime(1_000_000 + 61_000);
      expect(await compactLedger(ledger)).toEqual({ records: 2, revisions: 4 });
      expect(await ledger.get('old-1')).toBeUndefined();
      expect(await ledger.history('old-1')).toEqual([]);
      expect((await ledger.list()).map((record) => record.id)).toEqual(['old-open', 'young-1']);
      await ledger.close();
      const reopened = await openLedger({ name: path, retentionMs: 60_000 });
      expect((await reopened.list()).map((record) => record.id)).toEqual(['old-open', 'young-1']);
      await reopened.close();
      unlinkSync(`${path}.snapshot`);
      const replayed = await openLedger({ name: path, retentionMs: 60_000 });
      expect((await replayed.list()).map((record) => record.id)).toEqual(['old-open', 'young-1']);
      await replayed.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a retention of %s', async (retentionMs) => {
    expect(await refusal(openLedger({ name: freshPath(), retentionMs }))).toMatchObject({
      reason: 'invalid-input',
      rule: 'retention',
    });
  });
});

describe('compaction', () => {
  it('rewrites the journal record by record, keeping every record and its whole digest chain', async () => {
    const path = freshPath();
    const ledger = await openLedger({ name: path });
    // Interleaved: each record's revisions are spread across the journal.
    await Promise.all(['c-1', 'c-2', 'c-3'].map((id) => committed(ledger, id)));
    const before = await ledger.list();
    const histories = await Promise.all(before.map((record) => ledger.history(record.id)));
    // Queued behind the compaction: its lines go to the new journal, after the snapshot.
    const compaction = compactLedger(ledger);
    const during = committed(ledger, 'c-4');
    expect(await compaction).toEqual({ records: 3, revisions: 9 });
    await during;
    expect(
      journalLines(path)
        .slice(0, 9)
        .map((line) => (JSON.parse(line) as { body: { id: string } }).body.id),
    ).toEqual(['c-1', 'c-1', 'c-1', 'c-2', 'c-2', 'c-2', 'c-3', 'c-3', 'c-3']);
    await ledger.close();
    const reopened = await openLedger({ name: path });
    expect((await reopened.list()).slice(0, 3)).toEqual(before);
    for (const [index, record] of before.entries()) {
      const history = await reopened.history(record.id);
      expect(history).toEqual(histories[index]);
      expect(await verifyHistory(history)).toEqual({ ok: true, record });
    }
    expect((await reopened.get('c-4'))?.state.status).toBe('committed');
    await reopened.close();
  });

  it('drops a temporary file a crashed compaction left, and compacts only file ledgers', async () => {
    const path = await journalOfThree();
    writeFileSync(`${path}.compact.tmp`, 'half a snapshot');
    const ledger = await openLedger({ name: path });
    expect(await stat(`${path}.compact.tmp`).catch(() => undefined)).toBeUndefined();
    await ledger.close();
    const other = await memory.openLedger({ name: 'memory' });
    expect(await refusal(compactLedger(other))).toMatchObject({
      reason: 'invalid-input',
      rule: 'not-a-file-ledger',
    });
  });
});

describe('group commit', () => {
  it('makes concurrent commits share syncs, each resolving only after a synchronized write that covers its line', async () => {
    const path = freshPath();
    const ledger = await openLedger({ name: path });
    const ids = Array.from({ length: 48 }, (_, index) => `g-${index}`);
    for (const id of ids) {
      await ledger.create(intent(id));
    }
    const original = fileHandlePrototype.writev;
    let durable = '';
    const synchronized: boolean[] = [];
    const writev = vi.spyOn(fileHandlePrototype, 'writev').mockImplementation(async function (
      this: FileHandle,
      ...args: Parameters<FileHandle['writev']>
    ) {
      // Linux names the descriptor's open flags (octal) in fdinfo: the journal is written through O_DSYNC, so
      // a write that returned is on disk.
      const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${this.fd}`, 'utf8'))?.[1];
      synchronized.push((Number.parseInt(flags ?? '0', 8) & constants.O_DSYNC) !== 0);
      const written = await original.apply(this, args);
      durable = readFileSync(path, 'utf8');
      return written;
    });
    const covered = await Promise.all(
      ids.map(async (id) => {
        const record = await ledger.transition(id, 0, {
          type: 'start',
          attemptId: `a-${id}`,
          messageId: `m-${id}`,
        });
        return durable.includes(record.digest);
      }),
    );
    expect(covered.every(Boolean)).toBe(true);
    expect(synchronized.length).toBeGreaterThan(0);
    expect(synchronized.every(Boolean)).toBe(true);
    expect(writev.mock.calls.length).toBeLessThan(ids.length / 4);
    await ledger.close();
  });

  it('starts a batch as soon as 64 appends have queued, so the disk syncs them while later writers still compute', async () => {
    const ledger = await openLedger({ name: freshPath() });
    const ids = Array.from({ length: 96 }, (_, index) => `early-${index}`);
    await Promise.all(ids.map((id) => ledger.create(intent(id))));
    const original = fileHandlePrototype.writev;
    const lines: number[] = [];
    vi.spyOn(fileHandlePrototype, 'writev').mockImplementation(async function (
      this: FileHandle,
      ...args: Parameters<FileHandle['writev']>
    ) {
      lines.push(args[0].length);
      return original.apply(this, args);
    });
    // All 96 commits are computed in one run of microtasks: the first 64 are written as the 64th queues, the
    // rest next.
    await Promise.all(
      ids.map((id) =>
        ledger.transition(id, 0, { type: 'start', attemptId: `a-${id}`, messageId: `m-${id}` }),
      ),
    );
    expect(lines).toEqual([64, 32]);
    await ledger.close();
  });

  it('writes the appends that queued during a sync before it wakes the writers of that sync', async () => {
    const path = freshPath();
    const appender = await freshAppender(path);
    const line = (n: number) => lineToAppend(`{"n":${n}}`);
    const original = fileHandlePrototype.writev;
    const events: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    vi.spyOn(fileHandlePrototype, 'writev').mockImplementation(async function (
      this: FileHandle,
      ...args: Parameters<FileHandle['writev']>
    ) {
      events.push(`writev ${args[0].length}`);
      if (events.length === 1) {
        await held;
      }
      return original.apply(this, args);
    });
    // 64 appends start the first batch at once; 64 more queue while it syncs.
    const first = Array.from({ length: 64 }, (_, n) => appender.append([line(n)], () => undefined));
    const woken = (first[0] as Promise<void>).then(() => {
      events.push('woken');
    });
    const second = Array.from({ length: 64 }, (_, n) => appender.append([line(64 + n)], () => undefined));
    release();
    await Promise.all([...first, ...second, woken]);
    expect(events).toEqual(['writev 64', 'writev 64', 'woken']);
    await appender.close();
    expect(journalLines(path)).toHaveLength(128);
  });

  it('writes an append queued in the very turn the drain of the last batch stops', async () => {
    const path = freshPath();
    const appender = await freshAppender(path);
    // The second append comes two turns after the first batch is durable: after the drain's last look at the
    // queue, before it used to clear its running flag. It was left queued, unwritten, until another append
    // came; here none does.
    await appender
      .append([lineToAppend('{"n":1}')], () => undefined)
      .then(() => undefined)
      .then(() => appender.append([lineToAppend('{"n":2}')], () => undefined));
    await appender.close();
    expect(journalLines(path)).toHaveLength(2);
  });

  it('makes a lone append sync on the event-loop thread with loneSync event-loop, and from the thread pool by default', async () => {
    const writev = vi.spyOn(fileHandlePrototype, 'writev');
    vi.mocked(writevSync).mockClear();
    const here = await freshAppender(freshPath(), 'event-loop');
    await here.append([lineToAppend('{"n":1}')], () => undefined);
    await here.append([lineToAppend('{"n":2}')], () => undefined);
    await here.close();
    expect(vi.mocked(writevSync)).toHaveBeenCalledTimes(2);
    expect(writev).not.toHaveBeenCalled();
    vi.mocked(writevSync).mockClear();
    const path = freshPath();
    const pooled = await freshAppender(path);
    await pooled.append([lineToAppend('{"n":1}')], () => undefined);
    await pooled.close();
    expect(writev).toHaveBeenCalledTimes(1);
    expect(vi.mocked(writevSync)).not.toHaveBeenCalled();
    expect(journalLines(path)).toHaveLength(1);
  });

  it('still shares one sync from the thread pool among appends that queued together, with loneSync event-loop', async () => {
    const path = freshPath();
    const appender = await freshAppender(path, 'event-loop');
    const writev = vi.spyOn(fileHandlePrototype, 'writev');
    vi.mocked(writevSync).mockClear();
    await Promise.all([1, 2, 3].map((n) => appender.append([lineToAppend(`{"n":${n}}`)], () => undefined)));
    await appender.close();
    expect(writev).toHaveBeenCalledTimes(1);
    expect(writev.mock.calls[0]?.[0]).toHaveLength(3);
    expect(vi.mocked(writevSync)).not.toHaveBeenCalled();
    expect(journalLines(path)).toHaveLength(3);
  });

  it('finishes a short write on the event-loop thread, and fails when nothing more goes in', async () => {
    const path = freshPath();
    const appender = await freshAppender(path, 'event-loop');
    const text = '{"n":"a line written in pieces"}';
    // The first write takes five bytes, the next the rest.
    vi.mocked(writevSync).mockImplementationOnce((fd, buffers) =>
      writeSync(fd, buffers[0] as Uint8Array, 0, 5),
    );
    await appender.append([lineToAppend(text)], () => undefined);
    expect(journalLines(path).map((line) => (JSON.parse(line) as { body: unknown }).body)).toEqual([
      JSON.parse(text),
    ]);
    vi.mocked(writevSync).mockImplementationOnce(() => 0);
    vi.mocked(writeSync).mockImplementationOnce(() => 0);
    expect(await refusal(appender.append([lineToAppend('{"n":2}')], () => undefined))).toMatchObject({
      reason: 'io',
      rule: 'short-write',
    });
    expect(await refusal(appender.append([lineToAppend('{"n":3}')], () => undefined))).toMatchObject({
      reason: 'io',
      rule: 'short-write',
    });
    await appender.close();
    expect(journalLines(path)).toHaveLength(1);
  });

  it('fails every later write when a sync on the event-loop thread fails, as it does from the thread pool', async () => {
    const path = freshPath();
    const ledger = await openLedger({ name: path, loneSync: 'event-loop' });
    await ledger.create(intent('loop-0'));
    vi.mocked(writevSync).mockImplementationOnce(() => {
      throw Object.assign(new Error('EIO'), { code: 'EIO' });
    });
    expect(await refusal(ledger.create(intent('loop-1')))).toMatchObject({ reason: 'io', rule: 'write' });
    expect(await refusal(ledger.create(intent('loop-2')))).toMatchObject({ reason: 'io', rule: 'write' });
    expect((await ledger.list()).map((record) => record.id)).toEqual(['loop-0']);
    await ledger.close();
  });

  it('refuses a loneSync that is neither thread-pool nor event-loop', async () => {
    const options = { name: freshPath(), loneSync: 'eventually' } as unknown as Parameters<
      typeof openLedger
    >[0];
    expect(await refusal(openLedger(options))).toMatchObject({ reason: 'invalid-input', rule: 'lone-sync' });
  });

  it('fails every waiting and later write when a synchronized write fails, since what reached the disk is unknown', async () => {
    const path = freshPath();
    const ledger = await openLedger({ name: path });
    await ledger.create(intent('io-0'));
    vi.spyOn(fileHandlePrototype, 'writev').mockRejectedValueOnce(
      Object.assign(new Error('EIO'), { code: 'EIO' }),
    );
    const results = await Promise.allSettled([ledger.create(intent('io-1')), ledger.create(intent('io-2'))]);
    expect(results.map((result) => result.status === 'rejected' && result.reason)).toEqual([
      expect.objectContaining({ reason: 'io' }),
      expect.objectContaining({ reason: 'io' }),
    ]);
    expect(await refusal(ledger.create(intent('io-3')))).toMatchObject({ reason: 'io' });
    expect((await ledger.list()).map((record) => record.id)).toEqual(['io-0']);
    await ledger.close();
  });
});

let fixture = '';

/** What the fixture reports, one object per line. */
type Event = {
  readonly event: string;
  readonly id?: string;
  readonly revision?: number;
  readonly reason?: string;
  readonly fence?: number;
};
type Child = {
  readonly process: ChildProcess;
  /** Resolves with the first event of that name, even one that came before the call. */
  next(event: string): Promise<Event>;
  /** Receives every event from now on. */
  listen(listener: (event: Event) => void): void;
  go(): void;
};

// Every process a test starts, so that none outlives it, even when an assertion fails half-way.
const children = new Set<ChildProcess>();
afterEach(async () => {
  await Promise.all([...children].map(killed));
  children.clear();
});

/**
Starts the compiled fixture in a process of its own; it loads, then waits for `go` before it opens the ledger.
*/
function child(args: readonly string[]): Child {
  const process_ = spawn(process.execPath, [fixture, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.add(process_);
  const waiting = new Map<string, (event: Event) => void>();
  const seen = new Map<string, Event>();
  let listener: (event: Event) => void = () => undefined;
  createInterface({ input: process_.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const event = JSON.parse(line) as Event;
    const name = event.event;
    listener(event);
    if (!seen.has(name)) {
      seen.set(name, event);
    }
    waiting.get(name)?.(event);
  });
  return {
    process: process_,
    next: (event) =>
      new Promise((resolve) => {
        const already = seen.get(event);
        if (already !== undefined) {
          resolve(already);
        } else {
          waiting.set(event, resolve);
        }
      }),
    listen(next) {
      listener = next;
    },
    go: () => process_.stdin?.write('go\n'),
  };
}

function killed(process_: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (process_.exitCode !== null || process_.signalCode !== null) {
      resolve();
      return;
    }
    process_.once('exit', () => resolve());
    process_.kill('SIGKILL');
  });
}

describe('the lock file', () => {
  it('refuses a second ledger on the same journal, in this process and in another one', async () => {
    const path = freshPath();
    const ledger = await openLedger({ name: path });
    expect(await refusal(openLedger({ name: path }))).toMatchObject({ reason: 'locked' });
    const other = child(['try', path]);
    other.go();
    expect(await other.next('refused')).toMatchObject({ reason: 'locked' });
    await killed(other.process);
    await ledger.close();
    const after = await openLedger({ name: path });
    await after.close();
  });

  it('takes over the lock of a killed holder with a higher fencing counter, and fences the old lock out', async () => {
    const path = freshPath();
    await (await openLedger({ name: path })).close();
    const holder = child(['hold', path]);
    holder.go();
    const { fence } = (await holder.next('opened')) as { fence: number };
    expect(await refusal(openLedger({ name: path }))).toMatchObject({ reason: 'locked' });
    await killed(holder.process);
    const ledger = await openLedger({ name: path });
    expect((await readLock(`${path}.lock`))?.fence).toBe(fence + 1);
    await ledger.create(intent('after-takeover'));
    expect((JSON.parse(journalLines(path).at(-1) as string) as { fence: number }).fence).toBe(fence + 1);
    // Someone else now holds the path: this writer is fenced out before its next batch.
    await rm(`${path}.lock`);
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid, fence: fence + 2, token: 'other' }));
    expect(await refusal(ledger.create(intent('fenced')))).toMatchObject({ reason: 'fenced' });
    await ledger.close();
    expect(await readLock(`${path}.lock`)).toMatchObject({ token: 'other' });
  }, 15_000);
});

/** mulberry32: a small seeded generator, so the kill points are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('a ledger process killed with SIGKILL', () => {
  // Four writers mostly share syncs from the thread pool; one writer alone, with `loneSync: 'event-loop'`,
  // makes every sync on its event-loop thread.
  it.each([
    { writers: '4', loneSync: 'thread-pool' },
    { writers: '1', loneSync: 'event-loop' },
  ])(
    'always reopens with every acknowledged write, and never with a record still executing ($writers writers, loneSync $loneSync)',
    async ({ writers, loneSync }) => {
      const path = freshPath();
      const random = seeded(20_260_601);
      const iterations = 30;
      const acknowledged = new Map<string, number>();
      const streaming = (iteration: number) => child(['stream', path, `k${iteration}`, writers, loneSync]);
      let next = streaming(0);
      for (let iteration = 0; iteration < iterations; iteration++) {
        const current = next;
        // A seeded kill point: after 1 to 60 acknowledged writes, with more in flight from the other writers.
        const killAfter = 1 + Math.floor(random() * 60);
        let acks = 0;
        const enough = new Promise<void>((resolve) => {
          current.listen((event) => {
            if (event.event === 'ack') {
              acknowledged.set(String(event.id), Number(event.revision));
              acks++;
              if (acks === killAfter) {
                resolve();
              }
            }
          });
        });
        current.go();
        // Load the next process while this one runs: starting Node costs more than the run itself.
        if (iteration + 1 < iterations) {
          next = streaming(iteration + 1);
        }
        await enough;
        await killed(current.process);
        const ledger = await openLedger({ name: path });
        const records = new Map((await ledger.list()).map((record) => [record.id, record]));
        for (const [id, revision] of acknowledged) {
          expect(records.get(id)?.revision, id).toBeGreaterThanOrEqual(revision);
        }
        expect([...records.values()].filter((record) => record.state.status === 'executing')).toEqual([]);
        await ledger.close();
      }
      const ledger = await openLedger({ name: path });
      for (const record of await ledger.list()) {
        expect(await verifyHistory(await ledger.history(record.id))).toEqual({ ok: true, record });
      }
      expect(await ledger.list()).not.toHaveLength(0);
      await ledger.close();
    },
    60_000,
  );
});
