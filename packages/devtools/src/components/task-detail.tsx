import type { A2aClient, Part } from '@surecall/client';
import type { ActionDispatch } from 'react';
import { useTaskDetail } from '../hooks/use-task-detail.js';
import { artifactText } from '../model/artifacts.js';
import type { FeedAction } from '../model/feed.js';
import { formatClock, formatState, stateSlug } from '../model/format.js';
import { currentState, type TaskView } from '../model/task-view.js';
import { ConversationView } from './conversation-view.js';

/** Props of {@link TaskDetail}. */
export type TaskDetailProps = {
  readonly client: Pick<A2aClient, 'getTask' | 'subscribeToTask'>;
  readonly taskId: string;
  /** What the devtools hold of the task, if anything yet. */
  readonly view: TaskView | undefined;
  readonly dispatch: ActionDispatch<[FeedAction]>;
};

function partText(part: Part): string {
  if ('text' in part && typeof part.text === 'string') {
    return part.text;
  }
  if ('url' in part && typeof part.url === 'string') {
    return `[file ${part.filename ?? part.url}]`;
  }
  if ('raw' in part) {
    return `[${part.mediaType ?? 'bytes'}${part.filename === undefined ? '' : ` ${part.filename}`}]`;
  }
  return JSON.stringify('data' in part ? part.data : null);
}

const liveLabel = {
  idle: '',
  subscribed: 'subscribed: updates arrive live',
  ended: 'the subscription ended with the task',
  stopped: 'stopped',
  failed: 'the subscription failed',
} as const;

/**
One task: its observed status history, its artifacts assembled from their chunks and its conversation, with
GetTask and a live SubscribeToTask. Mount it with `key={taskId}`.

@example
```tsx
<TaskDetail key={id} client={client} taskId={id} view={view} dispatch={dispatch} />
```
*/
export function TaskDetail({ client, taskId, view, dispatch }: TaskDetailProps) {
  const detail = useTaskDetail(client, taskId, dispatch);
  const state = view === undefined ? undefined : currentState(view);
  return (
    <article className="task-detail" aria-label={`Task ${taskId}`}>
      <h2>
        Task <span className="mono">{taskId}</span>{' '}
        {state === undefined ? null : (
          <span className={`chip state-${stateSlug(state)}`} data-testid="task-state">
            {formatState(state)}
          </span>
        )}
      </h2>
      {view === undefined ? null : (
        <p className="muted">
          context <span className="mono">{view.contextId}</span>
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={() => void detail.refresh()} disabled={detail.refreshing}>
          {detail.refreshing ? 'Fetching…' : 'Refresh (GetTask)'}
        </button>
        {detail.live === 'subscribed' ? (
          <button type="button" onClick={detail.stop}>
            Stop live updates
          </button>
        ) : (
          <button type="button" onClick={() => void detail.subscribe()}>
            Subscribe live (SubscribeToTask)
          </button>
        )}
        <span className="muted" role="status">
          {liveLabel[detail.live]}
        </span>
      </div>
      {detail.error === undefined ? null : <p className="error">{detail.error}</p>}

      <section aria-label="Status history">
        <h3>Status history</h3>
        {view === undefined || view.statusHistory.length === 0 ? (
          <p className="muted">No status seen yet.</p>
        ) : (
          <ol className="timeline">
            {view.statusHistory.map((entry) => (
              <li key={`${entry.observedAt}-${entry.state}-${entry.timestamp ?? ''}`}>
                <span className={`chip state-${stateSlug(entry.state)}`}>{formatState(entry.state)}</span>{' '}
                <span className="mono small">
                  {entry.timestamp ?? 'no timestamp'} · seen {formatClock(entry.observedAt)} · {entry.source}
                </span>
                {entry.text === undefined ? null : <span> “{entry.text}”</span>}
              </li>
            ))}
          </ol>
        )}
      </section>

      <section aria-label="Artifacts">
        <h3>Artifacts</h3>
        {view === undefined || view.artifacts.length === 0 ? (
          <p className="muted">No artifacts yet.</p>
        ) : (
          view.artifacts.map((artifact) => (
            <div key={artifact.artifactId} className="artifact" data-testid="artifact">
              <p>
                <strong>{artifact.name ?? artifact.artifactId}</strong>{' '}
                <span className={`chip artifact-${artifact.state}`}>{artifact.state}</span>{' '}
                <span className="muted small">
                  {artifact.state === 'snapshot'
                    ? 'fetched whole'
                    : `${artifact.chunks} ${artifact.chunks === 1 ? 'chunk' : 'chunks'} assembled`}
                  {artifact.missedStart ? ' · its first chunk was not seen' : ''}
                </span>
              </p>
              <pre className="artifact-text" data-testid="artifact-text">
                {artifactText(artifact) || artifact.parts.map(partText).join('\n')}
              </pre>
            </div>
          ))
        )}
      </section>

      <ConversationView view={view} />
    </article>
  );
}
