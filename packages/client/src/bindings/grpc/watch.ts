/**
@module
The clock and cancellation of one gRPC call (`channel.ts`): one deadline at a time, the caller's signal, and
why the call was cancelled. A call cancels through plain callbacks: an `AbortController` and its listeners are
made only for a token provider, the one party that is handed a signal
(docs/protocol-checks.md#token-provider), since building one per call is most of a gRPC call's own cost on
loopback (`npm run bench -- grpc`).
*/
import type { Cancelled } from './status.js';

/** The call's clock and cancellation. */
export type Watch = {
  /** Why the call was cancelled, once it was. */
  readonly why: Cancelled | undefined;
  /** Runs `action` once when the call is cancelled, at once when it already was. */
  onCancel(action: () => void): void;
  /** A signal that aborts with the call, for a token provider; made at its first use. */
  signal(): AbortSignal;
  /** Cancels the call for `why` after `ms`, instead of any bound armed before. */
  arm(ms: number, why: Cancelled): void;
  /** Stops the clock without ending the call: an established stream waits for its reader without a bound. */
  disarm(): void;
  /** Stops the clock and forgets the caller's signal: the call is over. */
  stop(): void;
};

/**
The watch of one call, cancelled by `caller` too.

@example
```ts
const clock = watch(options.signal);
clock.arm(limits.requestTimeoutMs, 'timeout');
clock.onCancel(() => pending.cancel());
```
*/
export function watch(caller: AbortSignal | undefined): Watch {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let why: Cancelled | undefined;
  let actions: (() => void)[] = [];
  let controller: AbortController | undefined;
  const cancel = (reason: Cancelled) => {
    if (why !== undefined) {
      return;
    }
    why = reason;
    clearTimeout(timer);
    const pending = actions;
    actions = [];
    for (const action of pending) {
      action();
    }
    controller?.abort();
  };
  const onAbort = () => cancel('aborted');
  if (caller?.aborted === true) {
    onAbort();
  } else {
    caller?.addEventListener('abort', onAbort, { once: true });
  }
  return {
    get why() {
      return why;
    },
    onCancel(action) {
      if (why !== undefined) {
        action();
      } else {
        actions.push(action);
      }
    },
    signal() {
      if (controller === undefined) {
        controller = new AbortController();
        if (why !== undefined) {
          controller.abort();
        }
      }
      return controller.signal;
    },
    arm(ms, reason) {
      clearTimeout(timer);
      timer = setTimeout(() => cancel(reason), ms);
    },
    disarm() {
      clearTimeout(timer);
    },
    stop() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}
