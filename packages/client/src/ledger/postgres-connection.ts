/**
@module
The PostgreSQL ledger's connections (docs/durable-send.md#when-the-database-drops-a-connection), for `postgres.ts`, which alone loads `pg`: this module only names its types. A database drops connections (a failover, an operator's `pg_terminate_backend`, `idle_session_timeout`, a restart), and `pg` raises a dropped connection as an `'error'` event, which ends the process when nothing listens. So every connection of the ledger's pool has a listener from the moment the pool makes it, a connection the ledger checks out gets one in the very step the pool hands it over, and the one connection that `LISTEN`s for other writers' changes is re-established after it is lost, then re-reads what it may have missed while it could not hear.
*/
import type { Notification, Pool, PoolClient } from 'pg';
import { LedgerError } from '../core/errors.js';

const ignore = (): undefined => undefined;

/**
Gives every connection `pool` makes from now on an `'error'` listener, and the pool one: pg-pool raises the failure of a connection nobody holds on the pool, and a connection's failure between two users on the connection itself. Returns what takes the listeners off again, so a pool the caller owns is left as the ledger found it.
*/
export function guardPool(pool: Pool): () => void {
  const guarded = new Set<PoolClient>();
  const connected = (client: PoolClient) => {
    client.on('error', ignore);
    guarded.add(client);
  };
  const removed = (client: PoolClient) => {
    guarded.delete(client);
  };
  // pg-pool emits `connect` for each connection it makes, before anyone can use it.
  pool.on('connect', connected);
  pool.on('remove', removed);
  pool.on('error', ignore);
  return () => {
    pool.off('connect', connected);
    pool.off('remove', removed);
    pool.off('error', ignore);
    for (const client of guarded) {
      client.off('error', ignore);
    }
    guarded.clear();
  };
}

/** A connection checked out of the pool, listened to from the step the pool handed it over. */
export type Checkout = {
  readonly client: PoolClient;
  /** The first error the connection raised while checked out, if any. */
  readonly failure: Error | undefined;
  /** Calls `listener` on the first error the connection raises (at once when it already did). */
  onFailure(listener: (error: Error) => void): void;
  /** Gives the connection back, once; with `destroy`, or after it failed, the pool ends it instead of handing it on. */
  release(destroy: boolean): void;
};

/**
Checks a connection out of `pool`. pg-pool takes its own listener off a connection in the same step as it hands the connection to the next waiter, so a connection whose backend was just terminated raises its error in the gap before a promise's continuation could listen (the FATAL message is often read in the same chunk as the answer that freed the connection). The callback form runs in that very step, so the listener goes on with no gap, whichever pool made the connection.
*/
export function checkout(pool: Pool): Promise<Checkout> {
  return new Promise((resolve, reject) => {
    pool.connect((error, client, done) => {
      if (error !== undefined || client === undefined) {
        reject(error ?? new LedgerError('io', { rule: 'connect' }));
        return;
      }
      let failure: Error | undefined;
      let heard: ((error: Error) => void) | undefined;
      let released = false;
      const listener = (raised: Error) => {
        if (failure === undefined) {
          failure = raised;
          heard?.(raised);
        }
      };
      client.on('error', listener);
      resolve({
        client,
        get failure() {
          return failure;
        },
        onFailure(next) {
          heard = next;
          if (failure !== undefined) {
            next(failure);
          }
        },
        release(destroy) {
          if (released) {
            return;
          }
          released = true;
          // The pool puts its own listener back on in the same step (or, for a connection it made while a ledger was open, the guard's is still there).
          client.off('error', listener);
          done(destroy || failure !== undefined);
        },
      });
    });
  });
}

// The follower's first reconnect waits about this long; each failure in a row doubles it, up to the bound.
const rejoinMs = 50;
const rejoinMaxMs = 5000;
// How far before the follower's last sign of life it re-reads after reconnecting: a writer announces a change a few milliseconds after its commit (`notifyDelayMs` in postgres.ts), later when its pool is busy or its notification has to be sent again, so a notification lost with the connection may name a revision written that much earlier.
const rereadSlackMs = 10_000;
// Revisions one re-read query returns.
const rereadPage = 1000;
// Changes the follower remembers having heard, so that a re-read after a reconnect does not announce them twice.
const heardLimit = 65_536;

/** What the follower needs of its store. */
export type FollowerInput = {
  readonly pool: Pool;
  /** The channel writers announce their changes on, `<schema>.changes`. */
  readonly channel: string;
  /** This writer's session: its own changes reach its subscribers directly, never through the channel. */
  readonly session: string;
  /** The quoted name of the `revisions` table. */
  readonly revisions: string;
  /** Hears another writer's change, once per id and revision. */
  readonly onChange: (id: string, revision: number) => void;
};

/** The connection that hears other writers' changes. */
export type Follower = {
  /** Starts following, once: resolves when the first `LISTEN` is in place; when it fails, the rejection is `LedgerError('io')` and the follower keeps trying. */
  start(): Promise<void>;
  /** Ends the following and every reconnect, and gives the connection back. */
  close(): Promise<void>;
};

