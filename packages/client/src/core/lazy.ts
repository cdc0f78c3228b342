/**
@module
The shape of a loader handed down (ARCHITECTURE.md#decisions, "Code loads with its first use"): the one
dynamic `import()` is written where a client is made (`client/loader.ts`), and a floor below that needs what
it loads is given a `Load` of just that, so no floor imports one above it (ARCHITECTURE.md#import-rules).
*/

/**
Loads a module on demand. `dispatched` says whether the call that needs it has already sent its request: a
failed load (a browser that cannot fetch the chunk) is `TransportError('network')` with that `dispatched`.
*/
export type Load<T> = (dispatched: boolean) => Promise<T>;
