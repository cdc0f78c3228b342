/**
@module
The stream half of the call runner (ARCHITECTURE.md#layers-of-the-client, layer "client"): a SendStreamingMessage or SubscribeToTask call establishes its stream through the client's binding, checks every event with the lifecycle validator (`bindings/stream.ts`) and resumes a broken stream by reading its task (docs/protocol-checks.md#stream-resumption, the loop in `stream-resumption.ts`). It loads with the first stream (ARCHITECTURE.md#decisions, "Code loads with its first use"), so `call.ts` reaches it only through a dynamic `import()`.
*/
import type { StreamFrame, StreamMethod } from './bindings/binding.js';
import { createStreamValidator, type StreamValidator } from './bindings/stream.js';
import type { Call, CallKit, CallOptions } from './call.js';
import { errorJson, streamEventKind } from './events.js';
import { carriesIdempotencyKey } from './idempotency/retry.js';
import type { OperationRequest, StreamResponse } from './protocol/index.js';
import { breakOf, type ResumePolicy, resolveResumePolicy } from './resumption.js';
import { type Resumed, resumeStream } from './stream-resumption.js';

/** One stream call as it runs: the events it has delivered and their SSE bytes, the task it follows once named, and the resumption attempts spent since it last made progress. */
type StreamCall = {
  readonly kit: CallKit;
  readonly call: Call;
  readonly options: CallOptions | undefined;
  frames: number;
  wireBytes: number;
  taskId: string | undefined;
  used: number;
};

/** The task an event of a task stream names (a direct Message ends its stream, so it never names one to resume). */
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
  run.kit.hub.emit(() => ({
    ...run.kit.base(run.call),
    type: 'stream-frame',
    index,
    wireBytes: bytes,
    kind: streamEventKind(event),
    event: structuredClone(event),
  }));
}

function reportEnd(run: StreamCall, reason: 'complete' | 'released'): void {
  run.kit.hub.emit(() => ({
    ...run.kit.base(run.call),
    type: 'stream-end',
    reason,
    frames: run.frames,
    wireBytes: run.wireBytes,
    durationMs: run.kit.elapsed(run.call),
  }));
}

/** Establishes the stream (only the establishment is retried) and the validator of its events; reports the `response`. */
async function establish(
  run: StreamCall,
  operation: StreamMethod,
  params: unknown,
): Promise<{ readonly source: AsyncIterableIterator<StreamFrame>; readonly validator: StreamValidator }> {
  const { kit, call, options } = run;
  const { hub, base, binding, prepare, attempts, start } = kit;
  const prepared = await prepare(call, params, options);
  const { request } = prepared;
  // Only the establishment is retried: once the stream is open, a break is resumed by reading the task, never by sending again (docs/idempotency.md#retry-policy, streams).
  const keyed = carriesIdempotencyKey(operation, request, kit.resolved.honoursIdempotency);
  const source = await attempts(call, keyed, options, (number) => {
    call.attempt = number;
    return start(call, prepared, options, (sent, context) =>
      binding.stream(operation, sent as OperationRequest<typeof operation>, context),
    );
  });
  // A subscription names its task from the start; a send's stream names it with its first task event.
  run.taskId =
    operation === 'subscribeToTask' ? (request as OperationRequest<'subscribeToTask'>).id : undefined;
  const validator = createStreamValidator(
    operation === 'subscribeToTask'
      ? { kind: 'subscribe', taskId: run.taskId ?? '' }
      : { kind: 'send', request: request as OperationRequest<'sendStreamingMessage'> },
  );
  hub.emit(() => ({ ...base(call), type: 'response', stream: true, durationMs: kit.elapsed(call) }));
  return { source, validator };
}

/** A break of the established stream: reports it, and resumes when it can (docs/protocol-checks.md#stream-resumption); otherwise throws `error`. */
async function resumeAfter(
  run: StreamCall,
  error: unknown,
  policy: ResumePolicy | undefined,
  validator: StreamValidator,
): Promise<Resumed> {
  const { kit, call, options, taskId, used } = run;
  const reason = breakOf(error);
  if (reason === undefined) {
    throw error;
  }
  // Nothing to resume: no policy, the task is unknown (the send's outcome is the durable agent's question), the caller stopped, or the task already reached a state where the stream may end (docs/protocol-checks.md#stream-resumption).
  const resumable =
    policy !== undefined &&
    used < policy.attempts &&
    taskId !== undefined &&
    options?.signal?.aborted !== true &&
    !validator.complete;
  kit.hub.emit(() => ({
    ...kit.base(call),
    type: 'stream-break',
    reason,
    frames: run.frames,
    resumable,
    ...(taskId === undefined ? {} : { taskId }),
    error: errorJson(error),
  }));
  if (!resumable || policy === undefined || taskId === undefined) {
    throw error;
  }
  validator.seam();
  const resumed = await resumeStream(kit, call, { taskId, broken: error, reason, used }, policy, options);
  run.used = resumed.used;
  return resumed;
}

/** Runs one stream call already begun by the caller: yields each checked event, reports `stream-*` events, and throws what the caller's `fail` returns. */
export type StreamRun = (
  call: Call,
  operation: StreamMethod,
  params: unknown,
  options: CallOptions | undefined,
) => AsyncGenerator<StreamResponse, void, undefined>;

async function* runStream(
  kit: CallKit,
  call: Call,
  operation: StreamMethod,
  params: unknown,
  options: CallOptions | undefined,
): AsyncGenerator<StreamResponse, void, undefined> {
  const run: StreamCall = { kit, call, options, frames: 0, wireBytes: 0, taskId: undefined, used: 0 };
  let settled = false;
  try {
    const policy = resolveResumePolicy(options?.resume, kit.resolved.limits.streamIdleTimeoutMs);
    const established = await establish(run, operation, params);
    const { validator } = established;
    let source: AsyncIterableIterator<StreamFrame> | undefined = established.source;
    while (source !== undefined) {
      try {
        // for-await releases the binding's iterator on every exit but its own failure: a check that throws, or the caller leaving.
        for await (const frame of source) {
          if (!validator.accept(frame.event)) {
            continue;
          }
          run.taskId ??= taskIdOf(frame.event);
          if (!('task' in frame.event)) {
            run.used = 0;
          }
          reportFrame(run, frame.event, frame.wireBytes);
          yield frame.event;
        }
        validator.end();
        source = undefined;
      } catch (error) {
        const resumed = await resumeAfter(run, error, policy, validator);
        source = resumed.source;
        if (resumed.task !== undefined) {
          const event = { task: resumed.task };
          validator.accept(event);
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
    throw kit.fail(call, error, run.frames > 0);
  } finally {
    if (!settled) {
      reportEnd(run, 'released');
    }
  }
}

/**
The stream runner of one client, built once from the caller's shared parts (`CallKit`): the same binding, events, outbound contract, retry policy and token context as its unary calls.

@example
```ts
const run = streamRunner(kit);
for await (const event of run(call, 'subscribeToTask', { id: 'task-1' }, undefined)) render(event);
```
*/
export function streamRunner(kit: CallKit): StreamRun {
  return (call, operation, params, options) => runStream(kit, call, operation, params, options);
}
