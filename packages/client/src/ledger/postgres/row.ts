/**
@module
How a record sits in its row: the columns the store derives from it (its agent, when it comes due, whether its
attempt carried a recovery contextId, whether its writer keeps the lease), the decoding of the JSON text the
`body` columns hold, and the check of a row's columns against its body. Storage is an edge: every body is
checked again on the way out (CONTRIBUTING.md#schemas-and-types), and so is every column the store derived
from it, since the store selects by them (docs/durable-send.md#what-the-store-checks).
*/
import { LedgerError } from '../../core/errors.js';
import { type AgentIdentity, deepFreeze, isDue } from '../ledger.js';
import { decodeLedger, LedgerRecord, LedgerRevision } from '../record.js';

/**
A record's row as the store reads it (`recordColumns` in statements.ts): every column it derived from the
record as text, whatever the pool's type parsers, and the body.
*/
export type RecordRow = {
  readonly status: string | null;
  readonly revision: string | null;
  readonly digest: string | null;
  readonly created_at: string | null;
  readonly updated_at: string | null;
  readonly agent: string | null;
  readonly delivery: string | null;
  readonly contextual: string | null;
  readonly due_at: string | null;
  readonly body: string;
};

/** A record's `body`, decoded and frozen; `corrupt` when it is not JSON or not a record. */
function decodeRecord(text: unknown): LedgerRecord {
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

/**
A revision's `body`, decoded and frozen; `corrupt` at `position` in its history when it is not a revision.
*/
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

/**
When a record comes due for a probe, or `null` when it never will on its own
(docs/durable-send.md#reconciling-an-unknown).
*/
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

/**
Whether a writer keeps its lease after moving a record into `record`'s state: while it is prepared (about to
start) or executing (its one send under way).
*/
export function keepsLease(record: LedgerRecord): boolean {
  return record.state.status === 'prepared' || record.state.status === 'executing';
}

/** Refuses a column whose text is not what the record gives it (`null` where it gives none). */
function agree(rule: string, stored: string | null, derived: string | number | boolean | null): void {
  if (stored !== (derived === null ? null : String(derived))) {
    throw new LedgerError('corrupt', { rule });
  }
}

/**
A record's row, decoded and checked: its body must decode, and every column the store derived from it must
still say what the body gives (docs/durable-send.md#what-the-store-checks), since the store selects, claims
and prunes by them; `corrupt` with the rule of the first that does not (`column-status`, …).
*/
export function decodeRow(row: RecordRow): LedgerRecord {
  const record = decodeRecord(row.body);
  agree('column-status', row.status, record.state.status);
  agree('column-revision', row.revision, record.revision);
  agree('column-digest', row.digest, record.digest);
  agree('column-created', row.created_at, record.createdAt);
  agree('column-updated', row.updated_at, record.updatedAt);
  agree('column-agent', row.agent, agentKey(record.agent));
  agree('column-delivery', row.delivery, record.delivery);
  agree('column-contextual', row.contextual, contextual(record));
  agree('column-due', row.due_at, dueAt(record));
  return record;
}
