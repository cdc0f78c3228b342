/**
A stale lock whose pid is alive again (docs/durable-send.md#file-journal, lock file): an app that runs as pid
1 of its container is pid 1 again after a restart, and after a reboot pids are reused. The lock records the
boot id and the holder's start time, so a restarted process with the same pid takes its ledger back with the
fence + 1, while a holder that still runs keeps refusing everyone else. A restarted container is a new PID
namespace, where the old holder's pid cannot be checked: the restart takes the ledger back once the old
holder's heartbeat is stale, within the wait docs/durable-send.md#file-journal documents (here three beats of
200 ms, `SURECALL_LOCK_HEARTBEAT_MS`).
*/
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { acquireLock, readLock } from '../../src/ledger/lock.js';
import { isHeld, pidState, startTime } from '../../src/ledger/lock-holder.js';
import { compileForChild } from '../support/child-build.js';

// `unshare --pid` needs root (or user namespaces) and util-linux: the CI machines of this repository run as
// root on Linux.
const unshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true'], { encoding: 'utf8' });
const canUnshare = unshare.status === 0;
const skipReason = canUnshare
  ? ''
  : ` (skipped: unshare --pid --fork --mount-proc is not available here: ${unshare.error?.message ?? unshare.stderr.trim()})`;
const linux = process.platform === 'linux';

