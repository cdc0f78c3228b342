/**
@module
The stream machinery (`frames.ts` and the SSE decoder under it) loads with the first stream, so an application that only sends and reads never downloads it (ARCHITECTURE.md#decisions, "Streams load on first use").
*/
import { TransportError } from '../core/errors.js';
import type * as Frames from './frames.js';

let loading: Promise<typeof Frames> | undefined;

/**
The frames module, imported once per realm. Called before anything is sent: a failed load (a browser that cannot fetch the chunk) is `TransportError('network')` with `dispatched: false`, and the next stream tries again.

@example
```ts
const { streamFrames, frameType } = await loadFrames();
```
*/
export function loadFrames(): Promise<typeof Frames> {
  loading ??= import('./frames.js').catch((cause: unknown) => {
    loading = undefined;
    throw new TransportError('network', { dispatched: false, cause });
  });
  return loading;
}
