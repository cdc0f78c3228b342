/**
The PostgreSQL store checks what it reads against itself (docs/durable-send.md#what-the-store-checks): a
column that disagrees with the record's body, a history with a gap, a head revision that is gone or not the
record's, a record whose row is gone while its revisions remain, each tampered into the tables as an
operator's `UPDATE` or `DELETE` would, is `LedgerError('corrupt')` with its rule on the read or the verify
that meets it; an unknown record never leaves the inbox (`list({ states: ['unknown'] })`, what a durable
agent's `unknown()` and `pending()` read, and `claimDue`, what its `reconcileDue` claims with) by a column
edit; and a read that meets another writer's commit is never corruption.
*/
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { LedgerError } from '../../src/core/errors.js';
import { verifyHistory } from '../../src/ledger/ledger.js';
import { openPostgresLedger, type PostgresLedger } from '../../src/ledger/postgres/entry.js';
import { qualify } from '../../src/ledger/postgres/schema.js';
import { storeStatements } from '../../src/ledger/postgres/statements.js';
import { intent } from '../support/intent.js';
import { rejectionOf } from '../support/rejection.js';

const url = inject('postgresUrl');
const suffix = crypto.randomUUID().slice(0, 8);
const admin = new pg.Pool({ connectionString: url, max: 2 });
const schemas: string[] = [];

