/**
@module
The code that loads with its first use (ARCHITECTURE.md#decisions, "Code loads with its first use"): `deferred.ts`, everything the path of `discover()` and a plain `sendMessage()` never reaches, behind this one dynamic `import()`, so a web app downloads it only when a call needs it. It is a load, not a dependency: nothing in `core/` uses what it loads.
*/
import type * as Deferred from '../deferred.js';
import { TransportError } from './errors.js';

let loading: Promise<typeof Deferred> | undefined;

/**
The deferred module, imported at most once per realm. `dispatched` says whether the call that needs it has already sent its request: a failed load (a browser that cannot fetch the chunk) is `TransportError('network')` with that `dispatched`, and the next call tries again.

@example
```ts
const { streamFrames, frameType } = await loadDeferred(false);
```
*/
export function loadDeferred(dispatched: boolean): Promise<typeof Deferred> {
  loading ??= import('../deferred.js');
  const pending = loading;
  return pending.catch((cause: unknown) => {
    if (loading === pending) {
      loading = undefined;
    }
    throw new TransportError('network', { dispatched, cause });
  });
}
