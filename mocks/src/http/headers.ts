/**
@module
What both bindings check on every request, and answer in every response: the A2A protocol version, the
extensions a request turns on, and the JSON media types of a request body.
*/
import { type IdempotencyMode, idempotencyExtensionUri } from '../agent/idempotency.js';
import { AgentError } from '../agent/remote-errors.js';

/** The one protocol version this agent speaks. */
export const protocolVersion = '1.0';

/**
Refuse a request that does not ask for A2A 1.0. The version comes from the `A2A-Version` header, or from the
`A2A-Version` query parameter a client MAY use instead (A2A spec §3.6.1); a missing or empty value means 0.3
(§3.6.2), and only `1.0` itself is served: patch versions MUST NOT take part in negotiation (§3.6).

@example
```ts
checkVersion(new Request(url, { headers: { 'A2A-Version': '1.0' } })); // ok
checkVersion(new Request(url)); // AgentError VersionNotSupported
```
*/
export function checkVersion(request: Request): void {
  const version = (
    request.headers.get('a2a-version') ??
    new URL(request.url).searchParams.get('A2A-Version') ??
    ''
  ).trim();
  if (version !== protocolVersion) {
    throw new AgentError(
      'VersionNotSupported',
      `The requested A2A protocol version is not supported. Supported versions: ${protocolVersion}`,
    );
  }
}

/**
The extensions a request turns on: those it lists in `A2A-Extensions` (comma-separated, A2A spec §5) that this
agent supports. Unsupported ones are ignored (§4.6.3). The answer echoes the result in its own
`A2A-Extensions` header.

@example
```ts
activatedExtensions(request, 'honouring'); // ['https://a2a-rust.com/extensions/idempotency/v1'] when requested
```
*/
export function activatedExtensions(
  request: Pick<Request, 'headers'>,
  mode: IdempotencyMode,
): readonly string[] {
  const requested = (request.headers.get('a2a-extensions') ?? '').split(',').map((uri) => uri.trim());
  return mode === 'honouring' && requested.includes(idempotencyExtensionUri) ? [idempotencyExtensionUri] : [];
}

/**
True when a request body's `Content-Type` is JSON: `application/json` (A2A spec §9.1) or
`application/a2a+json` (§11.1).
*/
export function isJsonContentType(request: Request): boolean {
  const essence = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  return essence === 'application/json' || essence === 'application/a2a+json';
}

/**
The `A2A-Extensions` answer header: the extensions the request turned on, if any (A2A extensions topic page).
*/
export function extensionHeaders(extensions: readonly string[]): Record<string, string> {
  return extensions.length === 0 ? {} : { 'a2a-extensions': extensions.join(', ') };
}
