/**
@module
Test support: what a consumer of a stream assembles from its events, the way
docs/protocol-checks.md#stream-resumption tells it to: a `task` event replaces everything held (its artifacts
are whole), a status update replaces the status, an artifact update starts, replaces or appends to its
artifact.
*/
import type { StreamResponse } from '../../src/protocol/stream.js';
import type { Artifact, TaskStatus } from '../../src/protocol/task.js';

/** The consumer's view of one task. */
export type Assembled = {
  readonly taskId: string | undefined;
  readonly status: TaskStatus | undefined;
  /** artifactId → the concatenated text of its parts. */
  readonly artifacts: Readonly<Record<string, string>>;
};

function text(artifact: Artifact): string {
  return artifact.parts.map((part) => ('text' in part ? part.text : '')).join('');
}

/**
Folds the events a stream delivered into the consumer's view.

@example
```ts
assemble(events).artifacts.text; // 'alpha beta gamma'
```
*/
export function assemble(events: readonly StreamResponse[]): Assembled {
  let taskId: string | undefined;
  let status: TaskStatus | undefined;
  let artifacts: Record<string, string> = {};
  for (const event of events) {
    if ('task' in event) {
      taskId = event.task.id;
      status = event.task.status;
      artifacts = Object.fromEntries(
        (event.task.artifacts ?? []).map((artifact) => [artifact.artifactId, text(artifact)]),
      );
    } else if ('statusUpdate' in event) {
      status = event.statusUpdate.status;
    } else if ('artifactUpdate' in event) {
      const { artifact, append } = event.artifactUpdate;
      artifacts = {
        ...artifacts,
        [artifact.artifactId]: (append ? (artifacts[artifact.artifactId] ?? '') : '') + text(artifact),
      };
    }
  }
  return { taskId, status, artifacts };
}
