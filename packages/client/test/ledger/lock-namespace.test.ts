/**
A lock holder in another PID namespace (docs/durable-send.md#file-journal, which holder is gone): a process
run as pid 1 of a new namespace that sees the host's `/proc` (`unshare --pid --fork`, no `--mount-proc`) reads
the host's init at `/proc/1`, so neither it nor anyone else can judge it by its pid. Its lock records its
namespace and its heartbeat; a contender that cannot check the pid refuses while the heartbeat is fresh
(`locked`, rule `heartbeat`, with a message that says when the holder counts as gone) and takes the lock over
once it is three beats old. The holders here beat every 250 ms (`SURECALL_LOCK_HEARTBEAT_MS`), so the
documented wait is 750 ms.
*/
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerError } from '../../src/core/errors.js';
import { openLedger } from '../../src/ledger/file.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { acquireLock, readLock } from '../../src/ledger/lock.js';
import { judgeHolder, lockStaleBeats, startTime } from '../../src/ledger/lock-holder.js';
import { compileForChild } from '../support/child-build.js';
import { rejectionOf } from '../support/rejection.js';

const linux = process.platform === 'linux';
// `unshare --pid` needs root (or user namespaces) and util-linux: the CI machines of this repository run as
// root on Linux.
const unshare = linux ? spawnSync('unshare', ['--pid', '--fork', 'true'], { encoding: 'utf8' }) : undefined;
const canUnshare = unshare?.status === 0;
const skipReason = canUnshare
  ? ''
  : ` (skipped: unshare --pid --fork is not available here: ${linux ? (unshare?.error?.message ?? unshare?.stderr.trim()) : 'not Linux'})`;

const beat = 250;
const bound = lockStaleBeats * beat;
// How long any wait may last before the test fails: many times the bound, for a loaded machine.
const patience = 15_000;
const environment = { ...process.env, SURECALL_LOCK_HEARTBEAT_MS: `${beat}` };

let directory = '';
let fixture = '';
const children = new Set<ChildProcess>();
const hostPids = new Set<number>();
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-lock-namespace-'));
  if (canUnshare) {
    fixture = await compileForChild('test/support/lock-child.ts', join(directory, 'build'));
  }
});
afterAll(async () => {
  // Only the children this file started, by their own pids.
  for (const pid of hostPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await Promise.all([...children].map(exited));
  await rm(directory, { recursive: true, force: true });
});

type Report = {
  readonly outcome: 'held' | 'refused';
  readonly pid: number;
  readonly hostPid: number;
  readonly fence?: number;
  readonly reason?: string;
  readonly rule?: string;
  readonly lock?: {
    readonly pid: number;
    readonly start?: string;
    readonly ns?: string;
    readonly beat?: number;
  };
  readonly records?: readonly string[];
  readonly refusals: number;
  readonly rules: readonly string[];
  readonly message?: string;
};

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
Starts the child as pid 1 of a new PID namespace that sees the host's /proc, and resolves with its one report.
*/
function inNamespace(
  path: string,
  id: string,
  mode: 'exit' | 'hold',
  waitMs: number,
): Promise<{ readonly report: Report; readonly child: ChildProcess }> {
  const child = spawn(
    'unshare',
    ['--pid', '--fork', process.execPath, fixture, path, id, mode, `${waitMs}`],
    {
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const end = stdout.indexOf('\n');
      if (end >= 0) {
        const report = JSON.parse(stdout.slice(0, end)) as Report;
        hostPids.add(report.hostPid);
        resolve({ report, child });
      }
    });
    child.once('exit', () => reject(new Error(`the child ended without a report: ${stderr}`)));
  });
}

/** SIGKILLs a child by the pid the host knows it by (pid 1 of its namespace: the namespace ends with it). */
async function kill(report: Report, child: ChildProcess): Promise<void> {
  process.kill(report.hostPid, 'SIGKILL');
  await exited(child);
}

