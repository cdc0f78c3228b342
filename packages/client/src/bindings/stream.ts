/**
@module
The lifecycle validator of one SendStreamingMessage or SubscribeToTask stream (docs/protocol-checks.md#stream-lifecycle): every decoded event goes through `accept`, the end of the body through `end`.

States: awaiting the first event, then either a completed direct-Message stream or a task stream that tracks the task's ids, whether it has settled, and each artifact's chunk state (known ids, sealed or not).

Reasons of the `InvalidResponseError`s it throws (all `dispatched: true`):
- `identity`: an event of another task or context, a status message that is not the agent's for this task, a first event that is not the task or message the request asked for;
- `stream`: events out of order: an update before the first Task, a second Task snapshot, a Message inside a task stream or on a subscription, anything after a Message, an `append` chunk for an artifact that was never started or already sealed by `lastChunk`;
- `lifecycle`: an event after a terminal state, or an end before the task settled (a premature end).

Decisions where the sources differ:
- After a terminal state nothing more is accepted, not even the last Task snapshot that A2A spec §11.7 lets a server send before closing: the stream lifecycle rules reject it (docs/protocol-checks.md#stream-lifecycle), and neither the official `@a2a-js/sdk` 1.3.0 server (its captured streams end with the terminal `statusUpdate`) nor `mocks/` sends one.
- An interrupted state (`INPUT_REQUIRED`, `AUTH_REQUIRED`) lets the stream end, but does not forbid further events of the same task, which recompute completion: A2A spec §7.6.1 says agents SHOULD keep the stream open after `AUTH_REQUIRED`, and the official server does exactly that, so StateKnot's stricter rule would refuse a conformant peer. A later non-settled status makes an end premature again.
- A subscription's first Task passes the whole Task identity check with the subscribed id (status message and history belong to it), not only the id comparison StateKnot makes.
- The first failure is final: any later `accept` or `end` throws that same error again, with one exception: a premature end is a break that `seam` repairs.

Across a resumption seam (docs/protocol-checks.md#stream-resumption): `seam()` marks where a broken stream continues with a SubscribeToTask (or a GetTask snapshot). The next event must be a Task snapshot of the same task and context; it replaces the artifacts held (a snapshot's artifacts are whole, so appends continue from them) and the settled state. From then on a status update older than the last status delivered is a repeat: `accept` returns `false` and the event is not delivered.

The validator's state and its transitions are in `bindings/stream-state.ts`, the checks of each kind of event in `bindings/stream-events.ts`; this module joins them into the one object a stream holds.
*/

import type { StreamResponse } from '../protocol/index.js';
import { acceptEvent } from './stream-events.js';
import {
  checkEnd,
  createStreamState,
  crossSeam,
  guarded,
  isComplete,
  type StreamOrigin,
} from './stream-state.js';

export type { StreamOrigin } from './stream-state.js';

/**
Checks the events of one stream in order. `accept` and `end` throw `InvalidResponseError` with `dispatched: true`; `accept` returns `false` for a status update a resumed stream repeats (not to be delivered again); `complete` says whether the stream may end now (after a direct Message, or once the task is terminal or interrupted); `seam` continues a task stream that broke, `settled` says how far its task has come.
*/
export type StreamValidator = {
  accept(event: StreamResponse): boolean;
  end(): void;
  /** The stream broke and continues from a fresh snapshot: throws the stream's failure unless it is none or a premature end. */
  seam(): void;
  readonly complete: boolean;
  /** `terminal` or `interrupted` once the task has reached such a state (and not left it); `undefined` otherwise. */
  readonly settled: 'terminal' | 'interrupted' | undefined;
};

/**
Creates the validator of one stream (docs/protocol-checks.md#stream-lifecycle).

@example
```ts
const validator = createStreamValidator({ kind: 'subscribe', taskId });
for await (const frame of frames) {
  validator.accept(frame.event);
  yield frame.event;
}
validator.end(); // throws on a premature end
```
*/
export function createStreamValidator(origin: StreamOrigin): StreamValidator {
  const state = createStreamState(origin);
  return {
    accept(event) {
      return guarded(state, () => acceptEvent(state, event));
    },
    end() {
      guarded(state, () => checkEnd(state));
    },
    seam() {
      crossSeam(state);
    },
    get complete() {
      return state.failure === undefined && isComplete(state);
    },
    get settled() {
      return state.phase === 'task' ? state.settled : undefined;
    },
  };
}
