/**
The `surecall` command over the fleet ledger (`--ledger postgres://…`, docs/durable-send.md#running-a-fleet),
on the real PostgreSQL the `cli (postgres)` project's global setup starts
(`packages/client/test/support/postgres-setup.ts`, or the server `SURECALL_PG_URL` names): the bin in child
processes against the mock agent on loopback, so the agent's own execution counter and the ledger's own tables
prove what each command did. Each test works in a schema of its own.
*/
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDevtoolsServer } from '../src/devtools-server.js';
import { openView } from '../src/ledger.js';
import { documents, start, surecall } from './support/surecall.js';

const url = inject('postgresUrl');

let mock: RunningMockAgent;
let pool: pg.Pool;
let schemas = 0;

/** A fresh schema name for one test: the ledger's tables of one test never meet another's. */
const freshSchema = () => `cli_${process.pid}_${++schemas}`;

/** The `status` column of a record's head row, and how many revisions it has, straight from the tables. */
async function stored(schema: string, id: string) {
  const head = await pool.query<{ status: string }>(
    `SELECT status FROM "${schema}"."records" WHERE id = $1`,
    [id],
  );
  const revisions = await pool.query<{ worker: string }>(
    `SELECT worker FROM "${schema}"."revisions" WHERE id = $1 ORDER BY revision`,
    [id],
  );
  return { status: head.rows[0]?.status, workers: revisions.rows.map((row) => row.worker) };
}

type Summary = { readonly id: string; readonly status: string; readonly reason?: string };

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, stepMs: 5 });
  pool = new pg.Pool({ connectionString: url, max: 2 });
});

afterEach(() => mock.faults.clear());

afterAll(async () => {
  await pool.end();
  await mock.close();
});

