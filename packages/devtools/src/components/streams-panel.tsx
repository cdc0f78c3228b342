import { useState } from 'react';
import { useNow } from '../hooks/use-now.js';
import { filterItems, frameFields } from '../model/filter.js';
import { formatBytes, formatClock, formatDuration, formatError, shortId } from '../model/format.js';
import { type Meter, type MeterLimits, streamMeters } from '../model/meters.js';
import type { SeamRow, StreamLog, StreamsState } from '../model/streams.js';
import { FilterBox } from './filter-box.js';
import { JsonTree } from './json-tree.js';

/** Props of {@link StreamsPanel}. */
export type StreamsPanelProps = {
  readonly streams: StreamsState;
  readonly limits: MeterLimits;
  /** The trace id of a call by its `callId`, when it was traced (docs/tracing.md#devtools). */
  readonly traceIdOf?: ((callId: number) => string | undefined) | undefined;
};

const precisionMark = { exact: '', 'at-most': '≤ ', 'at-least': '≥ ' } as const;

function amount(meter: Meter, value: number): string {
  switch (meter.unit) {
    case 'bytes':
      return formatBytes(value);
    case 'ms':
      return formatDuration(value);
    case 'events':
      return String(value);
  }
}

function MeterRow({ meter }: { readonly meter: Meter }) {
  const percent = meter.ratio * 100;
  const shown = percent > 0 && percent < 0.1 ? '<0.1' : percent.toFixed(1).replace(/\.0$/, '');
  const text = `${precisionMark[meter.precision]}${amount(meter, meter.value)} of ${amount(meter, meter.limit)} (${shown}%)`;
  return (
    <div className={`meter-row level-${meter.level}`} data-bound={meter.bound}>
      <span className="meter-label" title={meter.limitName}>
        {meter.label}
      </span>
      <meter
        min={0}
        max={meter.limit}
        low={meter.limit * 0.8}
        high={meter.limit * 0.8}
        optimum={0}
        value={Math.min(meter.value, meter.limit)}
        aria-label={`${meter.label}: ${text}`}
      />
      <span className="meter-text">{text}</span>
    </div>
  );
}

/** One line for a break and its resumption attempts: the seam between the frames before and after it. */
function seamText(seam: SeamRow): string {
  const broke = `stream broke (${seam.reason}) after ${seam.at} frame${seam.at === 1 ? '' : 's'}`;
  if (!seam.resumable) {
    return `${broke}: not resumed`;
  }
  const attempts = seam.resumes.map(
    (resume) =>
      `attempt ${resume.attempt} by ${resume.via}${resume.delayMs > 0 ? ` after ${formatDuration(resume.delayMs)}` : ''}`,
  );
  return `${broke}; resumed: ${attempts.length === 0 ? 'waiting' : attempts.join(', ')}`;
}

function SeamLine({ seam }: { readonly seam: SeamRow }) {
  return (
    <tr className="seam" data-testid="stream-seam">
      <td colSpan={6}>
        <span className="mono">{formatClock(seam.time)}</span> {seamText(seam)}
      </td>
    </tr>
  );
}

/** The stream's trace id, so a person can look its span up in their tracing backend. */
function TraceId({ traceId }: { readonly traceId: string }) {
  return (
    <>
      {' · '}
      <span className="small muted" title="The trace id of the stream (docs/tracing.md#devtools)">
        trace{' '}
        <span className="mono" data-testid="stream-trace-id">
          {traceId}
        </span>
      </span>
    </>
  );
}

type StreamDetailProps = {
  readonly stream: StreamLog;
  readonly limits: MeterLimits;
  readonly traceId: string | undefined;
};

