/**
@module
The HTTP+JSON binding loads with the first call of a client pinned to it (ARCHITECTURE.md#decisions, "Code
loads with its first use"): the binding is known once `discover()` has chosen the pin, and a web app talks to
one agent interface, so an app pinned to JSON-RPC never downloads the routes of the other binding.
*/
import type { Load } from '../core/lazy.js';
import type { Binding, BindingOptions } from './binding.js';
import { interfaceUrl } from './request.js';
import type { createRestBinding } from './rest.js';

/** What {@link lazyRestBinding} loads: the binding itself, with everything it needs. */
export type RestCode = { readonly createRestBinding: typeof createRestBinding };

/**
The HTTP+JSON binding of one interface (`rest.ts`, loaded by `load`, which the client hands down:
`client/loader.ts`), built when its first call starts. The interface URL is checked at once, as
`createRestBinding` does, so a client that cannot use it is refused when it is built; a failed load is
`TransportError('network')` with `dispatched: false`, before anything is sent, and the next call tries again.

@example
```ts
const binding = lazyRestBinding({ url: 'https://agent.example/a2a', limits: resolveLimits() }, loadDeferred);
const { value: task } = await binding.unary('getTask', { id: 'task-1' }, {});
```
*/
export function lazyRestBinding(options: BindingOptions, load: Load<RestCode>): Binding {
  interfaceUrl(options.url);
  let built: Binding | undefined;
  const binding = async (): Promise<Binding> => {
    built ??= (await load(false)).createRestBinding(options);
    return built;
  };
  return {
    protocolBinding: 'HTTP+JSON',
    unary: async (operation, request, context) => (await binding()).unary(operation, request, context),
    stream: async (operation, request, context) => (await binding()).stream(operation, request, context),
  };
}
