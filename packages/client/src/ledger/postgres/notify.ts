/**
@module
The writer's side of `LISTEN`/`NOTIFY` (docs/durable-send.md#postgresql): after a write commits, the writer
announces `(id, revision)` on its schema's channel, gathered for 25 ms into one notification. The
changes it names are durable already, so an announcement lost to a crash or to a dropped connection loses no
change, only its early news (a follower re-reads what it missed when it reconnects, `follower.ts`). Its state
is one {@link Announcer}, which these functions share.
*/
import type { Pool } from './connection.js';
import { bind, type Statements } from './statements.js';

// A PostgreSQL NOTIFY payload holds less than 8000 bytes; a batch of announcements stays under this.
const notifyBytes = 7000;
/**
Announcements of one writer are gathered this long, then sent in one notification. Each notification is a
round trip and a transaction of its own: gathered for 5 ms they were 1.2 to 1.5 statements per durable send
of a lone sender (beside its two writes) and 0.26 of 16 concurrent senders (beside 0.32 batches), 0.53 and
0.15 at 25 ms (`log_statement = 'all'` on a server of its own), while a follower still hears a change well
within what a person watching a panel can tell.
*/
export const notifyDelayMs = 25;
// Tries of one notification: one whose connection was dropped goes again on another, then its news is given
// up (the changes it names are durable already).
const notifyTries = 3;

/** One writer's announcements: those gathered for the next notification, and the sending under way. */
export type Announcer = {
  readonly pool: Pool;
  readonly notify: Statements['notify'];
  /** The channel, `<schema>.changes`. */
  readonly channel: string;
  /** This writer's session, which a follower of the same writer skips. */
  readonly session: string;
  /** Announcements gathered for the next notification: [id, revision] pairs. */
  readonly queued: [string, number][];
  flushing: Promise<void> | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  closed: boolean;
};

/** The announcements of the writer `session`, sent with `notify` on `channel`. */
export function createAnnouncer(
  input: Pick<Announcer, 'pool' | 'notify' | 'channel' | 'session'>,
): Announcer {
  return { ...input, queued: [], flushing: undefined, timer: undefined, closed: false };
}

/** Queues the announcement of a committed revision; the next notification leaves `notifyDelayMs` later. */
export function announce(announcer: Announcer, id: string, revision: number): void {
  announcer.queued.push([id, revision]);
  if (announcer.timer === undefined && announcer.flushing === undefined) {
    announcer.timer = setTimeout(() => {
      announcer.flushing = flush(announcer).finally(() => {
        announcer.flushing = undefined;
        if (announcer.queued.length > 0 && !announcer.closed) {
          announce(announcer, ...(announcer.queued.shift() as [string, number]));
        }
      });
    }, notifyDelayMs);
  }
}

/**
Takes from the queue the announcements of the next notification: as many as fit its payload, at least one.
*/
function nextBatch(queued: [string, number][]): [string, number][] {
  const batch: [string, number][] = [];
  let bytes = 64;
  while (queued.length > 0) {
    const next = queued[0] as [string, number];
    const size = JSON.stringify(next).length + 1;
    if (batch.length > 0 && bytes + size > notifyBytes) {
      break;
    }
    batch.push(next);
    bytes += size;
    queued.shift();
  }
  return batch;
}

/**
Sends the gathered announcements, one notification per batch, each in a transaction of its own that need not
wait for a disk flush. Through `pool.query`, which holds the connection only for the statement and ends one
that failed. Never rejects: `announce` starts it in the background, and the store's `close` waits for it.
*/
async function flush(announcer: Announcer): Promise<void> {
  announcer.timer = undefined;
  while (announcer.queued.length > 0) {
    const payload = JSON.stringify({ s: announcer.session, c: nextBatch(announcer.queued) });
    for (let tries = 1; tries <= notifyTries; tries++) {
      try {
        await announcer.pool.query(bind(announcer.notify, { CHANNEL: announcer.channel, PAYLOAD: payload }));
        break;
      } catch {
        // The pool ended that connection; the next try takes another, and a follower hears a repeated batch
        // once.
      }
    }
  }
}

/**
Stops gathering and sends what is gathered. Never rejects: a notification that could not be sent is only lost
news.
*/
export async function endAnnouncements(announcer: Announcer): Promise<void> {
  announcer.closed = true;
  if (announcer.timer !== undefined) {
    clearTimeout(announcer.timer);
    announcer.timer = undefined;
  }
  await announcer.flushing;
  await flush(announcer);
}
