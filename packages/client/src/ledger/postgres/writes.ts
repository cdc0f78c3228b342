/**
@module
The store's one write (docs/durable-send.md#leases): once the writer's worker lock is held, consecutive
revisions of one record in ONE statement that checks the expected revision, its digest and the writer's lease,
then this writer's cached head, then the announcement to followers; and, every so many writes, the pruning of
what is past the retention window.
*/
import { LedgerError } from '../../core/errors.js';
import type { StoreCommit } from '../engine.js';
import { io } from './connection.js';
import type { StoreContext } from './context.js';
import { announce } from './notify.js';
import { agentKey, contextual, dueAt, keepsLease } from './row.js';
import { bind } from './statements.js';
import { holdWorkerLock } from './worker-lock.js';

/** What one append writes: one commit, or a `create` and its `start`. */
export type Commits = readonly Pick<StoreCommit, 'record' | 'revision'>[];

// Appends between two prunings of what is past the retention window.
const pruneEvery = 256;

/**
docs/durable-send.md#retention: a settled record past the window goes with its revisions; open records never
do.
*/
async function prune(context: StoreContext): Promise<void> {
  await context.pool.query(
    bind(context.statements.prune, { CUTOFF: Date.now() - context.settings.retentionMs }),
  );
}

/** Why a write found no row to move: the record is gone, moved on, or leased to another live writer. */
async function refusal(context: StoreContext, id: string, expected: number): Promise<LedgerError> {
  const found = await context.pool.query<{ revision: number; held: boolean }>(
    bind(context.statements.refusal, { ID: id, S: context.session }),
  );
  const head = found.rows[0];
  if (head === undefined || head.revision !== expected) {
    return new LedgerError('stale-revision');
  }
  return new LedgerError('fenced', { rule: 'lease' });
}

/**
The values both writes bind: the record's row as the last revision leaves it, the lease, and every revision's
row.
*/
function rowValues(context: StoreContext, commits: Commits) {
  const { record } = commits.at(-1) as Commits[number];
  return {
    ID: record.id,
    STATUS: record.state.status,
    REVISION: record.revision,
    DIGEST: record.digest,
    UPDATED: record.updatedAt,
    CONTEXTUAL: contextual(record),
    DUE: dueAt(record),
    BODY: JSON.stringify(record),
    KEEP: keepsLease(record),
    W: context.settings.worker,
    S: context.session,
    LEASE: context.settings.leaseMs,
    NUMBERS: commits.map((commit) => commit.revision.revision),
    BODIES: commits.map((commit) => JSON.stringify(commit.revision)),
  };
}

/**
Appends consecutive revisions of one record in ONE statement: the record's row moves to the last revision's
state, and every revision gets its row. The first revision decides the check: revision 0 inserts the record
(refused as `exists` when the id is taken); any later one needs the expected revision, its digest and the
lease.
*/
async function appendRevisions(context: StoreContext, commits: Commits): Promise<void> {
  const first = (commits[0] as Commits[number]).revision;
  const { record } = commits.at(-1) as Commits[number];
  const values = rowValues(context, commits);
  const { insertRecord, moveRecord } = context.statements;
  if (first.revision === 0) {
    const inserted = await context.pool.query(
      bind(insertRecord, {
        ...values,
        CREATED: record.createdAt,
        AGENT: agentKey(record.agent),
        DELIVERY: record.delivery,
      }),
    );
    if (inserted.rowCount !== commits.length) {
      throw new LedgerError('stale-revision', { rule: 'exists' });
    }
    return;
  }
  const moved = await context.pool.query(
    bind(moveRecord, { ...values, EXPECTED: first.revision - 1, PREVIOUS: first.previousDigest ?? '' }),
  );
  if (moved.rowCount !== commits.length) {
    throw await refusal(context, record.id, first.revision - 1);
  }
}

/**
A store write: its revisions in one statement, then this writer's cached head, then the announcement to
followers.
*/
export function appendAll(context: StoreContext, commits: Commits): Promise<void> {
  return io(async () => {
    // docs/durable-send.md#one-live-process-per-worker-id: only the process that holds its worker id writes.
    await holdWorkerLock(context.lock);
    if (++context.writes % pruneEvery === 0) {
      await prune(context);
    }
    const { record } = commits.at(-1) as Commits[number];
    try {
      await appendRevisions(context, commits);
    } catch (error) {
      context.heads.delete(record.id);
      throw error;
    }
    if (keepsLease(record)) {
      context.heads.set(record.id, record);
    } else {
      context.heads.delete(record.id);
    }
    for (const { revision } of commits) {
      announce(context.announcer, record.id, revision.revision);
    }
  });
}
