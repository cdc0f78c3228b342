/**
@module
One line of the file ledger's journal (docs/durable-send.md#file-journal), written and checked by this module
alone: the file store's replay, its read-only open and the journal reader of the devtools all go through it.
Browser-safe: no `node:` import, and the SHA-256 is the caller's (synchronous under Node, WebCrypto's
elsewhere).

A line is `{"fence":F,"after":A,"digest":D,"body":B}` and a newline, exactly in that member order: `B` is the
revision's canonical digest input (`revisionDigestInput`), so the bytes hashed are the bytes written; `D` is
its SHA-256; `A` is the digest of the line before it in the file (`null` for the first line), and `F` the
fencing counter of the writer. Because every line names its predecessor, a deleted, duplicated or reordered
line breaks the chain at the line after it, whichever record it belonged to.
*/
import { LedgerError } from '../../core/errors.js';
import { decodeLedger, sha256DigestPattern } from '../decoding.js';
import { deepFreeze, revisionDigestInput, type Sha256 } from '../ledger.js';
import { LedgerRevision } from '../record.js';

const NEWLINE = 0x0a;
const BODY = ',"body":';
const ENVELOPE = 'fence,after,digest,body';
// The members `revisionDigestInput` writes, in its order, and the domain it separates revision digests by.
const REVISION_MEMBERS = 'at,domain,id,previous,revision,transition';
const REVISION_DOMAIN = 'surecall.ledger.revision.v1';

/** A synchronous SHA-256 in the form of `Sha256` (Node's). */
export type SyncSha256 = (text: string) => string;

/** A line's envelope, as parsed: the members, the body's exact text and its JSON value. */
export type Envelope = {
  readonly fence: number;
  readonly after: string | null;
  readonly digest: string;
  /** The body's text, exactly as written and hashed. */
  readonly text: string;
  readonly body: unknown;
};

/** A line checked whole: its envelope and the revision its body holds. */
export type JournalLine = Envelope & { readonly revision: LedgerRevision };

/** The line for a body, newline included. */
export function formatLine(fence: number, after: string | null, digest: string, text: string): string {
  return `{"fence":${fence},"after":${after === null ? 'null' : `"${after}"`},"digest":"${digest}","body":${text}}\n`;
}

function corrupt(rule: string, cause?: unknown): LedgerError {
  return new LedgerError('corrupt', { rule, ...(cause === undefined ? {} : { cause }) });
}

/**
`error` as the journal reports it: `corrupt`, with its rule, at the 1-based line `position` when one is given.
*/
export function corruptAt(error: unknown, position?: number): LedgerError {
  const rule = error instanceof LedgerError ? (error.rule ?? error.reason) : 'replay';
  return new LedgerError('corrupt', {
    rule,
    ...(position === undefined ? {} : { position }),
    cause: error,
  });
}

/**
Parses a line's envelope (without its newline): JSON (`json`), exactly the four members in their order with
the fence and digests in their forms and the text as the writer writes it (`journal-line`), and a fence that
is a whole number ≥ 1 (`fence`). The body is only found, not checked.
*/
export function parseEnvelope(line: string): Envelope {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw corrupt('json', error);
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    Object.keys(value).join() !== ENVELOPE
  ) {
    throw corrupt('journal-line');
  }
  const { fence, after, digest, body } = value as {
    fence: unknown;
    after: unknown;
    digest: unknown;
    body: unknown;
  };
  if (typeof fence !== 'number' || !Number.isSafeInteger(fence) || fence < 1) {
    throw corrupt('fence');
  }
  const at = line.indexOf(BODY);
  if (
    !(after === null || (typeof after === 'string' && sha256DigestPattern.test(after))) ||
    typeof digest !== 'string' ||
    !sha256DigestPattern.test(digest) ||
    !line.startsWith(`{"fence":${fence},"after":`) ||
    at === -1 ||
    !line.endsWith('}')
  ) {
    throw corrupt('journal-line');
  }
  // The fence, the after digest and the line's own digest hold no `,"body":`, so its first occurrence starts
  // the body.
  return { fence, after, digest, text: line.slice(at + BODY.length, -1), body };
}

