/**
@module
The store's one write (docs/durable-send.md#leases, docs/durable-send.md#group-commit): once the writer's
worker lock is held, a batch of records' revisions in ONE statement that checks each record's expected
revision, its digest and the writer's lease on its own row, then this writer's cached heads, then the
announcement to followers; and, every so many writes, the pruning of what is past the retention window. The
writes of one writer gather into batches in `group-commit.ts`: each still succeeds or fails alone.
*/
import { LedgerError } from '../../core/errors.js';
import { io } from './connection.js';
import type { Commits, StoreContext, Writes } from './context.js';
import { createGroupCommit, type Queued, submit } from './group-commit.js';
import { announce } from './notify.js';
import { agentKey, contextual, dueAt, keepsLease } from './row.js';
import { batchPreparations, bind, type Statements } from './statements.js';
import { holdWorkerLock } from './worker-lock.js';

// Appends between two prunings of what is past the retention window.
const pruneEvery = 256;
// Batches under way at once at most, each one statement on a connection of the pool (and never more than the
// pool holds), and how many writes must wait before one starts beside another: several batches keep the
// database's cores busy, each of several writes shares its commit. Measured by `ledger-postgres-commit-64`
// (bench/postgres.ts): one batch at a time left the server one core, one write a batch its commit each; four
// batches of up to sixteen gathered writes cost the database 83 µs per commit where eight of eight cost 123
// µs, on a 2-core machine loaded by other work, and the client 57 µs where it cost 74 µs. A smaller pool
// gathers half its size at most: a worker of 16 senders on a pool of 16 still runs two batches of eight
// (`durable-throughput-postgres-64`), where sixteen would have held it to one.
const batchSlots = 4;
const batchGather = 16;
// Records in one batch at most, so one statement's arrays stay a few hundred kilobytes.
const batchLimit = 128;

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

/** The record an append leaves: its last commit's. */
function lastRecord(commits: Commits): Commits[number]['record'] {
  return (commits.at(-1) as Commits[number]).record;
}

/** The first revision an append writes, which decides its check. */
function firstRevision(commits: Commits): Commits[number]['revision'] {
  return (commits[0] as Commits[number]).revision;
}

// What joins a batch's bodies: U+0001, which no `JSON.stringify` text holds, since JSON writes every control
// character inside a string as an escape (RFC 8259 §7) and none outside one.
const bodySeparator = '\u0001';

/**
Bodies as one text, each exactly the `JSON.stringify` text its row stores, joined by {@link bodySeparator}:
the statement splits it again with `string_to_array`, which only looks for that character. A `text[]` would
have every quote of every body escaped again for PostgreSQL's array syntax (about 3 µs of the client's CPU
per body), and a JSON array has the server lex every body twice, once to check the array and once to take its
elements (about 4 µs a body, bench/postgres.ts).
*/
function joinBodies(values: readonly object[]): string {
  let text = '';
  for (let index = 0; index < values.length; index++) {
    text += index === 0 ? JSON.stringify(values[index]) : `${bodySeparator}${JSON.stringify(values[index])}`;
  }
  return text;
}

/**
The values of one batch statement: a row of the inserted or of the moved records' arrays for each append (as
its last revision leaves the record), every revision's row, and the writer's lease.
*/
function batchValues(context: StoreContext, batch: readonly Commits[]) {
  const created = batch.filter((commits) => firstRevision(commits).revision === 0).map(lastRecord);
  const moves = batch.filter((commits) => firstRevision(commits).revision > 0);
  const moved = moves.map(lastRecord);
  const revisions = batch.flatMap((commits) => commits.map((commit) => commit.revision));
  return {
    NEWIDS: created.map((record) => record.id),
    NEWSTATUSES: created.map((record) => record.state.status),
    NEWREVISIONS: created.map((record) => record.revision),
    NEWDIGESTS: created.map((record) => record.digest),
    NEWCREATED: created.map((record) => record.createdAt),
    NEWUPDATED: created.map((record) => record.updatedAt),
    NEWAGENTS: created.map((record) => agentKey(record.agent)),
    NEWDELIVERIES: created.map((record) => record.delivery),
    NEWCONTEXTUAL: created.map(contextual),
    NEWDUE: created.map(dueAt),
    NEWKEEP: created.map(keepsLease),
    NEWBODIES: joinBodies(created),
    IDS: moved.map((record) => record.id),
    STATUSES: moved.map((record) => record.state.status),
    REVISIONS: moved.map((record) => record.revision),
    DIGESTS: moved.map((record) => record.digest),
    UPDATED: moved.map((record) => record.updatedAt),
    CONTEXTUAL: moved.map(contextual),
    DUE: moved.map(dueAt),
    KEEP: moved.map(keepsLease),
    BODIES: joinBodies(moved),
    EXPECTED: moves.map((commits) => firstRevision(commits).revision - 1),
    PREVIOUS: moves.map((commits) => firstRevision(commits).previousDigest ?? ''),
    REVISIONIDS: revisions.map((revision) => revision.id),
    NUMBERS: revisions.map((revision) => revision.revision),
    REVISIONBODIES: joinBodies(revisions),
    W: context.settings.worker,
    S: context.session,
    LEASE: context.settings.leaseMs,
  };
}

