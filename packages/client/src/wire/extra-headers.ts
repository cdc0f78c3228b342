/**
@module
The caller's extra headers (`ClientOptions.headers`, docs/protocol-checks.md#extra-headers), checked before
they join a request's headers (`request-headers.ts`): they may add to the protocol's headers, never replace
one. Only a client given that option reaches this, so it loads with that client's first request
(`deferred.ts`, ARCHITECTURE.md#decisions, "Code loads with its first use").
*/
import { RequestError } from '../core/errors.js';
import { optionalMembers } from '../core/optional-members.js';
import { type ExtraHeaders, fieldValue, type HeaderTarget, token } from './request-headers.js';

/**
Names an extra header may not use, lowercase: the protocol's own (A2A spec §3.6.2 `A2A-Version`, §3.2.6
`A2A-Extensions`), the ones the exchange owns (`Accept`, `Content-Type`, `Authorization` from the token
provider), `Idempotency-Key` (the key travels in the message's metadata, docs/idempotency.md#keys, so a header
would be a second, unchecked key), and the Fetch standard's forbidden request-header names, which a browser
would drop without a word.
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
    ...optionalMembers({ cause }),
  });
}

function isReserved(name: string): boolean {
  return reservedHeaderNames.has(name) || name.startsWith('proxy-') || name.startsWith('sec-');
}

/**
The extra headers of one request, by lowercase name: the function is asked once, with the request's URL and
method, and the whole request is refused at the first bad header, so nothing is dropped or changed silently.
Several sources of one request (the `headers` option, then each interceptor) add to the same `into` one after
another, each named in a refusal's path by its own `at`; the bounds count them together, and a name two of
them give is `header-repeated`.

@throws RequestError `invalid-params` (nothing was sent): `headers` (the function threw or returned no
  object), `header-count`, `header-bytes`, `header-name`, `header-value`, `header-reserved`,
  `header-repeated`.
@example
```ts
extraHeadersOf(() => ({ 'X-Tenant': 'acme' }), { url, method: 'POST' }); // { 'x-tenant': 'acme' }
```
*/
export function extraHeadersOf(
  extraHeaders: ExtraHeaders,
  target: HeaderTarget,
  at = '$headers',
  into: Record<string, string> = {},
): Record<string, string> {
  const headers = into;
  let extra: unknown;
  try {
    extra = extraHeaders({ url: target.url, method: target.method });
  } catch (error) {
    throw refused('headers', at, error);
  }
  if (extra === undefined) {
    return headers;
  }
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) {
    throw refused('headers', at);
  }
  const entries = Object.entries(extra);
  if (entries.length + Object.keys(headers).length > extraHeaderBounds.count) {
    throw refused('header-count', at);
  }
  let bytes = 0;
  for (const [name, value] of Object.entries(headers)) {
    bytes += name.length + value.length;
  }
  for (const [index, [name, value]] of entries.entries()) {
    // Only a valid token is ever named in the path: a malformed name goes by its position.
    if (!token.test(name)) {
      throw refused('header-name', `${at}[${index}]`);
    }
    const lower = name.toLowerCase();
    if (isReserved(lower)) {
      throw refused('header-reserved', `${at}.${lower}`);
    }
    if (typeof value !== 'string' || !fieldValue.test(value)) {
      throw refused('header-value', `${at}.${lower}`);
    }
    if (Object.hasOwn(headers, lower)) {
      // Two spellings of one name ("X-Tenant" and "x-tenant"): which one wins would be a guess.
      throw refused('header-repeated', `${at}.${lower}`);
    }
    bytes += name.length + value.length;
    if (bytes > extraHeaderBounds.bytes) {
      throw refused('header-bytes', at);
    }
    headers[lower] = value;
  }
  return headers;
}
