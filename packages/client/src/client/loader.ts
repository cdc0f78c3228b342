/**
@module
The one dynamic `import()` of the client (ARCHITECTURE.md#decisions, "Code loads with its first use"):
`deferred.ts`, everything the path of `discover()` and a plain `sendMessage()` never reaches. It sits where a
client is made, and the client hands it down to the floors that need what it loads (the bindings' `load`, the
call runner's `CallKit.load`, the checked extra headers of `wire/http.ts`), so none of them imports a floor
above (ARCHITECTURE.md#import-rules).

What it loads is named here by what each floor asks of it, not by importing `deferred.ts`, whose own imports
reach back to this floor: the `import()` below is checked against {@link DeferredCode} by the compiler.
*/

import type { GrpcBindingProvider } from '../bindings/binding.js';
import type { JsonRpcCode } from '../bindings/jsonrpc.js';
import type { checkPushConfig, checkPushConfigPage, checkTaskPage } from '../bindings/page-checks.js';
import type { RestCode } from '../bindings/rest-loader.js';
import { type DiscoveryError, TransportError } from '../core/errors.js';
import type { JsonValue } from '../core/json-value.js';
import type { Load } from '../core/lazy.js';
import type { AgentCard } from '../protocol/agent-card.js';
import type { CallCode } from './call-context.js';
import type { DiscoveryEvent } from './events.js';
import type { streamRunner } from './streaming.js';

/** What the client and the floors below it use of the deferred module. */
export type DeferredCode = JsonRpcCode &
  RestCode &
  CallCode & {
    readonly checkTaskPage: typeof checkTaskPage;
    readonly checkPushConfig: typeof checkPushConfig;
    readonly checkPushConfigPage: typeof checkPushConfigPage;
    readonly streamRunner: typeof streamRunner;
    /**
    The card digest (`discovery/digest.ts`, a floor above, so named here by shape): the extended card's.
    */
    readonly cardDigest: (rawCard: JsonValue) => Promise<string>;
    /** discovery/card-fallback.ts, named by its shape: the client floor imports no discovery module. */
    readonly cardFallback: (cardUrl: string, onEvent?: (event: DiscoveryEvent) => void) => boolean;
    /** discovery/version-refusal.ts, named by its shape as above: a card's refusal by its version. */
    readonly v03Card: (raw: JsonValue) => DiscoveryError | undefined;
    readonly v03Interfaces: (
      card: AgentCard,
      grpc: GrpcBindingProvider | undefined,
    ) => DiscoveryError | undefined;
  };

let loading: Promise<DeferredCode> | undefined;

/**
The deferred module, imported at most once per realm; a failed load is `TransportError('network')` with the
caller's `dispatched`, and the next call tries again.

@example
```ts
const { streamRunner } = await loadDeferred(false);
```
*/
export const loadDeferred: Load<DeferredCode> = (dispatched) => {
  loading ??= import('../deferred.js');
  const pending = loading;
  return pending.catch((cause: unknown) => {
    if (loading === pending) {
      loading = undefined;
    }
    throw new TransportError('network', { dispatched, cause });
  });
};
