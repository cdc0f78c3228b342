import type * as z from 'zod/mini';
import { type ClientMethod, type MethodFacts, methods, type OperationName } from './methods.js';
import type { operationSchemas } from './operation-schemas.js';
import { type Route, routes } from './routes.js';

export type { Capability, ClientMethod, OperationName } from './methods.js';
export type { HttpMethod } from './routes.js';

/** One operation of the protocol, as each binding and the client see it. */
export type Operation = MethodFacts & {
  /**
  The HTTP+JSON route (A2A spec §11.3, §5.3), relative to the interface URL, with `{name}` for one
  percent-encoded path segment. `fields` says where the request's other fields go: the JSON `body`, the
  `query` string, or nowhere.
  */
  readonly http: Route;
};

/**
The 11 operations of A2A v1.0 (A2A spec §3.1, §5.3), keyed by the client method name, each with its HTTP+JSON
route: the client's own facts (`methods.ts`) joined with the routes (`routes.ts`), so a route or a method name
lives in exactly one place. The client reads the two halves apart, so that a page sending over JSON-RPC loads
no route.

- `subscribeToTask` is sent as POST without a body, as the official clients do; the proto says GET, the prose
  POST, and the official servers accept both (A2A spec §5.3, §11.3.2; docs/interop.md#peers-we-test-against).
- `sendMessage` also needs `pushNotifications` when its configuration carries a push config; that depends on
  the request, so the client checks it.

@example
```ts
const { name, http } = operations.cancelTask; // 'CancelTask', POST /tasks/{id}:cancel
```
*/
export const operations: {
  readonly [M in ClientMethod]: (typeof methods)[M] & { readonly http: (typeof routes)[M] };
} = /* @__PURE__ */ Object.freeze(
  /* @__PURE__ */ Object.fromEntries(
    (Object.keys(methods) as ClientMethod[]).map((method) => [
      method,
      { ...methods[method], http: routes[method] },
    ]),
  ) as { readonly [M in ClientMethod]: (typeof methods)[M] & { readonly http: (typeof routes)[M] } },
);

// Marked pure, so that a bundle that never lists the operations leaves the list out.
/** Every operation's name in the spec, in the spec's order. */
export const operationNames: readonly OperationName[] = /* @__PURE__ */ Object.freeze(
  /* @__PURE__ */ Object.values(methods).map((operation) => operation.name),
);

/** The request type of an operation. */
export type OperationRequest<M extends ClientMethod> = z.output<(typeof operationSchemas)[M]['request']>;

/** The answer type of an operation (for a stream, the type of each event). */
export type OperationResponse<M extends ClientMethod> = z.output<(typeof operationSchemas)[M]['response']>;
