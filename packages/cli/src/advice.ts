/**
@module
What a person does next with a record (README.md#the-surecall-command): the words after its status on every
line `send`, `sends list|show|watch` and `reconcile` print. Each names the next command with the flags it
needs (`sends reconcile <id> --ledger … --card …`, the connection flags as the command was given them), the
time and number of a pending record's next probe, and why an unresolved or duplicated record ended so, in the
ledger's own words (its `reason` and the summary of the error it kept, docs/durable-send.md#after-dispatch).
*/
import type { ErrorSummary, LedgerRecord } from '@surecall/client/ledger';
import type { ConnectArgs } from './args.js';
import { isPostgres } from './ledger.js';
import { terminalText } from './text.js';

/** What the next command is spelled with: the `--ledger` as given, and the agent's flags when known. */
export type NextStep = {
  /** The `--ledger` of the command that printed the record. */
  readonly ledger: string;
  /** The flags that reach the agent; a reading command does not know them, and names `--card` only. */
  readonly connect?: ConnectArgs | undefined;
  /** How many probes the reconciliation makes before it gives up (`no-evidence`). */
  readonly maxProbes: number;
};

// A shell word that needs no quotes (POSIX shell §2.2); anything else is single-quoted, a `'` closed and
// escaped.
const plainWord = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `word` as one shell word. */
export function shellWord(word: string): string {
  return plainWord.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The flags that reach the agent, as the command was given them (a token only by the variable's name). */
function connectFlags(connect: ConnectArgs): string[] {
  return [
    '--card',
    shellWord(connect.cardUrl),
    ...(connect.loopback ? ['--loopback'] : []),
    ...(connect.binding === undefined ? [] : ['--binding', shellWord(connect.binding)]),
    ...connect.pins.flatMap((pin) => ['--pin', shellWord(pin)]),
    ...(connect.digest === undefined ? [] : ['--digest', connect.digest]),
    ...(connect.tokenEnv === undefined ? [] : ['--token-env', connect.tokenEnv]),
    ...(connect.tokenStdin ? ['--token-stdin'] : []),
    ...(connect.scheme === undefined ? [] : ['--scheme', shellWord(connect.scheme)]),
    ...(connect.protocolVersions === undefined
      ? []
      : ['--protocol-versions', connect.protocolVersions.join(',')]),
  ];
}

/**
The `sends reconcile` command that probes `id` (every due record when `id` is absent), printed as terminal
text; without the agent's flags, `--card <card-url>` is left for the person to fill in, with `--loopback` when
the record went to an `http:` interface (`agentUrl`). A `postgres://` ledger is never printed (its URL may
hold a password): `"$DATABASE_URL"` stands for it.

@example
```ts
reconcileCommand(next, record.id); // surecall sends reconcile 4f…e1 --ledger sends.jsonl --card http://127.0.0.1:4100/.well-known/agent-card.json --loopback
```
*/
export function reconcileCommand(next: NextStep, id?: string, agentUrl?: string): string {
  const ledger = isPostgres(next.ledger) ? '"$DATABASE_URL"' : shellWord(next.ledger);
  const words = [
    'surecall sends reconcile',
    ...(id === undefined ? [] : [shellWord(id)]),
    '--ledger',
    ledger,
    ...(next.connect === undefined
      ? // A reader knows the interface the record went to, not its card; `http:` is only admitted on loopback.
        ['--card', '<card-url>', ...(agentUrl?.startsWith('http:') ? ['--loopback'] : [])]
      : connectFlags(next.connect)),
  ];
  return terminalText(words.join(' '));
}

/** An error summary in words: its kind, reason and the rule it broke, as the ledger kept them. */
function causeOf(cause: ErrorSummary | undefined): string {
  if (cause === undefined) {
    return '';
  }
  const rule = cause.violation === undefined ? '' : `, rule ${cause.violation.rule}`;
  return ` (the last probe: ${terminalText(cause.kind)} ${terminalText(cause.reason)}${terminalText(rule)})`;
}

// docs/durable-send.md#probe-failures: why probing ended without a commit.
const endings: Readonly<Record<string, string>> = {
  'no-evidence': 'no evidence after every probe allowed: the agent shows no task with the message',
  'conflicting-evidence': 'the evidence contradicts itself',
  // docs/protocol-checks.md#v03-peers: v0.3 has no ListTasks, so nothing can show the task.
  'no-list-tasks': 'the agent speaks v0.3, which has no ListTasks: no scan can show whether the message ran',
};

function timeOf(millis: number): string {
  return new Date(millis).toISOString();
}

/**
The advice for `record` at `status`, `now` being the time it is printed.

@example
```ts
adviceOf(record, 'pending', next, Date.now()); // 'no evidence yet after 1 probe; probe 2 of at most 10 is due at …'
```
*/
export function adviceOf(record: LedgerRecord, status: string, next: NextStep, now: number): string {
  const { state } = record;
  switch (status) {
    case 'committed':
      return 'the agent accepted it';
    case 'failed':
      return 'it was not applied; fix the cause and send a new message';
    case 'unknown':
      return `it may have run, so never resend it; reconcile it: ${reconcileCommand(next, record.id, record.agent.url)}`;
    case 'pending': {
      if (state.status !== 'unknown' || state.pending === undefined) {
        break;
      }
      const { notBefore, probes } = state.pending;
      const wait = Math.max(0, Math.ceil((notBefore - now) / 1000));
      return `no evidence yet after ${probes} probe${probes === 1 ? '' : 's'}; probe ${probes + 1} of at most ${next.maxProbes} is due at ${timeOf(notBefore)} (in ${wait} s): ${reconcileCommand(next, undefined, record.agent.url)}`;
    }
    case 'in-flight':
      return 'a send is under way, or one was interrupted: it becomes unknown when its writer is gone';
    case 'unresolved': {
      if (state.status !== 'unknown') {
        break;
      }
      const why = endings[state.reason] ?? terminalText(state.reason);
      return `${why}${causeOf(state.cause)}: a person decides; it is never resent on its own (reason ${terminalText(state.reason)})`;
    }
    case 'duplicated': {
      if (state.status !== 'duplicated') {
        break;
      }
      const tasks = state.taskIds.map((taskId) => terminalText(taskId)).join(', ');
      return `the message is in ${state.taskIds.length} tasks (${tasks}): the agent ran it more than once; a person decides which stands`;
    }
  }
  return 'a person decides';
}
