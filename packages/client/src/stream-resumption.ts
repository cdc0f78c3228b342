/**
@module
The resumption of a broken stream (docs/protocol-checks.md#stream-resumption), the loop the stream runner (`streaming.ts`) enters at a break once the stream has named its task: wait, subscribe to the task again, and after a refusal read it once with GetTask. Its exchanges run under the stream's `callId` through the client's same binding, bounds, pin and token provider; the policy and its waits are `resumption.ts`'s. It loads with the stream runner (ARCHITECTURE.md#decisions, "Code loads with its first use").
*/
import type { StreamFrame } from './bindings/binding.js';
import { checkTask } from './bindings/checks.js';
import type { Call, CallKit, CallOptions } from './call.js';
import { TransportError } from './core/errors.js';
import { pause } from './core/pause.js';
import { errorJson, type StreamBreakReason } from './events.js';
import type { OperationRequest, Task } from './protocol/index.js';
import { isInterrupted, isTerminal } from './protocol/index.js';
import { methods } from './protocol/methods.js';
import { isTransientResumeFailure, type ResumePolicy, resumeDelayMs } from './resumption.js';

/** What a resumption starts from: the task, the break and its reason, and the attempts already spent without progress. */
export type ResumeSession = {
  readonly taskId: string;
  readonly broken: unknown;
  readonly reason: StreamBreakReason;
  readonly used: number;
};

/** Where a resumption left the stream: the new source, or the settled task GetTask read instead; and the attempts spent. */
export type Resumed = {
  readonly source: AsyncIterableIterator<StreamFrame> | undefined;
  readonly task?: Task;
  readonly used: number;
};

/** A resumption's own exchange (SubscribeToTask or GetTask) under the stream's `callId`: its `request` event names the operation it really is. */
function exchange(call: Call, method: 'subscribeToTask' | 'getTask'): Call {
  return { id: call.id, method, operation: methods[method].name, started: call.started };
}

/** The task by GetTask, when it has settled (terminal or interrupted); `undefined` when it has not or cannot be read. */
async function finalSnapshot(
  kit: CallKit,
  call: Call,
  taskId: string,
  options: CallOptions | undefined,
): Promise<Task | undefined> {
  const { binding, prepare, start } = kit;
  const get = exchange(call, 'getTask');
  try {
    const prepared = await prepare(get, { id: taskId }, options);
    const { value, httpStatus } = await start(get, prepared, options, (sent, context) =>
      binding.unary('getTask', sent as OperationRequest<'getTask'>, context),
    );
    checkTask(value, { id: taskId }, { httpStatus });
    const { state } = value.status;
    return isTerminal(state) || isInterrupted(state) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
Resumes a stream that broke once its task was known (docs/protocol-checks.md#stream-resumption): waits, subscribes to the task and returns the new source; after a refusal, one GetTask returns the task when it has settled. Throws `broken` when the attempts run out, a peer asks to wait longer than allowed, or the task is still running but cannot be subscribed to; the caller's abort during a wait ends it as an abort.

@example
```ts
validator.seam();
const resumed = await resumeStream(kit, call, { taskId, broken: error, reason, used }, policy, options);
```
*/
export async function resumeStream(
  kit: CallKit,
  call: Call,
  session: ResumeSession,
  policy: ResumePolicy,
  options: CallOptions | undefined,
): Promise<Resumed> {
  const { hub, base, binding, prepare, start } = kit;
  const { taskId, broken, reason } = session;
  const signal = options?.signal;
  // Read afresh each time: the caller may abort during any await below.
  const aborted = (): boolean => signal?.aborted === true;
  const subscribe = exchange(call, 'subscribeToTask');
  const params = { id: taskId };
  let previous: unknown = broken;
  for (let attempt = session.used + 1; attempt <= policy.attempts; attempt += 1) {
    const delayMs = resumeDelayMs(policy, attempt, previous);
    if (delayMs === undefined) {
      break;
    }
    const failure = previous;
    hub.emit(() => ({
      ...base(call),
      type: 'stream-resume',
      attempt,
      reason,
      delayMs,
      taskId,
      via: 'SubscribeToTask',
      error: errorJson(failure),
    }));
    if (!(await pause(delayMs, signal))) {
      throw new TransportError('aborted', { dispatched: true, cause: broken });
    }
    try {
      // The same binding, bounds, pin and token provider; a read of the task, never the message again.
      const prepared = await prepare(subscribe, params, options);
      const source = await start(subscribe, prepared, options, (sent, context) =>
        binding.stream('subscribeToTask', sent as OperationRequest<'subscribeToTask'>, context),
      );
      return { source, used: attempt };
    } catch (error) {
      if (aborted()) {
        throw new TransportError('aborted', { dispatched: true, cause: broken });
      }
      previous = error;
      if (!isTransientResumeFailure(error)) {
        // A refusal: A2A spec §3.1.6 answers a subscription to a terminal task with UnsupportedOperation, and a peer may not serve subscriptions at all. One GetTask tells whether anything is left to wait for.
        hub.emit(() => ({
          ...base(call),
          type: 'stream-resume',
          attempt,
          reason,
          delayMs: 0,
          taskId,
          via: 'GetTask',
          error: errorJson(error),
        }));
        const task = await finalSnapshot(kit, call, taskId, options);
        if (aborted()) {
          throw new TransportError('aborted', { dispatched: true, cause: broken });
        }
        if (task === undefined) {
          throw broken;
        }
        return { source: undefined, task, used: attempt };
      }
    }
  }
  throw broken;
}
