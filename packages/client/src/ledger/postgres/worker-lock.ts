/**
@module
One live process per worker id (docs/durable-send.md#one-live-process-per-worker-id): a writer holds a
session-level advisory lock named after its schema and worker id, on a connection of its own
(`dedicatedConnection`), from its open to its close. A second live process with the same id finds the lock
held and is refused at open as `LedgerError('locked')`, rule `worker-live`, so it never ends the first one's
leases; a process that died lost its connection, and with it the lock (the database releases a session's
advisory locks when its backend ends), so its restart opens at once. When the database drops the lock's
connection, the writer refuses every write and claim until it holds the lock again on a new one, and for good
(`fenced`, rule `worker-live`) once another process took it meanwhile. Its state is one
{@link WorkerLockState}, which the functions of this module share.
*/
import { hash } from 'node:crypto';
import { LedgerError } from '../../core/errors.js';
import { refusal } from '../refusal-hints.js';
import { type Dedicated, dedicatedConnection, type Pool } from './connection.js';

const ignore = (): undefined => undefined;

// How long taking the lock waits for its holder to let go (`lock_timeout`): a process killed a moment ago
// holds it until its backend has seen its connection close, and the writer's own backend a moment after the
// database dropped it.
const graceMs = 1000;
// After a failed try to take the lock again, the next waits about this long; each failure in a row doubles
// it.
const retryMs = 50;
const retryMaxMs = 5000;

// The lock's session: waits at most `graceMs` for the lock and never times out otherwise; the database probes
// the holder's connection (TCP keepalive after 10 s idle, every 5 s, 3 times), so a holder whose host
// vanished without closing it frees the id within about half a minute. `idle_session_timeout` (PostgreSQL
// 14+) is set where it exists.
const setup = `SELECT pg_backend_pid() AS pid, set_config('lock_timeout', $1, false),
    set_config('statement_timeout', '0', false), set_config('tcp_keepalives_idle', '10', false),
    set_config('tcp_keepalives_interval', '5', false), set_config('tcp_keepalives_count', '3', false),
    (SELECT count(set_config(name, '0', false)) FROM pg_settings WHERE name = 'idle_session_timeout') AS settings`;
