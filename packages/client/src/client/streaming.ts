/**
@module
The stream half of the call runner (ARCHITECTURE.md#layers-of-the-client, layer "client"): a
SendStreamingMessage or SubscribeToTask call establishes its stream through the client's binding, checks every
event with the lifecycle validator (`bindings/stream.ts`) and resumes a broken stream by reading its task
(docs/protocol-checks.md#stream-resumption). It loads with the first stream (ARCHITECTURE.md#decisions, "Code
loads with its first use"), so `call.ts` reaches it only through a dynamic `import()`.
*/
import type { StreamFrame, StreamMethod } from '../bindings/binding.js';
import { checkTask } from '../bindings/checks.js';
import { createStreamValidator, type StreamValidator } from '../bindings/stream.js';
import { TransportError } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import { pause } from '../core/pause.js';
import { carriesIdempotencyKey } from '../idempotency/retry.js';
import { methods } from '../protocol/methods.js';
import type { OperationRequest } from '../protocol/operations.js';
import type { StreamResponse } from '../protocol/stream.js';
import type { Task } from '../protocol/task.js';
import { isInterrupted, isTerminal } from '../protocol/task.js';
import {
  attempts,
  type Call,
  type CallKit,
  type CallOptions,
  elapsed,
  fail,
  prepare,
  report,
  type StreamRun,
  start,
} from './call-context.js';
import { errorJson, type StreamBreakReason, streamEventKind } from './events.js';
import {
  breakOf,
  isTransientResumeFailure,
  type ResumePolicy,
  resolveResumePolicy,
  resumeDelayMs,
} from './resumption.js';
import {
  bounded,
  countFrame,
  createStreamBudget,
  hasRoom,
  progressed,
  type StreamBudget,
  spendAttempt,
} from './stream-budget.js';

/**
What a resumption starts from: the task, the break and its reason, the attempts already spent without
progress, and what the whole stream has spent.
*/
export type ResumeSession = {
  readonly taskId: string;
  readonly broken: unknown;
  readonly reason: StreamBreakReason;
  readonly used: number;
  readonly budget: StreamBudget;
};

/**
Where a resumption left the stream: the new source, or the settled task GetTask read instead; and the attempts
spent.
*/
export type Resumed = {
  readonly source: AsyncIterableIterator<StreamFrame> | undefined;
  readonly task?: Task;
  readonly used: number;
};

/**
A resumption's own exchange (SubscribeToTask or GetTask) under the stream's `callId`: its `request` event
names the operation it really is.
*/
function exchange(call: Call, method: 'subscribeToTask' | 'getTask'): Call {
  return { id: call.id, method, operation: methods[method].name, started: call.started };
}

