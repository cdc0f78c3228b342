/**
@module
The file ledger's single-writer lease in Node (docs/durable-send.md#ledger-stores): a lock file `<journal>.lock` holding the holder's pid, a fencing counter and a random token, and on Linux what makes the holder one process instance rather than a pid number: the boot id and the process's start time. It is created complete or not at all (written to a private file, then hard-linked into place, which fails if a lock exists), so no reader ever sees a half-written lock. A live holder refuses everyone else; a lock whose holder is gone is taken over with the counter + 1. A pid alone cannot say the holder is gone: a container's app restarted as pid 1 is pid 1 again, and after a reboot pids are reused; so where the lock names a boot id and a start time, a holder counts as live only while this boot is its boot and its pid still runs with that start time. A lock created where none was found starts at 1 (a contender can find the place empty just after another removed a stale lock), so the counter alone does not order the writers: the file ledger raises it above every fence its journal holds before it writes. The holder keeps its lock file open for its lifetime, so the file's inode cannot be reused, and before every journal batch it checks the path still names that very inode: a writer whose lock was taken over finds out before it writes again.
*/
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { type FileHandle, link, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { LedgerError } from '../core/errors.js';

/** What a lock file holds. `boot` and `start` are present where the platform tells them (Linux `/proc`); a lock without them is judged by its pid alone. */
export type LockContent = {
  readonly pid: number;
  readonly fence: number;
  readonly token: string;
  /** The kernel's boot id (`/proc/sys/kernel/random/boot_id`) when the holder took the lock. */
  readonly boot?: string;
  /** The holder's start time, in clock ticks after boot (`/proc/<pid>/stat`, field 22). */
  readonly start?: string;
};

/** What identifies one process instance: its pid, and on Linux the boot and its start time within it. */
type Instance = Pick<LockContent, 'boot' | 'start'>;

/** The boot id, or `undefined` where there is no `/proc` (macOS, Windows, a sandbox without it). */
async function bootId(): Promise<string | undefined> {
  try {
    const text = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

/** Field 22 of `/proc/<pid>/stat` (proc(5): `starttime`), or `undefined` when the process or `/proc` is not there. The second field, the command name, is in parentheses and may hold spaces and parentheses itself, so the fields are counted after the last `)`. */
export async function startTime(pid: number): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/stat`, 'utf8');
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

let self: Promise<Instance> | undefined;

/** This process's own instance, read once. */
function thisInstance(): Promise<Instance> {
  self ??= Promise.all([bootId(), startTime(process.pid)]).then(([boot, start]) => ({
    ...(boot === undefined ? {} : { boot }),
    ...(start === undefined ? {} : { start }),
  }));
  return self;
}

/** A held lock. */
export type FileLock = {
  /** The fencing counter: greater than that of every earlier holder of this lock file. */
  readonly fence: number;
  /** Throws `LedgerError('fenced')` when the lock file is no longer this holder's. Synchronous: the journal checks it as it starts each batch's write (`journal.ts`). */
  check(): void;
  /** Raises the fencing counter to at least `minimum` (the journal may hold a higher one than a fresh lock file). */
  raise(minimum: number): Promise<void>;
  /** Removes the lock file if it is still this holder's. */
  release(): Promise<void>;
};

function parseLock(text: string): LockContent | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockContent> | null;
    if (
      typeof value === 'object' &&
      value !== null &&
      Number.isSafeInteger(value.pid) &&
      Number.isSafeInteger(value.fence) &&
      typeof value.token === 'string' &&
      (value.boot === undefined || typeof value.boot === 'string') &&
      (value.start === undefined || typeof value.start === 'string')
    ) {
      return {
        pid: value.pid as number,
        fence: value.fence as number,
        token: value.token,
        ...(value.boot === undefined ? {} : { boot: value.boot }),
        ...(value.start === undefined ? {} : { start: value.start }),
      };
    }
  } catch {
    // Not JSON: reported as unreadable below.
  }
  return undefined;
}

/**
Reads a lock file: its content, or `undefined` when there is none.

@throws {LedgerError} `corrupt` when the file exists but does not hold a lock.
*/
export async function readLock(path: string): Promise<LockContent | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw new LedgerError('io', { rule: 'lock', cause: error });
  }
  try {
    return contentOf(await handle.readFile('utf8'));
  } finally {
    await handle.close();
  }
}

function contentOf(text: string): LockContent {
  const content = parseLock(text);
  if (content === undefined) {
    throw new LedgerError('corrupt', { rule: 'lock' });
  }
  return content;
}

/** True while a process with this pid exists (`kill(pid, 0)`; EPERM means it exists under another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
Whether the process that wrote `content` still holds it: its pid exists (see {@link isAlive}) and, where the lock names them and this platform can tell, this is the boot it was taken in and that pid still runs with the start time it had. A pid that runs with another start time is another process that reused the number (a restarted container's pid 1, a pid after a reboot); the lock is stale. Where `/proc` cannot say (another OS, an old lock without them), the pid alone decides.
*/
export async function isHeld(content: LockContent): Promise<boolean> {
  if (!isAlive(content.pid)) {
    return false;
  }
  if (content.boot !== undefined) {
    const boot = await bootId();
    if (boot !== undefined && boot !== content.boot) {
      return false;
    }
  }
  if (content.start !== undefined) {
    const start = await startTime(content.pid);
    if (start !== undefined && start !== content.start) {
      return false;
    }
  }
  return true;
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

function privatePath(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
}

// Writes the content to a private file, synced so that even a power loss cannot leave an empty lock, and hard-links it into place: `link` fails with EEXIST when a lock exists, so the lock appears complete or not at all.
async function place(path: string, content: LockContent): Promise<boolean> {
  const temporary = privatePath(path);
  await writeFile(temporary, JSON.stringify(content), { flag: 'wx', flush: true });
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    if (code(error) === 'EEXIST') {
      return false;
    }
    throw error;
  } finally {
    await unlink(temporary);
  }
}

/**
Removes a stale lock, but only the very file judged stale: it is renamed aside, and its inode compared with the one the caller still holds open (so that inode cannot have been reused). If a contender replaced the lock in between, the moved file is the contender's live lock, so it is put back when the place is still free.
*/
export async function removeStale(path: string, staleInode: number, staleDevice: number): Promise<void> {
  const aside = privatePath(path);
  try {
    await rename(path, aside);
  } catch (error) {
    if (code(error) === 'ENOENT') {
      return;
    }
    throw error;
  }
  const moved = await stat(aside);
  if (moved.ino !== staleInode || moved.dev !== staleDevice) {
    await link(aside, path).catch(() => undefined);
  }
  await unlink(aside);
}

const ATTEMPTS = 8;

/**
Takes the lock at `path`: creates it with fence 1, or takes over a lock whose holder is gone ({@link isHeld}) with its fence + 1.

@throws {LedgerError} `locked` when a live process holds it; `corrupt` when the lock file is unreadable (a person must look); `io` on any other failure.

@example
```ts
const lock = await acquireLock('/var/lib/app/sends.jsonl.lock');
lock.check(); // before each write
await lock.release();
```
*/
export async function acquireLock(path: string): Promise<FileLock> {
  const token = randomBytes(16).toString('hex');
  let fence = 1;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      const content: LockContent = { pid: process.pid, fence, token, ...(await thisInstance()) };
      if (await place(path, content)) {
        return hold(path, await open(path, 'r'), content);
      }
      const handle = await open(path, 'r').catch((error: unknown) => {
        if (code(error) === 'ENOENT') {
          return undefined;
        }
        throw error;
      });
      if (handle === undefined) {
        continue;
      }
      // Held open while judged, so its inode cannot be freed and reused by a new lock before removeStale compares it.
      try {
        const existing = contentOf(await handle.readFile('utf8'));
        if (await isHeld(existing)) {
          throw new LedgerError('locked');
        }
        fence = Math.max(fence, existing.fence + 1);
        const { ino, dev } = await handle.stat();
        await removeStale(path, ino, dev);
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'lock', cause: error });
    }
  }
  // Contenders kept replacing the lock under us: whoever is left holds it.
  throw new LedgerError('locked', { rule: 'contended' });
}

async function hold(path: string, initial: FileHandle, initialContent: LockContent): Promise<FileLock> {
  let handle = initial;
  let content = initialContent;
  let identity = await handle.stat();

  // Synchronous on purpose: it runs before every journal batch, and one stat of a local file costs a few microseconds on the calling thread, while a thread-pool round trip would add its latency to every commit.
  function ours(): boolean {
    try {
      const current = statSync(path);
      return current.ino === identity.ino && current.dev === identity.dev;
    } catch (error) {
      if (code(error) === 'ENOENT') {
        return false;
      }
      throw new LedgerError('io', { rule: 'lock', cause: error });
    }
  }

  function check(): void {
    if (!ours()) {
      throw new LedgerError('fenced');
    }
  }

  return {
    get fence() {
      return content.fence;
    },
    check,
    async raise(minimum) {
      if (minimum <= content.fence) {
        return;
      }
      check();
      const next = { ...content, fence: minimum };
      const temporary = privatePath(path);
      try {
        await writeFile(temporary, JSON.stringify(next), { flag: 'wx', flush: true });
        await rename(temporary, path);
        const replacement = await open(path, 'r');
        await handle.close();
        handle = replacement;
        identity = await handle.stat();
        content = next;
      } catch (error) {
        throw new LedgerError('io', { rule: 'lock', cause: error });
      }
    },
    async release() {
      try {
        if (ours()) {
          await unlink(path);
        }
      } finally {
        await handle.close();
      }
    },
  };
}
