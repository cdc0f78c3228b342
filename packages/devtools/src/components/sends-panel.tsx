import type { DurableAgent } from '@surecall/client';
import type { LedgerRecord, LedgerRevision } from '@surecall/client/ledger';
import { useId, useState } from 'react';
import { useNow } from '../hooks/use-now.js';
import type { Sends } from '../hooks/use-sends.js';
import { filterItems, sendFields } from '../model/filter.js';
import { formatClock, formatDuration, shortId } from '../model/format.js';
import { type ImportedSend, importLedger, type LedgerImport } from '../model/ledger-import.js';
import { duplicatedSends, inbox, ownerNote, reconcileReport, sendRow, timeline } from '../model/sends.js';
import { FilterBox } from './filter-box.js';

/** Props of {@link SendsPanel}. */
export type SendsPanelProps = {
  readonly sends: Sends;
  /** Reconciles unknown records; without it the inbox is read-only. */
  readonly agent?: Pick<DurableAgent, 'reconcile'>;
  /** Why the last durable send was refused, if it was. */
  readonly problem?: string | undefined;
  /**
  Shows a durable send's executions (the Faults panel's counter, where there is a fault lab): each row then
  links to them.
  */
  readonly onShowExecutions?: (recordId: string) => void;
  /**
  Offers to import a Node file ledger; the read-only page of `surecall devtools`, whose ledger is the one it
  serves, leaves it out. @default true
  */
  readonly importer?: boolean;
};

