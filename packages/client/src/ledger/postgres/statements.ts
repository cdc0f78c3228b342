/**
@module
Every statement the store runs on its tables, each with its parameters by name: a statement's `$NAME`
placeholders are numbered in the order of its `params` once, when the store opens, and `bind` orders a call's
values by the same list, so a value can never land in another's place. The schema's own statements are in
`schema.ts`, the follower's in `follower.ts`, the worker lock's in `worker-lock.ts`. Plain SQL only
(ARCHITECTURE.md#decisions, "PostgreSQL is a fleet's dispatch authority").
*/
import { hash } from 'node:crypto';
import type { Qualify } from './schema.js';

/**
One statement: its text with numbered placeholders, the names they stand for in order, and for the statements
every commit runs the name it is prepared under.
*/
export type Statement<TParam extends string> = {
  readonly text: string;
  readonly params: readonly TParam[];
  readonly name?: string;
};

/** What `pool.query` takes for one run of a statement. */
export type BoundStatement = { readonly name?: string; readonly text: string; readonly values?: unknown[] };

/** `text` with each `$NAME` replaced by `$n`, n being the name's place in `params` counted from 1. */
function statement<const TParam extends string>(text: string, params: readonly TParam[]): Statement<TParam> {
  const numbered = text.replace(/\$([A-Z]+)/g, (_, name: string) => {
    const index = params.indexOf(name as TParam);
    if (index < 0) {
      throw new TypeError(`surecall: no parameter named ${name}`);
    }
    return `$${index + 1}`;
  });
  return { text: numbered, params };
}

/**
A statement every commit runs, as a named prepared statement: the server parses and plans it once per
connection instead of on every commit, which was a large part of its work per commit. The name comes from the
text, which holds the schema, so ledgers of two schemas sharing one pool never take each other's, and it stays
within PostgreSQL's 63-byte names.
*/
function prepared<const TParam extends string>(text: string, params: readonly TParam[]): Statement<TParam> {
  const numbered = statement(text, params);
  return { ...numbered, name: `surecall_${hash('sha256', numbered.text, 'hex').slice(0, 32)}` };
}

/** One run of `statement` with `values`, in the order of its parameters. */
export function bind<TParam extends string>(
  statement: Statement<TParam>,
  values: Readonly<Record<TParam, unknown>>,
): BoundStatement {
  const { name, text, params } = statement;
  const ordered = params.length === 0 ? {} : { values: params.map((param) => values[param]) };
  return name === undefined ? { text, ...ordered } : { name, text, ...ordered };
}

// A lease's expiry on the database's clock (docs/durable-send.md#leases).
const leaseUntil = "clock_timestamp() + $LEASE::double precision * interval '1 millisecond'";
// The lease condition every write states: the record is free, or this session holds a live lease, or
// another's lease lapsed.
const mayWrite = `(lease_session IS NULL
      OR (lease_session = $S AND lease_expires > clock_timestamp())
      OR (lease_session <> $S AND lease_expires <= clock_timestamp()))`;
const claimSet = `lease_worker = $W, lease_session = $S, lease_expires = ${leaseUntil}`;
// The parameters of the lease every claim takes, after the statement's own.
const leaseParams = ['W', 'S', 'LEASE'] as const;

// The columns a record's row is read with (`RecordRow`, row.ts): each one the store derives from the record
// as text, so that its check against the body never depends on the pool's type parsers, then the body.
const recordColumns = [
  'status',
  'revision::text AS revision',
  'digest',
  'created_at::text AS created_at',
  'updated_at::text AS updated_at',
  'agent',
  'delivery',
  'contextual::text AS contextual',
  'due_at::text AS due_at',
  'body',
] as const;

/** The record columns, of the table `alias` names when one is given. */
function columns(alias?: string): string {
  return recordColumns.map((column) => (alias === undefined ? column : `${alias}.${column}`)).join(', ');
}

// The status a record's body names: the inbox, the orphans and the release select by it, not by the status
// column an edit could change (docs/durable-send.md#what-the-store-checks), through the index
// `records_body_status` (schema version 4), whose expression this is to the letter.
const bodyStatus = "((body::jsonb) -> 'state' ->> 'status')";

