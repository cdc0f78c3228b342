/**
@module
Everything the path of `discover()` and a plain `sendMessage()` over the pinned binding never reaches, as one
module behind one dynamic `import()` (`client/loader.ts`; ARCHITECTURE.md#decisions, "Code loads with its
first use"): the stream half of the call runner with its lifecycle validator and resumption, the SSE decoder
and frame iterator, the HTTP+JSON binding, the decoding of a JSON-RPC refusal (an error envelope, a non-2xx
answer), the answer rules of the push-config operations, the retry loop of a client given a retry policy, the
checks of the extra headers of a client given `headers`, the scopes of a call made for a skill, and the
refusal by version of a card that offers only v0.3. A web app
that only discovers and sends never downloads it; the first call that needs any of it downloads all of it,
once.

It also names `discover`, which it never calls: a bundler that splits by entry (esbuild) puts the code a
dynamically imported module shares with the page into chunks of its own, one per set of entries that reach it,
and each chunk is compressed apart. Reaching the whole path from here keeps that path in one chunk with the
page's own entry (what `npm run bench -- client` counts), instead of half a dozen smaller ones.
*/

export { frameType, streamFrames } from './bindings/frames.js';
export { jsonRpcFailure, jsonRpcRefusal, jsonRpcRemoteError } from './bindings/jsonrpc-error.js';
export { jsonRpcStream } from './bindings/jsonrpc-stream.js';
export { checkPushConfig, checkPushConfigPage, checkTaskPage } from './bindings/page-checks.js';
export { decodeResult } from './bindings/push-config-answer.js';
export { createRestBinding } from './bindings/rest.js';
export { callHooks } from './client/interceptors.js';
export { skillCallScopes } from './client/skill-scopes.js';
export { streamRunner } from './client/streaming.js';
export { cardFallback } from './discovery/card-fallback.js';
export { cardDigest } from './discovery/digest.js';
export { discover } from './discovery/discovery.js';
export { v03Card, v03Interfaces } from './discovery/version-refusal.js';
export { runWithRetry } from './idempotency/retry-loop.js';
export { operationSchemas } from './protocol/operation-schemas.js';
