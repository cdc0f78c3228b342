/**
@module
Why the durable ledger refused an operation, thrown outside an exchange (ARCHITECTURE.md#errors); the `rule`
it carries is one of docs/protocol-checks.md#ledger.
*/
import { optionalMembers } from './optional-members.js';

/**
Why the durable ledger refused an operation.

- `stale-revision`: the write named a revision that is no longer the record's head (another writer moved it),
  or its id already exists.
- `invalid-transition`: the state machine forbids the transition from the record's state (`rule` says which,
  e.g. `start-from-unknown`).
- `reused-attempt`: a new attempt reused the id of an earlier attempt of the same send.
- `invalid-input`: the intent, the transition or the options are malformed (`rule` names the broken rule).
- `not-found`: no record has that id.
- `corrupt`: a stored record, revision or journal line failed to decode or does not chain; it is never skipped
  or repaired.
- `locked`: another writer holds the ledger (a live lock file, a Web Lock held by another tab).
- `fenced`: this writer's lease was taken over; it must stop writing.
- `closed`: the ledger was closed.
- `io`: the storage failed; a file ledger then refuses every later write with the same error, since what
  reached the disk is no longer known.
- `unsupported`: the platform lacks the storage (no IndexedDB, no WebCrypto).
*/
export type LedgerReason =
  | 'stale-revision'
  | 'invalid-transition'
  | 'reused-attempt'
  | 'invalid-input'
  | 'not-found'
  | 'corrupt'
  | 'locked'
  | 'fenced'
  | 'closed'
  | 'io'
  | 'unsupported';

/**
The durable ledger refused an operation. Messages name the reason, the rule, when a file ledger is `locked`,
its lock file (the caller's own configuration), and what to do about it (`hint`, one of
`ledger/refusal-hints.ts` for the Node stores' refusals): never a record id, a message or a platform error's
text (the platform error travels on `cause`).

@example
```ts
try {
  await ledger.transition(id, record.revision, { type: 'commit', attemptId, result });
} catch (error) {
  if (error instanceof LedgerError && error.reason === 'stale-revision') {
    // Another writer moved the record: reload it, never overwrite.
  }
}
```
*/
export class LedgerError extends Error {
  override readonly name = 'LedgerError';
  readonly kind = 'ledger';
  readonly reason: LedgerReason;
  /** The rule that decided, e.g. `attempt-mismatch`, `not-before`, `json`. */
  readonly rule: string | undefined;
  /** Where: the 1-based journal line, or the revision number in a history. */
  readonly position: number | undefined;
  /**
The file it is about: the lock file another writer holds, when a file ledger is `locked`; the journal a
read-only open looked for, when it is `not-found`.
*/
  readonly path: string | undefined;
  constructor(
    reason: LedgerReason,
    options: { rule?: string; position?: number; path?: string; cause?: unknown; hint?: string } = {},
  ) {
    const where = options.position === undefined ? '' : ` at ${options.position}`;
    const rule = options.rule === undefined ? '' : `: ${options.rule}`;
    const file = options.path === undefined ? '' : ` (${options.path})`;
    // What the reader should do: the Node stores pass theirs from ledger/refusal-hints.ts, which no browser
    // bundle holds; any other `locked` gets the one below.
    const hint =
      options.hint ??
      (reason === 'locked' ? ': another writer holds it; close that writer or open another ledger' : '');
    super(
      `surecall ledger: ${reason}${rule}${where}${file}${hint}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.reason = reason;
    this.rule = options.rule;
    this.position = options.position;
    this.path = options.path;
  }

  /** Only public-safe fields. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      reason: this.reason,
      ...optionalMembers({ rule: this.rule, position: this.position, path: this.path }),
    };
  }
}
