/**
@module
The MSW mount of the mock agent: `createHandlers` hands the one request handler (`handle.ts`) to MSW, so Node
tests (`setupServer`), the devtools in a browser (`setupWorker`) and the loopback server all answer exactly
alike.
*/
import { type HttpHandler, http } from 'msw';
import { controlPaths, createMockHandle, isAgentPath, type MockHandleOptions } from './handle.js';

export type { MockHandleOptions } from './handle.js';
export { createMockHandle } from './handle.js';

/** {@link MockHandleOptions}, plus the origin the MSW handlers answer for. */
export type MockHandlersOptions = MockHandleOptions & {
  /**
  Only requests to this origin reach the agent, and only on the agent's paths. Without it, requests to any
  origin whose path is one of the agent's (`/.well-known/agent-card.json`, `/a2a/jsonrpc`, `/a2a/rest…`,
  `/__faults…`, `/__executions`) do: that is what a browser page wants.
  */
  readonly origin?: string;
};

/**
The MSW handler set of the mock agent: one `http.all` handler, because A2A streams are POST requests answered
with a `ReadableStream` body, which MSW's `sse()` (GET only) cannot serve (CONTRIBUTING.md#tests, rule 19).

@example
```ts
import { setupServer } from 'msw/node';
const agent = createAgent();
const faults = createFaultLab();
const server = setupServer(...createHandlers({ agent, faults, origin: 'https://agent.test' }));
server.listen({ onUnhandledFrame: 'error' });
```
*/
export function createHandlers(options: MockHandlersOptions): HttpHandler[] {
  const handle = createMockHandle(options);
  const origin = options.origin === undefined ? undefined : new URL(options.origin).origin;
  return [
    http.all('*', ({ request }) => {
      const url = new URL(request.url);
      // Only the agent's own paths: a page that hosts the mock on its own origin still loads its assets (and
      // the chunks it imports later) from the network.
      const ours =
        (origin === undefined || url.origin === origin) &&
        (isAgentPath(url.pathname) || controlPaths.test(url.pathname));
      // Anything else falls through to the next handler, or to `onUnhandledFrame`.
      return ours ? handle(request).then(chunked) : undefined;
    }),
  ];
}

/**
MSW 3 in Node answers through a simulated HTTP/1.1 socket, which sends the head only with the first body bytes
and frames a body of unknown length by closing the connection: a stream the agent has not written to yet would
hold back its head, and a stream the fault lab cuts would read as a clean end. A real server commits the head
when it answers and streams such a body in chunks (RFC 9112 §7.1), so a cut is a broken chunked body, a read
error: the answer says so (as the loopback server's does), and an empty first chunk sends its head at once. A
network error (`Response.error()`) and a body of known length pass unchanged.
*/
function chunked(response: Response): Response {
  if (response.type === 'error' || response.body === null || response.headers.has('content-length')) {
    return response;
  }
  const headers = new Headers(response.headers);
  headers.set('transfer-encoding', 'chunked');
  const source = response.body.getReader();
  let started = false;
  // Pulled only when read (no queue ahead), so the empty chunk is written before anything of the agent's body
  // is.
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(new Uint8Array(0));
          return;
        }
        const next = await source.read();
        if (next.done) {
          controller.close();
        } else {
          controller.enqueue(next.value);
        }
      },
      cancel: (reason) => source.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
