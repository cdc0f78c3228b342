/**
@module
The exit codes a script can branch on (README.md#the-surecall-command): one per way a result can end, from the durable send's own vocabulary (docs/durable-send.md#the-promise).
*/
import type { DurableStatus } from '@surecall/client/ledger';

/**
- `0` answered (a plain send) or committed (a durable one); a command that only reads succeeded;
- `1` failed: not started, or not applied (the agent refused it before applying it); a card that could not be fetched or checked;
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
The exit code of a durable record's status; a status this build does not know (a newer store's) counts as unresolved, so a script never reads it as done.

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

/** The worst of several exit codes: unresolved over unknown over failed over ok; usage never mixes with results. */
export function worst(codes: readonly ExitCode[]): ExitCode {
  return codes.reduce<ExitCode>((left, right) => Math.max(left, right) as ExitCode, exitCodes.ok);
}