describe('a durable send over a postgres:// ledger', () => {
  it('exits 3 when its answer is lost; list shows it unknown; reconcile commits it with one execution', async () => {
    const schema = freshSchema();
    const ledger = ['--ledger', url, '--schema', schema];
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    const sent = await surecall([
      'send',
      mock.cardUrl,
      'task book the 9:40 to Lyon',
      '--loopback',
      '--durable',
      ...ledger,
      '--delivery',
      'at-most-once',
      '--json',
    ]);
    expect(sent.code).toBe(3);
    const [record] = documents(sent.stdout) as Summary[];
    expect(record).toMatchObject({ status: 'unknown', reason: 'ambiguous-outcome' });
    const id = record?.id ?? '';
    // The writer names itself by host and process, as a fleet's worker would (docs/durable-send.md#leases).
    const written = await stored(schema, id);
    expect(written.status).toBe('unknown');
    expect(new Set(written.workers)).toEqual(new Set([expect.stringMatching(/^surecall-cli-.+-\d+$/)]));

    const listed = await surecall(['sends', 'list', ...ledger, '--json']);
    expect(listed.code).toBe(0);
    expect(documents(listed.stdout)).toEqual([
      { records: [expect.objectContaining({ id, status: 'unknown', reason: 'ambiguous-outcome' })] },
    ]);

    const reconciled = await surecall([
      'sends',
      'reconcile',
      ...ledger,
      '--card',
      mock.cardUrl,
      '--loopback',
      '--json',
    ]);
    expect(reconciled).toMatchObject({ code: 0, stderr: '' });
    expect(documents(reconciled.stdout)).toEqual([
      expect.objectContaining({ id, status: 'committed' }),
      { report: { claimed: 1, committed: 1, pending: 0, unresolved: 0, skipped: 0, superseded: 0 } },
    ]);
    const after = await stored(schema, id);
    expect(after.status).toBe('committed');
    // The reconciling process is another worker than the sender.
    expect(new Set(after.workers).size).toBe(2);
    const attempt = (
      await pool.query<{ body: string }>(`SELECT body FROM "${schema}"."records" WHERE id = $1`, [id])
    ).rows[0]?.body;
    const { attempts } = JSON.parse(attempt ?? '{}') as { attempts: { messageId: string }[] };
    expect(attempts).toHaveLength(1);
    expect(mock.executions.of(attempts[0]?.messageId ?? '')).toBe(1);

    const again = await surecall(['sends', 'reconcile', ...ledger, '--card', mock.cardUrl, '--loopback']);
    expect(again).toMatchObject({ code: 0, stdout: 'nothing is due\n' });
  });

  it('reading leaves a send killed mid-flight as it is; reconcile recovers it from the lapsed lease, once', async () => {
    const schema = freshSchema();
    const ledger = ['--ledger', url, '--schema', schema];
    // Applied at once, answered a minute later: the sender is killed while it waits.
    mock.faults.set({ kind: 'delay', operation: 'SendMessage', ms: 60_000, when: 'after' });
    const before = mock.executions.total();
    const sender = start([
      'send',
      mock.cardUrl,
      'task killed',
      '--loopback',
      '--durable',
      ...ledger,
      '--delivery',
      'at-most-once',
    ]);
    await expect.poll(() => mock.executions.total(), { timeout: 30_000 }).toBe(before + 1);
    sender.crash();
    expect((await sender.done).code).toBe(null);
    mock.faults.clear();
    const [row] = (await pool.query<{ id: string }>(`SELECT id FROM "${schema}"."records"`)).rows;
    const id = row?.id ?? '';
    expect((await stored(schema, id)).status).toBe('executing');
    // The dead process's lease runs 30 s; it lapses now, as it would have by itself.
    await pool.query(
      `UPDATE "${schema}"."records" SET lease_expires = clock_timestamp() - interval '1 second'`,
    );

    // A reader opens the store read-only: it does not turn the orphan unknown, it writes nothing.
    const listed = await surecall(['sends', 'list', ...ledger, '--json']);
    expect(listed.code).toBe(0);
    expect(documents(listed.stdout)).toEqual([
      { records: [expect.objectContaining({ id, status: 'in-flight' })] },
    ]);
    const read = await stored(schema, id);
    expect(read.status).toBe('executing');

    // A writer's open recovers the orphan (unknown), and its pass reconciles it from the task history.
    const reconciled = await surecall([
      'sends',
      'reconcile',
      ...ledger,
      '--card',
      mock.cardUrl,
      '--loopback',
      '--json',
    ]);
    expect(reconciled.code).toBe(0);
    expect(documents(reconciled.stdout).at(-1)).toEqual({
      report: { claimed: 1, committed: 1, pending: 0, unresolved: 0, skipped: 0, superseded: 0 },
    });
    const after = await stored(schema, id);
    expect(after.status).toBe('committed');
    expect(after.workers.length).toBeGreaterThan(read.workers.length);
    expect(mock.executions.total()).toBe(before + 1);
  });

  it('a reading command on a schema no writer has created says so and creates nothing', async () => {
    const schema = freshSchema();
    const listed = await surecall(['sends', 'list', '--ledger', url, '--schema', schema]);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain('no surecall ledger in that PostgreSQL schema yet');
    const found = await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    expect(found.rows).toEqual([]);
  });

  it('two reconcilers at once probe each due send once: the ledger’s claims split the work', async () => {
    const schema = freshSchema();
    const ledger = ['--ledger', url, '--schema', schema];
    const ids: string[] = [];
    for (const text of ['task one', 'task two', 'task three']) {
      mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
      const sent = await surecall([
        'send',
        mock.cardUrl,
        text,
        '--loopback',
        '--durable',
        ...ledger,
        '--delivery',
        'at-most-once',
        '--json',
      ]);
      expect(sent.code).toBe(3);
      ids.push((documents(sent.stdout)[0] as Summary).id);
    }
    const runs = await Promise.all(
      [0, 1].map(() =>
        surecall(['sends', 'reconcile', ...ledger, '--card', mock.cardUrl, '--loopback', '--json']),
      ),
    );
    const reports = runs.map((run) => {
      expect(run.code).toBe(0);
      return (documents(run.stdout).at(-1) as { report: Record<string, number> }).report;
    });
    const total = (key: string) => reports.reduce((sum, report) => sum + (report[key] ?? 0), 0);
    expect(total('claimed')).toBe(3);
    expect(total('committed')).toBe(3);
    expect(total('superseded')).toBe(0);
    for (const id of ids) {
      expect((await stored(schema, id)).status).toBe('committed');
    }
  });
});

