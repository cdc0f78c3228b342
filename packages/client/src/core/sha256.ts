/**
@module
SHA-256 of a string's UTF-8 bytes, as 64 lowercase hex digits, for the digests the durable path takes on every
send (ledger revisions, the recovery context id). Under Node it is Node's synchronous `crypto.hash`; elsewhere
WebCrypto's `subtle.digest`. Both give the same digest. The synchronous one matters: a WebCrypto digest in
Node is a job on the thread pool with its own promise, about 60 µs where the hash itself takes under 1 µs
(docs/durable-send.md#what-a-durable-send-costs).
*/

type NodeCrypto = { readonly hash?: (algorithm: string, data: string, encoding: 'hex') => string };
type NodeProcess = { readonly getBuiltinModule?: (id: string) => unknown };

// The last lookup, and the `getBuiltinModule` it went through: looked up again only when that function
// changes.
let lookedUp: { readonly through: unknown; readonly hash: NodeCrypto['hash'] } | undefined;

/**
Node's synchronous hash, or `undefined` off Node. It is reached through `process.getBuiltinModule` (Node ≥
20.16), never imported, so a browser bundle sees no `node:` import. The lookup is kept for as long as
`process.getBuiltinModule` is the same function, so a test or a polyfill that replaces it afterwards is seen.
*/
function nodeHash(): NodeCrypto['hash'] {
  const runtime = (globalThis as { process?: NodeProcess }).process;
  const get = runtime?.getBuiltinModule;
  if (lookedUp !== undefined && lookedUp.through === get) {
    return lookedUp.hash;
  }
  const found =
    typeof get === 'function' ? (get.call(runtime, 'crypto') as NodeCrypto | undefined)?.hash : undefined;
  const hash = typeof found === 'function' ? found : undefined;
  lookedUp = { through: get, hash };
  return hash;
}

async function webCryptoHex(subtle: SubtleCrypto, text: string): Promise<string> {
  const bytes = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of bytes) {
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

/**
The SHA-256 of `text` as hex: a string at once under Node, a promise through WebCrypto elsewhere, and
`undefined` where the platform has neither (a page outside a secure context), for the caller to refuse in its
own terms.

@example
```ts
const hex = await sha256Hex('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
```
*/
export function sha256Hex(text: string): string | Promise<string> | undefined {
  const hash = nodeHash();
  if (hash !== undefined) {
    return hash('sha256', text, 'hex');
  }
  const subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle;
  return subtle === undefined ? undefined : webCryptoHex(subtle, text);
}
