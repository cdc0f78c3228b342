/**
@module
The stream machinery (`frames.ts` and the SSE decoder under it) loads with the first stream, so an application that only sends and reads never downloads it (ARCHITECTURE.md#decisions, "Code loads with its first use").
*/
import { lazyModule } from '../core/lazy.js';

/**
The frames module, imported once per realm. Called before anything is sent: a failed load (a browser that cannot fetch the chunk) is `TransportError('network')` with `dispatched: false`, and the next stream tries again.

@example
```ts
const { streamFrames, frameType } = await loadFrames(false);
```
*/
export const loadFrames = lazyModule(() => import('./frames.js'));
