/**
@module
The PostgreSQL ledger's connections (docs/durable-send.md#when-the-database-drops-a-connection), for `postgres.ts`, which alone loads `pg`: this module only names its types. A database drops connections (a failover, an operator's `pg_terminate_backend`, `idle_session_timeout`, a restart), and `pg` raises a dropped connection as an `'error'` event, which ends the process when nothing listens. So every connection of the ledger's pool has a listener from the moment the pool makes it, and a connection the ledger checks out gets one in the very step the pool hands it over.
*/
import type { Pool, PoolClient } from 'pg';
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