/** Waits, bounded, until `ready` says so. */
async function until(ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + patience;
  while (!(await ready())) {
    if (Date.now() > deadline) {
      throw new Error('the state the test waits for never came');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
Opens the ledger from this process (the host's namespace and /proc), trying again while it is `locked`,
bounded; returns the ledger and the rules of the refusals met.
*/
async function openFromHost(
  path: string,
): Promise<{ readonly ledger: Ledger; readonly rules: readonly string[] }> {
  const rules = new Set<string>();
  const deadline = Date.now() + patience;
  for (;;) {
    try {
      return { ledger: await openLedger({ name: path }), rules: [...rules] };
    } catch (error) {
      if (!(error instanceof LedgerError) || error.reason !== 'locked' || Date.now() > deadline) {
        throw error;
      }
      rules.add(error.rule ?? '');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

describe('a lock holder in another PID namespace that sees the host /proc (docs/durable-send.md#file-journal)', () => {
  it.skipIf(!canUnshare)(
    `is refused while it beats, and after SIGKILL is taken over from a namespace of the same kind and from the host, every record kept${skipReason}`,
    async () => {
      const path = join(directory, 'journal.jsonl');
      const lockPath = `${path}.lock`;
      const hostNamespace = readlinkSync('/proc/self/ns/pid');

      const first = await inNamespace(path, 'first', 'hold', 0);
      expect(first.report).toMatchObject({ outcome: 'held', pid: 1, fence: 1, records: ['first'] });
      // The lock names the holder's own namespace and start time, read through /proc/self, not /proc/1 (the
      // host's init).
      expect(first.report.lock).toMatchObject({
        pid: 1,
        ns: expect.stringMatching(/^pid:\[[0-9]+\]$/),
        beat,
      });
      expect(first.report.lock?.ns).not.toBe(hostNamespace);
      expect(first.report.lock?.start).toBe(await startTime(first.report.hostPid));
      const placed = (await stat(lockPath)).mtimeMs;

      // Live: once a lock that no one refreshed would be stale, and the holder has beaten since, it is still
      // refused.
      await until(async () => Date.now() - placed > bound + beat && (await stat(lockPath)).mtimeMs > placed);
      const fromHost = await rejectionOf(openLedger({ name: path }), LedgerError);
      expect(fromHost).toMatchObject({ reason: 'locked', rule: 'heartbeat', path: lockPath });
      expect(fromHost.message).toContain('could not be checked by its pid');
      expect(fromHost.message).toContain('delete the lock file if no process writes the journal');
      const fromNamespace = await inNamespace(path, 'refused', 'exit', 0);
      expect(fromNamespace.report).toMatchObject({ outcome: 'refused', reason: 'locked', rule: 'heartbeat' });
      expect(fromNamespace.report.message).toContain('three of its beats old');
      expect(await readLock(lockPath)).toMatchObject({ fence: 1, ns: first.report.lock?.ns });

      // (a) Killed, then started again the same way: the new pid 1 waits for the heartbeat to go stale, then
      // takes over.
      await kill(first.report, first.child);
      const second = await inNamespace(path, 'second', 'hold', patience);
      expect(second.report).toMatchObject({
        outcome: 'held',
        pid: 1,
        fence: 2,
        records: ['first', 'second'],
      });
      expect(second.report.rules.filter((rule) => rule !== 'heartbeat')).toEqual([]);

      // (b) Killed again, then opened from the host.
      await kill(second.report, second.child);
      const { ledger, rules } = await openFromHost(path);
      expect(rules.filter((rule) => rule !== 'heartbeat')).toEqual([]);
      expect((await ledger.list()).map((record) => record.id)).toEqual(['first', 'second']);
      expect(await readLock(lockPath)).toMatchObject({ pid: process.pid, fence: 3, ns: hostNamespace });
      await ledger.close();
      expect(await readLock(lockPath)).toBeUndefined();
    },
    // Four Node processes in fresh namespaces and three waits of about a second: seconds on a loaded machine.
    60_000,
  );
});

describe.skipIf(!linux)('judging a holder that cannot be checked by its pid (Linux /proc)', () => {
  // A namespace this process is not in: no inode is 0.
  const elsewhere = 'pid:[0]';

  it.each<[string, number, string]>([
    ['a fresh heartbeat', 0, 'beating'],
    ['a heartbeat just inside three beats', bound - 1, 'beating'],
    ['a heartbeat older than three beats', bound + 1, 'gone'],
    ['a heartbeat dated in the future (the clock was set back)', -60_000, 'beating'],
  ])('%s', async (_name, age, verdict) => {
    const now = Date.now();
    const content = { pid: process.pid, fence: 2, token: 'other', ns: elsewhere, beat };
    expect(await judgeHolder(content, now - age, now)).toBe(verdict);
  });

  it('judges by pid a holder in its own namespace and /proc, whatever its heartbeat, and any lock without one', async () => {
    const ns = readlinkSync('/proc/self/ns/pid');
    const old = Date.now() - 3_600_000;
    // This very process, its heartbeat an hour old: live, since its pid can be checked.
    expect(await judgeHolder({ pid: process.pid, fence: 2, token: 't', ns, beat }, old)).toBe('live');
    // A lock written before heartbeats: its pid alone, as before.
    expect(await judgeHolder({ pid: process.pid, fence: 2, token: 't', ns: elsewhere }, old)).toBe('live');
    // Another boot: gone, whatever the heartbeat.
    const boot = '00000000-0000-4000-8000-000000000000';
    expect(
      await judgeHolder({ pid: process.pid, fence: 2, token: 't', ns: elsewhere, beat, boot }, Date.now()),
    ).toBe('gone');
  });

  it('refuses a beating holder with its rule and the lock file, and takes over a stale one with the fence + 1', async () => {
    const path = join(directory, 'judged.lock');
    writeFileSync(
      path,
      JSON.stringify({ pid: process.pid, fence: 6, token: 'elsewhere', ns: elsewhere, beat }),
    );
    expect(await rejectionOf(acquireLock(path), LedgerError)).toMatchObject({
      reason: 'locked',
      rule: 'heartbeat',
    });
    expect(await readLock(path)).toMatchObject({ token: 'elsewhere' });
    const stale = new Date(Date.now() - bound - 1000);
    utimesSync(path, stale, stale);
    const taken = await acquireLock(path, environment);
    expect(taken.fence).toBe(7);
    expect(await readLock(path)).toMatchObject({ pid: process.pid, fence: 7, beat });
    await taken.release();
  });

  it('beats while held: the lock file mtime is refreshed every beat, the new file after a raise', async () => {
    const path = join(directory, 'beating.lock');
    const lock = await acquireLock(path, { SURECALL_LOCK_HEARTBEAT_MS: '20' });
    const stale = new Date(Date.now() - 3_600_000);
    utimesSync(path, stale, stale);
    await until(async () => (await stat(path)).mtimeMs > Date.now() - 1000);
    await lock.raise(5);
    utimesSync(path, stale, stale);
    // After a raise, the beat refreshes the new lock file.
    await until(async () => (await stat(path)).mtimeMs > Date.now() - 1000);
    await lock.release();
    expect(await readLock(path)).toBeUndefined();
  });

  it.each(['0', '9', '3600001', '1.5', 'soon', '-20'])('refuses a heartbeat of %j ms', async (value) => {
    const path = join(directory, 'never.lock');
    expect(
      await rejectionOf(acquireLock(path, { SURECALL_LOCK_HEARTBEAT_MS: value }), LedgerError),
    ).toMatchObject({ reason: 'invalid-input', rule: 'lock-heartbeat' });
    expect(await readLock(path)).toBeUndefined();
  });
});
