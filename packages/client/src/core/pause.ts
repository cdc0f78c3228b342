/**
@module
The one wait of the library: retry backoff, stream resumption, a skill task's polling and the reconciler's
loop all wait through it.
*/

/**
Waits `ms` on `setTimeout` (so fake timers drive it); resolves `true` once the time has passed, and `false` at
once when `signal` aborts, during the wait or before it.

@example
```ts
if (!(await pause(delayMs, signal))) throw new TransportError('aborted', { dispatched: true });
```
*/
export function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
