/**
@module
The request side both bindings share: the caller's request checked before anything is sent, the interface URL read once, and the per-call context handed to `wire/http`.
*/
import { OptionsError, RequestError } from '../errors.js';
import { decode, type OperationName, type OperationRequest, operations } from '../protocol/index.js';
import type { HttpExchangeRequest } from '../wire/http.js';
import type { CallContext } from './binding.js';

/**
The caller's request, decoded with the operation's request schema, so that only what the protocol defines is sent (unknown members dropped, enum numbers read as names). A `tenant` from the caller is refused: A2A spec, §8.3.2 puts exactly the selected interface's tenant in every request, so the binding alone sets it.

@throws RequestError `invalid-params` (not dispatched) with the first violation.
@example
```ts
const checked = checkRequest('getTask', { id: 'task-1', historyLength: 0 });
```
*/
export function checkRequest<N extends OperationName>(
  operation: N,
  request: OperationRequest<N>,
): OperationRequest<N> {
  if (typeof request === 'object' && request !== null && Object.hasOwn(request, 'tenant')) {
    throw new RequestError('invalid-params', { violation: { rule: 'tenant', path: '$.tenant' } });
  }
  const result = decode(operations[operation].request, request);
  if (!result.ok) {
    throw new RequestError('invalid-params', { violation: result.error.violation });
  }
  return result.value as OperationRequest<N>;
}

/**
The interface URL, parsed once when a binding is built: absolute `http:` or `https:`, with no credentials, query or fragment (an interface URL is a base that paths are appended to; discovery refuses the rest too).

@throws OptionsError `url` (`inconsistent`).
@example
```ts
interfaceUrl('https://agent.example/a2a/').pathname; // '/a2a/'
```
*/
export function interfaceUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OptionsError('url', 'inconsistent');
  }
  const usable =
    (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
    parsed.username === '' &&
    parsed.password === '' &&
    parsed.search === '' &&
    parsed.hash === '' &&
    !url.includes('#') &&
    !url.includes('?');
  if (!usable) {
    throw new OptionsError('url', 'inconsistent');
  }
  return parsed;
}

/** The members of {@link CallContext} `wire/http` takes, copied only when present (`exactOptionalPropertyTypes`). */
export type ContextFields = Pick<HttpExchangeRequest, 'signal' | 'authorize' | 'onDispatch' | 'headers'>;

/**
The call's context as `wire/http` request fields.

@example
```ts
await exchange({ method: 'GET', url, accept: 'json', limits, ...contextFields(context) });
```
*/
export function contextFields(context: CallContext): ContextFields {
  return {
    ...(context.signal === undefined ? {} : { signal: context.signal }),
    ...(context.authorize === undefined ? {} : { authorize: context.authorize }),
    ...(context.onDispatch === undefined ? {} : { onDispatch: context.onDispatch }),
    ...(context.headers === undefined ? {} : { headers: context.headers }),
  };
}
