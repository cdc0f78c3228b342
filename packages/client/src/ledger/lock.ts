/**
@module
The file ledger's single-writer lease in Node (docs/durable-send.md#ledger-stores): a lock file
`<journal>.lock` holding the holder's pid, a fencing counter and a random token, and on Linux what makes the
holder one process instance rather than a pid number: the boot id, the process's start time and its PID
namespace; and how often the holder refreshes the file's mtime, its heartbeat. It is created complete or not
at all (written to a private file, then hard-linked into place, which fails if a lock exists), so no reader
ever sees a half-written lock. A live holder refuses everyone else; a lock whose holder is gone is taken over
with the counter + 1. A pid alone cannot say the holder is gone: a container's app restarted as pid 1 is pid 1
again, after a reboot pids are reused, and a pid means nothing outside its namespace; so `lock-holder.ts`
judges a holder by its pid and start time only from its own namespace, seeing its own `/proc`, and from
anywhere else by its heartbeat. A lock created where none was found starts at 1 (a contender can find the
place empty just after another removed a stale lock), so the counter alone does not order the writers: the
file ledger raises it above every fence its journal holds before it writes. A stale lock is taken over under a
guard, `<journal>.lock.takeover`, placed the same way: only its holder removes the stale lock and places its
own, so two contenders that both judged one stale lock can never both end up holding one. The holder keeps its
lock file open for its lifetime, so the file's inode cannot be reused, and before every journal batch it
checks the path still names that very inode: a writer whose lock was taken over finds out before it writes
again.
*/
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { type FileHandle, link, open, rename, stat, unlink } from 'node:fs/promises';
import { LedgerError } from '../core/errors.js';
import { judgeHolder, type LockContent, lockHeartbeatMs, thisProcess } from './lock-holder.js';
import { refusal } from './refusal-hints.js';

