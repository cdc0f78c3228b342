/**
@module
Who holds the file ledger's lock, and whether they still do (docs/durable-send.md#file-journal): what a lock
file says of its holder, and how a contender judges it. A pid means one process only in one PID namespace, and
`/proc/<pid>` only when the `/proc` mounted is that namespace's own: a process run as pid 1 of a new namespace
without its own `/proc` (`unshare --pid --fork`, no `--mount-proc`) reads the host's init at `/proc/1`. So the
lock records the holder's PID namespace, its start time read through `/proc/self` (the very process, whichever
`/proc` is mounted), and how often it refreshes the lock file's mtime, its heartbeat. A contender in the
holder's namespace that sees its own `/proc` judges the pid as before; any other (another namespace, a `/proc`
not its own, no `/proc`) cannot, and takes the holder for gone only once the heartbeat is older than
{@link lockStaleBeats} beats.
*/
import { readFile, readlink } from 'node:fs/promises';
import { LedgerError } from '../core/errors.js';

/**
What a lock file holds. `boot`, `start` and `ns` are present where the platform tells them (Linux `/proc`); a
lock without them is judged by its pid alone, and so is one without `beat` (written before heartbeats).
*/
export type LockContent = {
  readonly pid: number;
  readonly fence: number;
  readonly token: string;
  /** The kernel's boot id (`/proc/sys/kernel/random/boot_id`) when the holder took the lock. */
  readonly boot?: string;
  /** The holder's start time, in clock ticks after boot (`/proc/self/stat`, field 22). */
  readonly start?: string;
  /**
  The holder's PID namespace (`/proc/self/ns/pid`, e.g. `pid:[4026531836]`): the one namespace in which `pid`
  names it.
  */
  readonly ns?: string;
  /** How often, in ms, the holder refreshes the lock file's mtime while it holds the lock. */
  readonly beat?: number;
};

/**
What identifies this process instance in a lock, and whether the `/proc` it sees is its own namespace's.
*/
type View = Pick<LockContent, 'boot' | 'start' | 'ns'> & { readonly ownProc: boolean };

/**
The environment variable that sets the heartbeat of the locks this process takes, in ms
(docs/durable-send.md#file-journal).
*/
export const lockHeartbeatVariable = 'SURECALL_LOCK_HEARTBEAT_MS';

/** How often a holder refreshes its lock file's mtime, unless `SURECALL_LOCK_HEARTBEAT_MS` says otherwise. */
export const defaultLockHeartbeatMs = 5000;

/**
How many heartbeats a holder that cannot be judged by its pid may miss before it counts as gone: with the
default heartbeat, 15 s.
*/
export const lockStaleBeats = 3;

const MIN_HEARTBEAT_MS = 10;
const MAX_HEARTBEAT_MS = 3_600_000;

/**
The heartbeat of the locks this process takes: `SURECALL_LOCK_HEARTBEAT_MS` when set, else
{@link defaultLockHeartbeatMs}.

@throws {LedgerError} `invalid-input` (rule `lock-heartbeat`) for a value that is not a whole number of ms
  from 10 to 3,600,000.
*/
export function lockHeartbeatMs(
  environment: Readonly<Record<string, string | undefined>> = process.env,
): number {
  const configured = environment[lockHeartbeatVariable];
  if (configured === undefined || configured === '') {
    return defaultLockHeartbeatMs;
  }
  const value = /^[0-9]+$/.test(configured) ? Number(configured) : Number.NaN;
  if (!(value >= MIN_HEARTBEAT_MS && value <= MAX_HEARTBEAT_MS)) {
    throw new LedgerError('invalid-input', { rule: 'lock-heartbeat' });
  }
  return value;
}

