/**
@module
Which `Origin` the loopback server trusts (docs/interop.md#loopback-server-security): a loopback origin
(scheme `http`, host exactly `127.0.0.1`, `localhost` or `[::1]`, any valid port) or one of those it is told
to trust, each compared as the serialized origin a browser sends (RFC 6454 §6.2). An origin is read as a URL,
never matched as text, so `http://127.0.0.1:99999` (no such port), `http://127.0.0.1:80@evil.example`
(userinfo before another host) or `http://127.0.0.1.evil.example` is no loopback origin.
*/

const loopbackHosts: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
`text` as a URL when it is a serialized origin (RFC 6454 §6.2): a scheme, a host and a port other than the
scheme's default, nothing else, in the form a browser writes.
*/
function serializedOrigin(text: string): URL | undefined {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return undefined;
  }
  // An opaque origin serializes as `null`, which no URL's origin equals.
  return parsed.origin === text ? parsed : undefined;
}

/**
Whether `origin` is a loopback origin: `http://127.0.0.1`, `http://localhost` or `http://[::1]`, with any port
from 0 to 65535, serialized as a browser sends it (no userinfo, no path, no default port, lower case).

@example
```ts
isLoopbackOrigin('http://127.0.0.1:5173'); // true
isLoopbackOrigin('http://127.0.0.1:99999'); // false
```
*/
export function isLoopbackOrigin(origin: string): boolean {
  const parsed = serializedOrigin(origin);
  return parsed !== undefined && parsed.protocol === 'http:' && loopbackHosts.has(parsed.hostname);
}

/**
The trusted origins, checked once: each must be a serialized origin (RFC 6454, section 6.2), so that an exact
string match is the comparison browsers make.
*/
export function trustedOrigins(origins: readonly string[]): ReadonlySet<string> {
  for (const origin of origins) {
    if (serializedOrigin(origin) === undefined) {
      throw new TypeError(`corsOrigins: ${JSON.stringify(origin.slice(0, 100))} is not a serialized origin`);
    }
  }
  return new Set(origins);
}
