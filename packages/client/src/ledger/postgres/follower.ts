/**
@module
The connection that hears other writers' changes (docs/durable-send.md#when-the-database-drops-a-connection):
it `LISTEN`s on the schema's channel, and when the database drops it, it is given back to the pool to be ended
and established again, after which the follower re-reads what it may have missed while it could not hear. Its
state is one {@link FollowerState}, which the functions of this module share.
*/
import { LedgerError } from '../../core/errors.js';
import { type Checkout, checkout, type Notification, type Pool, type PoolClient } from './connection.js';

const ignore = (): undefined => undefined;

// The follower's first reconnect waits about this long; each failure in a row doubles it, up to the bound.
const rejoinMs = 50;
const rejoinMaxMs = 5000;
// How far before the follower's last sign of life it re-reads after reconnecting: a writer announces a change
// up to 25 ms after its commit (`notifyDelayMs` in notify.ts), later when its pool is busy or its
// notification has to be sent again, so a notification lost with the connection may name a revision written
// that much earlier.
const rereadSlackMs = 10_000;
// Revisions one re-read query returns.
const rereadPage = 1000;
// Changes the follower remembers having heard, so that a re-read after a reconnect does not announce them
// twice.
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
  /**
  Starts following, once: resolves when the first `LISTEN` is in place; when it fails, the rejection is
  `LedgerError('io')` and the follower keeps trying.
  */
  start(): Promise<void>;
  /** Ends the following and every reconnect, and gives the connection back. */
  close(): Promise<void>;
};

/** What the follower knows between two calls: its connection, its reconnecting, and what it heard. */
type FollowerState = {
  readonly input: FollowerInput;
  /** The listener on the connection, kept so that it can be taken off again. */
  readonly onNotification: (message: Notification) => void;
  /** The connection that LISTENs now. */
  current: Checkout | undefined;
  started: Promise<void> | undefined;
  /** The attempt to connect under way, as a promise that never rejects: `close` waits for it. */
  joining: Promise<void> | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  failures: number;
  closed: boolean;
  /**
  This process's clock: when the follower last knew itself to hear every notification (its last one, or its
  LISTEN).
  */
  lastHeard: number;
  /** This process's clock: since when it may have missed some, until a re-read covered them. */
  deafSince: number | undefined;
  /** The database's clock minus this process's, measured on each connection. */
  offset: number;
  /** The changes heard lately (`<revision> <id>`), with when. */
  readonly heard: Map<string, number>;
};

/** One connection of the follower, and whether it was lost. */
type Link = { readonly held: Checkout; lost: boolean };

/**
Follows the changes of other writers on `input.channel`. When the connection is lost, it is given back to the
pool to be ended, and the follower reconnects after a delay that doubles with each failure in a row (50 ms to
5 s, with jitter), until `close`. Once it `LISTEN`s again, it re-reads the revisions other sessions wrote
since shortly before its last sign of life (on the database's clock, which it reads on every connection) and
announces those it had not heard, so a subscriber hears every change made while it was deaf as well as every
later one.
*/
export function createFollower(input: FollowerInput): Follower {
  const state: FollowerState = {
    input,
    onNotification: (message) => hear(state, message),
    current: undefined,
    started: undefined,
    joining: undefined,
    timer: undefined,
    failures: 0,
    closed: false,
    lastHeard: 0,
    deafSince: undefined,
    offset: 0,
    heard: new Map(),
  };
  return { start: () => start(state), close: () => close(state) };
}

/** Hands a change on unless it was heard already, and forgets what no re-read can bring again. */
function deliver(state: FollowerState, id: string, revision: number): void {
  const { heard } = state;
  const key = `${revision} ${id}`;
  if (heard.has(key)) {
    return;
  }
  heard.set(key, Date.now());
  // A change heard well before the point a re-read starts from is never read again; the bound keeps a busy
  // fleet's from growing without end (at worst, one is announced twice).
  const oldest = (state.deafSince ?? state.lastHeard) - 2 * rereadSlackMs;
  for (const [entry, at] of heard) {
    if (heard.size <= heardLimit && at >= oldest) {
      break;
    }
    heard.delete(entry);
  }
  state.input.onChange(id, revision);
}

/**
The changes a notification of another session names; none for this session's own or a payload of another
shape.
*/
function changesOf(payload: string | undefined, session: string): [string, number][] {
  if (payload === undefined) {
    return [];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return [];
  }
  const { s, c } = (parsed ?? {}) as { s?: unknown; c?: unknown };
  // This writer's own changes reach its subscribers directly, in commit order.
  if (s === session || !Array.isArray(c)) {
    return [];
  }
  return c.filter(
    (entry): entry is [string, number] =>
      Array.isArray(entry) && typeof entry[0] === 'string' && Number.isSafeInteger(entry[1]),
  );
}