/**
The revision a body claims to be, before any check of its values: exactly the members `revisionDigestInput`
writes, with its domain (`revision`).
*/
function revisionCandidate(envelope: Envelope): unknown {
  const members = envelope.body as {
    readonly at?: unknown;
    readonly domain?: unknown;
    readonly id?: unknown;
    readonly previous?: unknown;
    readonly revision?: unknown;
    readonly transition?: unknown;
  } | null;
  if (
    typeof members !== 'object' ||
    members === null ||
    Array.isArray(members) ||
    Object.keys(members).join() !== REVISION_MEMBERS ||
    members.domain !== REVISION_DOMAIN
  ) {
    throw corrupt('revision');
  }
  const { revision } = members;
  return {
    id: members.id,
    revision,
    ...(revision === 0 ? {} : { expectedRevision: typeof revision === 'number' ? revision - 1 : revision }),
    at: members.at,
    ...(members.previous === null ? {} : { previousDigest: members.previous }),
    transition: members.transition,
    digest: envelope.digest,
  };
}

/**
The checks after the body's SHA-256 is known: the digest (`digest`), the revision schema (its rule), and that
the body is that revision's canonical digest input, so the revision verifies wherever it is handed (`digest`).
*/
function checkedLine(envelope: Envelope, candidate: unknown, digest: string): JournalLine {
  if (digest !== envelope.digest) {
    throw corrupt('digest');
  }
  const decoded = decodeLedger(LedgerRevision, candidate);
  if (!decoded.ok) {
    throw corrupt(decoded.error.rule);
  }
  let canonical: string;
  try {
    canonical = revisionDigestInput(decoded.value);
  } catch (error) {
    // A value with no canonical form (a lone surrogate) is no revision's digest input.
    throw corrupt('digest', error);
  }
  if (canonical !== envelope.text) {
    throw corrupt('digest');
  }
  return { ...envelope, revision: deepFreeze(decoded.value) };
}

/**
Checks one line whole (without its newline): its envelope (see {@link parseEnvelope}), then its body: the
revision's members (`revision`), the SHA-256 of its exact text (`digest`), the revision schema, and that the
text is the revision's canonical digest input (`digest`). Throws `LedgerError('corrupt')` with the rule; the
caller adds the position, and checks the chain (`reader.ts`). Synchronous with a synchronous SHA-256.
*/
export function verifyLine(line: string, sha256: SyncSha256): JournalLine;
export function verifyLine(line: string, sha256: Sha256): JournalLine | Promise<JournalLine>;
export function verifyLine(line: string, sha256: Sha256): JournalLine | Promise<JournalLine> {
  const envelope = parseEnvelope(line);
  const candidate = revisionCandidate(envelope);
  const digest = sha256(envelope.text);
  return typeof digest === 'string'
    ? checkedLine(envelope, candidate, digest)
    : digest.then((value) => checkedLine(envelope, candidate, value));
}

/** Complete lines as split from bytes: each line's text (without its newline) and byte offset. */
export type SplitLines = {
  readonly lines: readonly { readonly text: string; readonly offset: number }[];
  /** The offset after the last newline: where the complete lines end. */
  readonly validBytes: number;
  /** The bytes after the last newline: a write under way, or a torn one, for the caller to judge. */
  readonly tail: Uint8Array;
};

/**
Splits bytes read from offset `from` of a journal into its complete lines: a line counts only with its
newline. A complete line that is not UTF-8 is `corrupt` (`utf-8`), at its 1-based line number counted from
`firstLine`.
*/
export function splitLines(bytes: Uint8Array, from = 0, firstLine = 1): SplitLines {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const lines: { text: string; offset: number }[] = [];
  let start = 0;
  for (let index = bytes.indexOf(NEWLINE); index !== -1; index = bytes.indexOf(NEWLINE, start)) {
    try {
      lines.push({ text: decoder.decode(bytes.subarray(start, index)), offset: from + start });
    } catch (error) {
      throw new LedgerError('corrupt', { rule: 'utf-8', position: firstLine + lines.length, cause: error });
    }
    start = index + 1;
  }
  return { lines, validBytes: from + start, tail: bytes.subarray(start) };
}
