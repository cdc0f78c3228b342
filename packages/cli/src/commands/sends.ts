/**
@module
`surecall sends list|show|reconcile|watch --ledger …`: the unknown inbox from a shell
(docs/durable-send.md#reconciling-an-unknown). Reading never locks a file ledger; `reconcile` opens the store
to write, builds the durable agents of the agent `--card` names (one per delivery mode, each with the recovery
that fits it); with ids it probes those records once, without it runs one `reconcileDue` pass per agent, so
the ledger's claims (leases on PostgreSQL) decide which records this process probes.
*/
import type { DurableAgent } from '@surecall/client';
import { type LedgerRecord, statusOf } from '@surecall/client/ledger';
import type { NextStep } from '../advice.js';
import type { ConnectArgs } from '../args.js';
import { connect, SetupError } from '../connect.js';
import { agentFor, cliMaxProbes, ledgerLine, outcomeLine, recordSummary, reportOutcome } from '../durable.js';
import {
  type ExitCode,
  exitCodeOf,
  exitCodeOfPass,
  exitCodes,
  type PassReport,
  worst,
} from '../exit-code.js';
import { failureOf } from '../failure.js';
import { openView, openWritable, type WritableLedger } from '../ledger.js';
import type { Io, Output } from '../output.js';
import { terminalText } from '../text.js';

/** What `sends` was asked. */
export type SendsArgs = {
  readonly action: 'list' | 'show' | 'reconcile' | 'watch';
  readonly ids: readonly string[];
  readonly ledger: string;
  readonly schema: string | undefined;
  readonly connect: ConnectArgs | undefined;
};

function age(record: LedgerRecord): string {
  const seconds = Math.max(0, Math.round((Date.now() - record.createdAt) / 1000));
  return seconds < 120
    ? `${seconds}s`
    : seconds < 7200
      ? `${Math.round(seconds / 60)}m`
      : `${Math.round(seconds / 3600)}h`;
}

/** The next step a reading command names: it knows the ledger, not the agent's flags. */
const readerStep = (spec: string): NextStep => ({ ledger: spec, maxProbes: cliMaxProbes });

async function list(out: Output, spec: string, schema: string | undefined): Promise<ExitCode> {
  const view = await openView(spec, schema);
  try {
    const records = await view.list();
    out.document({ records: records.map((record) => recordSummary(record, statusOf(record))) });
    for (const record of records) {
      out.line(
        `${statusOf(record).padEnd(10)} ${age(record).padStart(4)}  ${outcomeLine(record, statusOf(record), readerStep(spec))}`,
      );
    }
    const open = records.filter(
      (record) => statusOf(record) !== 'committed' && statusOf(record) !== 'failed',
    );
    out.line(`${records.length} send${records.length === 1 ? '' : 's'}, ${open.length} not settled`);
    return exitCodes.ok;
  } finally {
    await view.close();
  }
}

async function show(out: Output, spec: string, schema: string | undefined, id: string): Promise<ExitCode> {
  const view = await openView(spec, schema);
  try {
    const record = await view.get(id);
    if (record === undefined) {
      out.error('no record with that id in the ledger');
      return exitCodes.failed;
    }
    const history = await view.history(id);
    const status = statusOf(record);
    out.document({
      record: recordSummary(record, status),
      history: history.map((revision) => ({
        revision: revision.revision,
        time: new Date(revision.at).toISOString(),
        transition: revision.transition.type,
      })),
    });
    out.line(outcomeLine(record, status, readerStep(spec)));
    for (const revision of history) {
      out.line(
        `  ${String(revision.revision).padStart(3)} ${new Date(revision.at).toISOString()} ${revision.transition.type}`,
      );
    }
    return exitCodes.ok;
  } finally {
    await view.close();
  }
}

