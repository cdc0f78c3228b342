/**
@module
The leases of the shared store (docs/durable-send.md#leases): the claims of due records
(`FOR UPDATE SKIP LOCKED`, so a fleet probes each record once without coordination), the orphans left
executing by a writer whose lease lapsed, the heartbeat that renews this session's live leases, and the ends
of a session's or a previous process's leases. Every lease's expiry is on the database's clock; every claim is
taken only while the writer holds its worker lock (`worker-lock.ts`).
*/
import type { StoreLeases } from '../engine.js';
import type { DueQuery } from '../ledger.js';
import type { LedgerRecord } from '../record.js';
import { io, type Pool } from './connection.js';
import type { StoreContext } from './context.js';
import { agentKey, decodeRow, type RecordRow } from './row.js';
import { type BoundStatement, bind, type Statements } from './statements.js';
import { holdWorkerLock, workerLockTaken } from './worker-lock.js';

// How many records one orphan sweep leases at a time.
const orphanBatch = 64;

/** This writer's lease, as the claims bind it. */
function leaseOf(context: StoreContext) {
  return { W: context.settings.worker, S: context.session, LEASE: context.settings.leaseMs };
}

/**
Runs a claim and keeps the heads it leased, which their next transition then needs no read for. Every row it
leased is checked against its body (`decodeRow`): the claim selects by the row's columns, and its `UPDATE`
holds the rows it returns, so no commit can move one between the selection and the check
(docs/durable-send.md#what-the-store-checks).
*/
async function leaseRows(context: StoreContext, claim: BoundStatement): Promise<LedgerRecord[]> {
  const result = await context.pool.query<RecordRow>(claim);
  const leased = result.rows.map(decodeRow);
  for (const record of leased) {
    context.heads.set(record.id, record);
  }
  return leased;
}

function orphans(context: StoreContext, limit: number): Promise<LedgerRecord[]> {
  return leaseRows(
    context,
    bind(context.statements.orphans, { ...leaseOf(context), LIMIT: Math.min(limit, orphanBatch) }),
  );
}

function claimDue(
  context: StoreContext,
  query: Required<Pick<DueQuery, 'limit'>> & DueQuery,
  now: number,
): Promise<LedgerRecord[]> {
  return leaseRows(
    context,
    bind(context.statements.claimDue, {
      ...leaseOf(context),
      NOW: now,
      AGENT: query.agent === undefined ? null : agentKey(query.agent),
      EXCLUDE: [...(query.exclude ?? [])],
      DELIVERY: query.delivery === undefined ? null : [...query.delivery],
      CONTEXTUAL: query.contextual === true,
      LIMIT: query.limit,
    }),
  );
}

async function claim(context: StoreContext, id: string, now: number): Promise<LedgerRecord | undefined> {
  const [record] = await leaseRows(
    context,
    bind(context.statements.claim, { ...leaseOf(context), ID: id, NOW: now }),
  );
  return record;
}

async function release(context: StoreContext, id: string): Promise<void> {
  context.heads.delete(id);
  // Only a probe's claim: a prepared or executing record keeps its writer's lease until it moves or lapses.
  await context.pool.query(bind(context.statements.release, { ID: id, S: context.session }));
}

/**
Runs a claim once the writer holds its worker lock (docs/durable-send.md#one-live-process-per-worker-id).
*/
async function whileHeld<T>(context: StoreContext, work: () => Promise<T>): Promise<T> {
  await holdWorkerLock(context.lock);
  return work();
}

/** The store's leases, each method through `io`; a claim only while the writer holds its worker lock. */
export function storeLeases(context: StoreContext): StoreLeases {
  return {
    orphans: (limit) => io(() => whileHeld(context, () => orphans(context, limit))),
    claimDue: (query, now) => io(() => whileHeld(context, () => claimDue(context, query, now))),
    claim: (id, now) => io(() => whileHeld(context, () => claim(context, id, now))),
    // Giving a lease up needs no lock.
    release: (id) => io(() => release(context, id)),
  };
}

/**
The heartbeat: renews this session's live leases every third of their length. A lapsed lease is never renewed:
it is lost, and another writer may take the record over; nor is any once another process took the writer's
worker lock, whose records are that process's to recover. It never keeps the process alive.
*/
export function startHeartbeat(context: StoreContext): ReturnType<typeof setInterval> {
  const heartbeat = setInterval(
    () => {
      if (workerLockTaken(context.lock)) {
        return;
      }
      context.pool
        .query(
          bind(context.statements.renew, {
            W: context.settings.worker,
            S: context.session,
            LEASE: context.settings.leaseMs,
          }),
        )
        .catch(() => undefined);
    },
    Math.max(1, Math.floor(context.settings.leaseMs / 3)),
  );
  heartbeat.unref?.();
  return heartbeat;
}

/**
Ends this session's leases now rather than at their expiry: a record it left executing is an orphan at once.
*/
export async function endSessionLeases(context: StoreContext): Promise<void> {
  await context.pool
    .query(bind(context.statements.endSession, { W: context.settings.worker, S: context.session }))
    .catch(() => undefined);
}

/**
A restarted worker ends its previous process's leases at once, so what that process left executing is
recovered now rather than when the leases lapse. Run once the worker lock is held, so that previous process is
gone (docs/durable-send.md#one-live-process-per-worker-id).
*/
export async function endPreviousLeases(
  pool: Pool,
  statements: Statements,
  worker: string,
  session: string,
): Promise<void> {
  await pool.query(bind(statements.endWorker, { W: worker, S: session }));
}
