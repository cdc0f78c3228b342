/**
@module
The request targets that spell a protected route another way (issue 30, item 1): dot segments, plain and
percent-encoded, `..` beyond the root, encoded separators, backslashes, double slashes, another case, a
trailing slash, a fragment, and the absolute form with the server's own authority and with foreign ones. A
local server that guards some routes with a token must refuse every one of them without it; the mock agent's
test (`mocks/test/control-routes.test.ts`) and the CLI devtools server's
(`packages/cli/test/devtools.test.ts`) run this one table. Each target is sent as it is, through `node:http`
with a raw `path`, because `fetch` normalises a URL before it sends it.
*/
import { request } from 'node:http';

/**
One spelling: its name, and the raw request target it makes of a route's path (`/__faults`) on a server's
port.
*/
export type BypassTarget = {
  readonly name: string;
  readonly target: (path: string, port: number) => string;
};

/** The path without its leading slash. */
const rest = (path: string): string => path.slice(1);

/** Every byte of the path after its first slash percent-encoded, hex in `digits` case. */
function encodedAll(path: string, digits: 'upper' | 'lower'): string {
  const hex = [...new TextEncoder().encode(rest(path))].map((byte) => {
    const pair = byte.toString(16).padStart(2, '0');
    return `%${digits === 'upper' ? pair.toUpperCase() : pair}`;
  });
  return `/${hex.join('')}`;
}

/** The table: each spelling a client could use to reach `path` other than `path` itself. */
export const bypassTargets: readonly BypassTarget[] = [
  // Dot segments (RFC 3986 §5.2.4), plain and percent-encoded (RFC 3986 §2.3: `%2E` is `.`).
  { name: 'a .. after a segment', target: (path) => `/x/..${path}` },
  { name: 'a . segment', target: (path) => `/.${path}` },
  { name: 'a . segment encoded as %2e', target: (path) => `/%2e${path}` },
  { name: 'a . segment encoded as %2E', target: (path) => `/%2E${path}` },
  { name: 'a .. encoded as %2e%2e', target: (path) => `/x/%2e%2e${path}` },
  { name: 'a .. encoded as %2E%2e', target: (path) => `/x/%2E%2e${path}` },
  { name: 'a .. encoded as .%2E', target: (path) => `/x/.%2E${path}` },
  { name: 'a .. encoded as %2e.', target: (path) => `/x/%2e.${path}` },
  { name: 'a .. out of /.well-known', target: (path) => `/.well-known/..${path}` },
  { name: 'dot segments after the route', target: (path) => `${path}/x/..` },
  { name: 'a . segment after the route', target: (path) => `${path}/.` },
  // `..` beyond the root: RFC 3986 §5.2.4 drops it.
  { name: 'a .. beyond the root', target: (path) => `/..${path}` },
  { name: 'three .. beyond the root', target: (path) => `/x/../../..${path}` },
  { name: 'an encoded .. beyond the root', target: (path) => `/%2e%2e${path}` },
  // Unreserved characters percent-encoded (RFC 3986 §6.2.2.2: the same path).
  { name: 'every character percent-encoded', target: (path) => encodedAll(path, 'upper') },
  { name: 'every character percent-encoded, lower-case hex', target: (path) => encodedAll(path, 'lower') },
  // Encoded separators: `%2F` and `%5C` are data, never a slash.
  { name: 'an encoded slash before ..', target: (path) => `/x%2F..${path}` },
  { name: 'a .. followed by an encoded slash', target: (path) => `/x/..%2F${rest(path)}` },
  { name: 'a .. followed by an encoded slash, lower case', target: (path) => `/x/..%2f${rest(path)}` },
  { name: 'an encoded slash first', target: (path) => `/%2F${rest(path)}` },
  { name: 'the route with its slashes encoded', target: (path) => `/${rest(path).replaceAll('/', '%2F')}` },
  { name: 'encoded backslashes around ..', target: (path) => `/x%5C..%5C${rest(path)}` },
  { name: 'an encoded backslash first', target: (path) => `/%5C${rest(path)}` },
  { name: 'an encoded backslash first, lower case', target: (path) => `/%5c${rest(path)}` },
  // Backslashes, which a WHATWG URL parser reads as slashes in an http URL.
  { name: 'a .. followed by a backslash', target: (path) => `/x/..\\${rest(path)}` },
  { name: 'a backslash for the first slash', target: (path) => `\\${rest(path)}` },
  { name: 'backslashes for every slash', target: (path) => path.replaceAll('/', '\\') },
  { name: 'a slash and a backslash', target: (path) => `/\\${rest(path)}` },
  { name: 'two backslashes and the own authority', target: (path, port) => `\\\\127.0.0.1:${port}${path}` },
  // Double slashes: an empty segment, or (to a WHATWG parser) an authority.
  { name: 'a double slash first', target: (path) => `/${path}` },
  { name: 'a double slash and the own authority', target: (path, port) => `//127.0.0.1:${port}${path}` },
  { name: 'a double slash and a foreign authority', target: (path) => `//evil.example${path}` },
  { name: 'a ./ before a slash', target: (path) => `/./${path}` },
  { name: 'a trailing slash', target: (path) => `${path}/` },
  { name: 'a trailing double slash', target: (path) => `${path}//` },
  // Another case, a fragment.
  { name: 'the route in upper case', target: (path) => path.toUpperCase() },
  { name: 'a fragment after the route', target: (path) => `${path}#x` },
  { name: 'a fragment hiding dot segments', target: (path) => `/x#/..${path}` },
  // The absolute form (RFC 9112 §3.2.2): the own authority, and foreign ones.
  { name: 'the absolute form', target: (path, port) => `http://127.0.0.1:${port}${path}` },
  { name: 'the absolute form by localhost', target: (path, port) => `http://localhost:${port}${path}` },
  {
    name: 'the absolute form, scheme in upper case',
    target: (path, port) => `HTTP://127.0.0.1:${port}${path}`,
  },
  { name: 'the absolute form with a ..', target: (path, port) => `http://127.0.0.1:${port}/x/..${path}` },
  { name: 'the absolute form over https', target: (path, port) => `https://127.0.0.1:${port}${path}` },
  { name: 'the absolute form of a foreign host', target: (path) => `http://evil.example${path}` },
  {
    name: 'the absolute form of a foreign host on the port',
    target: (path, port) => `http://evil.example:${port}${path}`,
  },
  {
    name: 'the absolute form of another port',
    target: (path, port) => `http://127.0.0.1:${port + 1}${path}`,
  },
  { name: 'the absolute form without a port', target: (path) => `http://127.0.0.1${path}` },
  {
    name: 'the absolute form with the own authority as userinfo',
    target: (path, port) => `http://127.0.0.1:${port}@evil.example${path}`,
  },
  {
    name: 'the absolute form with userinfo before the own authority',
    target: (path, port) => `http://evil.example@127.0.0.1:${port}${path}`,
  },
];

/** What a raw request got back. */
export type RawAnswer = { readonly status: number; readonly body: string };

/** The parts of a raw request: the target goes on the request line exactly as given. */
export type RawRequest = {
  readonly method: string;
  readonly target: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
};

/**
Send one request to 127.0.0.1:`port` with `target` on its request line as it is, and read the whole answer.
*/
export function rawRequest(
  port: number,
  { method, target, headers = {}, body }: RawRequest,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, method, path: target, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}