describe('sends watch over a postgres:// ledger', () => {
  it('follows a send another process makes, through LISTEN/NOTIFY, until stopped', async () => {
    const schema = freshSchema();
    const ledger = ['--ledger', url, '--schema', schema];
    const first = await surecall(['send', mock.cardUrl, 'echo one', '--loopback', '--durable', ...ledger]);
    expect(first.code).toBe(0);
    const watcher = start(['sends', 'watch', ...ledger, '--json']);
    try {
      await expect.poll(() => documents(watcher.stdout()).length, { timeout: 30_000 }).toBe(1);
      // The watcher is following once its session listens on the ledger's channel.
      await expect
        .poll(
          async () =>
            (
              await pool.query<{ count: string }>(
                'SELECT count(*) AS count FROM pg_stat_activity WHERE query = $1',
                [`LISTEN "${schema}.changes"`],
              )
            ).rows[0]?.count,
          { timeout: 30_000 },
        )
        .toBe('1');
      const second = await surecall([
        'send',
        mock.cardUrl,
        'echo two',
        '--loopback',
        '--durable',
        ...ledger,
        '--json',
      ]);
      expect(second.code).toBe(0);
      const { id } = documents(second.stdout)[0] as Summary;
      await expect
        .poll(() => documents(watcher.stdout()).filter((document) => (document as Summary).id === id), {
          timeout: 30_000,
        })
        .toContainEqual(expect.objectContaining({ id, status: 'committed' }));
    } finally {
      watcher.child.kill('SIGINT');
    }
    expect((await watcher.done).code).toBe(0);
  });
});

describe('surecall devtools over a postgres:// ledger', () => {
  it('serves the ledger read-only behind the token: what `devtools --ledger postgres://…` opens', async () => {
    const schema = freshSchema();
    const ledger = ['--ledger', url, '--schema', schema];
    const sent = await surecall([
      'send',
      mock.cardUrl,
      'echo seen',
      '--loopback',
      '--durable',
      ...ledger,
      '--json',
    ]);
    expect(sent.code).toBe(0);
    const { id } = documents(sent.stdout)[0] as Summary;
    const directory = await mkdtemp(join(tmpdir(), 'surecall-cli-pg-'));
    const app = join(directory, 'app');
    await mkdir(app);
    await writeFile(join(app, 'index.html'), '<!doctype html><title>devtools</title>');
    // The view `devtools` serves: the store opened read-only (src/ledger.ts), as `surecall devtools` opens
    // it.
    const view = await openView(url, schema);
    const server = await startDevtoolsServer({ view, root: app, port: 0 });
    try {
      const refused = await fetch(`${server.origin}/api/ledger/records`);
      expect(refused.status).toBe(401);
      const records = await fetch(`${server.origin}/api/ledger/records`, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      expect(records.status).toBe(200);
      expect(records.headers.get('access-control-allow-origin')).toBe(null);
      expect(await records.json()).toMatchObject({ records: [{ record: { id }, status: 'committed' }] });
      const history = await fetch(`${server.origin}/api/ledger/history?id=${encodeURIComponent(id)}`, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      expect(history.status).toBe(200);
      const { revisions } = (await history.json()) as { revisions: { transition: { type: string } }[] };
      expect(revisions.map((revision) => revision.transition.type)).toEqual(['create', 'start', 'commit']);
    } finally {
      await server.close();
      await view.close();
      await rm(directory, { recursive: true, force: true });
    }
    // Serving wrote nothing: the record's history is the sender's alone.
    expect(new Set((await stored(schema, id)).workers).size).toBe(1);
  });
});
