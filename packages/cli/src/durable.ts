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
import type { CliDelivery } from './args.js';
import { SetupError } from './connect.js';
import { exitCodeOf } from './exit-code.js';
import type { Output } from './output.js';
import { terminalText } from './text.js';

/**
The context-history bounds the CLI probes with: 4 pages of 100 tasks, 64 history messages each, a probe a
second at most, 10 probes.
*/
export const contextHistory: RecoveryStrategy = Object.freeze({
  kind: 'context-history',
  maxPages: 4,
  historyLength: 64,
  retryAfterMs: 1000,
  maxProbes: 10,
});

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
    recovery: chosen === 'keyed' ? { kind: 'keyed' } : contextHistory,
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

const advice: Readonly<Record<string, string>> = {
  committed: 'the agent accepted it',
  failed: 'it was not applied; fix the cause and send a new message',
  unknown: 'it may have run: reconcile it (surecall sends reconcile), never resend it',
  pending: 'no evidence yet; the next probe is due later (surecall sends reconcile)',
  'in-flight': 'a send is under way, or one was interrupted: it becomes unknown when its writer is gone',
  unresolved:
    'probing gave up or found contradicting evidence: a person decides; it is never resent on its own',
  duplicated: 'the message is in two tasks: a person decides',
};

/**
One line for a person: the record, its status, what it proved and what to do. The record's strings are the
ledger's, some of them the peer's (a task id) and all of them whatever wrote the ledger: each is printed
through `terminalText`.
*/
export function outcomeLine(record: LedgerRecord, status: string): string {
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
  return `${terminalText(record.id)} ${status}${detail}: ${advice[status] ?? 'a person decides'}`;
}

/** Reports a durable outcome and returns its exit code. */
export function reportOutcome(out: Output, outcome: DurableOutcome) {
  out.document(recordSummary(outcome.record, outcome.status));
  out.line(outcomeLine(outcome.record, outcome.status));
  return exitCodeOf(outcome.status);
}
