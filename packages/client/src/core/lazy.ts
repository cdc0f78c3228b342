/**
@module
A module that loads on first use (ARCHITECTURE.md#decisions, "Code loads with its first use"): what the path of `discover()` and a plain `sendMessage()` never reaches (streams, the other binding, the retry loop, a refusal's decoding, the other operations) sits behind one dynamic `import()` each, so a web app downloads it only when a call needs it. Each `import()` stays a literal at its call site, so a bundler splits the module there.
*/
import { TransportError } from './errors.js';

/**
Loads a module at most once per realm. `dispatched` says whether the call that needs it has already sent its request: a failed load (a browser that cannot fetch the chunk) is `TransportError('network')` with that `dispatched`, and the next call tries again.

@example
```ts
const loadFrames = lazyModule(() => import('../bindings/frames.js'));
const { streamFrames } = await loadFrames(false);
```
*/
export function lazyModule<T>(load: () => Promise<T>): (dispatched: boolean) => Promise<T> {
  let loading: Promise<T> | undefined;
  return (dispatched) => {
    loading ??= load();
    const pending = loading;
    return pending.catch((cause: unknown) => {
      if (loading === pending) {
        loading = undefined;
      }
      throw new TransportError('network', { dispatched, cause });
    });
  };
}