afterAll(async () => {
  for (const schema of schemas) {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
  await admin.end();
});

/** A ledger on a schema of its own, so that one case's damage never meets another's reads. */
async function freshLedger(worker = 'w1'): Promise<{ ledger: PostgresLedger; schema: string }> {
  const schema = `tamper_${schemas.length}_${suffix}`;
  schemas.push(schema);
  const ledger = await openPostgresLedger({ connectionString: url }, { schema, worker });
  return { ledger, schema };
}

/**
A record left unknown after its one attempt: revisions 0 (create), 1 (start) and 2 (unknown), due for a probe.
*/
async function unknownRecord(ledger: PostgresLedger, id: string): Promise<void> {
  const started = await ledger.create(intent(id), { attemptId: `a-${id}`, messageId: `m-a-${id}` });
  await ledger.transition(id, started.revision, {
    type: 'unknown',
    attemptId: `a-${id}`,
    reason: 'ambiguous-outcome',
  });
}

/** A committed record: revisions 0, 1 and 2 (commit). */
async function committedRecord(ledger: PostgresLedger, id: string): Promise<void> {
  const started = await ledger.create(intent(id), { attemptId: `a-${id}`, messageId: `m-a-${id}` });
  await ledger.transition(id, started.revision, {
    type: 'commit',
    attemptId: `a-${id}`,
    result: { kind: 'task', taskId: `t-${id}`, contextId: `c-${id}` },
  });
}

/**
The reads a tampered record can meet: its head, every record, the inbox, the claim of due records, its
history.
*/
const reads = {
  get: (ledger: PostgresLedger, id: string) => ledger.get(id),
  list: (ledger: PostgresLedger) => ledger.list(),
  inbox: (ledger: PostgresLedger) => ledger.list({ states: ['unknown'] }),
  claim: (ledger: PostgresLedger) => ledger.claimDue(),
  history: (ledger: PostgresLedger, id: string) => ledger.history(id),
} as const;

type Read = keyof typeof reads;

type Case = {
  readonly damage: string;
  readonly record: 'unknown' | 'committed';
  /** The statement that damages the record `$1` in the tables of `schema`. */
  readonly tamper: (schema: string) => string;
  readonly rule: string;
  /** Where the error says it was found: the revision, in a history. */
  readonly position?: number;
  /** The reads that meet the damage, each refusing it as corrupt. */
  readonly meets: readonly Read[];
};

const everyRead: readonly Read[] = ['get', 'list', 'inbox', 'claim', 'history'];

const cases: readonly Case[] = [
  {
    damage: 'the status column of an unknown record set to committed',
    record: 'unknown',
    tamper: (schema) => `UPDATE ${schema}.records SET status = 'committed' WHERE id = $1`,
    rule: 'column-status',
    meets: everyRead,
  },
  {
    damage: 'the status column of a committed record set to unknown',
    record: 'committed',
    tamper: (schema) => `UPDATE ${schema}.records SET status = 'unknown' WHERE id = $1`,
    rule: 'column-status',
    meets: ['get', 'list', 'history'],
  },
  {
    damage: 'the revision column changed',
    record: 'unknown',
    tamper: (schema) => `UPDATE ${schema}.records SET revision = revision + 1 WHERE id = $1`,
    rule: 'column-revision',
    meets: everyRead,
  },
  {
    damage: 'the digest column changed',
    record: 'unknown',
    tamper: (schema) => `UPDATE ${schema}.records SET digest = 'sha256:${'0'.repeat(64)}' WHERE id = $1`,
    rule: 'column-digest',
    meets: everyRead,
  },
  {
    damage: 'the due column of an unknown record cleared',
    record: 'unknown',
    tamper: (schema) => `UPDATE ${schema}.records SET due_at = NULL WHERE id = $1`,
    rule: 'column-due',
    // The claim selects by its own columns (docs/durable-send.md#what-the-store-checks): the inbox shows the
    // damage.
    meets: ['get', 'list', 'inbox', 'history'],
  },
  {
    damage: 'the agent column changed',
    record: 'unknown',
    tamper: (schema) => `UPDATE ${schema}.records SET agent = '["elsewhere"]' WHERE id = $1`,
    rule: 'column-agent',
    meets: ['get', 'list', 'inbox', 'history'],
  },
  {
    damage: 'the delivery column changed',
    record: 'unknown',
    tamper: (schema) => `UPDATE ${schema}.records SET delivery = 'keyed' WHERE id = $1`,
    rule: 'column-delivery',
    meets: everyRead,
  },
  {
    damage: 'the contextual column changed',
    record: 'unknown',
    tamper: (schema) => `UPDATE ${schema}.records SET contextual = true WHERE id = $1`,
    rule: 'column-contextual',
    meets: everyRead,
  },
  {
    damage: 'the creation time column changed',
    record: 'committed',
    tamper: (schema) => `UPDATE ${schema}.records SET created_at = 1000 WHERE id = $1`,
    rule: 'column-created',
    meets: ['get', 'list', 'history'],
  },
  {
    damage: 'the update time column changed',
    record: 'committed',
    tamper: (schema) => `UPDATE ${schema}.records SET updated_at = updated_at - 1 WHERE id = $1`,
    rule: 'column-updated',
    meets: ['get', 'list', 'history'],
  },
  {
    damage: "the body's state edited, its columns left as they were",
    record: 'unknown',
    tamper: (schema) =>
      `UPDATE ${schema}.records SET body = replace(body, '"reason":"ambiguous-outcome"', '"reason":"no-evidence"') WHERE id = $1`,
    rule: 'column-due',
    meets: ['get', 'list', 'inbox', 'claim', 'history'],
  },
  {
    damage: "the body's message edited, which no column mirrors",
    record: 'unknown',
    tamper: (schema) =>
      `UPDATE ${schema}.records SET body = replace(body, 'book the flight', 'book two flights') WHERE id = $1`,
    rule: 'head',
    position: 2,
    meets: ['history'],
  },
  {
    damage: "the record's row deleted, its revisions left",
    record: 'unknown',
    tamper: (schema) => `DELETE FROM ${schema}.records WHERE id = $1`,
    rule: 'record-missing',
    meets: ['get', 'history'],
  },
  {
    damage: 'a middle revision deleted',
    record: 'unknown',
    tamper: (schema) => `DELETE FROM ${schema}.revisions WHERE id = $1 AND revision = 1`,
    rule: 'sequence',
    position: 1,
    meets: ['history'],
  },
  {
    damage: 'the head revision deleted',
    record: 'unknown',
    tamper: (schema) => `DELETE FROM ${schema}.revisions WHERE id = $1 AND revision = 2`,
    rule: 'head',
    position: 2,
    meets: ['history'],
  },
  {
    damage: 'the first revision deleted',
    record: 'committed',
    tamper: (schema) => `DELETE FROM ${schema}.revisions WHERE id = $1 AND revision = 0`,
    rule: 'sequence',
    position: 0,
    meets: ['history'],
  },
];

describe('the PostgreSQL store, tampered with', () => {
  it.each(cases)('refuses $damage as corrupt ($rule) on every read that meets it', async (entry) => {
    const { ledger, schema } = await freshLedger();
    try {
      const id = `tampered-${entry.record}`;
      await (entry.record === 'unknown' ? unknownRecord(ledger, id) : committedRecord(ledger, id));
      const changed = await admin.query(entry.tamper(schema), [id]);
      expect(changed.rowCount).toBe(1);
      for (const read of entry.meets) {
        const error = await rejectionOf(reads[read](ledger, id), LedgerError);
        expect({ read, reason: error.reason, rule: error.rule }).toEqual({
          read,
          reason: 'corrupt',
          rule: entry.rule,
        });
        if (entry.position !== undefined && read === 'history') {
          expect(error.position).toBe(entry.position);
        }
      }
    } finally {
      await ledger.close();
    }
  });

  it('keeps an unknown record in the inbox whatever its status column says, listing it by its body', async () => {
    const { ledger, schema } = await freshLedger();
    try {
      await unknownRecord(ledger, 'inbox-kept');
      await committedRecord(ledger, 'inbox-settled');
      // A committed record whose column says unknown is not in the inbox: its body says committed.
      await admin.query(`UPDATE ${schema}.records SET status = 'unknown' WHERE id = 'inbox-settled'`);
      const settled = await rejectionOf(ledger.get('inbox-settled'), LedgerError);
      expect(settled).toMatchObject({ reason: 'corrupt', rule: 'column-status' });
      await admin.query(`UPDATE ${schema}.records SET status = 'committed' WHERE id = 'inbox-settled'`);
      expect((await ledger.list({ states: ['unknown'] })).map((record) => record.id)).toEqual(['inbox-kept']);
      await admin.query(`UPDATE ${schema}.records SET status = 'failed' WHERE id = 'inbox-kept'`);
      expect(await rejectionOf(ledger.list({ states: ['unknown'] }), LedgerError)).toMatchObject({
        reason: 'corrupt',
        rule: 'column-status',
      });
      expect((await ledger.list({ states: ['committed'] })).map((record) => record.id)).toEqual([
        'inbox-settled',
      ]);
    } finally {
      await ledger.close();
    }
  });

  it('never prunes an unknown record whose status and time columns say it settled long ago', async () => {
    const schema = `tamper_prune_${suffix}`;
    schemas.push(schema);
    const ledger = await openPostgresLedger(
      { connectionString: url },
      { schema, worker: 'w1', retentionMs: 1 },
    );
    try {
      await unknownRecord(ledger, 'prune-kept');
      await committedRecord(ledger, 'prune-gone');
      await admin.query(
        `UPDATE ${schema}.records SET status = 'committed', updated_at = 0 WHERE id = 'prune-kept'`,
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
      // Enough writes for the store to prune as it goes (every 256 appends).
      for (let index = 0; index < 256; index++) {
        await ledger.create(intent(`prune-${index}`));
      }
      const left = await admin.query<{ id: string }>(
        `SELECT id FROM ${schema}.records WHERE id LIKE 'prune-%' AND id NOT SIMILAR TO 'prune-[0-9]+' ORDER BY id`,
      );
      expect(left.rows.map((row) => row.id)).toEqual(['prune-kept']);
      const revisions = await admin.query(`SELECT revision FROM ${schema}.revisions WHERE id = 'prune-kept'`);
      expect(revisions.rowCount).toBe(3);
    } finally {
      await ledger.close();
    }
  });
});

describe('the PostgreSQL store, read while another writer commits', () => {
  it('never calls a row corrupt that a concurrent commit moved, on a second connection', async () => {
    const { ledger: writer, schema } = await freshLedger('writer');
    const reader = await openPostgresLedger(
      { connectionString: url },
      { schema, worker: 'reader', readOnly: true, poolSize: 2 },
    );
    try {
      const ids = Array.from({ length: 24 }, (_, index) => `race-${index}`);
      let writing = true;
      const written = (async () => {
        try {
          for (const id of ids) {
            await unknownRecord(writer, id);
            await writer.transition(id, 2, {
              type: 'reconcile-commit',
              attemptId: `a-${id}`,
              result: { kind: 'task', taskId: `t-${id}`, contextId: `c-${id}` },
            });
          }
        } finally {
          writing = false;
        }
      })();
      const failures: unknown[] = [];
      let reads = 0;
      while (writing) {
        const id = ids[reads % ids.length] as string;
        reads++;
        await Promise.all([
          reader.get(id),
          reader.list(),
          reader.list({ states: ['unknown'] }),
          reader.history(id).then(async (history) => {
            if (history.length > 0 && !(await verifyHistory(history)).ok) {
              failures.push(new Error(`history of ${id} does not verify`));
            }
          }),
        ]).catch((error: unknown) => {
          failures.push(error);
        });
      }
      await written;
      expect(failures).toEqual([]);
      expect(reads).toBeGreaterThan(0);
      expect((await reader.list({ states: ['committed'] })).map((record) => record.id)).toEqual(ids);
    } finally {
      await reader.close();
      await writer.close();
    }
  }, 60_000);

  it('reads a history again before calling it corrupt, and only a second torn read is', async () => {
    const schema = `tamper_torn_${suffix}`;
    schemas.push(schema);
    const history = storeStatements(qualify(schema)).history.text;
    const real = new pg.Pool({ connectionString: url, max: 2 });
    let torn = 0;
    // The caller's pool, as `{ pool }` hands it over: a history read it tears drops its last row, as a read
    // would that saw the record's row after a commit and its revisions before it.
    const pool = new Proxy(real, {
      get(target, key) {
        if (key === 'query') {
          return async (config: unknown, values?: unknown[]) => {
            const result = await target.query(config as pg.QueryConfig, values);
            const text =
              typeof config === 'object' && config !== null ? (config as { text?: unknown }).text : config;
            if (text === history && torn > 0) {
              torn--;
              return { ...result, rows: result.rows.slice(0, -1) };
            }
            return result;
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const ledger = await openPostgresLedger({ pool }, { schema, worker: 'torn' });
    try {
      await unknownRecord(ledger, 'torn-1');
      const whole = await ledger.history('torn-1');
      expect(whole.map((revision) => revision.revision)).toEqual([0, 1, 2]);
      torn = 1;
      expect(await ledger.history('torn-1')).toEqual(whole);
      expect(torn).toBe(0);
      torn = 2;
      expect(await rejectionOf(ledger.history('torn-1'), LedgerError)).toMatchObject({ reason: 'corrupt' });
      expect(torn).toBe(0);
    } finally {
      await ledger.close();
      await real.end();
    }
  });
});
