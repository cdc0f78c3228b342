/**
A contender that may not ask whether the lock's holder runs (docs/durable-send.md#file-journal): Deno without
`--allow-run` gets `NotCapable` from `process.kill(pid, 0)`, which says nothing of the pid. Only ESRCH (no
such process) means the holder is gone; a live holder's lock is never taken, and a holder this process cannot
check at all is refused as `locked`, rule `holder-unchecked`, with a message naming the permission. The
contender is test/support/lock-child.ts run by Deno (the repository's devDependency) against locks this
process holds or writes.
*/
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/file.js';
import { readLock } from '../../src/ledger/lock.js';
import { pidState } from '../../src/ledger/lock-holder.js';
import { compileForChild } from '../support/child-build.js';
import { intent } from '../support/intent.js';

const run = promisify(execFile);
const deno = fileURLToPath(new URL('../../../../node_modules/.bin/deno', import.meta.url));

type Report = {
  readonly outcome: 'held' | 'refused';
  readonly fence?: number;
  readonly reason?: string;
  readonly rule?: string;
  readonly message?: string;
};

let directory = '';
let fixture = '';
let counter = 0;
let deadPid = 0;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-lock-permission-'));
  fixture = await compileForChild('test/support/lock-child.ts', join(directory, 'build'));
  // A pid that existed and no longer does.
  const exited = execFile(process.execPath, ['-e', '']);
  await new Promise((resolve) => exited.once('exit', resolve));
  deadPid = exited.pid as number;
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function freshPath(): string {
  counter++;
  return join(directory, `sends-${counter}.jsonl`);
}

/** The child's report, opened by Deno with file and environment access, and `--allow-run` only when asked. */
async function contend(path: string, allowRun: boolean): Promise<Report> {
  const { stdout } = await run(
    deno,
    [
      'run',
      '--allow-read',
      '--allow-write',
      '--allow-env',
      ...(allowRun ? ['--allow-run'] : []),
      fixture,
      path,
    ],
    { cwd: join(directory, 'build'), env: { ...process.env, NO_COLOR: '1' } },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Report;
}

/** A lock as written before the holder's start time and heartbeat were recorded: judged by its pid alone. */
function pidOnlyLock(path: string, pid: number): void {
  writeFileSync(`${path}.lock`, JSON.stringify({ pid, fence: 3, token: 'pid-only' }));
}

describe('a contender that may not check the holder’s pid', () => {
  it('Deno without --allow-run cannot open a ledger this live process holds, and this writer goes on writing', async () => {
    const path = freshPath();
    const ledger = await openLedger({ name: path });
    try {
      const before = await readLock(`${path}.lock`);
      const report = await contend(path, false);
      // Deno reads no /proc/self without --allow-all, so it judges this holder by its fresh heartbeat.
      expect(report).toMatchObject({ outcome: 'refused', reason: 'locked', rule: 'heartbeat' });
      // The lock is still this process's, unfenced: a durable write goes through.
      expect(await readLock(`${path}.lock`)).toEqual(before);
      await expect(ledger.create(intent('after-contender'))).resolves.toMatchObject({
        id: 'after-contender',
      });
    } finally {
      await ledger.close();
    }
  }, 30_000);

  it('a holder it cannot check at all is refused as holder-unchecked, naming the permission, never taken for gone', async () => {
    const live = freshPath();
    pidOnlyLock(live, process.pid);
    const refused = await contend(live, false);
    expect(refused).toMatchObject({ outcome: 'refused', reason: 'locked', rule: 'holder-unchecked' });
    expect(refused.message).toContain('--allow-run');
    expect(await readLock(`${live}.lock`)).toMatchObject({ pid: process.pid, token: 'pid-only' });

    // A dead holder too: without the permission nothing says it is gone.
    const dead = freshPath();
    pidOnlyLock(dead, deadPid);
    expect(pidState(deadPid)).toBe('gone');
    expect(await contend(dead, false)).toMatchObject({ outcome: 'refused', rule: 'holder-unchecked' });
  }, 30_000);

  it('with --allow-run, Deno judges the pid as Node does: a live holder is refused, a dead one taken over', async () => {
    const live = freshPath();
    pidOnlyLock(live, process.pid);
    const refused = await contend(live, true);
    expect(refused).toMatchObject({ outcome: 'refused', reason: 'locked' });
    expect(refused.rule).toBeUndefined();

    const dead = freshPath();
    pidOnlyLock(dead, deadPid);
    expect(await contend(dead, true)).toMatchObject({ outcome: 'held', fence: 4 });
  }, 30_000);
});
