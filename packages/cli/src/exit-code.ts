/**
@module
The exit codes a script can branch on (README.md#the-surecall-command): one per way a result can end, from the
durable send's own vocabulary (docs/durable-send.md#the-promise).
*/
import type { DurableAgent } from '@surecall/client';
import type { DurableStatus } from '@surecall/client/ledger';

/**
- `0` answered (a plain send) or committed (a durable one); a command that only reads succeeded;
- `1` failed: not started, or not applied (the agent refused it before applying it); a card that could not be
  fetched or checked;
- `2` usage or options: a flag, an argument or an option broke a rule, the usage is printed;
- `3` outcome unknown: the send may have run; reconcile it, never send it again;
- `4` unresolved or duplicated: probing gave up or found evidence against itself; a person decides.
*/
export const exitCodes = Object.freeze({
  ok: 0,
  failed: 1,
  usage: 2,
  unknown: 3,
  unresolved: 4,
} as const);

/** One of {@link exitCodes}. */
export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/**
The exit code of a durable record's status; a status this build does not know (a newer store's) counts as
unresolved, so a script never reads it as done.

@example
```ts
exitCodeOf('pending'); // 3
```
*/
export function exitCodeOf(status: DurableStatus | 'duplicated' | string): ExitCode {
  switch (status) {
    case 'committed':
      return exitCodes.ok;
    case 'failed':
      return exitCodes.failed;
    case 'unknown':
    case 'pending':
    case 'in-flight':
      return exitCodes.unknown;
    default:
      return exitCodes.unresolved;
  }
}

/**
The worst of several exit codes: unresolved over unknown over failed over ok; usage never mixes with results.
*/
export function worst(codes: readonly ExitCode[]): ExitCode {
  return codes.reduce<ExitCode>((left, right) => Math.max(left, right) as ExitCode, exitCodes.ok);
}

/** What one `reconcileDue` pass did (docs/durable-send.md#reconciling-what-is-due). */
export type PassReport = Awaited<ReturnType<DurableAgent['reconcileDue']>>;

/**
The exit code of a `reconcileDue` pass (README.md#the-surecall-command), from its report: `4` when a record
was left unresolved, or probed into a status the report does not count (duplicated: claimed, probed, and
neither committed, pending, unresolved, skipped nor superseded); `3` when one is still unknown: pending,
claimed but not probeable here (skipped), or moved by another writer first (superseded: this process cannot
say what that writer found, `sends list` can); `0` when every claimed record committed, or nothing was due.

@example
```ts
exitCodeOfPass({ claimed: 2, committed: 1, pending: 1, unresolved: 0, skipped: 0, superseded: 0 }); // 3
```
*/
export function exitCodeOfPass(report: PassReport): ExitCode {
  const counted = report.committed + report.pending + report.unresolved + report.skipped + report.superseded;
  if (report.unresolved > 0 || report.claimed > counted) {
    return exitCodes.unresolved;
  }
  if (report.pending + report.skipped + report.superseded > 0) {
    return exitCodes.unknown;
  }
  return exitCodes.ok;
}