function hear(state: FollowerState, message: Notification): void {
  // Notifications arrive in commit order, so one heard now means every earlier one was heard.
  state.lastHeard = Date.now();
  if (message.channel !== state.input.channel) {
    return;
  }
  for (const [id, revision] of changesOf(message.payload, state.input.session)) {
    deliver(state, id, revision);
  }
}

/**
Announces every revision another session wrote since `since` (this process's clock) less the slack, in pages,
unless heard already.
*/
async function reread(state: FollowerState, client: PoolClient, since: number): Promise<void> {
  const { revisions, session } = state.input;
  let at = new Date(since + state.offset - rereadSlackMs).toISOString();
  let id = '';
  let revision = -1;
  while (!state.closed) {
    const found = await client.query<{ at: string; id: string; revision: number }>(
      `SELECT written_at::text AS at, id, revision FROM ${revisions}
         WHERE written_at >= $1::timestamptz AND (written_at, id, revision) > ($1::timestamptz, $2, $3)
           AND session <> $4
         ORDER BY written_at, id, revision LIMIT ${rereadPage}`,
      [at, id, revision, session],
    );
    for (const row of found.rows) {
      deliver(state, row.id, row.revision);
    }
    const last = found.rows.at(-1);
    if (last === undefined || found.rows.length < rereadPage) {
      return;
    }
    ({ at, id, revision } = last);
  }
}

/** Gives a lost connection back to be ended and, when it was the one that listened, reconnects. */
function lose(state: FollowerState, link: Link): void {
  if (link.lost) {
    return;
  }
  link.lost = true;
  link.held.client.off('notification', state.onNotification);
  link.held.release(true);
  if (state.current === link.held) {
    state.current = undefined;
    state.deafSince ??= state.lastHeard;
    rejoin(state);
  }
}

/** Measures the database's clock against this process's, as the middle of the round trip that read it. */
async function readOffset(state: FollowerState, client: PoolClient): Promise<void> {
  const before = Date.now();
  const clock = await client.query<{ now: number }>(
    'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now',
  );
  state.offset = Number(clock.rows[0]?.now ?? 0) - (before + Date.now()) / 2;
}

/** One connection: the database's clock, LISTEN, then the re-read of what it may have missed. */
async function join(state: FollowerState): Promise<void> {
  const link: Link = { held: await checkout(state.input.pool), lost: false };
  const { held } = link;
  held.onFailure(() => lose(state, link));
  if (link.lost) {
    throw held.failure ?? new LedgerError('io', { rule: 'listen' });
  }
  held.client.on('notification', state.onNotification);
  try {
    await readOffset(state, held.client);
    // Last, so that `pg_stat_activity` shows a follower that hears as one whose query is its LISTEN.
    await held.client.query(`LISTEN "${state.input.channel}"`);
    if (link.lost) {
      throw held.failure ?? new LedgerError('io', { rule: 'listen' });
    }
    if (state.closed) {
      lose(state, link);
      return;
    }
    state.current = held;
    const missed = state.deafSince;
    state.lastHeard = Date.now();
    if (missed !== undefined) {
      await reread(state, held.client, missed);
      state.deafSince = undefined;
    }
    state.failures = 0;
  } catch (error) {
    lose(state, link);
    throw error;
  }
}

/** One try to join, which schedules the next when it fails; `joining` tracks it until it settles. */
function attempt(state: FollowerState): Promise<void> {
  const trying = join(state).catch((error: unknown) => {
    state.deafSince ??= state.lastHeard;
    rejoin(state);
    throw error instanceof LedgerError ? error : new LedgerError('io', { rule: 'listen', cause: error });
  });
  const settled = trying.then(ignore, ignore);
  state.joining = settled;
  settled.then(() => {
    if (state.joining === settled) {
      state.joining = undefined;
    }
  });
  return trying;
}

function rejoin(state: FollowerState): void {
  if (state.closed || state.timer !== undefined || state.current !== undefined) {
    return;
  }
  // Jittered, so that a fleet which lost its database does not come back in step.
  const delay = Math.min(rejoinMaxMs, rejoinMs * 2 ** Math.min(state.failures, 16));
  state.failures++;
  state.timer = setTimeout(
    () => {
      state.timer = undefined;
      attempt(state).catch(ignore);
    },
    delay / 2 + (Math.random() * delay) / 2,
  );
}

function start(state: FollowerState): Promise<void> {
  if (state.started === undefined) {
    state.lastHeard = Date.now();
    state.started = attempt(state);
  }
  return state.started;
}

async function close(state: FollowerState): Promise<void> {
  state.closed = true;
  if (state.timer !== undefined) {
    clearTimeout(state.timer);
    state.timer = undefined;
  }
  await state.joining;
  const held = state.current;
  state.current = undefined;
  state.heard.clear();
  if (held === undefined) {
    return;
  }
  held.client.off('notification', state.onNotification);
  try {
    await held.client.query(`UNLISTEN "${state.input.channel}"`);
    held.release(false);
  } catch {
    held.release(true);
  }
}
