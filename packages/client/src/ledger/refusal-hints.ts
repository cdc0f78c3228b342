/**
@module
What a refusal of the Node stores tells its reader to do, by reason and rule, in one table: a file lock's
holder that only its heartbeat vouches for, or that this process may not check
(docs/durable-send.md#file-journal), and a PostgreSQL worker id another process holds
(docs/durable-send.md#one-live-process-per-worker-id). Only the Node stores' modules import it, so no browser
bundle carries these texts; `LedgerError` prints the hint it is given, and its own for any other `locked`.
*/
import { LedgerError, type LedgerReason } from '../core/errors.js';

const hints: Readonly<Record<string, string>> = {
  'locked heartbeat':
    ": its holder could not be checked by its pid from here (another PID namespace, or no /proc of this one); it counts as gone once the lock file's mtime, its heartbeat, is three of its beats old (the lock's `beat`, in ms): open again then, or delete the lock file if no process writes the journal",
  'locked holder-unchecked':
    ': this process may not check whether its holder still runs (under Deno, that needs --allow-run): open it where it may, or delete the lock file if no process writes the journal',
  'locked worker-live':
    ': another process holds this worker id; give each process its own worker id, or stop the other',
  'fenced worker-live':
    ': another process took this worker id while this one had lost its connection; this ledger writes no more: close it, and give each process its own worker id',
};

/**
The refusal `reason` with `rule`, carrying the table's hint for them when it has one.

@example
```ts
throw refusal('locked', { rule: 'heartbeat', path: '/var/lib/app/sends.jsonl.lock' });
```
*/
export function refusal(
  reason: LedgerReason,
  options: { readonly rule?: string; readonly path?: string; readonly cause?: unknown } = {},
): LedgerError {
  const hint = hints[`${reason} ${options.rule}`];
  return new LedgerError(reason, { ...options, ...(hint === undefined ? {} : { hint }) });
}