/**
The statement that writes a batch of records' revisions (docs/durable-send.md#group-commit): one row of each
array per record, at most one per record, zipped by `ROWS FROM` with the bodies, which come as one text of the
bodies joined by U+0001 (`joinBodies` in writes.ts), split with `string_to_array`. Records at revision 0 are
inserted (`ON CONFLICT DO NOTHING`: a taken id writes nothing); every other one is moved only where its
expected revision, that revision's digest and the writer's lease all hold, each row checked on its own. Each
revision row follows only a record row the statement wrote, and the statement returns the ids it wrote: a
record missing from them was refused, and the others are durable together, in one transaction and one commit.
Its text names the preparation it is (`batchPreparations`), so each is a prepared statement of its own.
*/
function batchStatement(records: string, revisions: string, after: number) {
  return prepared(
    `/* prepared for appends from ${after} on */
     WITH inserted AS (
       INSERT INTO ${records} (id, status, revision, digest, created_at, updated_at, agent, delivery, contextual, due_at, lease_worker, lease_session, lease_expires, body)
       SELECT n.id, n.status, n.revision, n.digest, n.created, n.updated, n.agent, n.delivery, n.contextual, n.due,
              CASE WHEN n.keep THEN $W END, CASE WHEN n.keep THEN $S END, CASE WHEN n.keep THEN ${leaseUntil} END, n.body
       FROM ROWS FROM (unnest($NEWIDS::text[]), unnest($NEWSTATUSES::text[]), unnest($NEWREVISIONS::integer[]),
                       unnest($NEWDIGESTS::text[]), unnest($NEWCREATED::bigint[]), unnest($NEWUPDATED::bigint[]),
                       unnest($NEWAGENTS::text[]), unnest($NEWDELIVERIES::text[]), unnest($NEWCONTEXTUAL::boolean[]),
                       unnest($NEWDUE::bigint[]), unnest($NEWKEEP::boolean[]), unnest(string_to_array($NEWBODIES::text, chr(1))))
         AS n (id, status, revision, digest, created, updated, agent, delivery, contextual, due, keep, body)
       ON CONFLICT (id) DO NOTHING
       RETURNING id
     ),
     moved AS (
       UPDATE ${records} r SET status = m.status, revision = m.revision, digest = m.digest, due_at = m.due, body = m.body,
         contextual = m.contextual, updated_at = m.updated,
         lease_worker = CASE WHEN m.keep THEN $W END,
         lease_session = CASE WHEN m.keep THEN $S END,
         lease_expires = CASE WHEN m.keep THEN ${leaseUntil} END
       FROM ROWS FROM (unnest($IDS::text[]), unnest($STATUSES::text[]), unnest($REVISIONS::integer[]),
                       unnest($DIGESTS::text[]), unnest($UPDATED::bigint[]), unnest($CONTEXTUAL::boolean[]),
                       unnest($DUE::bigint[]), unnest($KEEP::boolean[]), unnest(string_to_array($BODIES::text, chr(1))),
                       unnest($EXPECTED::integer[]), unnest($PREVIOUS::text[]))
         AS m (id, status, revision, digest, updated, contextual, due, keep, body, expected, previous)
       WHERE r.id = ANY($IDS::text[]) AND r.id = m.id AND r.revision = m.expected AND r.digest = m.previous
         AND ${mayWrite}
       RETURNING r.id
     ),
     head AS (SELECT id FROM inserted UNION ALL SELECT id FROM moved),
     written AS (
       INSERT INTO ${revisions} (id, revision, body, worker, session)
       SELECT w.id, w.revision, w.body, $W, $S
       FROM ROWS FROM (unnest($REVISIONIDS::text[]), unnest($NUMBERS::integer[]),
                       unnest(string_to_array($REVISIONBODIES::text, chr(1)))) AS w (id, revision, body)
       WHERE w.id IN (SELECT id FROM head)
     )
     SELECT id FROM head`,
    [
      'NEWIDS',
      'NEWSTATUSES',
      'NEWREVISIONS',
      'NEWDIGESTS',
      'NEWCREATED',
      'NEWUPDATED',
      'NEWAGENTS',
      'NEWDELIVERIES',
      'NEWCONTEXTUAL',
      'NEWDUE',
      'NEWKEEP',
      'NEWBODIES',
      'IDS',
      'STATUSES',
      'REVISIONS',
      'DIGESTS',
      'UPDATED',
      'CONTEXTUAL',
      'DUE',
      'KEEP',
      'BODIES',
      'EXPECTED',
      'PREVIOUS',
      'REVISIONIDS',
      'NUMBERS',
      'REVISIONBODIES',
      ...leaseParams,
    ],
  );
}

