import { TransportError, transportCause } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';

/** Why a deadline ended early: its own timer fired, or the caller aborted. */
export type Stop = 'timeout' | 'aborted';

/**
One AbortController driven by our own timer and the caller's signal, so that fake timers drive the deadline.
*/
export type Deadline = {
  readonly signal: AbortSignal;
  readonly stop: () => Stop | undefined;
  readonly stopTimer: () => void;
  /**
  Cancels `reader` when the deadline ends early, which ends a pending read even where fetch would not;
  `undefined` stops watching. One reader at a time: an exchange has one body.
  */
  readonly watch: (reader: Cancellable | undefined) => void;
  readonly release: () => void;
};

/**
The rejection of a wait the deadline cut short; it never reaches a caller, whose error is chosen from
`stop()`.
*/
export const halted = Symbol('halted');

/** What {@link Deadline.watch} cancels: a body's reader. */
export type Cancellable = { cancel(): Promise<void> };

function ignore(): void {}

/** Starts the deadline of one exchange: `timeoutMs` from now, or sooner when `caller` aborts. */
export function startDeadline(caller: AbortSignal | undefined, timeoutMs: number): Deadline {
  const controller = new AbortController();
  let stop: Stop | undefined;
  let reader: Cancellable | undefined;
  const end = (why: Stop): void => {
    if (stop === undefined) {
      stop = why;
      controller.abort();
      // A direct call, not a second listener on the signal: one exchange, one body.
      reader?.cancel().catch(ignore);
    }
  };
  const onCallerAbort = (): void => end('aborted');
  const timer = setTimeout(end, timeoutMs, 'timeout');
  caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    stop: () => stop,
    stopTimer: () => clearTimeout(timer),
    watch: (next) => {
      reader = next;
    },
    release: () => {
      clearTimeout(timer);
      reader = undefined;
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** Settles with `promise`, or rejects as soon as `signal` aborts, even if `promise` never settles. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(halted);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
The error of a dispatched exchange that failed: `timeout` or `aborted` when the deadline stopped it, otherwise
`otherwise`, whose `cause` is the platform error's code alone (`{ code: 'ECONNRESET' }`), never its text.
*/
export function dispatchedFailure(
  deadline: Deadline,
  otherwise: 'network' | 'read',
  platformError?: unknown,
): TransportError {
  const stopped = deadline.stop();
  const cause = stopped === undefined ? transportCause(platformError) : undefined;
  return new TransportError(stopped ?? otherwise, {
    dispatched: true,
    ...optionalMembers({ cause }),
  });
}
