/**
@module
What one caller's stream spends across every resumption (docs/protocol-checks.md#stream-resumption,
"Budgets"): its connections together carry at most `limits.sseEvents` events and `limits.sseTotalBytes` bytes,
as one connection would, and its resumptions at most `resume.totalAttempts` attempts and `resume.totalTimeMs`
without progress. Progress is strict: an update beyond the snapshot with a new state or a new artifact; a
repeat, an identical update or a clean end is none. The state is one record (`StreamBudget`) that
`streaming.ts` holds for the stream and moves through these functions.
*/
import type { StreamFrame } from '../bindings/binding.js';
import { InvalidResponseError } from '../core/errors.js';
import type { Limits } from '../core/limits.js';
import type { StreamResponse } from '../protocol/stream.js';
import type { TaskState } from '../protocol/task.js';
import type { ResumePolicy } from './resumption.js';

/** Everything one stream has spent so far, over all its connections. */
export type StreamBudget = {
  readonly limits: Pick<Limits, 'sseEvents' | 'sseTotalBytes'>;
  /** SSE events and their bytes received, repeats included. */
  events: number;
  bytes: number;
  /** Resumption attempts made, progress or not. */
  attempts: number;
  /** Milliseconds spent resuming without progress, in the spans already closed by progress. */
  spentMs: number;
  /** When the open span began: the break that progress has not yet followed. */
  since?: number | undefined;
  /** The last state delivered, and the artifacts the consumer holds: what progress is measured against. */
  state?: TaskState;
  readonly artifacts: Set<string>;
};

/**
The budget of a new stream, under the client's bounds.

@example
```ts
const budget = createStreamBudget(kit.resolved.limits);
```
*/
export function createStreamBudget(limits: StreamBudget['limits']): StreamBudget {
  return { limits, events: 0, bytes: 0, attempts: 0, spentMs: 0, artifacts: new Set() };
}

/**
Counts one frame received against the stream's event and byte budgets. A connection's own decoder refuses what
passes them within it first; across connections the same rules apply, with `offset` counted over the whole
stream (the bytes before the refused event for `too-many-events`, `sseTotalBytes` for `stream-too-large`).
Throws `InvalidResponseError('sse')`.

@example
```ts
countFrame(budget, frame); // before the lifecycle checks
```
*/
export function countFrame(budget: StreamBudget, frame: StreamFrame): void {
  const before = budget.bytes;
  budget.events += 1;
  budget.bytes += frame.wireBytes;
  // docs/protocol-checks.md#sse-decoding: the rules a single connection breaks, for the caller's one stream.
  if (budget.events > budget.limits.sseEvents) {
    throw refusal('too-many-events', before);
  }
  if (budget.bytes > budget.limits.sseTotalBytes) {
    throw refusal('stream-too-large', budget.limits.sseTotalBytes);
  }
}

function refusal(rule: 'too-many-events' | 'stream-too-large', offset: number): InvalidResponseError {
  return new InvalidResponseError('sse', { dispatched: true, violation: { rule, offset } });
}

/**
Takes one delivered event into account; returns whether it is progress: a status update with another state
than the last delivered, or an artifact update that appends or names an artifact the consumer does not hold. A
Task snapshot is never progress: it sets what the next updates are measured against. Progress closes the open
span of resumption time.

@example
```ts
if (progressed(budget, event)) used = 0;
```
*/
export function progressed(budget: StreamBudget, event: StreamResponse): boolean {
  let fresh = false;
  if ('task' in event) {
    budget.state = event.task.status.state;
    budget.artifacts.clear();
    for (const artifact of event.task.artifacts ?? []) {
      budget.artifacts.add(artifact.artifactId);
    }
  } else if ('statusUpdate' in event) {
    const { state } = event.statusUpdate.status;
    fresh = state !== budget.state;
    budget.state = state;
  } else if ('artifactUpdate' in event) {
    const { artifact, append } = event.artifactUpdate;
    fresh = append || !budget.artifacts.has(artifact.artifactId);
    budget.artifacts.add(artifact.artifactId);
  }
  if (fresh && budget.since !== undefined) {
    budget.spentMs += performance.now() - budget.since;
    budget.since = undefined;
  }
  return fresh;
}

/** The milliseconds of resumption left: `totalTimeMs` less the closed spans and the open one. */
function remainingMs(budget: StreamBudget, policy: ResumePolicy): number {
  const open = budget.since === undefined ? 0 : performance.now() - budget.since;
  return policy.totalTimeMs - budget.spentMs - open;
}

/**
Whether the stream may resume once more: room for one more event and byte (a resumed stream starts with its
snapshot), an attempt and some time left.

@example
```ts
const resumable = policy !== undefined && hasRoom(budget, policy) && …;
```
*/
export function hasRoom(budget: StreamBudget, policy: ResumePolicy): boolean {
  return (
    budget.events < budget.limits.sseEvents &&
    budget.bytes < budget.limits.sseTotalBytes &&
    budget.attempts < policy.totalAttempts &&
    remainingMs(budget, policy) > 0
  );
}

/**
Spends one attempt that first waits `delayMs`: opens the span of resumption time at the first attempt after
progress, and returns `false`, spending nothing, when no attempt is left or the wait would use up the time
left.

@example
```ts
if (!spendAttempt(budget, policy, delayMs)) throw broken;
```
*/
export function spendAttempt(budget: StreamBudget, policy: ResumePolicy, delayMs: number): boolean {
  budget.since ??= performance.now();
  if (budget.attempts >= policy.totalAttempts || remainingMs(budget, policy) <= delayMs) {
    return false;
  }
  budget.attempts += 1;
  return true;
}

/**
A resumed stream under the stream's resumption time: until it makes progress (`progressed`), a read that
outlasts the time left ends it, releasing the source, and rejects with `broken`, the break being resumed,
which the time left then no longer lets resume.

@example
```ts
return { source: bounded(budget, policy, source, broken), used: attempt };
```
*/
export function bounded(
  budget: StreamBudget,
  policy: ResumePolicy,
  source: AsyncIterableIterator<StreamFrame>,
  broken: unknown,
): AsyncIterableIterator<StreamFrame> {
  return {
    next() {
      if (budget.since === undefined) {
        return source.next();
      }
      return new Promise((resolve, reject) => {
        // With no time left the timer fires at once: only a frame already read can come first.
        const timer = setTimeout(
          () => {
            // The time is spent, whatever a timer's rounding left over: the break this ends is not resumed.
            budget.spentMs = policy.totalTimeMs;
            // Not awaited: the break is thrown at once, and the source releases its body as on every way out
            // (`bindings/frames.ts`).
            source.return?.().catch(ignore);
            reject(broken);
          },
          remainingMs(budget, policy),
        );
        source.next().then(
          (step) => {
            clearTimeout(timer);
            resolve(step);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error);
          },
        );
      });
    },
    return() {
      return source.return?.() ?? Promise.resolve({ done: true, value: undefined });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

function ignore(): void {
  // A failed release changes nothing: the stream has already ended.
}