async function watch(
  out: Output,
  spec: string,
  schema: string | undefined,
  signal: AbortSignal,
): Promise<ExitCode> {
  const view = await openView(spec, schema);
  // The newest revision printed per record: following starts before the listing, so a change made while the
  // listing runs is neither lost nor printed twice.
  const printed = new Map<string, number>();
  let heard: LedgerRecord[] | undefined = [];
  const print = (record: LedgerRecord) => {
    if ((printed.get(record.id) ?? -1) >= record.revision) {
      return;
    }
    printed.set(record.id, record.revision);
    out.document(recordSummary(record, statusOf(record)));
    out.line(outcomeLine(record, statusOf(record), readerStep(spec)));
  };
  const stop = view.watch((record) => {
    if (heard !== undefined) {
      heard.push(record);
      return;
    }
    print(record);
    out.progress('watching the ledger; Ctrl-C stops');
  });
  try {
    for (const record of await view.list()) {
      print(record);
    }
    for (const record of heard) {
      print(record);
    }
    heard = undefined;
    out.progress('watching the ledger; Ctrl-C stops');
    await new Promise<void>((resolve) => {
      if (signal.aborted) {
        resolve();
      }
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return exitCodes.ok;
  } finally {
    stop();
    await view.close();
  }
}

function sameInterface(record: LedgerRecord, agent: DurableAgent): boolean {
  const { pin } = agent.client;
  return (
    record.agent.binding === pin.binding && record.agent.url === pin.url && record.agent.tenant === pin.tenant
  );
}

function sum(left: PassReport, right: PassReport): PassReport {
  return {
    claimed: left.claimed + right.claimed,
    committed: left.committed + right.committed,
    pending: left.pending + right.pending,
    unresolved: left.unresolved + right.unresolved,
    skipped: left.skipped + right.skipped,
    superseded: left.superseded + right.superseded,
  };
}

/**
Reconciles what is due with `agent.reconcileDue` (docs/durable-send.md#reconciling-what-is-due): the ledger's
claims pick the records, so two processes reconciling one PostgreSQL ledger never probe one record twice.
*/
async function reconcileDue(
  out: Output,
  { ledger, path }: WritableLedger,
  next: NextStep,
  agents: readonly DurableAgent[],
  signal: AbortSignal,
): Promise<ExitCode> {
  // The records the pass moved, in the order it moved them: each is printed once, as it stands after the
  // pass.
  const moved = new Set<string>();
  let report: PassReport = { claimed: 0, committed: 0, pending: 0, unresolved: 0, skipped: 0, superseded: 0 };
  out.progress('reconciling what is due…');
  for (const agent of agents) {
    const unsubscribe = agent.events.subscribe((event) => {
      if (event.type === 'transition') {
        moved.add(event.id);
      }
    });
    try {
      report = sum(report, await agent.reconcileDue({ signal }));
    } finally {
      unsubscribe();
    }
  }
  for (const id of moved) {
    const record = await ledger.get(id);
    if (record !== undefined) {
      out.document(recordSummary(record, statusOf(record)));
      out.line(outcomeLine(record, statusOf(record), next));
    }
  }
  out.document({ report, ...(path === undefined ? {} : { ledger: path }) });
  if (report.claimed === 0) {
    out.line('nothing is due');
  } else {
    out.line(
      `${report.claimed} claimed: ${report.committed} committed, ${report.pending} pending, ${report.unresolved} unresolved, ${report.skipped} skipped, ${report.superseded} superseded`,
    );
  }
  return exitCodeOfPass(report);
}

async function reconcile(io: Io, out: Output, args: SendsArgs, signal: AbortSignal): Promise<ExitCode> {
  const client = await connect(io, args.connect as ConnectArgs);
  const { ledger, path } = await openWritable(args.ledger, args.schema);
  const next: NextStep = { ledger: args.ledger, connect: args.connect, maxProbes: cliMaxProbes };
  try {
    ledgerLine(out, path);
    const atMostOnce = agentFor(client, ledger, 'at-most-once');
    const keyed = client.honoursIdempotency ? agentFor(client, ledger, 'keyed') : undefined;
    if (args.ids.length === 0) {
      // Keyed replays first (one request each), then the task-history scans.
      return await reconcileDue(
        out,
        { ledger, path },
        next,
        keyed === undefined ? [atMostOnce] : [keyed, atMostOnce],
        signal,
      );
    }
    const agentOf = (record: LedgerRecord) =>
      record.delivery === 'keyed' ? keyed : record.delivery === 'at-most-once' ? atMostOnce : undefined;
    const records: LedgerRecord[] = [];
    for (const id of args.ids) {
      const record = await ledger.get(id);
      if (record === undefined) {
        out.error('no record with one of the given ids in the ledger');
        return exitCodes.failed;
      }
      records.push(record);
    }
    const codes: ExitCode[] = [];
    for (const [index, record] of records.entries()) {
      signal.throwIfAborted();
      out.progress(`reconciling ${index + 1}/${records.length}…`);
      const agent = agentOf(record);
      if (agent === undefined || !sameInterface(record, agent)) {
        const status = statusOf(record);
        out.document({
          ...recordSummary(record, status),
          skipped: agent === undefined ? 'delivery' : 'agent',
        });
        out.line(
          `${terminalText(record.id)} ${status}: skipped, ${agent === undefined ? 'its delivery needs an attestation or keys this agent does not honour' : 'it was sent to another interface than --card names'}`,
        );
        codes.push(exitCodeOf(status));
        continue;
      }
      try {
        codes.push(reportOutcome(out, await agent.reconcile(record.id, { signal }), next, path));
      } catch (error) {
        if (signal.aborted) {
          throw error;
        }
        // One record's refusal (a card edited since the send, a store error) leaves it as it was; the others
        // go on.
        const failure = failureOf(error);
        out.document({ ...recordSummary(record, statusOf(record)), error: failure.text });
        out.error(`${terminalText(record.id)}: ${failure.text}`);
        codes.push(exitCodeOf(statusOf(record)));
      }
    }
    return worst(codes);
  } finally {
    await ledger.close();
  }
}

/**
Runs `surecall sends`.

@example
```ts
await sendsCommand(io, out, { action: 'list', ids: [], ledger: './sends.jsonl', connect: undefined }, signal);
```
*/
export async function sendsCommand(
  io: Io,
  out: Output,
  args: SendsArgs,
  signal: AbortSignal,
): Promise<ExitCode> {
  switch (args.action) {
    case 'list':
      return list(out, args.ledger, args.schema);
    case 'show':
      return show(out, args.ledger, args.schema, args.ids[0] ?? '');
    case 'watch':
      return watch(out, args.ledger, args.schema, signal);
    case 'reconcile':
      if (args.connect === undefined) {
        throw new SetupError('sends reconcile needs --card');
      }
      return reconcile(io, out, args, signal);
  }
}
