/**
`npm run bench -- ledger`: the file ledger's durable commits per second at 1, 16 and 256 concurrent writers,
each beside a bare group-commit loop (one `writev` + one `fdatasync` per batch, nothing else) that writes the
very lines the ledger wrote, at the same concurrency, in the same folder; `ledger-group-commit-gain`, the
ledger's gain from 1 writer to 256 over the bare loops' own gain in the same run (goal ≥ 0.6); and
`ledger-open-10k`, the time to open a file ledger of 10,000 settled records (goal ≤ 50 ms), shown beside the
time to read its files' bytes once.
*/
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '../packages/client/src/ledger/file.js';
import type { Ledger } from '../packages/client/src/ledger/ledger.js';
import { intent } from './fixtures.js';
import { type BenchRow, row, sideBySide } from './harness.js';

const runs = 5;

/** Sends per writer, so that one sample lasts a few hundred milliseconds at each concurrency. */
const sendsPerWriter: Readonly<Record<number, number>> = { 1: 150, 16: 40, 256: 12 };

/** One send's life in the ledger: create, start, commit; three durable commits. */
async function send(ledger: Ledger, id: string): Promise<void> {
  await ledger.create(intent(id));
  await ledger.transition(id, 0, { type: 'start', attemptId: `a-${id}`, messageId: `m-${id}` });
  await ledger.transition(id, 1, {
    type: 'commit',
    attemptId: `a-${id}`,
    result: { kind: 'task', taskId: `t-${id}`, contextId: `c-${id}` },
  });
}

let sample = 0;

/**
Commits per second of `writers` concurrent writers on a fresh file ledger; returns the journal's lines too.
*/
async function ledgerRun(directory: string, writers: number): Promise<{ rate: number; lines: string[] }> {
  const path = join(directory, `ledger-${writers}-${sample++}.jsonl`);
  const ledger = await openLedger({ name: path });
  const sends = sendsPerWriter[writers] ?? 1;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let index = 0; index < sends; index++) {
        await send(ledger, `w${writer}-${index}`);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  await ledger.close();
  const lines = (await readFile(path, 'utf8')).split('\n').slice(0, -1);
  return { rate: lines.length / seconds, lines };
}

/**
The anchor: `writers` concurrent writers appending the given lines, each waiting for the fdatasync of its
batch.
*/
async function bareRun(directory: string, writers: number, lines: readonly string[]): Promise<number> {
  const handle = await open(join(directory, `bare-${writers}-${sample++}.log`), 'a');
  const encoder = new TextEncoder();
  const queue: { bytes: Uint8Array; done: () => void }[] = [];
  let running = false;
  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue.splice(0);
      await handle.writev(batch.map((entry) => entry.bytes));
      await handle.datasync();
      for (const entry of batch) {
        entry.done();
      }
    }
    running = false;
  };
  const append = (line: string) =>
    new Promise<void>((done) => {
      queue.push({ bytes: encoder.encode(`${line}\n`), done });
      if (!running) {
        running = true;
        void drain();
      }
    });
  const perWriter = Math.ceil(lines.length / writers);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (
        let index = writer * perWriter;
        index < Math.min(lines.length, (writer + 1) * perWriter);
        index++
      ) {
        await append(lines[index] as string);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  await handle.close();
  return lines.length / seconds;
}

const openRecords = 10_000;
const openGoalMs = 50;

/**
`ledger-open-10k`: builds a ledger of 10,000 settled sends once, then times `openLedger` (the close after it
is not timed), beside reading the journal's and the snapshot's bytes.
*/
async function openTenThousand(directory: string): Promise<BenchRow> {
  const path = join(directory, 'open-10k.jsonl');
  const ledger = await openLedger({ name: path });
  let next = 0;
  await Promise.all(
    Array.from({ length: 256 }, async () => {
      while (next < openRecords) {
        const id = `open-${next++}`;
        const started = await ledger.create(intent(id), { attemptId: `a-${id}`, messageId: `m-${id}` });
        await ledger.transition(id, started.revision, {
          type: 'commit',
          attemptId: `a-${id}`,
          result: { kind: 'task', taskId: `t-${id}`, contextId: `c-${id}` },
        });
      }
    }),
  );
  await ledger.close();
  const opening = async () => {
    const start = performance.now();
    const opened = await openLedger({ name: path });
    const elapsed = performance.now() - start;
    await opened.close();
    return elapsed;
  };
  const bytes = async () => {
    const start = performance.now();
    await readFile(path);
    await readFile(`${path}.snapshot`);
    return performance.now() - start;
  };
  const measured = await sideBySide(runs, opening, bytes);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    name: 'ledger-open-10k',
    unit: 'ms',
    value: round(measured.ours),
    anchor: `${openGoalMs} ms [reading the journal and snapshot bytes once: ${round(measured.anchor)} ms]`,
    anchorValue: openGoalMs,
    ratio: round(measured.ours / openGoalMs),
    goal: `<= ${openGoalMs} ms (ratio <= 1)`,
    met: measured.ours <= openGoalMs,
  };
}

/**
Measures `ledger-commit-1`, `-16`, `-256` against their bare loops, `ledger-group-commit-gain` (256 writers
over 1) and `ledger-open-10k`.
*/
export async function run(): Promise<BenchRow[]> {
  const directory = await mkdtemp(join(tmpdir(), 'surecall-bench-ledger-'));
  try {
    const measured = new Map<number, { ours: number; anchor: number }>();
    for (const writers of [1, 16, 256]) {
      // The anchor writes the lines of the ledger's latest run: the same bytes, in the same number of
      // appends.
      let lines: string[] = [];
      measured.set(
        writers,
        await sideBySide(
          runs,
          async () => {
            const result = await ledgerRun(directory, writers);
            lines = result.lines;
            return result.rate;
          },
          () => bareRun(directory, writers, lines),
        ),
      );
    }
    const at = (writers: number) => measured.get(writers) as { ours: number; anchor: number };
    return [
      row('ledger-commit-1', 'commits/s', at(1), 'bare append + fdatasync, 1 writer', {
        op: '>=',
        ratio: 0.5,
      }),
      row('ledger-commit-16', 'commits/s', at(16), 'bare group commit, 16 writers', {
        op: '>=',
        ratio: 0.25,
      }),
      row('ledger-commit-256', 'commits/s', at(256), 'bare group commit, 256 writers', {
        op: '>=',
        ratio: 0.5,
      }),
      // Our gain from group commit (256 writers over 1) against the bare loops' own gain on this disk in this
      // run, where there is no work per commit at all.
      row(
        'ledger-group-commit-gain',
        '× (256 writers over 1)',
        { ours: at(256).ours / at(1).ours, anchor: at(256).anchor / at(1).anchor },
        "the bare loops' gain, 256 writers over 1, same run",
        { op: '>=', ratio: 0.6 },
      ),
      await openTenThousand(directory),
    ];
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