function StreamDetail({ stream, limits, traceId }: StreamDetailProps) {
  const now = useNow(
    stream.status === 'open' || stream.status === 'connecting' || stream.status === 'resuming',
  );
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const [query, setQuery] = useState('');
  const kept = new Set(filterItems(query, stream.frames, frameFields));
  const frame =
    stream.frames.find((row) => row.index === selected) ?? stream.frames[stream.frames.length - 1];
  const meters = streamMeters(stream, limits, now);
  const duration = (stream.endedAt ?? now) - stream.startedAt;
  return (
    <div className="stream-detail">
      <h2>
        Stream #{stream.callId} · {stream.operation}
      </h2>
      <p className="muted">
        {stream.binding}
        {stream.taskId === undefined ? '' : ` · task ${shortId(stream.taskId)}`} · started{' '}
        {formatClock(stream.startedAt)} UTC · {formatDuration(duration)}
        {stream.attempt > 1 ? ` · attempt ${stream.attempt}` : ''} ·{' '}
        <span className={`chip status-${stream.status}`} data-testid="stream-status">
          {stream.status}
        </span>
        {traceId === undefined ? null : <TraceId traceId={traceId} />}
      </p>
      {stream.error === undefined ? null : (
        <p className="error" role="status">
          {formatError(stream.error)}
        </p>
      )}
      <section aria-label="Bounds" className="meters">
        <h3>Bounds</h3>
        {meters.map((meter) => (
          <MeterRow key={meter.bound} meter={meter} />
        ))}
        <p className="muted small">
          ≤ and ≥ mark bounds of the truth: the client reports each event’s wire size and arrival, not its
          lines or reads.
        </p>
      </section>
      <section aria-label="Frames">
        <h3>Frames</h3>
        <FilterBox
          what="frames"
          query={query}
          onQuery={setQuery}
          shown={kept.size}
          total={stream.frames.length}
        />
        <div className="table-scroll">
          <table className="frames">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Kind</th>
                <th scope="col">Arrival (UTC)</th>
                <th scope="col">Gap</th>
                <th scope="col">Size</th>
                <th scope="col">Event</th>
              </tr>
            </thead>
            <tbody>
              {stream.frames.map((row) =>
                // A seam stays at its place while the query hides frames around it.
                [
                  ...stream.seams
                    .filter((seam) => seam.at === row.index)
                    .map((seam) => <SeamLine key={`seam-${seam.time}-${seam.at}`} seam={seam} />),
                  <tr
                    key={row.index}
                    className={row === frame ? 'selected' : undefined}
                    hidden={!kept.has(row)}
                    data-testid="frame"
                  >
                    <td>{row.index}</td>
                    <td>{row.kind}</td>
                    <td className="mono">{formatClock(row.time)}</td>
                    <td className="num">{formatDuration(row.gapMs)}</td>
                    <td className="num">{formatBytes(row.wireBytes)}</td>
                    <td>
                      <button
                        type="button"
                        className="link"
                        aria-pressed={row === frame}
                        onClick={() => setSelected(row.index)}
                      >
                        {row.summary}
                      </button>
                    </td>
                  </tr>,
                ],
              )}
              {stream.seams
                .filter((seam) => seam.at >= stream.frames.length)
                .map((seam) => (
                  <SeamLine key={`seam-${seam.time}-${seam.at}`} seam={seam} />
                ))}
            </tbody>
          </table>
        </div>
        {stream.frames.length === 0 ? <p className="muted">No frames yet.</p> : null}
      </section>
      {frame === undefined ? null : (
        <section aria-label="Frame JSON">
          <h3>Frame {frame.index} JSON</h3>
          <JsonTree
            key={`${stream.callId}-${frame.index}`}
            value={frame.event}
            label={`Frame ${frame.index} JSON`}
            openDepth={6}
          />
        </section>
      )}
    </div>
  );
}

/**
The frame inspector: every stream the client opened, and for the chosen one its bound meters, its frames
(arrival, gap, size) with a line at each seam where the stream broke and was resumed, and each frame's JSON.

@example
```tsx
<StreamsPanel streams={feed.streams} limits={defaultLimits} />
```
*/
export function StreamsPanel({ streams, limits, traceIdOf }: StreamsPanelProps) {
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  const newestFirst = [...streams.streams].reverse();
  const stream = newestFirst.find((entry) => entry.callId === chosen) ?? newestFirst[0];
  if (stream === undefined) {
    return (
      <p className="empty">
        No streams yet. Send a streamed task from the send box, or subscribe to a task from the Tasks panel.
      </p>
    );
  }
  return (
    <div className="streams-panel split">
      <nav aria-label="Streams" className="list">
        <ul>
          {newestFirst.map((entry) => (
            <li key={entry.callId}>
              <button
                type="button"
                aria-current={entry === stream ? 'true' : undefined}
                onClick={() => setChosen(entry.callId)}
              >
                <span>
                  #{entry.callId} {entry.operation}
                </span>
                <span className="muted small">
                  <span className={`chip status-${entry.status}`}>{entry.status}</span> {entry.frames.length}{' '}
                  frames · {formatBytes(entry.wireBytes)}
                  {entry.seams.length === 0
                    ? ''
                    : ` · ${entry.seams.length} break${entry.seams.length === 1 ? '' : 's'}`}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <StreamDetail
        key={stream.callId}
        stream={stream}
        limits={limits}
        traceId={traceIdOf?.(stream.callId)}
      />
    </div>
  );
}
