/**
@module
The state of one stream's lifecycle validator (`bindings/stream.ts`,
docs/protocol-checks.md#stream-lifecycle), as one explicit record: where the stream comes from, how far it has
come (its phase, its task's ids and settled state, each artifact's chunk state), where a resumption seam left
it (docs/protocol-checks.md#stream-resumption), and its first failure, which stays final. The functions over
it are `bindings/stream.ts`'s.
*/
import type { SendMessageRequest } from '../protocol/send-message.js';

/**
Where a stream comes from: a streaming send (checked against its request) or a subscription to one task.
*/
export type StreamOrigin =
  | { readonly kind: 'send'; readonly request: SendMessageRequest }
  | { readonly kind: 'subscribe'; readonly taskId: string };

/**
`terminal` or `interrupted` once the task has reached such a state (and not left it); `undefined` otherwise.
*/
export type Settled = 'terminal' | 'interrupted' | undefined;

/** Everything one validator holds between two events; a member left out has not happened yet. */
export type StreamState = {
  readonly origin: StreamOrigin;
  /** `seam`: a task stream that broke, waiting for the snapshot its resumption starts with. */
  phase: 'awaiting-first' | 'message' | 'task' | 'seam';
  owner: { readonly taskId: string; readonly contextId: string };
  settled?: Settled;
  /** artifactId → sealed (its `lastChunk` was seen). */
  readonly artifacts: Map<string, boolean>;
  /** The first check that failed, thrown again by every later one. */
  failure?: unknown;
  /** The failure is a premature end, a break that a seam repairs. */
  prematureEnd?: boolean;
  /** Once a seam was crossed, the timestamp of the last status delivered: older updates are repeats. */
  resumed?: boolean;
  lastStatusTime?: string | undefined;
};