/**
The task by GetTask, when it has settled (terminal or interrupted); `undefined` when it has not or cannot be
read.
*/
async function finalSnapshot(
  kit: CallKit,
  call: Call,
  taskId: string,
  options: CallOptions | undefined,
): Promise<Task | undefined> {
  const get = exchange(call, 'getTask');
  try {
    const prepared = await prepare(kit, get, { id: taskId }, options);
    const { value, httpStatus } = await start(kit, get, prepared, options, (sent, context) =>
      kit.binding.unary('getTask', sent as OperationRequest<'getTask'>, context),
    );
    checkTask(value, { id: taskId }, { httpStatus });
    const { state } = value.status;
    return isTerminal(state) || isInterrupted(state) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
Resumes a stream that broke once its task was known (docs/protocol-checks.md#stream-resumption): waits,
subscribes to the task and returns the new source; after a refusal, one GetTask returns the task when it has
settled. Throws `broken` when the attempts run out, a peer asks to wait longer than allowed, or the task is
still running but cannot be subscribed to; the caller's abort during a wait ends it as an abort.

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
  const { taskId, broken, reason } = session;
  const signal = options?.signal;
  // Read afresh each time: the caller may abort during any await below.
  const aborted = (): boolean => signal?.aborted === true;
  const subscribe = exchange(call, 'subscribeToTask');
  const params = { id: taskId };
  let previous: unknown = broken;
  for (let attempt = session.used + 1; attempt <= policy.attempts; attempt += 1) {
    const delayMs = resumeDelayMs(policy, attempt, previous);
    if (delayMs === undefined || !spendAttempt(session.budget, policy, delayMs)) {
      break;
    }
    const failure = previous;
    report(kit, call, () => ({
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
      const prepared = await prepare(kit, subscribe, params, options);
      const source = await start(kit, subscribe, prepared, options, (sent, context) =>
        kit.binding.stream('subscribeToTask', sent as OperationRequest<'subscribeToTask'>, context),
      );
      return { source: bounded(session.budget, policy, source, broken), used: attempt };
    } catch (error) {
      if (aborted()) {
        throw new TransportError('aborted', { dispatched: true, cause: broken });
      }
      previous = error;
      if (!isTransientResumeFailure(error)) {
        // A refusal: A2A spec §3.1.6 answers a subscription to a terminal task with UnsupportedOperation, and
        // a peer may not serve subscriptions at all. One GetTask tells whether anything is left to wait for.
        report(kit, call, () => ({
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

/**
One stream call as it runs: what it reports its events under, the events it has delivered with their SSE
bytes, and what it may spend over every resumption.
*/
type StreamCall = {
  readonly kit: CallKit;
  readonly call: Call;
  frames: number;
  wireBytes: number;
  readonly budget: StreamBudget;
};

/**
The task an event of a task stream names (a direct Message ends its stream, so it never names one to resume).
*/
function taskIdOf(event: StreamResponse): string | undefined {
  if ('task' in event) {
    return event.task.id;
  }
  if ('statusUpdate' in event) {
    return event.statusUpdate.taskId;
  }
  return 'artifactUpdate' in event ? event.artifactUpdate.taskId : undefined;
}

/** Counts one delivered event and reports it as a `stream-frame`. */
function reportFrame(run: StreamCall, event: StreamResponse, bytes: number): void {
  const index = run.frames;
  run.frames += 1;
  run.wireBytes += bytes;
  report(run.kit, run.call, () => ({
    type: 'stream-frame',
    index,
    wireBytes: bytes,
    kind: streamEventKind(event),
    event: structuredClone(event),
  }));
}

function reportEnd(run: StreamCall, reason: 'complete' | 'released'): void {
  report(run.kit, run.call, () => ({
    type: 'stream-end',
    reason,
    frames: run.frames,
    wireBytes: run.wireBytes,
    durationMs: elapsed(run.call),
  }));
}

/**
A break of the established stream: reports it, and resumes when it can
(docs/protocol-checks.md#stream-resumption); otherwise throws `error`.
*/
function resumeAfter(
  run: StreamCall,
  error: unknown,
  policy: ResumePolicy | undefined,
  validator: StreamValidator,
  taskId: string | undefined,
  used: number,
  options: CallOptions | undefined,
): Promise<Resumed> {
  const { kit, call } = run;
  const reason = breakOf(error);
  if (reason === undefined) {
    throw error;
  }
  // Nothing to resume: no policy, the task is unknown (the send's outcome is the durable agent's question),
  // the caller stopped, or the task already reached a state where the stream may end
  // (docs/protocol-checks.md#stream-resumption).
  const resumable =
    policy !== undefined &&
    used < policy.attempts &&
    hasRoom(run.budget, policy) &&
    taskId !== undefined &&
    options?.signal?.aborted !== true &&
    !validator.complete;
  report(kit, call, () => ({
    type: 'stream-break',
    reason,
    frames: run.frames,
    resumable,
    ...optionalMembers({ taskId }),
    error: errorJson(error),
  }));
  if (!resumable || policy === undefined || taskId === undefined) {
    throw error;
  }
  validator.seam();
  return resumeStream(
    kit,
    call,
    { taskId, broken: error, reason, used, budget: run.budget },
    policy,
    options,
  );
}

async function* runStream(
  kit: CallKit,
  call: Call,
  operation: StreamMethod,
  params: unknown,
  options: CallOptions | undefined,
): AsyncGenerator<StreamResponse, void, undefined> {
  const run: StreamCall = {
    kit,
    call,
    frames: 0,
    wireBytes: 0,
    budget: createStreamBudget(kit.resolved.limits),
  };
  let settled = false;
  try {
    const policy = resolveResumePolicy(options?.resume, kit.resolved.limits.streamIdleTimeoutMs);
    const prepared = await prepare(kit, call, params, options);
    const { request } = prepared;
    // Only the establishment is retried: once the stream is open, a break is resumed by reading the task,
    // never by sending again (docs/idempotency.md#retry-policy, streams).
    const keyed = carriesIdempotencyKey(operation, request, kit.resolved.honoursIdempotency);
    let source: AsyncIterableIterator<StreamFrame> | undefined = await attempts(
      kit,
      call,
      keyed,
      options,
      (number) => {
        call.attempt = number;
        return start(kit, call, prepared, options, (sent, context) =>
          kit.binding.stream(operation, sent as OperationRequest<typeof operation>, context),
        );
      },
    );
    // A subscription names its task from the start; a send's stream names it with its first task event.
    let taskId =
      operation === 'subscribeToTask' ? (request as OperationRequest<'subscribeToTask'>).id : undefined;
    const validator = createStreamValidator(
      operation === 'subscribeToTask'
        ? { kind: 'subscribe', taskId: taskId ?? '' }
        : { kind: 'send', request: request as OperationRequest<'sendStreamingMessage'> },
    );
    report(kit, call, () => ({
      type: 'response',
      stream: true,
      durationMs: elapsed(call),
    }));
    let used = 0;
    while (source !== undefined) {
      try {
        // for-await releases the binding's iterator on every exit but its own failure: a check that throws,
        // or the caller leaving.
        for await (const frame of source) {
          countFrame(run.budget, frame);
          if (!validator.accept(frame.event)) {
            continue;
          }
          taskId ??= taskIdOf(frame.event);
          if (progressed(run.budget, frame.event)) {
            used = 0;
          }
          reportFrame(run, frame.event, frame.wireBytes);
          yield frame.event;
        }
        validator.end();
        source = undefined;
      } catch (error) {
        const resumed = await resumeAfter(run, error, policy, validator, taskId, used, options);
        used = resumed.used;
        source = resumed.source;
        if (resumed.task !== undefined) {
          const event = { task: resumed.task };
          if (!validator.accept(event)) {
            // Older than the status delivered (docs/protocol-checks.md#stream-resumption): nothing newer was
            // found, so the stream fails with its break.
            throw error;
          }
          // GetTask's answer was no SSE event: it adds no stream bytes.
          reportFrame(run, event, 0);
          yield event;
          validator.end();
        }
      }
    }
    settled = true;
    reportEnd(run, 'complete');
  } catch (error) {
    settled = true;
    throw fail(kit, call, error, run.frames > 0);
  } finally {
    if (!settled) {
      reportEnd(run, 'released');
    }
  }
}

/**
The stream runner of one client, built once from the caller's shared parts (`CallKit`): the same binding,
events, outbound contract, retry policy and token context as its unary calls.

@example
```ts
const run = streamRunner(kit);
for await (const event of run(call, 'subscribeToTask', { id: 'task-1' }, undefined)) render(event);
```
*/
export function streamRunner(kit: CallKit): StreamRun {
  return (call, operation, params, options) => runStream(kit, call, operation, params, options);
}
