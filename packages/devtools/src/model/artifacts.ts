/**
@module
Artifacts put back together from their stream chunks (A2A spec, §3.2.3 TaskArtifactUpdateEvent): folded in by
`artifactId`; `append: true` adds the chunk's parts to the artifact already held, `append: false` starts it
afresh (the spec leaves a repeated `append: false` open; docs/protocol-checks.md#stream-events recommends
replacing), `lastChunk: true` marks it complete.
*/
import type { Artifact, Part, TaskArtifactUpdateEvent } from '@surecall/client';

/**
Where an assembled artifact stands: `streaming` while chunks arrive, `complete` after its `lastChunk`,
`snapshot` when it came whole from a task (GetTask, ListTasks, a stream's `task` event), which says nothing
about chunks still to come.
*/
export type ArtifactState = 'streaming' | 'complete' | 'snapshot';

/** One artifact as the devtools hold it. */
export type AssembledArtifact = {
  readonly artifactId: string;
  readonly name?: string;
  readonly description?: string;
  readonly parts: readonly Part[];
  /** Chunks folded in since the artifact last started (a snapshot counts as none). */
  readonly chunks: number;
  readonly state: ArtifactState;
  /**
  True when a chunk said `append` but nothing was held to append to: the start was missed (a subscription
  joined late) or the agent skipped it.
  */
  readonly missedStart: boolean;
};

function named(artifact: Artifact): Pick<AssembledArtifact, 'name' | 'description'> {
  return {
    ...(artifact.name === undefined ? {} : { name: artifact.name }),
    ...(artifact.description === undefined ? {} : { description: artifact.description }),
  };
}

/**
Folds one artifact update into the list, keeping first-seen order. Never changes its input.

@example
```ts
let artifacts = applyArtifactUpdate([], { taskId, contextId, artifact: { artifactId: 'text', parts: [{ text: 'alpha ' }] }, append: false, lastChunk: false });
artifacts = applyArtifactUpdate(artifacts, { taskId, contextId, artifact: { artifactId: 'text', parts: [{ text: 'beta' }] }, append: true, lastChunk: true });
artifactText(artifacts[0]); // 'alpha beta'
```
*/
export function applyArtifactUpdate(
  artifacts: readonly AssembledArtifact[],
  update: Pick<TaskArtifactUpdateEvent, 'artifact' | 'append' | 'lastChunk'>,
): AssembledArtifact[] {
  const { artifact, append, lastChunk } = update;
  const index = artifacts.findIndex((held) => held.artifactId === artifact.artifactId);
  const held = artifacts[index];
  const state: ArtifactState = lastChunk ? 'complete' : 'streaming';
  const next: AssembledArtifact =
    append && held !== undefined
      ? {
          ...held,
          ...named(artifact),
          parts: [...held.parts, ...artifact.parts],
          chunks: held.chunks + 1,
          state,
        }
      : {
          artifactId: artifact.artifactId,
          ...named(artifact),
          parts: [...artifact.parts],
          chunks: 1,
          state,
          missedStart: append,
        };
  return index === -1
    ? [...artifacts, next]
    : artifacts.map((other, position) => (position === index ? next : other));
}

/** True when two JSON values are equal, member order aside. */
function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) {
    return true;
  }
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) {
    return false;
  }
  if (Array.isArray(left) !== Array.isArray(right)) {
    return false;
  }
  const leftEntries = Object.entries(left).filter(([, value]) => value !== undefined);
  const rightMembers = right as Record<string, unknown>;
  const rightCount = Object.values(rightMembers).filter((value) => value !== undefined).length;
  return (
    leftEntries.length === rightCount &&
    leftEntries.every(([key, value]) => sameJson(value, rightMembers[key]))
  );
}

/**
The artifacts of a task snapshot, held whole. An artifact whose parts equal what was assembled from chunks
keeps its chunk history, since the snapshot only confirms it. A snapshot without `artifacts` (ListTasks leaves
them out unless asked: A2A spec, §3.1.4) keeps what is held.

@example
```ts
const artifacts = applyArtifactSnapshot(held, task.artifacts);
```
*/
export function applyArtifactSnapshot(
  artifacts: readonly AssembledArtifact[],
  snapshot: readonly Artifact[] | undefined,
): readonly AssembledArtifact[] {
  if (snapshot === undefined) {
    return artifacts;
  }
  return snapshot.map((artifact) => {
    const held = artifacts.find((entry) => entry.artifactId === artifact.artifactId);
    if (held !== undefined && held.state !== 'snapshot' && sameJson(held.parts, artifact.parts)) {
      return held;
    }
    return {
      artifactId: artifact.artifactId,
      ...named(artifact),
      parts: [...artifact.parts],
      chunks: 0,
      state: 'snapshot',
      missedStart: false,
    };
  });
}

/**
The text of an artifact: its text parts concatenated as they arrived (chunks carry their own spacing), other
parts left out.

@example
```ts
artifactText({ parts: [{ text: 'alpha ' }, { data: 1 }, { text: 'beta' }] }); // 'alpha beta'
```
*/
export function artifactText(artifact: Pick<AssembledArtifact, 'parts'>): string {
  let text = '';
  for (const part of artifact.parts) {
    if ('text' in part && typeof part.text === 'string') {
      text += part.text;
    }
  }
  return text;
}