/** The preparation of the batch statement a writer's appends so far call for (`batchPreparations`). */
function batchStatementAfter(statements: Statements, appended: number): Statements['writeBatches'][number] {
  let preparation = 0;
  while (appended >= (batchPreparations[preparation + 1] ?? Number.POSITIVE_INFINITY)) {
    preparation += 1;
  }
  return statements.writeBatches[preparation] as Statements['writeBatches'][number];
}

/**
Whether the database answered `error` as a refusal of the statement (an `ErrorResponse` with its SQLSTATE):
the statement's transaction was rolled back, so none of its batch was written, and each may go again alone.
Not a connection's end (class 08, or 57P: the server shutting down, the backend terminated), after which the
commit may or may not have happened.
*/
function refusedStatement(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) {
    return false;
  }
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return (
    typeof severity === 'string' &&
    typeof code === 'string' &&
    /^[0-9A-Z]{5}$/.test(code) &&
    !code.startsWith('08') &&
    !code.startsWith('57P')
  );
}

/** Settles one append of a batch the statement answered: written (`ids` holds it), or refused with why. */
async function settle(
  context: StoreContext,
  queued: Queued<Commits>,
  ids: ReadonlySet<string>,
): Promise<void> {
  const commits = queued.item;
  const record = lastRecord(commits);
  if (!ids.has(record.id)) {
    context.heads.delete(record.id);
    const first = firstRevision(commits);
    queued.reject(
      first.revision === 0
        ? new LedgerError('stale-revision', { rule: 'exists' })
        : await refusal(context, record.id, first.revision - 1),
    );
    return;
  }
  if (keepsLease(record)) {
    context.heads.set(record.id, record);
  } else {
    context.heads.delete(record.id);
  }
  for (const { revision } of commits) {
    announce(context.announcer, record.id, revision.revision);
  }
  queued.resolve();
}

/**
Writes a batch in one statement and settles each of its appends. A statement the database refused as a whole
(one append's revision row taken, say) wrote nothing: each append then goes again alone, so only the one that
cannot be written fails.
*/
async function writeBatch(context: StoreContext, batch: readonly Queued<Commits>[]): Promise<void> {
  let ids: Set<string>;
  try {
    const result = await context.pool.query<{ id: string }>(
      bind(
        batchStatementAfter(context.statements, context.appended),
        batchValues(
          context,
          batch.map((queued) => queued.item),
        ),
      ),
    );
    ids = new Set(result.rows.map((row) => row.id));
  } catch (error) {
    for (const queued of batch) {
      context.heads.delete(lastRecord(queued.item).id);
    }
    if (batch.length > 1 && refusedStatement(error)) {
      // Each settles alone: one that fails again rejects only its own write.
      await Promise.all(
        batch.map((queued) => writeBatch(context, [queued]).catch((alone: unknown) => queued.reject(alone))),
      );
      return;
    }
    throw error;
  }
  await Promise.all(batch.map((queued) => settle(context, queued, ids)));
}

/**
A batch as the group commit writes it: once the writer holds its worker lock, after the pruning it is due for.
*/
async function writeHeld(context: StoreContext, batch: readonly Queued<Commits>[]): Promise<void> {
  // docs/durable-send.md#one-live-process-per-worker-id: only the process that holds its worker id writes.
  await holdWorkerLock(context.lock);
  const before = context.appended;
  context.appended += batch.length;
  if (Math.floor(before / pruneEvery) !== Math.floor(context.appended / pruneEvery)) {
    await prune(context);
  }
  await writeBatch(context, batch);
}

/**
The writes of the store whose context `of` gives (once it is made, which is before the first write), over a
pool of `poolSize` connections, gathered into batches of at most one append per record.
*/
export function createWrites(poolSize: number, of: () => StoreContext): Writes {
  return createGroupCommit({
    slots: Math.min(batchSlots, poolSize),
    limit: batchLimit,
    gather: Math.min(batchGather, Math.max(1, Math.ceil(poolSize / 2))),
    key: (commits: Commits) => lastRecord(commits).id,
    write: (batch) => writeHeld(of(), batch),
  });
}

/**
A store write: its revisions with the batch it joins, in one statement; then this writer's cached head, then
the announcement to followers. It fails alone, with why its own record was refused.
*/
export function appendAll(context: StoreContext, commits: Commits): Promise<void> {
  return io(() => submit(context.writes, commits));
}
