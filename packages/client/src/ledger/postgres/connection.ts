/**
@module
The PostgreSQL ledger's pool and its connections (docs/durable-send.md#when-the-database-drops-a-connection),
and the one module of the store that imports `pg` (an optional peer dependency): it loads the driver only when
a connection string is opened, and names its types for the other modules of the folder. A database drops
connections (a failover, an operator's `pg_terminate_backend`, `idle_session_timeout`, a restart), and `pg`
raises a dropped connection as an `'error'` event, which ends the process when nothing listens. So every
connection of the ledger's pool has a listener from the moment the pool makes it, and a connection the ledger
checks out gets one in the very step the pool hands it over; the one connection the ledger makes outside its
pool, the worker lock's (`worker-lock.ts`), gets one before it connects. `pg`'s own errors never reach a
caller (CONTRIBUTING.md#library-boundaries): they travel on a `LedgerError`'s `cause`.
*/
import type { Client, Pool, PoolClient, PoolOptions } from 'pg';
import { LedgerError } from '../../core/errors.js';
import { invalid } from './options.js';

export type { Notification, Pool, PoolClient } from 'pg';

/**
Where the ledger's database is: a connection string (the ledger makes and ends its own pool, whose connections
`pg_stat_activity` names `surecall-ledger` unless the string or `PGAPPNAME` names them), or a `pg` pool the
caller owns, which has the ledger's `'error'` listeners, on the pool and on every connection it makes, from
the open to `close` (docs/durable-send.md#when-the-database-drops-a-connection).
*/
export type PostgresConnection =
  | { readonly connectionString: string; readonly pool?: never }
  | { readonly pool: Pool; readonly connectionString?: never };

// What `pg_stat_activity` calls the connections of a pool the ledger makes, unless the connection string or
// PGAPPNAME names them.
const applicationName = 'surecall-ledger';

const ignore = (): undefined => undefined;

/** Runs `work`, turning whatever `pg` throws into `LedgerError('io')` with the error on `cause`. */
export async function io<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof LedgerError ? error : new LedgerError('io', { cause: error });
  }
}

/**
The pool of the options object's connection, checked: the caller's, or one made (and so owned) by the ledger.
*/
export async function openPool(
  connection: PostgresConnection,
  poolSize: number,
): Promise<{ pool: Pool; owns: boolean }> {
  if (typeof connection !== 'object' || connection === null) {
    invalid('connection');
  }
  if (connection.pool !== undefined) {
    if (
      typeof connection.pool !== 'object' ||
      connection.pool === null ||
      typeof connection.pool.query !== 'function'
    ) {
      invalid('pool');
    }
    return { pool: connection.pool, owns: false };
  }
  if (typeof connection.connectionString !== 'string' || connection.connectionString.length === 0) {
    invalid('connectionString');
  }
  // Loaded only here: a bundle or a process that never opens a PostgreSQL ledger never loads pg.
  let pg: { readonly Pool?: unknown } | undefined;
  try {
    pg = (await import('pg')).default;
  } catch (error) {
    throw new LedgerError('unsupported', { rule: 'pg', cause: error });
  }
  // A bundler that cannot find the optional peer may hand back an empty module instead of failing the import
  // (Next's webpack build does): what came back must be the driver.
  if (typeof pg?.Pool !== 'function') {
    throw new LedgerError('unsupported', { rule: 'pg' });
  }
  const pool = new (pg.Pool as typeof import('pg')['Pool'])({
    connectionString: connection.connectionString,
    max: poolSize,
    fallback_application_name: applicationName,
  });
  return { pool, owns: true };
}

/**
Gives every connection `pool` makes from now on an `'error'` listener, and the pool one: pg-pool raises the
failure of a connection nobody holds on the pool, and a connection's failure between two users on the
connection itself. Returns what takes the listeners off again, so a pool the caller owns is left as the ledger
found it.
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
  /**
  Gives the connection back, once; with `destroy`, or after it failed, the pool ends it instead of handing it
  on.
  */
  release(destroy: boolean): void;
};

/**
Checks a connection out of `pool`. pg-pool takes its own listener off a connection in the same step as it
hands the connection to the next waiter, so a connection whose backend was just terminated raises its error in
the gap before a promise's continuation could listen (the FATAL message is often read in the same chunk as the
answer that freed the connection). The callback form runs in that very step, so the listener goes on with no
gap, whichever pool made the connection.
*/
export function checkout(pool: Pool): Promise<Checkout> {
  return new Promise((resolve, reject) => {
    pool.connect((error, client, done) => {
      if (error !== undefined || client === undefined) {
        reject(error ?? new LedgerError('io', { rule: 'connect' }));
        return;
      }
      resolve(heldConnection(client, done));
    });
  });
}

/** The checkout of `client`, whose `done` gives it back to its pool. */
function heldConnection(client: PoolClient, done: (destroy?: boolean) => void): Checkout {
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
  return {
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
      // The pool puts its own listener back on in the same step (or, for a connection it made while a ledger
      // was open, the guard's is still there).
      client.off('error', listener);
      done(destroy || failure !== undefined);
    },
  };
}

/**
A connection of its own, made with a pool's configuration but outside the pool, listened to from before it
connects.
*/
export type Dedicated = {
  readonly client: Client;
  /** The first error the connection raised, or its end, if any. */
  readonly failure: Error | undefined;
  /** Calls `listener` on the first error or the end of the connection (at once when it came already). */
  onFailure(listener: (error: Error) => void): void;
  /** Ends the connection; never rejects. Its listener stays, for an error the ending raises late. */
  end(): Promise<void>;
};

/** What a `pg` pool makes its connections with: its client class (pg-pool's `Client`) and its options. */
type PoolMaker = { readonly Client?: unknown; readonly options?: PoolOptions };

/**
Makes one connection with `pool`'s own client class and options, outside the pool: a session that must live as
long as the ledger (the worker lock, `worker-lock.ts`) never takes one of the pool's connections, which a pool
of one would then not have for the statements. TCP keepalive is on, so this end notices a database host that
vanished.

@throws {LedgerError} `invalid-input` (rule `pool`) for a pool that has no client class or options to make it
  with.
*/
export async function dedicatedConnection(pool: Pool): Promise<Dedicated> {
  const { Client: Made, options } = pool as unknown as PoolMaker;
  if (typeof Made !== 'function' || typeof options !== 'object' || options === null) {
    invalid('pool');
  }
  const client = new (Made as new (config: PoolOptions) => Client)({ ...options, keepAlive: true });
  let failure: Error | undefined;
  let heard: ((error: Error) => void) | undefined;
  const failed = (error: Error) => {
    if (failure === undefined) {
      failure = error;
      heard?.(error);
    }
  };
  client.on('error', failed);
  client.on('end', () => failed(new LedgerError('io', { rule: 'worker-lock' })));
  await client.connect();
  return {
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
    end: () => client.end().catch(ignore),
  };
}