/**
After how many appends of one writer its batch statement is prepared anew, under a name of its own: a
connection plans a prepared statement for its parameters on its first five runs, then keeps one generic plan
until the table's statistics change, which for a new table is autovacuum's first `ANALYZE`, a minute or more
after it fills. A generic plan made while `records` held a few pages reads them whole (a sequential scan is
cheaper there than the primary key's index), and went on reading the whole growing table for every batch:
its `UPDATE` was a hash join over a sequential scan of `records` in 996 of the first 1,001 batches on a new
table (auto_explain, 4,000 sends of 16 writers), where a plan made on the grown table reads the primary key.
Each new preparation is planned on the table as it has grown; once it is past a few hundred pages its plan
reads the index, and a writer that opens on a grown table has that plan from its first.
*/
export const batchPreparations = [0, 256, 1024, 4096, 16_384] as const;

/** The statements that write records: the batch, the reason of a refusal, and the pruning. */
function writeStatements(records: string, revisions: string) {
  return {
    writeBatches: batchPreparations.map((after) => batchStatement(records, revisions, after)),
    // Why a move found no row: the record's revision, and whether a live lease of another session holds it.
    refusal: statement(`SELECT revision, NOT ${mayWrite} AS held FROM ${records} WHERE id = $ID`, [
      'ID',
      'S',
    ]),
    // docs/durable-send.md#retention: a settled record past the window goes with its revisions, in one
    // statement; open records never do, whatever their columns say: the body decides
    // (docs/durable-send.md#what-the-store-checks).
    prune: statement(
      `WITH gone AS (
         DELETE FROM ${records}
         WHERE status NOT IN ('prepared', 'executing', 'unknown') AND updated_at < $CUTOFF
           AND ${bodyStatus} NOT IN ('prepared', 'executing', 'unknown')
           AND ((body::jsonb) -> 'updatedAt') < to_jsonb($CUTOFF::bigint)
         RETURNING id
       )
       DELETE FROM ${revisions} WHERE id IN (SELECT id FROM gone)`,
      ['CUTOFF'],
    ),
  };
}

/** Leases the rows `where` picks, in `order`, at most `$LIMIT`, skipping rows another transaction holds. */
function pickLeased(records: string, where: string, order: string): string {
  return `WITH picked AS (
           SELECT id FROM ${records} WHERE ${where} ORDER BY ${order} LIMIT $LIMIT FOR UPDATE SKIP LOCKED
         )
         UPDATE ${records} r SET ${claimSet} FROM picked WHERE r.id = picked.id
         RETURNING ${columns('r')}`;
}