// The two-key form, which pg_locks shows as classid, objid and objsubid 2.
const take = 'SELECT pg_advisory_lock($1::integer, $2::integer)';
const untake = 'SELECT pg_advisory_unlock($1::integer, $2::integer)';
const holderOf = `SELECT pid FROM pg_locks
  WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid::bigint = $1 AND objid::bigint = $2
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

/** What a try to take the lock found: it holds it now, another process holds it, or it may try again. */
type Taking = 'held' | 'taken' | 'again';

/** One writer's worker lock, between two calls. */
export type WorkerLockState = {
  readonly pool: Pool;
  /** The advisory lock's two keys (`workerLockKeys`). */
  readonly keys: readonly [number, number];
  /** The connection that holds the lock now. */
  held: Dedicated | undefined;
  /**
  The backends of this writer's connections since it last held the lock, and of the one that held it: a holder
  among them is this writer's own backend, not yet gone, never another process.
  */
  readonly own: Set<number>;
  /** The try to take the lock again that is under way: writes wait for it. */
  regaining: Promise<void> | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  failures: number;
  /**
  Another process took the lock while this writer did not hold it: every write and claim is refused from then
  on.
  */
  taken: boolean;
  closed: boolean;
};

/**
The advisory lock's keys for `worker` in `schema`: the first 64 bits of a SHA-256 of both, as two 32-bit
integers. Two names whose keys collide (about one chance in 2⁶⁴ for a pair) share one lock: the second to open
is refused as if it had the same worker id, never let in beside the first.
*/
export function workerLockKeys(schema: string, worker: string): readonly [number, number] {
  const digest = hash('sha256', `surecall worker lock\u0000${schema}\u0000${worker}`, 'hex');
  return [Number.parseInt(digest.slice(0, 8), 16) | 0, Number.parseInt(digest.slice(8, 16), 16) | 0];
}

function fenced(): LedgerError {
  return refusal('fenced', { rule: 'worker-live' });
}

function unheld(cause?: unknown): LedgerError {
  return new LedgerError('io', { rule: 'worker-lock', ...(cause === undefined ? {} : { cause }) });
}

/** The SQLSTATE of a database error, if it is one. */
function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** On one connection: waits up to `graceMs` for the lock, and when it stays held, asks who holds it. */
async function takeOn(
  state: WorkerLockState,
  connection: Dedicated,
): Promise<{ taking: Taking; pid: number }> {
  const { client } = connection;
  const [first, second] = state.keys;
  const session = await client.query<{ pid: number }>(setup, [String(graceMs)]);
  const pid = session.rows[0]?.pid ?? -1;
  // Bounded: a long outage may try many connections; the oldest are long gone.
  if (state.own.size >= 256) {
    state.own.delete(state.own.values().next().value as number);
  }
  state.own.add(pid);
  try {
    await client.query(take, [first, second]);
    return { taking: 'held', pid };
  } catch (error) {
    // 55P03: lock_not_available, the wait ran out.
    if (sqlState(error) !== '55P03') {
      throw error;
    }
  }
  const holder = await client.query<{ pid: number }>(holderOf, [first >>> 0, second >>> 0]);
  const by = holder.rows[0]?.pid;
  // Released since, or held by a backend of this writer's that has not ended yet: another try will tell.
  return { taking: by === undefined || state.own.has(by) ? 'again' : 'taken', pid };
}

/**
One try on a new connection: holding the lock, it keeps the connection and listens for its loss; else it ends
it.
*/
async function tryTaking(state: WorkerLockState): Promise<Taking> {
  let connection: Dedicated | undefined;
  try {
    connection = await dedicatedConnection(state.pool);
    const { taking, pid } = await takeOn(state, connection);
    if (taking === 'held' && !state.closed) {
      hold(state, connection, pid);
      return taking;
    }
    await connection.end();
    return taking === 'held' ? 'again' : taking;
  } catch (error) {
    await connection?.end();
    throw error instanceof LedgerError ? error : unheld(error);
  }
}

/** Keeps the connection that took the lock, whose backend is `pid`, until it is lost. */
function hold(state: WorkerLockState, connection: Dedicated, pid: number): void {
  state.held = connection;
  state.own.clear();
  state.own.add(pid);
  state.failures = 0;
  connection.onFailure(() => lose(state, connection));
}

/** The lock's connection dropped, so the database released the lock: end it, and take the lock again. */
function lose(state: WorkerLockState, connection: Dedicated): void {
  if (state.held !== connection) {
    return;
  }
  state.held = undefined;
  connection.end().catch(ignore);
  regain(state);
}

/**
Tries to take the lock again now, unless a try is under way or scheduled; a failed try schedules the next.
*/
function regain(state: WorkerLockState): void {
  if (state.closed || state.taken || state.regaining !== undefined || state.timer !== undefined) {
    return;
  }
  const trying = tryTaking(state).then((taking) => {
    if (taking === 'taken') {
      state.taken = true;
      throw fenced();
    }
    if (taking === 'again') {
      throw unheld();
    }
  });
  state.regaining = trying;
  trying.catch(ignore).then(() => {
    state.regaining = undefined;
    if (state.held === undefined) {
      retryLater(state);
    }
  });
}

function retryLater(state: WorkerLockState): void {
  if (state.closed || state.taken || state.timer !== undefined) {
    return;
  }
  // Jittered, so that a fleet which lost its database does not come back in step.
  const delay = Math.min(retryMaxMs, retryMs * 2 ** Math.min(state.failures, 16));
  state.failures++;
  state.timer = setTimeout(
    () => {
      state.timer = undefined;
      regain(state);
    },
    delay / 2 + (Math.random() * delay) / 2,
  );
  state.timer.unref?.();
}

/**
Takes the worker lock for `worker` in `schema` as a writer opens, on a connection of its own made with
`pool`'s configuration.

@throws {LedgerError} `locked` (rule `worker-live`) when another live process holds it; `io` (rule
  `worker-lock`) when
the connection could not be made or was dropped.
*/
export async function acquireWorkerLock(
  pool: Pool,
  schema: string,
  worker: string,
): Promise<WorkerLockState> {
  const state: WorkerLockState = {
    pool,
    keys: workerLockKeys(schema, worker),
    held: undefined,
    own: new Set(),
    regaining: undefined,
    timer: undefined,
    failures: 0,
    taken: false,
    closed: false,
  };
  // A holder that let go between the wait and the question of who holds it is tried once more.
  for (let tries = 0; tries < 3; tries++) {
    const taking = await tryTaking(state);
    if (taking === 'held') {
      return state;
    }
    if (taking === 'taken') {
      break;
    }
  }
  throw refusal('locked', { rule: 'worker-live' });
}

/**
Resolves when this writer holds its worker lock, waiting for a try to take it again: the one under way, or one
started now rather than at its scheduled time, since the write would reach the database anyway. Nothing to
hold for a `readOnly` follower (`undefined`). Checked before every write and claim: a write sent while the
lock was being lost still meets the lease check of its own statement
(docs/durable-send.md#one-live-process-per-worker-id).

@throws {LedgerError} `io` (rule `worker-lock`) when that try could not take the lock; `fenced` (rule
  `worker-live`)
once another process took it.
*/
export async function holdWorkerLock(state: WorkerLockState | undefined): Promise<void> {
  if (state === undefined || state.held !== undefined) {
    return;
  }
  if (state.taken) {
    throw fenced();
  }
  if (state.closed) {
    throw unheld();
  }
  if (state.regaining === undefined) {
    if (state.timer !== undefined) {
      clearTimeout(state.timer);
      state.timer = undefined;
    }
    regain(state);
  }
  await state.regaining;
}

/** Whether another process took this writer's worker lock: its leases are no longer renewed. */
export function workerLockTaken(state: WorkerLockState | undefined): boolean {
  return state?.taken === true;
}

/** Gives the lock up and ends its connection, after a try under way; never rejects. */
export async function releaseWorkerLock(state: WorkerLockState): Promise<void> {
  state.closed = true;
  if (state.timer !== undefined) {
    clearTimeout(state.timer);
    state.timer = undefined;
  }
  await state.regaining?.catch(ignore);
  const { held } = state;
  state.held = undefined;
  if (held !== undefined) {
    // Before the connection ends, so that a process opening with the id next finds it free at once.
    await held.client.query(untake, [...state.keys]).catch(ignore);
    await held.end();
  }
}
