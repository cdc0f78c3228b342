/**
@module
The loopback server's request target, read once (docs/interop.md#loopback-server-security): the token check
and the router both read the path this module returns, so no other spelling of a control route gets past the
check to the route. The rules:
- the origin form (`/path?query`) and the absolute form (`http://<authority>/path?query`, RFC 9112 §3.2.2) are
  read; the absolute form only with scheme `http` (else 400) and one of the server's own authorities (else
  421, as a foreign `Host` gets), then reduced to its path and query; any other form (`*`, an authority alone)
  is a 400;
- the path holds only what RFC 3986 §3.3 allows in it (unreserved and sub-delimiter characters, `:`, `@`, `/`
  and well-formed percent-encodings), else 400: a backslash, a fragment, a space or a byte above ASCII never
  reaches a parser that would read it as something else;
- percent-encoded unreserved characters are decoded (RFC 3986 §6.2.2.2, so `%2E` is `.` and `%5F` is `_`),
  every other percent-encoding stays as it came: `%2F` and `%5C` are data inside a segment, never a separator;
- dot segments are removed (RFC 3986 §5.2.4), `..` beyond the root dropping out; empty segments stay
  (`//__faults` is not `/__faults`), and so does the case (`/__FAULTS` is no control route);
- the query stays as it came.
*/

/** Why a target is refused, and with which status. */
export type TargetRefusal = {
  /** 421 for an absolute form naming another authority, 400 for anything else. */
  readonly status: 400 | 421;
  readonly reason: 'form' | 'scheme' | 'authority' | 'character' | 'ambiguous';
};

/** A target as the server routes it: its normalised path and its query (`''` or `?…`, as sent). */
export type RoutedTarget = { readonly path: string; readonly query: string };

/** What {@link readRequestTarget} makes of a target. */
export type RequestTarget =
  | { readonly ok: true; readonly value: RoutedTarget; readonly error?: never }
  | { readonly ok: false; readonly error: TargetRefusal; readonly value?: never };

// RFC 3986 §3.1 and §3.2: a scheme, `//`, then the authority up to the path, query or fragment.
const absoluteForm = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s;
// RFC 3986 §3.3: path-abempty, segments of pchar.
const pathCharacters = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;
// RFC 3986 §2.3: ALPHA / DIGIT / "-" / "." / "_" / "~".
const unreserved = /[A-Za-z0-9\-._~]/;

function refused(status: TargetRefusal['status'], reason: TargetRefusal['reason']): RequestTarget {
  return { ok: false, error: { status, reason } };
}

/** The percent-encodings of unreserved characters decoded, every other left as it is (RFC 3986 §6.2.2.2). */
function decodeUnreserved(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (encoded, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return unreserved.test(character) ? character : encoded;
  });
}

/**
RFC 3986 §5.2.4 over an absolute path: `.` segments go, `..` takes the segment before it (none at the root),
and a path ending in either ends in `/`.
*/
function removeDotSegments(path: string): string {
  const segments = path.split('/').slice(1);
  const kept: string[] = [];
  segments.forEach((segment, index) => {
    if (segment !== '.' && segment !== '..') {
      kept.push(segment);
      return;
    }
    if (segment === '..') {
      kept.pop();
    }
    if (index === segments.length - 1) {
      kept.push('');
    }
  });
  return `/${kept.join('/')}`;
}

/**
Read a raw request target (`IncomingMessage.url`) against the server's own authorities (`127.0.0.1:<port>`,
lower case): the path to check and route, or why it is refused. Never throws.

@example
```ts
readRequestTarget('/x/%2e%2e/__faults?a=1', ['127.0.0.1:4100']); // { ok: true, value: { path: '/__faults', query: '?a=1' } }
readRequestTarget('http://evil.example/__faults', ['127.0.0.1:4100']); // { ok: false, error: { status: 421, reason: 'authority' } }
```
*/
export function readRequestTarget(target: string, authorities: readonly string[]): RequestTarget {
  let local = target;
  const absolute = absoluteForm.exec(target);
  if (absolute !== null) {
    const [, scheme = '', authority = '', rest = ''] = absolute;
    if (scheme.toLowerCase() !== 'http') {
      return refused(400, 'scheme');
    }
    // RFC 9112 §3.2.2: the target's authority stands for Host, so it must be the server's own as Host must.
    if (!authorities.includes(authority.toLowerCase())) {
      return refused(421, 'authority');
    }
    // RFC 3986 §6.2.3: an empty http path is `/`.
    local = rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
  }
  if (!local.startsWith('/')) {
    return refused(400, 'form');
  }
  const mark = local.indexOf('?');
  const raw = mark === -1 ? local : local.slice(0, mark);
  const query = mark === -1 ? '' : local.slice(mark);
  // RFC 9112 §3.2: a request target carries no fragment.
  if (!pathCharacters.test(raw) || query.includes('#')) {
    return refused(400, 'character');
  }
  const path = removeDotSegments(decodeUnreserved(raw));
  // The router reads the path of a WHATWG URL built from this one: should that parser read it otherwise,
  // neither reads it.
  if (new URL(`http://127.0.0.1${path}`).pathname !== path) {
    return refused(400, 'ambiguous');
  }
  return { ok: true, value: { path, query } };
}
