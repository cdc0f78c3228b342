/**
@module
How a record sits in its row: the columns the store derives from it (its agent, when it comes due, whether its attempt
carried a recovery contextId, whether its writer keeps the lease), and the decoding of the JSON text the `body`
columns hold. Storage is an edge: every body is checked again on the way out (CONTRIBUTING.md#schemas-and-types).
*/
import { LedgerError } from '../../core/errors.js';
import { type AgentIdentity, deepFreeze, isDue } from '../ledger.js';
import { decodeLedger, LedgerRecord, LedgerRevision } from '../record.js';

/** A record's `body`, decoded and frozen; `corrupt` when it is not JSON or not a record. */
export function decodeRecord(text: unknown): LedgerRecord {
  let value: unknown;
  try {
    value = JSON.parse(String(text));
  } catch (error) {
    throw new LedgerError('corrupt', { rule: 'json', cause: error });
  }
  const decoded = decodeLedger(LedgerRecord, value);
  if (!decoded.ok) {
    throw new LedgerError('corrupt', { rule: decoded.error.rule });
  }
  return deepFreeze(decoded.value);
}

/** A revision's `body`, decoded and frozen; `corrupt` at `position` in its history when it is not a revision. */
export function decodeRevision(text: unknown, position: number): LedgerRevision {
  let value: unknown;
  try {
    value = JSON.parse(String(text));
  } catch (error) {
    throw new LedgerError('corrupt', { rule: 'json', position, cause: error });
  }
  const decoded = decodeLedger(LedgerRevision, value);
  if (!decoded.ok) {
    throw new LedgerError('corrupt', { rule: decoded.error.rule, position });
  }
  return deepFreeze(decoded.value);
}

/** The agent column: one string per agent identity, so a claim can pick one agent's records by index. */
export function agentKey(agent: AgentIdentity): string {
  return JSON.stringify([agent.cardDigest, agent.binding, agent.url, agent.tenant ?? null]);
}

/** When a record comes due for a probe, or `null` when it never will on its own (docs/durable-send.md#reconciling-an-unknown). */
export function dueAt(record: LedgerRecord): number | null {
  const { state } = record;
  if (!isDue(record, Number.MAX_SAFE_INTEGER) || state.status !== 'unknown') {
    return null;
  }
  return state.pending?.notBefore ?? record.updatedAt;
}

/** Whether the record's current attempt carried a recovery contextId. */
export function contextual(record: LedgerRecord): boolean {
  const { state } = record;
  return (
    state.status !== 'prepared' &&
    record.attempts.some(
      (attempt) => attempt.attemptId === state.attemptId && attempt.contextId !== undefined,
    )
  );
}

/** Whether a writer keeps its lease after moving a record into `record`'s state: while it is prepared (about to start) or executing (its one send under way). */
export function keepsLease(record: LedgerRecord): boolean {
  return record.state.status === 'prepared' || record.state.status === 'executing';
}
