/**
@module
How the file store writes to disk (Node): a synchronized write of whole buffers, through the thread pool or on
the calling thread; a small file replaced atomically (the snapshot); a directory entry made durable; and
Node's synchronous SHA-256, which the file store digests its revisions with.
*/
// Its declarations name Node's types: a consumer's TypeScript loads them without a `types` setting
// (ARCHITECTURE.md#runtimes).
/// <reference types="node" preserve="true" />
import { hash } from 'node:crypto';
import { constants, fdatasyncSync, writeSync, writevSync } from 'node:fs';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LedgerError } from '../../core/errors.js';

/**
Node's SHA-256 of a string's UTF-8 bytes as `sha256:` and 64 hex digits: the same digests WebCrypto gives,
synchronously.
*/
export function nodeSha256(text: string): string {
  return `sha256:${hash('sha256', text, 'hex')}`;
}

/**
Whether the journal is opened with `O_DSYNC`, so that each write returns only once its data (and the size that
reaches it) is on disk, as a write followed by `fdatasync` would, in one system call and one thread-pool round
trip instead of two. Without it (Windows) every batch is followed by `fdatasync`.
*/
export const DSYNC: number | undefined = constants.O_DSYNC;

/** How the appender opens the journal: for appending, with `O_DSYNC` where the platform has it. */
export const APPEND_FLAGS: number | string =
  DSYNC === undefined ? 'a' : constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | DSYNC;

/**
Writes all of `buffers` with one `writev`, then with `write` whatever a short write (a full disk, a signal)
left, failing if nothing more goes in. Both calls are the thread pool's (`writeAll`) or the calling thread's
(`writeHere`).
*/
async function writeFully(
  buffers: Uint8Array[],
  writev: (buffers: Uint8Array[]) => number | Promise<number>,
  write: (rest: Buffer, offset: number) => number | Promise<number>,
): Promise<void> {
  const total = buffers.reduce((sum, buffer) => sum + buffer.byteLength, 0);
  const written = await writev(buffers);
  if (written < total) {
    const rest = Buffer.concat(buffers).subarray(written);
    let offset = 0;
    while (offset < rest.byteLength) {
      const more = await write(rest, offset);
      if (more === 0) {
        throw new LedgerError('io', { rule: 'short-write' });
      }
      offset += more;
    }
  }
}

/** Writes all of `buffers` through the thread pool. */
export function writeAll(handle: FileHandle, buffers: Uint8Array[]): Promise<void> {
  return writeFully(
    buffers,
    async (all) => (await handle.writev(all)).bytesWritten,
    async (rest, offset) => (await handle.write(rest, offset)).bytesWritten,
  );
}

/**
A batch's synchronized write as the thread pool makes it (`writeAll`, and the `fdatasync` where the journal
has no `O_DSYNC`), made on the calling thread instead, its `writev` before this returns (see `LoneSync` in
appender.ts).
*/
export async function writeHere(fd: number, buffers: Uint8Array[]): Promise<void> {
  await writeFully(
    buffers,
    (all) => writevSync(fd, all),
    (rest, offset) => writeSync(fd, rest, offset),
  );
  if (DSYNC === undefined) {
    fdatasyncSync(fd);
  }
}

/**
Makes a directory entry durable: a created or renamed file survives a crash only once its directory is synced.
*/
export async function syncDirectory(path: string): Promise<void> {
  const directory = await open(dirname(path), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

/**
Writes `path` atomically: a temporary file, synced, renamed over it, the directory synced. A crash leaves the
old file or the new one, never a torn one.
*/
export async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.tmp`;
  try {
    const target = await open(temporary, 'w');
    try {
      await writeAll(target, [new TextEncoder().encode(text)]);
      await target.sync();
    } finally {
      await target.close();
    }
    await rename(temporary, path);
    await syncDirectory(path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'snapshot', cause: error });
  }
}
