/**
@module
The headers of one request: the protocol's own, which the exchange sets, and the caller's extra ones
(`ClientOptions.headers`), which may add to them but never replace them
(docs/protocol-checks.md#extra-headers).
*/
import { RequestError } from '../core/errors.js';

/** What a request asks for: a JSON document or an event stream. */
export type MediaKind = 'json' | 'sse';

/** The request an extra-headers function is asked about: its URL and method, as the binding built them. */
export type HeaderTarget = { readonly url: string; readonly method: 'GET' | 'POST' | 'DELETE' };

/**
Extra headers for one request; `undefined` adds none. Called once per HTTP request, before the token provider.
*/
export type ExtraHeaders = (target: HeaderTarget) => Readonly<Record<string, string>> | undefined;

/**
What shows one answer's head to the caller's interceptors (docs/protocol-checks.md#interceptors): its status
and its headers, as a fetch `Response` whose body is never read there; it returns the same answer.
*/
export type AnswerHead = (answer: Response) => Response;

/**
The request checked extra headers are asked for. A binding whose answers never pass through `fetch` (gRPC)
adds `observe`, which the interceptors hand what to call with the answer's head; the HTTP bindings need none,
since the hooks' own `fetch` sees every answer.
*/
export type CheckedTarget = HeaderTarget & { readonly observe?: (head: AnswerHead) => void };

/**
The extra headers of one request, already checked by `extraHeadersOf` (`extra-headers.ts`) by whoever hands
them to the exchange; a refusal rejects before anything is sent.
*/
export type CheckedExtraHeaders = (target: CheckedTarget) => Promise<Readonly<Record<string, string>>>;

/** What {@link requestHeaders} reads of the exchange. */
export type HeaderInput = HeaderTarget & {
  readonly accept: MediaKind;
  readonly contentType?: 'application/json' | 'application/a2a+json';
  readonly headers?: Readonly<Record<string, string>>;
  readonly a2aVersion?: boolean;
};

const acceptValues: Readonly<Record<MediaKind, string>> = {
  json: 'application/a2a+json, application/json',
  sse: 'text/event-stream',
};

// RFC 9110 §5.1: a field name is a token (§5.6.2).
export const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 9110 §5.5: visible characters, with SP or HTAB inside but never at either end. obs-text (0x80-0xFF) is
// refused: RFC 9110 §5.5 asks new fields to keep their values to US-ASCII.
export const fieldValue = /^(?:[!-~](?:[ \t!-~]*[!-~])?)?$/;

/**
The headers of one request as a plain object of lowercase names, in this order: the caller's `extra` headers,
already checked by `extraHeadersOf` (`extra-headers.ts`: none of them reserved, so none is overwritten below),
the binding's (`A2A-Extensions`), then the protocol's own, which nothing before can replace:
`A2A-Version: 1.0` (unless `a2aVersion: false`), `Accept` from `accept`, `Content-Type` only with a body.
`Authorization` is added later, from the token provider only. A plain object, not a `Headers`: the exchange
hands it to `fetch` in the init (`http.ts`), which fills the one `Request` it builds from it, so building a
`Headers` here too would only add a copy per request.

@throws RequestError `invalid-params` `headers` (nothing was sent) when a binding header is no RFC 9110 field.
@example
```ts
const headers = requestHeaders({ url, method: 'POST', accept: 'json' }, true, extraHeadersOf(() => ({ traceparent }), { url, method: 'POST' }));
headers['a2a-version']; // '1.0'
```
*/
export function requestHeaders(
  input: HeaderInput,
  hasBody: boolean,
  extra?: Readonly<Record<string, string>>,
): Record<string, string> {
  const headers: Record<string, string> = extra === undefined ? {} : { ...extra };
  if (input.headers !== undefined) {
    for (const name of Object.keys(input.headers)) {
      const value = input.headers[name];
      if (!token.test(name) || typeof value !== 'string' || !fieldValue.test(value)) {
        throw new RequestError('invalid-params', { violation: { rule: 'headers' } });
      }
      headers[name.toLowerCase()] = value;
    }
  }
  // A2A spec, §3.6.2: a request without A2A-Version is served as 0.3, so a 1.0 client sends it on every A2A
  // operation.
  if (input.a2aVersion === false) {
    delete headers['a2a-version'];
  } else {
    headers['a2a-version'] = '1.0';
  }
  // A2A spec, §9.1 and §11.1: JSON-RPC answers application/json, HTTP+JSON application/a2a+json; streams are
  // SSE.
  headers['accept'] = acceptValues[input.accept];
  // Credentials come only from `authorize`, inside the deadline (docs/protocol-checks.md#token-provider).
  delete headers['authorization'];
  delete headers['content-type'];
  if (hasBody) {
    headers['content-type'] = input.contentType ?? 'application/json';
  }
  return headers;
}
