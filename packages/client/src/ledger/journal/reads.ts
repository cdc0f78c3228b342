/**
@module
How the file store reads its journal from disk (Node): the bytes after a checkpoint on open, split into
complete lines by `line.ts`; one line, or many, by their offsets through an open handle (a settled record read
back); and the small files beside the journal.
*/
// Its declarations name Node's types: a consumer's TypeScript loads them without a `types` setting
// (ARCHITECTURE.md#runtimes).
/// <reference types="node" preserve="true" />
import { type FileHandle, open, readFile } from 'node:fs/promises';
import { LedgerError } from '../../core/errors.js';
import { splitLines } from './line.js';

const NEWLINE = 0x0a;

/** The `code` of a Node system error. */
export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** A journal as read from an offset on. */
export type JournalRead = {
  /** Whether the file existed. */
  readonly exists: boolean;
  /** The file's size. */
  readonly size: number;
  /** Every complete line from `from` on, without its newline, with its byte offset. */
  readonly lines: readonly { readonly text: string; readonly offset: number }[];
  /** Bytes up to and including the last newline. */
  readonly validBytes: number;
  /** The bytes after the last newline. */
  readonly tail: Uint8Array;
};

/** Reads `length` bytes at `position`, or fewer when the file ends first. */
async function readBytes(handle: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await handle.read(buffer, read, length - read, position + read);
    if (bytesRead === 0) {
      break;
    }
    read += bytesRead;
  }
  return buffer.subarray(0, read);
}

/**
Reads the journal open at `handle` from byte `from` on (see `splitLines`): what follows the last newline is
returned as `tail` for the caller to judge (a torn write, a damaged newline, or a write still under way), and
a complete line that is not UTF-8 is `corrupt`, its 1-based line number counted from `firstLine`.
*/
export async function readJournalFrom(handle: FileHandle, from = 0, firstLine = 1): Promise<JournalRead> {
  let size: number;
  let bytes: Uint8Array;
  try {
    size = (await handle.stat()).size;
    if (size < from) {
      return { exists: true, size, lines: [], validBytes: from, tail: new Uint8Array() };
    }
    bytes = await readBytes(handle, from, size - from);
  } catch (error) {
    throw new LedgerError('io', { rule: 'read', cause: error });
  }
  return { exists: true, size, ...splitLines(bytes, from, firstLine) };
}

/** What a journal that does not exist reads as. */
export const noJournal: JournalRead = {
  exists: false,
  size: 0,
  lines: [],
  validBytes: 0,
  tail: new Uint8Array(),
};

/** Opens the journal at `path` for reading, or `undefined` when it does not exist. */
export async function openIfExists(path: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      return undefined;
    }
    throw new LedgerError('io', { rule: 'read', cause: error });
  }
}

/**
Reads the one line that starts at `offset` (without its newline) through an open handle; `corrupt` (`offset`)
when none ends before the end of the file.
*/
export async function readLineAt(handle: FileHandle, offset: number): Promise<string> {
  let chunk = 4096;
  for (;;) {
    const buffer = new Uint8Array(chunk);
    const { bytesRead } = await handle.read(buffer, 0, chunk, offset);
    const end = buffer.subarray(0, bytesRead).indexOf(NEWLINE);
    if (end !== -1) {
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, end));
      } catch (error) {
        throw new LedgerError('corrupt', { rule: 'utf-8', cause: error });
      }
    }
    if (bytesRead < chunk) {
      throw new LedgerError('corrupt', { rule: 'offset' });
    }
    chunk *= 4;
  }
}

/** Above this many lines, `readLinesAt` reads the whole file once instead of one read per line. */
const WHOLE_FILE_LINES = 64;

/**
Reads many lines by offset: one read per line for a few, one read of the whole file for many (a `list` of
settled records).
*/
export async function readLinesAt(
  handle: FileHandle,
  groups: readonly (readonly number[])[],
): Promise<string[][]> {
  const count = groups.reduce((sum, group) => sum + group.length, 0);
  if (count <= WHOLE_FILE_LINES) {
    return Promise.all(groups.map((group) => Promise.all(group.map((offset) => readLineAt(handle, offset)))));
  }
  const bytes = await readBytes(handle, 0, (await handle.stat()).size);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return groups.map((group) =>
    group.map((offset) => {
      const end = offset < bytes.byteLength ? bytes.indexOf(NEWLINE, offset) : -1;
      if (end === -1) {
        throw new LedgerError('corrupt', { rule: 'offset' });
      }
      try {
        return decoder.decode(bytes.subarray(offset, end));
      } catch (error) {
        throw new LedgerError('corrupt', { rule: 'utf-8', cause: error });
      }
    }),
  );
}

/** Reads a whole small file, or `undefined` when it does not exist. */
export async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      return undefined;
    }
    throw new LedgerError('io', { rule: 'read', cause: error });
  }
}