let directory = '';
let fixture = '';
let judged = 0;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-lock-restart-'));
  fixture = await compileForChild('test/support/lock-child.ts', join(directory, 'build'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

type Report = {
  readonly outcome: 'held' | 'refused';
  readonly pid: number;
  readonly fence?: number;
  readonly reason?: string;
  readonly lock?: {
    readonly pid: number;
    readonly boot?: string;
    readonly start?: string;
    readonly ns?: string;
    readonly beat?: number;
  };
  readonly records?: readonly string[];
  readonly rules: readonly string[];
};

// The holders' heartbeat, and how long a restart may try to open: far more than the three beats it waits for
// at most.
const beat = 200;
const waitMs = 10_000;

/** Runs the child as pid 1 of a new PID namespace with its own /proc. */
function asPidOne(path: string, id: string): Promise<Report> {
  return new Promise((resolve, reject) => {
    execFile(
      'unshare',
      ['--pid', '--fork', '--mount-proc', process.execPath, fixture, path, id, 'exit', `${waitMs}`],
      { env: { ...process.env, SURECALL_LOCK_HEARTBEAT_MS: `${beat}` } },
      (error, stdout, stderr) => {
        if (error !== null) {
          reject(new Error(`the child failed: ${stderr}`));
          return;
        }
        resolve(JSON.parse(stdout) as Report);
      },
    );
  });
}

describe('a process restarted with the pid of the lock holder (docs/durable-send.md#file-journal)', () => {
  it.skipIf(!canUnshare)(
    `opens its ledger again: pid 1 of a container, killed and started again${skipReason}`,
    async () => {
      const path = join(directory, 'journal.jsonl');
      const first = await asPidOne(path, 'first');
      expect(first).toMatchObject({ outcome: 'held', pid: 1, fence: 1, records: ['first'] });
      expect(first.lock?.boot).toMatch(/^[0-9a-f-]{36}$/);
      expect(first.lock?.start).toMatch(/^[0-9]+$/);
      expect(first.lock).toMatchObject({ ns: expect.stringMatching(/^pid:\[[0-9]+\]$/), beat });
      // The first process is gone, its lock file stays; the restarted app is pid 1 too, in another namespace
      // (whose inode may be the dead one's again: then its pid and start time decide at once).
      const second = await asPidOne(path, 'second');
      expect(second).toMatchObject({ outcome: 'held', pid: 1, fence: 2, records: ['first', 'second'] });
      expect(second.lock?.start).not.toBe(first.lock?.start);
      const third = await asPidOne(path, 'third');
      expect(third).toMatchObject({ outcome: 'held', pid: 1, fence: 3 });
      expect(third.records).toHaveLength(3);
      // Whatever refused them meanwhile was the heartbeat of a holder they could not check, never a live pid.
      expect([...second.rules, ...third.rules].filter((rule) => rule !== 'heartbeat')).toEqual([]);
    },
    // Three Node processes, each in a fresh namespace, started one after another: seconds on a loaded
    // machine.
    60_000,
  );
});

describe.skipIf(!linux)('judging a lock by its process instance (Linux /proc)', () => {
  it('reads this process start time from /proc, field 22', async () => {
    expect(await startTime(process.pid)).toMatch(/^[0-9]+$/);
    expect(await startTime(2 ** 22 + 12345)).toBeUndefined();
  });

  it.each<[string, (own: { boot: string; start: string }) => object, boolean]>([
    ['this very process', (own) => ({ boot: own.boot, start: own.start }), true],
    [
      'a live pid that started at another time: the number was reused',
      (own) => ({ boot: own.boot, start: `${Number(own.start) + 1}` }),
      false,
    ],
    [
      'a live pid from another boot',
      (own) => ({ boot: '00000000-0000-4000-8000-000000000000', start: own.start }),
      false,
    ],
    ['a live pid with no instance recorded (an older lock, another platform)', () => ({}), true],
  ])('%s', async (_name, instance, held) => {
    const mine = {
      boot: (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim(),
      start: (await startTime(process.pid)) ?? '',
    };
    const content = { pid: process.pid, fence: 4, token: 'other', ...instance(mine) };
    expect(await isHeld(content)).toBe(held ? 'live' : 'gone');
    judged++;
    const path = join(directory, `judged-${judged}.lock`);
    await writeFile(path, JSON.stringify(content));
    if (held) {
      await expect(acquireLock(path)).rejects.toMatchObject({ reason: 'locked' });
    } else {
      const taken = await acquireLock(path);
      expect(taken.fence).toBe(5);
      expect(await readLock(path)).toMatchObject({ pid: process.pid, fence: 5, ...mine });
      await taken.release();
    }
  });
});

// docs/durable-send.md#file-journal: only ESRCH means a pid is gone. Deno without --allow-run refuses
// `process.kill(pid, 0)` itself (test/ledger/lock-permission.test.ts runs it); here Node's is made to fail
// the same way, to show what each verdict rests on.
describe.skipIf(!linux)('judging a holder whose pid this process may not ask about', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function refuseKill(error: Error & { code?: string }): void {
    vi.spyOn(process, 'kill').mockImplementation(() => {
      throw error;
    });
  }

  it.each<[string, Error & { code?: string }, string]>([
    ['ESRCH: no such process', Object.assign(new Error('kill ESRCH'), { code: 'ESRCH' }), 'gone'],
    ['EPERM: it runs under another user', Object.assign(new Error('kill EPERM'), { code: 'EPERM' }), 'alive'],
    [
      "Deno's NotCapable, without --allow-run",
      Object.assign(new Error('Requires run access'), { name: 'NotCapable' }),
      'unchecked',
    ],
    ['any other failure', Object.assign(new Error('kill EINVAL'), { code: 'EINVAL' }), 'unchecked'],
  ])('%s', (_name, error, state) => {
    refuseKill(error);
    expect(pidState(process.pid)).toBe(state);
  });

  it.each<[string, (start: string) => object, string]>([
    ['its start time read from /proc says it still runs', (start) => ({ start }), 'live'],
    ['its start time says the pid was reused', (start) => ({ start: `${Number(start) + 1}` }), 'gone'],
    ['no start time recorded: nothing says', () => ({}), 'unchecked'],
  ])('%s', async (_name, instance, verdict) => {
    const start = (await startTime(process.pid)) ?? '';
    refuseKill(Object.assign(new Error('Requires run access'), { name: 'NotCapable' }));
    expect(await isHeld({ pid: process.pid, fence: 1, token: 'other', ...instance(start) })).toBe(verdict);
  });
});
