/**
@module
The endpoint rules for an agent card URL and every interface pin (docs/protocol-checks.md#endpoints), and the
URL equality a pin is matched with (docs/protocol-checks.md#discovery-steps, step 12). Pure functions over the
WHATWG URL parser, so browsers and Node decide alike.
*/

import type { EndpointRule } from '../core/errors.js';
import { contractBounds } from '../protocol/bounds.js';
import { labelRule } from '../protocol/text.js';

/** Where an agent publishes its card (A2A spec §8.2, RFC 8615); a card URL must name exactly this path. */
export const agentCardPath = '/.well-known/agent-card.json';

/**
How an endpoint is checked: a card URL must also name {@link agentCardPath}; `loopback` admits `http:` to a
literal loopback address.

@example
```ts
const policy: EndpointPolicy = { role: 'card', loopback: false };
```
*/
export type EndpointPolicy = {
  readonly role: 'card' | 'interface';
  /** Admit `http:` to a literal loopback address (127.0.0.0/8 or `[::1]`) as well as `https:` anywhere. */
  readonly loopback: boolean;
};

// After WHATWG parsing an IPv4 host is always four decimal labels (`127.1`, `0x7f.0.0.1` and `2130706433` all
// become `127.0.0.1`), and a name whose last label is numeric must parse as IPv4 or the URL is invalid, so no
// domain name can look like this.
const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
// The WHATWG serializer writes the IPv6 loopback address in its one compressed form, brackets included.
const LOOPBACK_V6 = '[::1]';

function parse(text: unknown): URL | undefined {
  // A URL is at most 4096 bytes (docs/protocol-checks.md#agent-card); surrounding whitespace and control
  // characters, which the parser would silently strip, are refused rather than repaired.
  if (typeof text !== 'string' || labelRule(text, contractBounds.urlBytes) !== undefined) {
    return undefined;
  }
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
True when the URL's host is a literal loopback address: IPv4 127.0.0.0/8 after WHATWG normalisation, or the
IPv6 loopback `[::1]` (any spelling of it, e.g. `[0:0:0:0:0:0:0:1]`). A name never is, `localhost` included,
since what a name resolves to is not the URL's to decide; nor is an IPv4-mapped address such as
`[::ffff:127.0.0.1]`, which is not the IPv6 loopback address (RFC 4291 §2.5.3).

@example
```ts
isLiteralLoopback(new URL('http://127.1:8080/a2a')); // true
isLiteralLoopback(new URL('http://localhost:8080/a2a')); // false
```
*/
export function isLiteralLoopback(url: URL): boolean {
  return LOOPBACK_V4.test(url.hostname) || url.hostname === LOOPBACK_V6;
}

/**
The first endpoint rule `text` breaks, or `undefined` when it is a valid endpoint under `policy`
(docs/protocol-checks.md#endpoints), checked in this order: `invalid-url` (not an absolute URL, over 4096
bytes, or with surrounding whitespace or a control character), `embedded-credentials` (a user name or
password), `query-or-fragment` (an empty `?` or `#` counts), `missing-host`, `https-required` (any scheme but
`https:`, or `http:` without `loopback`), `literal-loopback-required` (`http:` to anything but
{@link isLiteralLoopback}), and for a card `agent-card-path-required` (the path, after normalisation, is not
exactly `/.well-known/agent-card.json`).

@example
```ts
endpointRule('https://agent.example/.well-known/agent-card.json', { role: 'card', loopback: false }); // undefined
endpointRule('http://localhost:4100/a2a', { role: 'interface', loopback: true }); // 'literal-loopback-required'
```
*/
export function endpointRule(text: unknown, policy: EndpointPolicy): EndpointRule | undefined {
  const url = parse(text);
  if (url === undefined) {
    return 'invalid-url';
  }
  if (url.username !== '' || url.password !== '') {
    return 'embedded-credentials';
  }
  // The serialization keeps an empty `?` or `#` that `search` and `hash` report as '', and outside the query
  // and the fragment both are always percent-encoded.
  if (url.href.includes('?') || url.href.includes('#')) {
    return 'query-or-fragment';
  }
  if (url.hostname === '') {
    return 'missing-host';
  }
  if (url.protocol !== 'https:' && !(policy.loopback && url.protocol === 'http:')) {
    return 'https-required';
  }
  if (url.protocol === 'http:' && !isLiteralLoopback(url)) {
    return 'literal-loopback-required';
  }
  if (policy.role === 'card' && url.pathname !== agentCardPath) {
    return 'agent-card-path-required';
  }
  return undefined;
}

/**
`invalid-tenant` unless `tenant` is a non-empty string of at most 512 UTF-8 bytes with no surrounding
whitespace and no control character (docs/protocol-checks.md#endpoints).

@example
```ts
tenantRule('acme'); // undefined
tenantRule(' acme'); // 'invalid-tenant'
```
*/
export function tenantRule(tenant: unknown): 'invalid-tenant' | undefined {
  return typeof tenant === 'string' && labelRule(tenant, contractBounds.idBytes) === undefined
    ? undefined
    : 'invalid-tenant';
}

/**
True when both strings parse to the same WHATWG serialization (docs/protocol-checks.md#discovery-steps, URL
equality): scheme and host case, a default port, IPv4 shorthands, IDNA (`BÜCHER.example` is
`xn--bcher-kva.example`) and dot segments do not matter; a trailing slash, path case and percent-encoding do.
Anything that does not parse equals nothing.

@example
```ts
sameEndpoint('https://Agent.example:443/a2a', 'https://agent.example/a2a'); // true
sameEndpoint('https://agent.example/a2a/', 'https://agent.example/a2a'); // false
```
*/
export function sameEndpoint(left: string, right: string): boolean {
  const a = parse(left);
  const b = parse(right);
  return a !== undefined && b !== undefined && a.href === b.href;
}