/** The boot id, or `undefined` where there is no `/proc` (macOS, Windows, a sandbox without it). */
async function bootId(): Promise<string | undefined> {
  try {
    const text = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

/**
Field 22 of a `stat` file (proc(5): `starttime`). The second field, the command name, is in parentheses and
may hold spaces and parentheses itself, so the fields are counted after the last `)`.
*/
async function startIn(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  // After the command name: field 3 (state) is the first, so field 22 is the twentieth.
  const fields = text
    .slice(text.lastIndexOf(')') + 1)
    .trim()
    .split(/\s+/);
  const start = fields[19];
  return start !== undefined && /^[0-9]+$/.test(start) ? start : undefined;
}

/**
Field 22 of `/proc/<pid>/stat` (proc(5): `starttime`), or `undefined` when the process or `/proc` is not
there.
*/
export function startTime(pid: number): Promise<string | undefined> {
  return startIn(`/proc/${pid}/stat`);
}

/**
This process's PID namespace, `pid:[inode]`, or `undefined` where `/proc/self` does not lead to it (no
`/proc`, or one of a namespace this process is not in).
*/
async function namespace(): Promise<string | undefined> {
  try {
    const link = await readlink('/proc/self/ns/pid');
    return /^pid:\[[0-9]+\]$/.test(link) ? link : undefined;
  } catch {
    return undefined;
  }
}

/**
Whether the `/proc` mounted is this process's own namespace's: its `NSpid` (proc(5)) lists one pid per
namespace from the mount's down to the process's own, so it holds exactly `process.pid` only then. A kernel
without `NSpid` (before Linux 4.1) is asked where `/proc/self` leads.
*/
async function ownsProc(): Promise<boolean> {
  try {
    const status = await readFile('/proc/self/status', 'utf8');
    const line = /^NSpid:(.*)$/m.exec(status)?.[1];
    if (line !== undefined) {
      return line.trim() === String(process.pid);
    }
    return (await readlink('/proc/self')) === String(process.pid);
  } catch {
    return false;
  }
}

let self: Promise<View> | undefined;

/**
This process as a lock records it, and what its `/proc` can tell, read once: none of it changes while the
process runs.
*/
export function thisProcess(): Promise<View> {
  self ??= Promise.all([bootId(), startIn('/proc/self/stat'), namespace(), ownsProc()]).then(
    ([boot, start, ns, ownProc]) => ({
      ...(boot === undefined ? {} : { boot }),
      ...(start === undefined ? {} : { start }),
      ...(ns === undefined ? {} : { ns }),
      ownProc,
    }),
  );
  return self;
}

/**
What `kill(pid, 0)` tells of a pid in this process's namespace: `alive` (no error, or EPERM: it exists under
another user), `gone` (ESRCH, no such process, the one answer that means so), or `unchecked` for any other
failure, which says nothing of the pid: Deno without `--allow-run` refuses the call itself (`NotCapable`), and
a sandbox may refuse it too. Taking that for "gone" would let a contender take a live writer's lock.
*/
export type PidState = 'alive' | 'gone' | 'unchecked';

/** What `kill(pid, 0)` says of `pid` (see {@link PidState}). */
export function pidState(pid: number): PidState {
  try {
    process.kill(pid, 0);
    return 'alive';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ESRCH' ? 'gone' : code === 'EPERM' ? 'alive' : 'unchecked';
  }
}

/**
Whether the process that wrote `content` still holds it, judged by its pid: `live` when its pid exists (see
{@link pidState}) and, where the lock names them and this platform can tell, this is the boot it was taken in
and that pid still runs with the start time it had. A pid that runs with another start time is another process
that reused the number (a restarted process's pid, a pid after a reboot); the lock is stale. Where `/proc`
cannot say (another OS, an old lock without them), the pid alone decides. When this process may not ask
whether the pid exists, the start time it reads from `/proc` still decides either way; without one it is
`unchecked`. Sound only where the pid and `/proc` mean what they meant to the holder: {@link judgeHolder}
decides when.
*/
export async function isHeld(content: LockContent): Promise<'live' | 'gone' | 'unchecked'> {
  const pid = pidState(content.pid);
  if (pid === 'gone') {
    return 'gone';
  }
  if (content.boot !== undefined) {
    const boot = await bootId();
    if (boot !== undefined && boot !== content.boot) {
      return 'gone';
    }
  }
  if (content.start !== undefined) {
    const start = await startTime(content.pid);
    if (start !== undefined) {
      return start === content.start ? 'live' : 'gone';
    }
  }
  return pid === 'alive' ? 'live' : 'unchecked';
}

/**
What a contender makes of a lock's holder: `live` by its pid, `beating` when its pid cannot be judged from
here and its heartbeat is fresh, `gone` either way; `unchecked` when it should be judged by its pid and this
process may not ask whether the pid exists (Deno without `--allow-run`), which is never taken for gone.
*/
export type HolderVerdict = 'live' | 'beating' | 'unchecked' | 'gone';

/**
Whether this process can judge a holder that keeps a heartbeat by its pid: where the platform has no PID
namespaces, as before; on Linux only in the holder's namespace, through a `/proc` of that namespace.
*/
function byPid(content: LockContent, view: View): boolean {
  return process.platform !== 'linux' || (content.ns !== undefined && content.ns === view.ns && view.ownProc);
}

/**
Judges the holder of a lock whose file was last modified at `beatAt` (ms since the epoch, the file's mtime).
Another boot means every process of the last one is gone. A lock without a heartbeat (written before them), or
one {@link byPid} allows, is judged by {@link isHeld}. Otherwise a holder in this very namespace whose pid no
longer exists (ESRCH) is gone, and any other is gone once its heartbeat is older than {@link lockStaleBeats}
beats; a heartbeat dated in the future (the clock was set back) counts as fresh, since a live holder's next
beat corrects it.
*/
export async function judgeHolder(
  content: LockContent,
  beatAt: number,
  now: number = Date.now(),
): Promise<HolderVerdict> {
  const view = await thisProcess();
  if (content.boot !== undefined && view.boot !== undefined && content.boot !== view.boot) {
    return 'gone';
  }
  if (content.beat === undefined || byPid(content, view)) {
    return isHeld(content);
  }
  if (content.ns !== undefined && content.ns === view.ns && pidState(content.pid) === 'gone') {
    return 'gone';
  }
  return now - beatAt > lockStaleBeats * content.beat ? 'gone' : 'beating';
}