/**
Follows the changes of other writers on `input.channel` (docs/durable-send.md#when-the-database-drops-a-connection). When the connection is lost, it is given back to the pool to be ended, and the follower reconnects after a delay that doubles with each failure in a row (50 ms to 5 s, with jitter), until `close`. Once it `LISTEN`s again, it re-reads the revisions other sessions wrote since shortly before its last sign of life (on the database's clock, which it reads on every connection) and announces those it had not heard, so a subscriber hears every change made while it was deaf as well as every later one.
*/
export function createFollower(input: FollowerInput): Follower {
  const { pool, channel, session, revisions, onChange } = input;
  // The connection that LISTENs now.
  let current: Checkout | undefined;
  let started: Promise<void> | undefined;
  // The attempt to connect under way, as a promise that never rejects: `close` waits for it.
  let joining: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let closed = false;
  // This process's clock: when the follower last knew itself to hear every notification (its last one, or its LISTEN), and since when it may have missed some (until a re-read covered them).
  let lastHeard = 0;
  let deafSince: number | undefined;
  // The database's clock minus this process's, measured on each connection.
  let offset = 0;
  const heard = new Map<string, number>();

  function deliver(id: string, revision: number): void {
    const key = `${revision} ${id}`;
    if (heard.has(key)) {
      return;
    }
    heard.set(key, Date.now());
    // A change heard well before the point a re-read starts from is never read again; the bound keeps a busy fleet's from growing without end (at worst, one is announced twice).
    const oldest = (deafSince ?? lastHeard) - 2 * rereadSlackMs;
    for (const [entry, at] of heard) {
      if (heard.size <= heardLimit && at >= oldest) {
        break;
      }
      heard.delete(entry);
    }
    onChange(id, revision);
  }

  function onNotification(message: Notification): void {
    // Notifications arrive in commit order, so one heard now means every earlier one was heard.
    lastHeard = Date.now();
    if (message.channel !== channel || message.payload === undefined) {
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(message.payload);
    } catch {
      return;
    }
    const { s, c } = (parsed ?? {}) as { s?: unknown; c?: unknown };
    // This writer's own changes reach its subscribers directly, in commit order.
    if (s === session || !Array.isArray(c)) {
      return;
    }
    for (const entry of c) {
      if (Array.isArray(entry) && typeof entry[0] === 'string' && Number.isSafeInteger(entry[1])) {
        deliver(entry[0], entry[1] as number);
      }
    }
  }

  /** Announces every revision another session wrote since `since` (this process's clock) less the slack, in pages, unless heard already. */
  async function reread(client: PoolClient, since: number): Promise<void> {
    let at = new Date(since + offset - rereadSlackMs).toISOString();
    let id = '';
    let revision = -1;
    while (!closed) {
      const found = await client.query<{ at: string; id: string; revision: number }>(
        `SELECT written_at::text AS at, id, revision FROM ${revisions}
         WHERE written_at >= $1::timestamptz AND (written_at, id, revision) > ($1::timestamptz, $2, $3)
           AND session <> $4
         ORDER BY written_at, id, revision LIMIT ${rereadPage}`,
        [at, id, revision, session],
      );
      for (const row of found.rows) {
        deliver(row.id, row.revision);
      }
      const last = found.rows.at(-1);
      if (last === undefined || found.rows.length < rereadPage) {
        return;
      }
      ({ at, id, revision } = last);
    }
  }

  /** One connection: the database's clock, LISTEN, then the re-read of what it may have missed. */
  async function join(): Promise<void> {
    const held = await checkout(pool);
    let lost = false;
    const lose = () => {
      if (lost) {
        return;
      }
      lost = true;
      held.client.off('notification', onNotification);
      held.release(true);
      if (current === held) {
        current = undefined;
        deafSince ??= lastHeard;
        rejoin();
      }
    };
    held.onFailure(lose);
    if (lost) {
      throw held.failure ?? new LedgerError('io', { rule: 'listen' });
    }
    held.client.on('notification', onNotification);
    try {
      const before = Date.now();
      const clock = await held.client.query<{ now: number }>(
        'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now',
      );
      offset = Number(clock.rows[0]?.now ?? 0) - (before + Date.now()) / 2;
      // Last, so that `pg_stat_activity` shows a follower that hears as one whose query is its LISTEN.
      await held.client.query(`LISTEN "${channel}"`);
      if (lost) {
        throw held.failure ?? new LedgerError('io', { rule: 'listen' });
      }
      if (closed) {
        lose();
        return;
      }
      current = held;
      const missed = deafSince;
      lastHeard = Date.now();
      if (missed !== undefined) {
        await reread(held.client, missed);
        deafSince = undefined;
      }
      failures = 0;
    } catch (error) {
      lose();
      throw error;
    }
  }

  function attempt(): Promise<void> {
    const trying = join().catch((error: unknown) => {
      deafSince ??= lastHeard;
      rejoin();
      throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'listen', cause: error });
    });
    const settled = trying.then(ignore, ignore);
    joining = settled;
    settled.then(() => {
      if (joining === settled) {
        joining = undefined;
      }
    });
    return trying;
  }

  function rejoin(): void {
    if (closed || timer !== undefined || current !== undefined) {
      return;
    }
    // Jittered, so that a fleet which lost its database does not come back in step.
    const delay = Math.min(rejoinMaxMs, rejoinMs * 2 ** Math.min(failures, 16));
    failures++;
    timer = setTimeout(
      () => {
        timer = undefined;
        attempt().catch(ignore);
      },
      delay / 2 + (Math.random() * delay) / 2,
    );
  }

  return {
    start() {
      if (started === undefined) {
        lastHeard = Date.now();
        started = attempt();
      }
      return started;
    },
    async close() {
      closed = true;
      if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
      await joining;
      const held = current;
      current = undefined;
      heard.clear();
      if (held === undefined) {
        return;
      }
      held.client.off('notification', onNotification);
      try {
        await held.client.query(`UNLISTEN "${channel}"`);
        held.release(false);
      } catch {
        held.release(true);
      }
    },
  };
}