/** A held lock. */
export type FileLock = {
  /** The fencing counter: greater than that of every earlier holder of this lock file. */
  readonly fence: number;
  /**
  Throws `LedgerError('fenced')` when the lock file is no longer this holder's. Synchronous: the journal
  checks it as it starts each batch's write (`journal.ts`).
  */
  check(): void;
  /**
  Raises the fencing counter to at least `minimum` (the journal may hold a higher one than a fresh lock file).
  */
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
      (value.start === undefined || typeof value.start === 'string') &&
      (value.ns === undefined || typeof value.ns === 'string') &&
      (value.beat === undefined || (Number.isSafeInteger(value.beat) && (value.beat as number) > 0))
    ) {
      return {
        pid: value.pid as number,
        fence: value.fence as number,
        token: value.token,
        ...(value.boot === undefined ? {} : { boot: value.boot }),
        ...(value.start === undefined ? {} : { start: value.start }),
        ...(value.ns === undefined ? {} : { ns: value.ns }),
        ...(value.beat === undefined ? {} : { beat: value.beat }),
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

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

function privatePath(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
}

// A lock's content in a new private file, synced, its handle kept open: the handle names the file this
// process wrote, whatever the lock path names later.
async function writePrivate(temporary: string, content: LockContent): Promise<FileHandle> {
  const handle = await open(temporary, 'wx');
  try {
    await handle.writeFile(JSON.stringify(content));
    await handle.sync();
    return handle;
  } catch (error) {
    await handle.close();
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

// Writes the content to a private file, synced so that even a power loss cannot leave an empty lock, and
// hard-links it into place: `link` fails with EEXIST when a lock exists, so the lock appears complete or not
// at all. The handle it answers is the private file's own, opened before the link: opening the path after it
// could find it briefly empty, or another contender's file, while a contender that judged an earlier stale
// lock moves ours aside and back (removeStale).
async function place(path: string, content: LockContent): Promise<FileHandle | undefined> {
  const temporary = privatePath(path);
  const handle = await writePrivate(temporary, content);
  let placed = false;
  try {
    await link(temporary, path);
    placed = true;
    return handle;
  } catch (error) {
    if (code(error) === 'EEXIST') {
      return undefined;
    }
    throw error;
  } finally {
    if (!placed) {
      await handle.close();
    }
    await unlink(temporary);
  }
}

type FileIdentity = { readonly ino: number; readonly dev: number };

function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.ino === b.ino && a.dev === b.dev;
}

/**
Removes a stale lock, but only the very file judged stale, whose inode the caller still holds open (so it
cannot have been reused). A path that already names another file is left alone: a contender replaced the
stale lock, and moving its live lock even for a moment lets a third contender place one too. Otherwise the
file is renamed aside and compared once more; if a contender replaced the lock between the two looks, the
moved file is its live lock, so it is put back when the place is still free.
*/
export async function removeStale(path: string, staleInode: number, staleDevice: number): Promise<void> {
  const stale = { ino: staleInode, dev: staleDevice };
  try {
    if (!sameFile(await stat(path), stale)) {
      return;
    }
  } catch (error) {
    if (code(error) === 'ENOENT') {
      return;
    }
    throw error;
  }
  const aside = privatePath(path);
  try {
    await rename(path, aside);
  } catch (error) {
    if (code(error) === 'ENOENT') {
      return;
    }
    throw error;
  }
  if (!sameFile(await stat(aside), stale)) {
    await link(aside, path).catch(() => undefined);
  }
  await unlink(aside);
}

const ATTEMPTS = 8;

/** The guard a contender holds while it replaces a stale lock at `path`. */
function guardPath(path: string): string {
  return `${path}.takeover`;
}

/**
A holder's verdict as a refusal: a live holder, or one this process cannot judge, is never taken over (a
guard's holder as its lock's would be, docs/durable-send.md#file-journal); `undefined` for one that is gone.
*/
function refusalOf(holder: Awaited<ReturnType<typeof judgeHolder>>, rule?: string): LedgerError | undefined {
  if (holder === 'live') {
    return rule === undefined ? new LedgerError('locked') : new LedgerError('locked', { rule });
  }
  if (holder === 'beating') {
    return refusal('locked', { rule: rule ?? 'heartbeat' });
  }
  if (holder === 'unchecked') {
    return refusal('locked', { rule: 'holder-unchecked' });
  }
  return undefined;
}

/**
Opens the file at `path` and judges its holder, the handle held open meanwhile so that the inode cannot be
freed and reused before `removeStale` compares it. `undefined` when there is no file.
*/
async function judgeFile<T>(
  path: string,
  judged: (existing: LockContent, identity: FileIdentity, mtimeMs: number) => Promise<T>,
): Promise<T | undefined> {
  const handle = await open(path, 'r').catch((error: unknown) => {
    if (code(error) === 'ENOENT') {
      return undefined;
    }
    throw error;
  });
  if (handle === undefined) {
    return undefined;
  }
  try {
    const existing = contentOf(await handle.readFile('utf8'));
    const { ino, dev, mtimeMs } = await handle.stat();
    return await judged(existing, { ino, dev }, mtimeMs);
  } finally {
    await handle.close();
  }
}

/**
Replaces the stale lock `stale` at `path` with `content`, under the takeover guard: the handle of the placed
lock, or `undefined` when another contender's lock took the place first or a dead guard was cleared (the
caller looks again). A live guard means another contender is replacing this very lock, and whatever it ends
with, this one would find a live holder: it is refused at once, rule `contended`.
*/
async function takeOver(
  path: string,
  stale: FileIdentity,
  content: LockContent,
): Promise<FileHandle | undefined> {
  const guard = guardPath(path);
  const held = await place(guard, content);
  if (held === undefined) {
    await judgeFile(guard, async (existing, identity, mtimeMs) => {
      const refused = refusalOf(await judgeHolder(existing, mtimeMs), 'contended');
      if (refused !== undefined) {
        throw refused;
      }
      // Its holder died mid-takeover: the guard goes like any stale lock.
      await removeStale(guard, identity.ino, identity.dev);
    });
    return undefined;
  }
  try {
    await removeStale(path, stale.ino, stale.dev);
    return await place(path, content);
  } finally {
    try {
      if (sameFile(await stat(guard), await held.stat())) {
        await unlink(guard);
      }
    } finally {
      await held.close();
    }
  }
}

/** This process as its lock names it: the instance, and the heartbeat it keeps. */
async function ownContent(fence: number, token: string, beat: number): Promise<LockContent> {
  const { boot, start, ns } = await thisProcess();
  return {
    pid: process.pid,
    fence,
    token,
    ...(boot === undefined ? {} : { boot }),
    ...(start === undefined ? {} : { start }),
    ...(ns === undefined ? {} : { ns }),
    beat,
  };
}

/**
Takes the lock at `path`: creates it with fence 1, or takes over a lock whose holder is gone (`judgeHolder` in
`lock-holder.ts`) with its fence + 1. While held, the lock file's mtime is refreshed every
`SURECALL_LOCK_HEARTBEAT_MS` of `environment` (5 s by default), for the contenders that cannot judge this
process by its pid.

@throws {LedgerError} `locked` when a live process holds it, with rule `heartbeat` when its holder could not
  be checked by its pid and its heartbeat is fresh, and rule `holder-unchecked` when this process may not ask
  whether the holder's pid exists (Deno without `--allow-run`); `corrupt` when the lock file is unreadable (a
  person must look); `invalid-input` (rule `lock-heartbeat`) for a heartbeat out of range; `io` on any other
  failure.

@example
```ts
const lock = await acquireLock('/var/lib/app/sends.jsonl.lock');
lock.check(); // before each write
await lock.release();
```
*/
export async function acquireLock(
  path: string,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Promise<FileLock> {
  const beat = lockHeartbeatMs(environment);
  const token = randomBytes(16).toString('hex');
  let fence = 1;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      const content = await ownContent(fence, token, beat);
      const placed = await place(path, content);
      if (placed !== undefined) {
        return hold(path, placed, content, beat);
      }
      const taken = await judgeFile(path, async (existing, identity, mtimeMs) => {
        // docs/durable-send.md#file-journal: only "no such process" means gone; a holder this process may
        // not check is refused, never taken over.
        const refused = refusalOf(await judgeHolder(existing, mtimeMs));
        if (refused !== undefined) {
          throw refused;
        }
        fence = Math.max(fence, existing.fence + 1);
        const replacing = await ownContent(fence, token, beat);
        const handle = await takeOver(path, identity, replacing);
        return handle === undefined ? undefined : { handle, content: replacing };
      });
      if (taken !== undefined) {
        return hold(path, taken.handle, taken.content, beat);
      }
    } catch (error) {
      throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'lock', cause: error });
    }
  }
  // Contenders kept replacing the lock under us: whoever is left holds it.
  throw new LedgerError('locked', { rule: 'contended' });
}