/**
The statements of the leases: claims, orphans, the heartbeat, and the ends of a session's or a worker's
leases.
*/
function leaseStatements(records: string) {
  return {
    orphans: statement(
      pickLeased(
        records,
        `${bodyStatus} = 'executing' AND lease_expires <= clock_timestamp()`,
        'lease_expires',
      ),
      ['LIMIT', ...leaseParams],
    ),
    claimDue: statement(
      pickLeased(
        records,
        `due_at <= $NOW AND ($AGENT::text IS NULL OR agent = $AGENT) AND NOT (id = ANY($EXCLUDE::text[]))
           AND ($DELIVERY::text[] IS NULL OR delivery = ANY($DELIVERY::text[])) AND (NOT $CONTEXTUAL OR contextual)
           AND (lease_session IS NULL OR lease_expires <= clock_timestamp())`,
        'due_at, id',
      ),
      ['NOW', 'AGENT', 'EXCLUDE', 'DELIVERY', 'CONTEXTUAL', 'LIMIT', ...leaseParams],
    ),
    claim: statement(
      `UPDATE ${records} SET ${claimSet}
             WHERE id = $ID AND due_at <= $NOW AND (lease_session IS NULL OR lease_expires <= clock_timestamp())
             RETURNING ${columns()}`,
      ['ID', 'NOW', ...leaseParams],
    ),
    release: statement(
      `UPDATE ${records} SET lease_worker = NULL, lease_session = NULL, lease_expires = NULL
           WHERE id = $ID AND lease_session = $S AND ${bodyStatus} = 'unknown'`,
      ['ID', 'S'],
    ),
    // The heartbeat and the end of a session name its worker too, whose leases a session's always are: so
    // they read the one lease index, `records_leases` (worker, session; schema version 5), as `endWorker`
    // does.
    renew: statement(
      `UPDATE ${records} SET lease_expires = ${leaseUntil}
             WHERE lease_worker = $W AND lease_session = $S AND lease_expires > clock_timestamp()`,
      ['W', 'S', 'LEASE'],
    ),
    endSession: statement(
      `UPDATE ${records} SET lease_expires = clock_timestamp() WHERE lease_worker = $W AND lease_session = $S`,
      ['W', 'S'],
    ),
    endWorker: statement(
      `UPDATE ${records} SET lease_expires = clock_timestamp()
           WHERE lease_worker = $W AND lease_session <> $S AND lease_expires > clock_timestamp()`,
      ['W', 'S'],
    ),
  };
}

/**
The reads of records and histories, and the announcement of changes. Each read is one statement, so it sees
one snapshot: a record's row and its revisions as one commit left them
(docs/durable-send.md#what-the-store-checks).
*/
function readStatements(records: string, revisions: string) {
  // Where the record's row is missing: whether revisions of it remain, asked only then.
  const orphaned = `CASE WHEN r.id IS NULL THEN EXISTS (SELECT 1 FROM ${revisions} WHERE id = $ID) END AS orphaned`;
  const noColumns = recordColumns.slice(0, -1).map(() => 'NULL');
  return {
    get: statement(
      `SELECT ${columns('r')}, ${orphaned}
       FROM (SELECT $ID::text AS id) AS wanted LEFT JOIN ${records} r ON r.id = wanted.id`,
      ['ID'],
    ),
    list: statement(`SELECT ${columns()} FROM ${records} ORDER BY seq`, []),
    // The inbox: by the status the body names.
    listIn: statement(
      `SELECT ${columns()} FROM ${records} WHERE ${bodyStatus} = ANY($STATES::text[]) ORDER BY seq`,
      ['STATES'],
    ),
    // The record's row first (part 0), then its revisions in order (part 1), read together.
    history: statement(
      `SELECT 0 AS part, revision AS n, ${columns()} FROM ${records} WHERE id = $ID
       UNION ALL
       SELECT 1, revision, ${noColumns.join(', ')}, body FROM ${revisions} WHERE id = $ID
       ORDER BY part, n`,
      ['ID'],
    ),
    // One statement: `set_config(…, true)` holds for its own transaction, up to the commit, which so need not
    // wait for a disk flush. Prepared, as the batch is: a writer sends one every `notifyDelayMs` while it
    // commits.
    notify: prepared("SELECT set_config('synchronous_commit', 'off', true), pg_notify($CHANNEL, $PAYLOAD)", [
      'CHANNEL',
      'PAYLOAD',
    ]),
  };
}

/** Every statement of the store over the tables `q` names, numbered once. */
export function storeStatements(q: Qualify) {
  const records = q('records');
  const revisions = q('revisions');
  return Object.freeze({
    ...writeStatements(records, revisions),
    ...leaseStatements(records),
    ...readStatements(records, revisions),
  });
}

/** The statements of one store. */
export type Statements = ReturnType<typeof storeStatements>;
