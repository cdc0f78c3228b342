/**
@module
The timers and close hooks of one agent's operations: everything `close()` has to stop. Scripts, waits,
streams and webhook deliveries schedule and register here, so that closing the agent ends them all at once.
*/

/** The clock and the close hooks shared by the operations of one agent. */
export type Lifecycle = {
  /** True once `close` has run: nothing new is scheduled after it. */
  readonly closed: boolean;
  /**
  Run `run` after `ms`, unless the agent closes first; returns a function that cancels it. Does nothing once
  closed.
  */
  after(ms: number, run: () => void): () => void;
  /**
  Resolves after `ms`, or as soon as the agent closes; one started after `close` never resolves, so callers
  check `closed` first.
  */
  sleep(ms: number): Promise<void>;
  /**
  Called once each by `close`: each ends one wait, stream or delivery, and removes itself when that ends
  first.
  */
  readonly onClose: Set<() => void>;
  /** Stop every timer, then call every close hook. */
  close(): void;
};

/**
Creates the lifecycle of one agent's operations.

@example
```ts
const lifecycle = createLifecycle();
const cancel = lifecycle.after(100, () => console.log('tick'));
lifecycle.close(); // the tick never comes
```
*/
export function createLifecycle(): Lifecycle {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const onClose = new Set<() => void>();
  let closed = false;

  function after(ms: number, run: () => void): () => void {
    if (closed) {
      return () => {};
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
    return () => {
      clearTimeout(timer);
      timers.delete(timer);
    };
  }

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const cancel = after(ms, () => {
        onClose.delete(done);
        resolve();
      });
      const done = (): void => {
        cancel();
        resolve();
      };
      onClose.add(done);
    });

  return {
    get closed() {
      return closed;
    },
    after,
    sleep,
    onClose,
    close() {
      closed = true;
      for (const timer of timers) {
        clearTimeout(timer);
      }
      timers.clear();
      for (const done of [...onClose]) {
        done();
      }
      onClose.clear();
    },
  };
}
