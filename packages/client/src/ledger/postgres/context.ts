/**
@module
What the store's functions share (`store.ts`, `writes.ts`, `leases.ts`): one writer's pool, options, session
and statements, its worker lock, the heads of the records it holds, its announcements, its appends gathered
into batches and their count, passed to each of them as one explicit object.
*/
import type { StoreCommit } from '../engine.js';
import type { LedgerRecord } from '../record.js';
import type { Pool } from './connection.js';
import type { GroupCommit } from './group-commit.js';
import type { Announcer } from './notify.js';
import type { ResolvedPostgresLedgerOptions } from './options.js';
import type { Statements } from './statements.js';
import type { WorkerLockState } from './worker-lock.js';

/** One writer's store, as its functions see it. */
export type StoreContext = {
  readonly pool: Pool;
  readonly settings: ResolvedPostgresLedgerOptions;
  /** This open's session id, written on its leases and revisions. */
  readonly session: string;
  readonly statements: Statements;
  /** The writer's worker lock, which every write and claim checks first; none for a `readOnly` follower. */
  readonly lock: WorkerLockState | undefined;
  /**
  The heads of the records this writer holds (prepared or executing under its lease, or claimed for a probe):
  a transition of one needs no read first. Bounded by what is in flight.
  */
  readonly heads: Map<string, LedgerRecord>;
  readonly announcer: Announcer;
  /** This writer's appends, gathered into batches (`writes.ts`, docs/durable-send.md#group-commit). */
  readonly writes: Writes;
  /** Appends so far, which pace the pruning past the retention window. */
  appended: number;
};

/** What one append writes: one commit, or a `create` and its `start`, all of one record. */
export type Commits = readonly Pick<StoreCommit, 'record' | 'revision'>[];

/** One writer's appends, gathered into batches. */
export type Writes = GroupCommit<Commits>;