/**
A held lock's state: the lock file it holds open, what that file says, which inode it is, and the heartbeat's
timer.
*/
type Held = {
  readonly path: string;
  handle: FileHandle;
  content: LockContent;
  identity: FileIdentity;
  readonly heartbeat: ReturnType<typeof setInterval>;
};

async function hold(path: string, handle: FileHandle, content: LockContent, beat: number): Promise<FileLock> {
  const identity = await handle.stat();
  const held: Held = {
    path,
    handle,
    content,
    identity,
    heartbeat: setInterval(() => {
      void refresh(held);
    }, beat),
  };
  // The heartbeat never keeps a process alive: one that is exiting stops beating, which is what the beat
  // tells.
  held.heartbeat.unref();
  return {
    get fence() {
      return held.content.fence;
    },
    check: () => check(held),
    raise: (minimum) => raise(held, minimum),
    release: () => release(held),
  };
}

/**
One heartbeat: the held file's mtime set to now. A failed beat is not fatal: a contender that cannot judge
this process by its pid may then take the lock over once the beats are stale, and fencing stops this writer
before its next batch.
*/
async function refresh(held: Held): Promise<void> {
  const now = new Date();
  await held.handle.utimes(now, now).catch(() => undefined);
}

// Synchronous on purpose: it runs before every journal batch, and one stat of a local file costs a few
// microseconds on the calling thread, while a thread-pool round trip would add its latency to every commit.
function ours(held: Held): boolean {
  try {
    const current = statSync(held.path);
    return sameFile(current, held.identity);
  } catch (error) {
    if (code(error) === 'ENOENT') {
      return false;
    }
    throw new LedgerError('io', { rule: 'lock', cause: error });
  }
}

function check(held: Held): void {
  if (!ours(held)) {
    throw new LedgerError('fenced');
  }
}

async function raise(held: Held, minimum: number): Promise<void> {
  if (minimum <= held.content.fence) {
    return;
  }
  check(held);
  const next = { ...held.content, fence: minimum };
  const temporary = privatePath(held.path);
  try {
    const replacement = await writePrivate(temporary, next);
    try {
      await rename(temporary, held.path);
    } catch (error) {
      await replacement.close();
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    await held.handle.close();
    held.handle = replacement;
    held.identity = await held.handle.stat();
    held.content = next;
  } catch (error) {
    throw new LedgerError('io', { rule: 'lock', cause: error });
  }
}

async function release(held: Held): Promise<void> {
  clearInterval(held.heartbeat);
  try {
    if (ours(held)) {
      await unlink(held.path);
    }
  } finally {
    await held.handle.close();
  }
}
