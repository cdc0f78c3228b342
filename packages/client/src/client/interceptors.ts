/**
@module
The caller's hooks on each HTTP request of a call, a gRPC call included
(docs/protocol-checks.md#interceptors): the `headers` option and every interceptor's `before` add checked
headers in order, and every `after` sees each answer's status and headers as it arrives, from the hooks' own
`fetch` or, over gRPC, from the channel (`observe` of the request's target). Only a client given `headers` or
`interceptors` reaches this, so it loads with that client's first request (`deferred.ts`,
ARCHITECTURE.md#decisions, "Code loads with its first use").

What a hook is handed is built here and frozen: the request's context and the answer's head, never its body,
its key or its token, and no way to send (the exchange itself stays in `wire/http.ts`).
*/
import type { AnswerHead, CheckedTarget, FetchFunction } from '../bindings/binding.js';
import { extraHeadersOf } from '../wire/extra-headers.js';
import type { HeaderContext, InterceptorAnswer, ResolvedClientOptions } from './options.js';

/** The context of one request but its target, which the binding supplies when it builds the request. */
export type RequestContext = Omit<HeaderContext, 'url' | 'method'>;

/**
What one request of a hooked call is given: its checked extra headers, asked first with the request's target,
and the `fetch` it is then sent with.
*/
export type CallHooks = {
  readonly headers: (target: CheckedTarget) => Record<string, string>;
  readonly fetch: FetchFunction;
};

/**
The hooks of one request. `headers`: the `headers` option first (`$headers` in a refusal's path), then each
interceptor's `before` (`$interceptors[<index>]`), all checked together by `extraHeadersOf`; it throws
`RequestError` `invalid-params` before anything is sent. `fetch`: through the client's `fetch` (or the
platform's, looked up as the request leaves), showing every `after` the answer's status and headers before the
exchange reads the body; a target with `observe` (gRPC) is handed the same showing, for the answer's head the
channel reads. What a hook throws there is dropped, since an observer never changes the outcome of an
exchange.

@example
```ts
const hooks = callHooks(resolved, { operation: 'GetTask', binding: 'JSONRPC', callId: 1, attempt: 1 });
const extra = hooks.headers({ url, method: 'POST' });
```
*/
export function callHooks(
  resolved: Pick<ResolvedClientOptions, 'headers' | 'interceptors' | 'fetch'>,
  context: RequestContext,
): CallHooks {
  const interceptors = resolved.interceptors ?? [];
  // Without an `after` nobody reads an answer's head, so it is neither copied nor frozen: a request of a
  // client whose interceptors only add headers (`@surecall/client/otel`'s among them) goes straight to its
  // fetch.
  const observed = interceptors.some((hook) => hook.after);
  let full: HeaderContext | undefined;
  const answered: AnswerHead = (response) => {
    const answer: InterceptorAnswer = Object.freeze({
      ...(full as HeaderContext),
      httpStatus: response.status,
      headers: Object.freeze(Object.fromEntries(response.headers)),
    });
    for (const { after } of interceptors) {
      try {
        after?.(answer);
      } catch {
        // docs/protocol-checks.md#interceptors: what `after` throws is ignored.
      }
    }
    return response;
  };
  return {
    headers: (target) => {
      const asked: HeaderContext = Object.freeze({ ...context, url: target.url, method: target.method });
      full = asked;
      const headers: Record<string, string> = {};
      if (resolved.headers !== undefined) {
        const option = resolved.headers;
        extraHeadersOf(() => option(asked), target, '$headers', headers);
      }
      for (const [index, { before }] of interceptors.entries()) {
        if (before !== undefined) {
          extraHeadersOf(() => before(asked), target, `$interceptors[${index}]`, headers);
        }
      }
      // A binding that answers without `fetch` (gRPC) shows the answer's head itself.
      if (observed) {
        target.observe?.(answered);
      }
      return headers;
    },
    // Called as a plain function: a browser's fetch refuses any other `this` (wire/http.ts).
    fetch: async (input, init) => {
      const response = await (resolved.fetch ?? globalThis.fetch)(input, init);
      return observed ? answered(response) : response;
    },
  };
}
