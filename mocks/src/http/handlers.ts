/**
@module
The MSW mount of the mock agent: `createHandlers` hands the one request handler (`handle.ts`) to MSW, so Node tests (`setupServer`), the devtools in a browser (`setupWorker`) and the loopback server all answer exactly alike.
*/
import { type HttpHandler, http } from 'msw';
import { controlPaths, createMockHandle, isAgentPath, type MockHandleOptions } from './handle.js';

export type { MockHandleOptions } from './handle.js';
export { createMockHandle } from './handle.js';

/** {@link MockHandleOptions}, plus the origin the MSW handlers answer for. */
export type MockHandlersOptions = MockHandleOptions & {
  /** Only requests to this origin reach the agent, whatever their path. Without it, requests to any origin whose path is one of the agent's (`/.well-known/agent-card.json`, `/a2a/jsonrpc`, `/a2a/rest…`, `/__faults…`, `/__executions`) do: that is what a browser page wants. */
  readonly origin?: string;
};

/**
The MSW handler set of the mock agent: one `http.all` handler, because A2A streams are POST requests answered with a `ReadableStream` body, which MSW's `sse()` (GET only) cannot serve (CONTRIBUTING.md#tests, rule 19).

@example
```ts
import { setupServer } from 'msw/node';
const agent = createAgent();
const faults = createFaultLab();
const server = setupServer(...createHandlers({ agent, faults, origin: 'https://agent.test' }));
server.listen({ onUnhandledRequest: 'error' });
```
*/
export function createHandlers(options: MockHandlersOptions): HttpHandler[] {
  const handle = createMockHandle(options);
  const origin = options.origin === undefined ? undefined : new URL(options.origin).origin;
  return [
    http.all('*', ({ request }) => {
      const url = new URL(request.url);
      const ours =
        origin === undefined
          ? isAgentPath(url.pathname) || controlPaths.test(url.pathname)
          : url.origin === origin;
      // Anything else falls through to the next handler, or to `onUnhandledRequest`.
      return ours ? handle(request) : undefined;
    }),
  ];
}
