/**
@module
Test fixtures: real ledger records and histories, written through the client's own ledger engine, for the
Sends, Recovery and import models. Not part of the app.
*/
import type { ErrorSummary, Ledger, LedgerRecord, SendIntent } from '@surecall/client/ledger';

const cardDigest = `sha256:${'c'.repeat(64)}`;

/** A send intent of `id`, at-most-once or keyed. */
export function intentOf(id: string, keyed = false): SendIntent {
  return {
    id,
    tenant: 'default',
    run: 'default',
    agent: { cardDigest, binding: 'JSONRPC', url: 'http://127.0.0.1:4000/a2a/jsonrpc' },
    message: { messageId: `surecall-send-${id}`, role: 'ROLE_USER', parts: [{ text: 'task book it' }] },
    delivery: keyed ? 'keyed' : 'at-most-once',
    ...(keyed ? { idempotencyKey: `key-${id}-0123456789` } : {}),
  };
}

/** The error a lost answer leaves: the summary the ledger keeps of a transport failure after dispatch. */
export const lostAnswer: ErrorSummary = {
  name: 'TransportError',
  kind: 'transport',
  reason: 'network',
  dispatched: true,
};

/** Creates, starts and loses the answer of a send: the record is `unknown` (ambiguous-outcome). */
export async function lostSend(ledger: Ledger, id: string, keyed = false): Promise<LedgerRecord> {
  const created = await ledger.create(intentOf(id, keyed));
  const attemptId = `attempt-${id}`;
  const started = await ledger.transition(id, created.revision, {
    type: 'start',
    attemptId,
    messageId: `surecall-attempt-${attemptId}`,
  });
  return ledger.transition(id, started.revision, {
    type: 'unknown',
    attemptId,
    reason: 'ambiguous-outcome',
    cause: lostAnswer,
  });
}

/** A lost send, then found by a probe: `committed` through `reconcile-commit`. */
export async function reconciledSend(ledger: Ledger, id: string): Promise<LedgerRecord> {
  const unknown = await lostSend(ledger, id);
  return ledger.transition(id, unknown.revision, {
    type: 'reconcile-commit',
    attemptId: `attempt-${id}`,
    result: { kind: 'task', taskId: `task-${id}`, contextId: `ctx-${id}` },
  });
}
