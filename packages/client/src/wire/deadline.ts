import { TransportError, transportCause } from '../core/errors.js';

/** Why a deadline ended early: its own timer fired, or the caller aborted. */
export type Stop = 'timeout' | 'aborted';

/** One AbortController driven by our own timer and the caller's signal, so that fake timers drive the deadline. */
export type Deadline = {
  readonly signal: AbortSignal;
  stop(): Stop | undefined;
  stopTimer(): void;
  /** Cancels `reader` when the deadline ends early, which ends a pending read even where fetch would not; `undefined` stops watching. One reader at a time: an exchange has one body. */
  watch(reader: Cancellable | undefined): void;
  release(): void;
};

/** The rejection of a wait the deadline cut short; it never reaches a caller, whose error is chosen from `stop()`. */
export const halted = Symbol('halted');

/** What {@link Deadline.watch} cancels: a body's reader. */
export type Cancellable = { cancel(): Promise<void> };

function ignore(): void {}

function expire(deadline: ExchangeDeadline): void {
  deadline.end('timeout');
}

/**
A class rather than a record of closures: every exchange makes one, so its methods live once on the prototype, the timer gets the deadline as its argument, and the caller's signal calls the deadline itself as an `EventListener` object (DOM standard, `handleEvent`). The body's reader is cancelled by a direct call, not a second listener on `signal`.
*/
class ExchangeDeadline implements Deadline {
  readonly signal: AbortSignal;
  private readonly controller: AbortController;
  private readonly caller: AbortSignal | undefined;
  private readonly timer: ReturnType<typeof setTimeout>;
  private stopped: Stop | undefined;
  private reader: Cancellable | undefined;

  constructor(caller: AbortSignal | undefined, timeoutMs: number) {
    this.controller = new AbortController();
    this.signal = this.controller.signal;
    this.caller = caller;
    this.timer = setTimeout(expire, timeoutMs, this);
    caller?.addEventListener('abort', this, { once: true });
  }

  end(why: Stop): void {
    if (this.stopped === undefined) {
      this.stopped = why;
      this.controller.abort();
      this.reader?.cancel().catch(ignore);
    }
  }

  handleEvent(): void {
    this.end('aborted');
  }

  stop(): Stop | undefined {
    return this.stopped;
  }

  stopTimer(): void {
    clearTimeout(this.timer);
  }

  watch(reader: Cancellable | undefined): void {
    this.reader = reader;
  }

  release(): void {
    clearTimeout(this.timer);
    this.reader = undefined;
    this.caller?.removeEventListener('abort', this);
  }
}

/** Starts the deadline of one exchange: `timeoutMs` from now, or sooner when `caller` aborts. */
export function startDeadline(caller: AbortSignal | undefined, timeoutMs: number): Deadline {
  return new ExchangeDeadline(caller, timeoutMs);
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

/** The error of a dispatched exchange that failed: `timeout` or `aborted` when the deadline stopped it, otherwise `otherwise`, whose `cause` is the platform error's code alone (`{ code: 'ECONNRESET' }`), never its text. */
export function dispatchedFailure(
  deadline: Deadline,
  otherwise: 'network' | 'read',
  platformError?: unknown,
): TransportError {
  const stopped = deadline.stop();
  const cause = stopped === undefined ? transportCause(platformError) : undefined;
  return new TransportError(stopped ?? otherwise, {
    dispatched: true,
    ...(cause === undefined ? {} : { cause }),
  });
}
