/**
@module
The durable agent a command builds over a client and a ledger, and how a durable outcome is reported. Delivery
follows the card unless `--delivery` says otherwise: `keyed` where the agent honours idempotency keys (a
re-send of the identical keyed message is then a replay), `at-most-once` elsewhere, each with the recovery
that fits it (docs/durable-send.md#recovery-modes).
*/
import {
  type A2aClient,
  type DurableAgent,
  type DurableOutcome,
  durableAgent,
  type RecoveryStrategy,
} from '@surecall/client';
import type { Ledger, LedgerRecord } from '@surecall/client/ledger';
import { adviceOf, type NextStep } from './advice.js';
import type { CliDelivery } from './args.js';
import { SetupError } from './connect.js';
import { exitCodeOf } from './exit-code.js';
import type { Output } from './output.js';
import { terminalText } from './text.js';

/**
The context-history bounds the CLI probes with: 4 pages of 100 tasks, 64 history messages each, a probe a
second at most, 10 probes.
*/
export const contextHistory = Object.freeze({
  kind: 'context-history',
  maxPages: 4,
  historyLength: 64,
  retryAfterMs: 1000,
  maxProbes: 10,
} as const satisfies RecoveryStrategy);

/**
The keyed replays the CLI probes with: one a second at most, as many as the scans, so the advice's "probe n of
at most 10" holds for either delivery.
*/
export const keyedReplay = Object.freeze({
  kind: 'keyed',
  retryAfterMs: contextHistory.retryAfterMs,
  maxProbes: contextHistory.maxProbes,
} as const satisfies RecoveryStrategy);

/** How many probes a reconciliation from the CLI makes before it gives up, for either delivery. */
export const cliMaxProbes: number = contextHistory.maxProbes;

/**
A durable agent over `client` and `ledger` for `delivery` (the card's choice when undefined), scoping tokens
to `skill` when given.

@throws {SetupError} for `keyed` delivery to an agent that does not honour keys.
*/
export function agentFor(
  client: A2aClient,
  ledger: Ledger,
  delivery: CliDelivery | undefined,
  skill?: string,
): DurableAgent {
  const chosen = delivery ?? (client.honoursIdempotency ? 'keyed' : 'at-most-once');
  if (chosen === 'keyed' && !client.honoursIdempotency) {
    throw new SetupError(
      "--delivery keyed needs an agent whose card advertises idempotency keys, and this one's does not",
    );
  }
  return durableAgent({
    client,
    ledger,
    delivery: chosen,
    recovery: chosen === 'keyed' ? keyedReplay : contextHistory,
    // The skill's security requirements, where it declares some, scope the token of the send and its probes.
    ...(skill === undefined ? {} : { skill }),
  });
}

/** A record as `--json` prints it: ids, states and summaries, never the message's content. */
export function recordSummary(record: LedgerRecord, status: string) {
  const { state } = record;
  return {
    id: record.id,
    status,
    state: state.status,
    delivery: record.delivery,
    agent: record.agent,
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
    attempts: record.attempts.length,
    ...(state.status === 'committed' ? { result: state.result } : {}),
    ...(state.status === 'failed' ? { effect: state.effect, cause: state.cause } : {}),
    ...(state.status === 'unknown'
      ? {
          reason: state.reason,
          ...(state.cause === undefined ? {} : { cause: state.cause }),
          ...(state.pending === undefined
            ? {}
            : { notBefore: new Date(state.pending.notBefore).toISOString(), probes: state.pending.probes }),
        }
      : {}),
  };
}

/**
One line for a person: the record, its status, what it proved and what to do next (`advice.ts`, the next
command spelled with `next`'s flags). The record's strings are the ledger's, some of them the peer's (a task
id) and all of them whatever wrote the ledger: each is printed through `terminalText`.
*/
export function outcomeLine(record: LedgerRecord, status: string, next: NextStep): string {
  const { state } = record;
  const detail =
    state.status === 'committed'
      ? state.result.kind === 'task'
        ? ` task ${terminalText(state.result.taskId ?? '')}`
        : ' (a direct reply)'
      : state.status === 'failed'
        ? ` (${state.effect}: ${terminalText(state.cause.kind)} ${terminalText(state.cause.reason)})`
        : state.status === 'unknown' && state.cause !== undefined
          ? ` (${terminalText(state.cause.kind)} ${terminalText(state.cause.reason)})`
          : '';
  return `${terminalText(record.id)} ${status}${detail}: ${adviceOf(record, status, next, Date.now())}`;
}

/**
Says which journal a writing command writes, before anything else (README.md#the-surecall-command): a relative
`--ledger` is resolved under the ledger directory (docs/durable-send.md#where-the-file-ledger-lives), so the
person reads where it went. A PostgreSQL ledger has no path, and its connection string is never printed.
*/
export function ledgerLine(out: Output, path: string | undefined): void {
  if (path !== undefined) {
    out.line(`ledger ${terminalText(path)}`);
  }
}

/**
Reports a durable outcome and returns its exit code; its JSON document names the journal's `ledger` path when
there is one.
*/
export function reportOutcome(out: Output, outcome: DurableOutcome, next: NextStep, path?: string) {
  out.document({
    ...recordSummary(outcome.record, outcome.status),
    ...(path === undefined ? {} : { ledger: path }),
  });
  out.line(outcomeLine(outcome.record, outcome.status, next));
  return exitCodeOf(outcome.status);
}
