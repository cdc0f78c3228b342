/**
@module
The headers of one request: the protocol's own, which the exchange sets, and the caller's extra ones (`ClientOptions.headers`), which may add to them but never replace them (docs/protocol-checks.md#extra-headers).
*/
import { RequestError } from '../core/errors.js';

/** What a request asks for: a JSON document or an event stream. */
export type MediaKind = 'json' | 'sse';

/** The request an extra-headers function is asked about: its URL and method, as the binding built them. */
export type HeaderTarget = { readonly url: string; readonly method: 'GET' | 'POST' | 'DELETE' };

/** Extra headers for one request; `undefined` adds none. Called once per HTTP request, before the token provider. */
export type ExtraHeaders = (target: HeaderTarget) => Readonly<Record<string, string>> | undefined;

/** What {@link requestHeaders} reads of the exchange. */
export type HeaderInput = HeaderTarget & {
  readonly accept: MediaKind;
  readonly contentType?: 'application/json' | 'application/a2a+json';
  readonly headers?: Readonly<Record<string, string>>;
  readonly extraHeaders?: ExtraHeaders;
  readonly a2aVersion?: false;
};

const acceptValues: Readonly<Record<MediaKind, string>> = {
  json: 'application/a2a+json, application/json',
  sse: 'text/event-stream',
};

// RFC 9110 §5.1: a field name is a token (§5.6.2).
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 9110 §5.5: visible characters, with SP or HTAB inside but never at either end. obs-text (0x80-0xFF) is refused: RFC 9110 §5.5 asks new fields to keep their values to US-ASCII.
const fieldValue = /^(?:[!-~](?:[ \t!-~]*[!-~])?)?$/;

/**
Names an extra header may not use, lowercase: the protocol's own (A2A spec §3.6.2 `A2A-Version`, §3.2.6 `A2A-Extensions`), the ones the exchange owns (`Accept`, `Content-Type`, `Authorization` from the token provider), `Idempotency-Key` (the key travels in the message's metadata, docs/idempotency.md#keys, so a header would be a second, unchecked key), and the Fetch standard's forbidden request-header names, which a browser would drop without a word.
*/
export const reservedHeaderNames: ReadonlySet<string> = new Set([
  'a2a-version',
  'a2a-extensions',
  'accept',
  'content-type',
  'authorization',
  'idempotency-key',
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'connection',
  'content-length',
  'cookie',
  'cookie2',
  'date',
  'dnt',
  'expect',
  'host',
  'keep-alive',
  'origin',
  'referer',
  'set-cookie',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'via',
  'x-http-method',
  'x-http-method-override',
  'x-method-override',
]);

/** At most this many extra headers per request, and this many bytes of names and values together. */
export const extraHeaderBounds = Object.freeze({ count: 64, bytes: 16 * 1024 });

function refused(rule: string, path: string, cause?: unknown): RequestError {
  return new RequestError('invalid-params', {
    violation: { rule, path },
    ...(cause === undefined ? {} : { cause }),
  });
}

function isReserved(name: string): boolean {
  return reservedHeaderNames.has(name) || name.startsWith('proxy-') || name.startsWith('sec-');
}

/** Adds the caller's extra headers to `headers`, refusing the whole request at the first bad one: nothing is dropped or changed silently. */
function addExtra(headers: Record<string, string>, extraHeaders: ExtraHeaders, target: HeaderTarget): void {
  let extra: unknown;
  try {
    extra = extraHeaders({ url: target.url, method: target.method });
  } catch (error) {
    throw refused('headers', '$headers', error);
  }
  if (extra === undefined) {
    return;
  }
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) {
    throw refused('headers', '$headers');
  }
  const entries = Object.entries(extra);
  if (entries.length > extraHeaderBounds.count) {
    throw refused('header-count', '$headers');
  }
  let bytes = 0;
  for (const [index, [name, value]] of entries.entries()) {
    // Only a valid token is ever named in the path: a malformed name goes by its position.
    if (!token.test(name)) {
      throw refused('header-name', `$headers[${index}]`);
    }
    const lower = name.toLowerCase();
    if (isReserved(lower)) {
      throw refused('header-reserved', `$headers.${lower}`);
    }
    if (typeof value !== 'string' || !fieldValue.test(value)) {
      throw refused('header-value', `$headers.${lower}`);
    }
    if (Object.hasOwn(headers, lower)) {
      // Two spellings of one name ("X-Tenant" and "x-tenant"): which one wins would be a guess.
      throw refused('header-repeated', `$headers.${lower}`);
    }
    bytes += name.length + value.length;
    if (bytes > extraHeaderBounds.bytes) {
      throw refused('header-bytes', '$headers');
    }
    headers[lower] = value;
  }
}

/**
The headers of one request as a plain object of lowercase names, in this order: the caller's extra headers (validated, none of them reserved), the binding's (`A2A-Extensions`), then the protocol's own, which nothing before can replace: `A2A-Version: 1.0` (unless `a2aVersion: false`), `Accept` from `accept`, `Content-Type` only with a body. `Authorization` is added later, from the token provider only. A plain object, not a `Headers`: the exchange sets them one by one on the `Request` ky builds (`http.ts`), so building a `Headers` here too would only add a copy per request.

@throws RequestError `invalid-params` (nothing was sent): `headers` (the function threw or returned no object, or a binding header is no RFC 9110 field), `header-count`, `header-bytes`, `header-name`, `header-value`, `header-reserved`, `header-repeated`.
@example
```ts
const headers = requestHeaders({ url, method: 'POST', accept: 'json', extraHeaders: () => ({ traceparent }) }, true);
headers['a2a-version']; // '1.0'
```
*/
export function requestHeaders(input: HeaderInput, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  if (input.extraHeaders !== undefined) {
    addExtra(headers, input.extraHeaders, input);
  }
  if (input.headers !== undefined) {
    for (const name of Object.keys(input.headers)) {
      const value = input.headers[name];
      if (!token.test(name) || typeof value !== 'string' || !fieldValue.test(value)) {
        throw new RequestError('invalid-params', { violation: { rule: 'headers' } });
      }
      headers[name.toLowerCase()] = value;
    }
  }
  // A2A spec, §3.6.2: a request without A2A-Version is served as 0.3, so a 1.0 client sends it on every A2A operation.
  if (input.a2aVersion === false) {
    delete headers['a2a-version'];
  } else {
    headers['a2a-version'] = '1.0';
  }
  // A2A spec, §9.1 and §11.1: JSON-RPC answers application/json, HTTP+JSON application/a2a+json; streams are SSE.
  headers['accept'] = acceptValues[input.accept];
  // Credentials come only from `authorize`, inside the deadline (docs/protocol-checks.md#token-provider).
  delete headers['authorization'];
  delete headers['content-type'];
  if (hasBody) {
    headers['content-type'] = input.contentType ?? 'application/json';
  }
  return headers;
}