function Timeline({ revisions }: { readonly revisions: readonly LedgerRevision[] | undefined }) {
  if (revisions === undefined) {
    return <span className="muted small">reading…</span>;
  }
  return (
    <ol className="timeline" aria-label="Timeline">
      {timeline(revisions).map((step) => (
        <li key={step.revision} data-testid="timeline-step">
          <span className={`chip send-${step.status}`}>{step.status}</span>{' '}
          <span className="mono small">{formatClock(step.at)}</span>{' '}
          <span className="small">
            <span className="muted">{step.cause}:</span> {step.detail}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Which tab is sending or probing a record, when another tab may be. */
function OwnerNote({
  record,
  owner,
}: {
  readonly record: LedgerRecord;
  readonly owner: { readonly tab: string; readonly thisTab: boolean } | undefined;
}) {
  const note = ownerNote(record, owner);
  return note === undefined ? null : (
    <>
      <br />
      <span className="small muted" data-testid="send-owner" title={owner?.tab}>
        {note}
      </span>
    </>
  );
}

function SendsTable({
  records,
  histories,
  owners,
  now,
  label,
  onShowExecutions,
}: {
  readonly records: readonly LedgerRecord[];
  readonly histories: ReadonlyMap<string, readonly LedgerRevision[]>;
  /** The tab holding each record, where tabs share the ledger (docs/durable-send.md#tabs). */
  readonly owners?: Sends['owners'];
  readonly now: number;
  readonly label: string;
  readonly onShowExecutions: ((recordId: string) => void) | undefined;
}) {
  if (records.length === 0) {
    return <p className="empty">No durable sends yet: use “Durable send” above.</p>;
  }
  return (
    <div className="table-scroll">
      <table aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Send</th>
            <th scope="col">Status</th>
            <th scope="col">Delivery and key</th>
            <th scope="col">Attempts</th>
            <th scope="col">Age</th>
            <th scope="col">Timeline</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => {
            const row = sendRow(record, now);
            return (
              <tr key={row.id} data-testid="durable-send" data-status={row.status}>
                <td>
                  <span className="mono small" title={row.id}>
                    {shortId(row.id)}
                  </span>
                  <br />“{row.text}”
                  {onShowExecutions === undefined ? null : (
                    <>
                      <br />
                      <button
                        type="button"
                        className="link small"
                        aria-label={`Executions of ${shortId(row.id)}`}
                        onClick={() => onShowExecutions(row.id)}
                      >
                        executions
                      </button>
                    </>
                  )}
                </td>
                <td>
                  <span className={`chip send-${row.status}`} data-testid="durable-status">
                    {row.status}
                  </span>
                  <br />
                  <span className="small">{row.detail}</span>
                  <OwnerNote record={record} owner={owners?.get(row.id)} />
                  {row.traceId === undefined ? null : (
                    <>
                      <br />
                      <span className="small muted" title="The trace id of the send (docs/tracing.md)">
                        trace{' '}
                        <span className="mono" data-testid="send-trace-id">
                          {row.traceId}
                        </span>
                      </span>
                    </>
                  )}
                </td>
                <td className="small">
                  {row.delivery}
                  {row.key === undefined ? null : (
                    <>
                      <br />
                      key <span className="mono">{row.key}</span>
                    </>
                  )}
                </td>
                <td className="num" data-testid="attempts">
                  {row.attempts}
                </td>
                <td className="num">{formatDuration(row.ageMs)}</td>
                <td>
                  <Timeline revisions={histories.get(row.id)} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Inbox({
  records,
  now,
  agent,
}: {
  readonly records: readonly LedgerRecord[];
  readonly now: number;
  readonly agent: Pick<DurableAgent, 'reconcile'> | undefined;
}) {
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [report, setReport] = useState<string | undefined>(undefined);
  const entries = inbox(records, now);
  const reconcile = async (ids: readonly string[]): Promise<void> => {
    if (agent === undefined) {
      return;
    }
    setProblem(undefined);
    setBusy((held) => new Set([...held, ...ids]));
    try {
      const outcomes = await Promise.all(ids.map((id) => agent.reconcile(id)));
      setReport(reconcileReport(outcomes.map((outcome) => outcome.status)));
    } catch (error) {
      setProblem(
        `Reconciling failed: ${error instanceof Error && 'reason' in error ? String(error.reason) : 'unexpectedly'}`,
      );
    } finally {
      setBusy((held) => new Set([...held].filter((id) => !ids.includes(id))));
    }
  };
  const due = entries.filter((entry) => entry.due).map((entry) => entry.id);
  return (
    <section aria-label="Unknown outcomes" className="inbox">
      <h3>
        Unknown outcomes <span className="muted small">({entries.length})</span>
      </h3>
      {entries.length === 0 ? (
        <p className="empty" data-testid="inbox-empty">
          No send with an unknown outcome.
        </p>
      ) : (
        <>
          <p className="small muted">
            These sends may or may not have run: the answer was lost. Reconciling looks for evidence (the task
            history, or a keyed replay); it never sends again blindly.
          </p>
          <ul>
            {entries.map((entry) => (
              <li key={entry.id} data-testid="inbox-entry">
                <span className="mono small" title={entry.id}>
                  {shortId(entry.id)}
                </span>{' '}
                “{entry.text}” <span className={`chip send-${entry.status}`}>{entry.status}</span>{' '}
                <span className="small">{entry.detail}</span>{' '}
                <span className="muted small">
                  · {entry.attempts} attempt(s) · {formatDuration(entry.ageMs)} old
                  {entry.notBefore === undefined ? '' : ` · next probe ${formatClock(entry.notBefore)}`}
                </span>{' '}
                <button
                  type="button"
                  disabled={agent === undefined || busy.has(entry.id) || entry.status === 'unresolved'}
                  aria-label={`Reconcile ${shortId(entry.id)}`}
                  onClick={() => void reconcile([entry.id])}
                >
                  {busy.has(entry.id) ? 'Reconciling…' : 'Reconcile'}
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            disabled={agent === undefined || due.length === 0}
            onClick={() => void reconcile(due)}
          >
            Reconcile all due ({due.length})
          </button>
        </>
      )}
      {report === undefined ? null : (
        <p className="small muted" role="status" data-testid="reconcile-report">
          {report}
        </p>
      )}
      {problem === undefined ? null : (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}

/**
An alert for each send that ran more than once (docs/durable-send.md#duplicated): a person decides which task
stands.
*/
function Duplicates({ records }: { readonly records: readonly LedgerRecord[] }) {
  const duplicated = duplicatedSends(records);
  if (duplicated.length === 0) {
    return null;
  }
  return (
    <section aria-label="Duplicated sends" className="duplicated">
      {duplicated.map((entry) => (
        <p key={entry.id} className="error" role="alert" data-testid="duplicated-alert">
          <span className="chip send-duplicated">duplicated</span> Send{' '}
          <span className="mono" title={entry.id}>
            {shortId(entry.id)}
          </span>{' '}
          “{entry.text}” ran {entry.taskIds.length} times: tasks{' '}
          <span className="mono" data-testid="duplicated-tasks">
            {entry.taskIds.join(', ')}
          </span>
          . Nothing will send or probe it again; decide which task stands.
        </p>
      ))}
    </section>
  );
}

function Importer() {
  const id = useId();
  const [read, setRead] = useState<(LedgerImport & { readonly file: string }) | undefined>(undefined);
  const sends: readonly ImportedSend[] = read?.ok === true ? read.sends : [];
  return (
    <section aria-label="Imported ledger" className="imported">
      <h3>Import a Node file ledger</h3>
      <label htmlFor={`${id}-file`}>Ledger file (JSON lines)</label>{' '}
      <input
        id={`${id}-file`}
        type="file"
        accept=".jsonl,.ndjson,.log,.json,text/plain"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file === undefined) {
            return;
          }
          void file.text().then(
            async (text) => setRead({ ...(await importLedger(text)), file: file.name }),
            () => setRead({ ok: false, problem: { line: 0, rule: 'unreadable' }, file: file.name }),
          );
        }}
      />
      {read === undefined ? null : read.ok ? (
        <>
          <p className="small" data-testid="import-status">
            <span className="chip">imported</span> {read.file}: {read.sends.length} send(s), {read.lines}{' '}
            line(s), every history verified. Read-only: nothing here can be reconciled.
          </p>
          <SendsTable
            records={sends.map((send) => send.record)}
            histories={new Map(sends.map((send) => [send.record.id, send.revisions]))}
            now={Date.now()}
            label="Imported sends"
            onShowExecutions={undefined}
          />
        </>
      ) : (
        <p className="error" role="alert" data-testid="import-error">
          {read.file} was not imported: line {read.problem.line} breaks the rule “{read.problem.rule}”.
          Nothing from it is shown.
        </p>
      )}
    </section>
  );
}

/**
The Sends panel: the unknown outcomes inbox with its reconcile actions, every durable send of the ledger with
its timeline, key, attempts and age, and a read-only import of a Node file ledger.

@example
```tsx
<SendsPanel sends={useSends(ledger)} agent={agent} />
```
*/
export function SendsPanel({ sends, agent, problem, onShowExecutions, importer = true }: SendsPanelProps) {
  const now = useNow(true, 1000);
  const [query, setQuery] = useState('');
  const kept = filterItems(query, sends.records, sendFields);
  return (
    <div className="sends-panel">
      {problem === undefined ? null : (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {sends.problem === undefined ? null : (
        <p className="error" role="alert">
          {sends.problem}
        </p>
      )}
      <Duplicates records={sends.records} />
      <Inbox records={sends.records} now={now} agent={agent} />
      <section aria-label="Durable sends">
        <h3>Durable sends</h3>
        {sends.records.length === 0 ? null : (
          <FilterBox
            what="sends"
            query={query}
            onQuery={setQuery}
            shown={kept.length}
            total={sends.records.length}
          />
        )}
        {kept.length === 0 && sends.records.length > 0 ? (
          <p className="empty" data-testid="no-match">
            No send matches the filter.
          </p>
        ) : (
          <SendsTable
            records={kept}
            histories={sends.histories}
            owners={sends.owners}
            now={now}
            label="Durable sends"
            onShowExecutions={onShowExecutions}
          />
        )}
      </section>
      {importer ? <Importer /> : null}
    </div>
  );
}
