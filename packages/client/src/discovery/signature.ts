/**
@module
Agent card signatures (A2A spec §8.4): JWS (RFC 7515) with a detached payload, the RFC 8785 canonical form of
the card without its `signatures` member and without the members that hold their proto default. Verified with
WebCrypto alone (ES256, RS256, EdDSA over Ed25519 where the platform has it), so the same code runs in
browsers and Node. A verified signature is data: it becomes trust only when the caller decides so, e.g. by
pinning the digest of the card it verified (docs/protocol-checks.md#card-trust).
*/

import { CanonicalJsonError, canonicalJson } from '../core/canonical-json.js';
import type { JsonValue } from '../core/json-value.js';
import { optionalMembers } from '../core/optional-members.js';
import { AgentCardSignature } from '../protocol/agent-card.js';
import { contractBounds } from '../protocol/bounds.js';
import { decode } from '../protocol/decode.js';
import { isJsonObject, type JsonObject } from '../protocol/json-value.js';
import { labelRule } from '../protocol/text.js';
import { parseJson } from '../wire/json.js';

/**
The JWS algorithms verified here (RFC 7518 §3.3, §3.4; RFC 8037 `EdDSA` and its fully specified RFC 9864 name
`Ed25519`).
*/
export type CardSignatureAlgorithm = 'ES256' | 'RS256' | 'EdDSA' | 'Ed25519';

/**
What the key resolver is asked for: the protected header's `kid` and `alg` (and `jku` when it names one), for
the signature at `index`.

@example
```ts
const request: CardSignatureKeyRequest = { index: 0, kid: 'partner-2025', alg: 'ES256' };
```
*/
export type CardSignatureKeyRequest = {
  readonly index: number;
  readonly kid: string;
  readonly alg: CardSignatureAlgorithm;
  /**
  A JWK Set URL from the protected header. Never fetch it blindly: it is the signer's claim, and an open door
  to SSRF.
  */
  readonly jku?: string;
};

/**
Returns the public key for a signature, as a WebCrypto `CryptoKey` or a JWK, or `undefined` when it knows
none; it must never return an expired or revoked key (A2A spec §8.4.2). A rejection counts as
`key-unavailable`.

@example
```ts
const resolveKey: CardSignatureKeyResolver = ({ kid }) => trustedKeys.get(kid);
```
*/
export type CardSignatureKeyResolver = (
  request: CardSignatureKeyRequest,
) => Promise<CryptoKey | JsonWebKey | undefined> | CryptoKey | JsonWebKey | undefined;

/**
Why a signature did not verify.

- `malformed`: the entry breaks the card contract, the protected header is not a base64url JSON object with a
  string `alg` and a non-empty `kid` (≤ 512 bytes, trimmed, no control character), the unprotected header
  repeats a protected name (RFC 7515 §7.2.1), the entry is past the 64th, or the card has no canonical form.
- `critical-header`: the protected header has `crit`; no extension is understood here (RFC 7515 §4.1.11).
- `unsupported-algorithm`: `alg` is none of {@link CardSignatureAlgorithm}, or the platform lacks it.
- `unknown-key`: the resolver knows no key for it. `key-unavailable`: the resolver failed.
- `invalid-key`: the key does not import, or is not a public verification key of exactly that algorithm (P-256
  for ES256, SHA-256 and at least 2048 bits for RS256, Ed25519 for EdDSA), or its JWK `alg` says otherwise.
- `mismatch`: the signature does not verify: the card or the header changed, or another key signed it.
*/
export type CardSignatureFailure =
  | 'malformed'
  | 'critical-header'
  | 'unsupported-algorithm'
  | 'unknown-key'
  | 'key-unavailable'
  | 'invalid-key'
  | 'mismatch';

/**
The outcome for one entry of the card's `signatures`, in order. `kid` and `alg` are the signer's header
values, returned as data.

@example
```ts
const verified = checks.filter((check) => check.verified).map((check) => check.kid);
```
*/
export type CardSignatureCheck =
  | {
      readonly index: number;
      readonly verified: true;
      readonly kid: string;
      readonly alg: CardSignatureAlgorithm;
    }
  | {
      readonly index: number;
      readonly verified: false;
      readonly reason: CardSignatureFailure;
      readonly kid?: string;
      readonly alg?: string;
    };

//// The signing payload (A2A spec §8.4.1) ////

// What a member with no presence (proto3 implicit, not REQUIRED) holds by default. Such a member is left out
// when it holds it; members with presence (`optional`, messages, oneof members), REQUIRED ones and members
// this table does not know are kept as received (A2A spec §8.4.1: a member present in the JSON was set).
type Implicit = 'string' | 'bool' | 'list' | 'map';

type Shape = {
  readonly implicit?: Readonly<Record<string, Implicit>>;
  /** Message members, canonicalised in turn. */
  readonly messages?: Readonly<Record<string, Shape>>;
  /** Repeated message members: each element. */
  readonly lists?: Readonly<Record<string, Shape>>;
  /** Map members with message values: each value. */
  readonly maps?: Readonly<Record<string, Shape>>;
};

const described: Shape = { implicit: { description: 'string' } };
const requirement: Shape = {
  implicit: { schemes: 'map' },
  maps: { schemes: { implicit: { list: 'list' } } },
};
const oauthFlows: Shape = {
  messages: {
    authorizationCode: { implicit: { refreshUrl: 'string', pkceRequired: 'bool' } },
    clientCredentials: { implicit: { refreshUrl: 'string' } },
    implicit: { implicit: { authorizationUrl: 'string', refreshUrl: 'string', scopes: 'map' } },
    password: { implicit: { tokenUrl: 'string', refreshUrl: 'string', scopes: 'map' } },
    deviceCode: { implicit: { refreshUrl: 'string' } },
  },
};
const securityScheme: Shape = {
  messages: {
    apiKeySecurityScheme: described,
    httpAuthSecurityScheme: { implicit: { description: 'string', bearerFormat: 'string' } },
    oauth2SecurityScheme: {
      implicit: { description: 'string', oauth2MetadataUrl: 'string' },
      messages: { flows: oauthFlows },
    },
    openIdConnectSecurityScheme: described,
    mtlsSecurityScheme: described,
  },
};
const cardShape: Shape = {
  implicit: { securitySchemes: 'map', securityRequirements: 'list' },
  messages: {
    capabilities: {
      implicit: { extensions: 'list' },
      // `params` is a Struct: free JSON, kept as received.
      lists: { extensions: { implicit: { uri: 'string', description: 'string', required: 'bool' } } },
    },
  },
  lists: {
    supportedInterfaces: { implicit: { tenant: 'string' } },
    skills: {
      implicit: { examples: 'list', inputModes: 'list', outputModes: 'list', securityRequirements: 'list' },
      lists: { securityRequirements: requirement },
    },
    securityRequirements: requirement,
  },
  maps: { securitySchemes: securityScheme },
};

function entry<T>(table: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
}

function holdsDefault(value: JsonValue, kind: Implicit): boolean {
  switch (kind) {
    case 'string':
      return value === '';
    case 'bool':
      return value === false;
    case 'list':
      return Array.isArray(value) && value.length === 0;
    case 'map':
      return isJsonObject(value) && Object.keys(value).length === 0;
  }
}

function member(value: JsonValue, shape: Shape, name: string): JsonValue {
  const message = entry(shape.messages, name);
  if (message !== undefined) {
    return strip(value, message);
  }
  const list = entry(shape.lists, name);
  if (list !== undefined) {
    return Array.isArray(value) ? value.map((item) => strip(item, list)) : value;
  }
  const map = entry(shape.maps, name);
  if (map !== undefined && isJsonObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, strip(item, map)]));
  }
  return value;
}

function strip(value: JsonValue, shape: Shape): JsonValue {
  if (!isJsonObject(value)) {
    return value;
  }
  const kept: [string, JsonValue][] = [];
  for (const [name, item] of Object.entries(value)) {
    const implicit = entry(shape.implicit, name);
    if (implicit === undefined || !holdsDefault(item, implicit)) {
      kept.push([name, member(item, shape, name)]);
    }
  }
  // fromEntries defines every name as an own property, a `__proto__` member included.
  return Object.fromEntries(kept);
}

/**
The text a card signature signs (A2A spec §8.4.1): the card without `signatures`, without every member that
has no presence in the proto and holds its default (`"required": false`, `"tenant": ""`, `"extensions": []`,
`"securitySchemes": {}`, …), canonicalised with RFC 8785. Members with presence (`"streaming": false`),
REQUIRED members and unknown members stay as received, so pass the card exactly as parsed, never a decoded
`AgentCard` (decoding fills in defaults). The payload of the JWS is the base64url of its UTF-8 bytes.

@throws {CanonicalJsonError} when the card holds a value JSON cannot (never one from the bounded JSON parser).

@example
```ts
cardSignaturePayload({ name: 'a', signatures: [], capabilities: { extensions: [] } }); // '{"capabilities":{},"name":"a"}'
```
*/
export function cardSignaturePayload(card: JsonObject): string {
  const { signatures: _, ...unsigned } = card;
  return canonicalJson(strip(unsigned, cardShape));
}

//// JWS verification (RFC 7515 §5.2) ////

const encoder = new TextEncoder();

function toBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

// The contract already admits only the base64url alphabet; a length of 4n+1 is no encoding at all.
function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 === 1) {
    return undefined;
  }
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) {
    bytes[index] = binary.charCodeAt(index);
  }
  return bytes;
}

type Header = { readonly kid: string; readonly alg: string; readonly jku?: string; readonly crit: boolean };

function readHeader(signature: AgentCardSignature): Header | undefined {
  const bytes = fromBase64url(signature.protected);
  let header: JsonValue;
  try {
    header = bytes === undefined ? null : parseJson(bytes);
  } catch {
    return undefined;
  }
  if (!isJsonObject(header)) {
    return undefined;
  }
  const { kid, alg, jku } = header;
  // RFC 7515 §7.2.1: a header parameter name appears in the protected or the unprotected header, never both.
  const repeated = Object.keys(signature.header ?? {}).some((name) => Object.hasOwn(header, name));
  if (
    repeated ||
    typeof alg !== 'string' ||
    typeof kid !== 'string' ||
    labelRule(kid, contractBounds.labelBytes) !== undefined ||
    (jku !== undefined && typeof jku !== 'string')
  ) {
    return undefined;
  }
  return { kid, alg, ...optionalMembers({ jku }), crit: Object.hasOwn(header, 'crit') };
}

type JwsAlgorithm = {
  readonly importParams: EcKeyImportParams | RsaHashedImportParams | Algorithm;
  readonly verifyParams: EcdsaParams | Algorithm;
  /** Whether an imported or given key is exactly this algorithm's. */
  readonly fits: (key: CryptoKey) => boolean;
};

const ed25519: JwsAlgorithm = {
  importParams: { name: 'Ed25519' },
  verifyParams: { name: 'Ed25519' },
  fits: (key) => key.algorithm.name === 'Ed25519',
};

// RFC 7518 §3.4: ES256 is ECDSA over P-256 with SHA-256, the signature r‖s, which is WebCrypto's format too;
// §3.3: RS256 needs a key of at least 2048 bits.
const algorithms: Readonly<Record<CardSignatureAlgorithm, JwsAlgorithm>> = {
  ES256: {
    importParams: { name: 'ECDSA', namedCurve: 'P-256' },
    verifyParams: { name: 'ECDSA', hash: 'SHA-256' },
    fits: (key) => key.algorithm.name === 'ECDSA' && (key.algorithm as EcKeyAlgorithm).namedCurve === 'P-256',
  },
  RS256: {
    importParams: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    verifyParams: { name: 'RSASSA-PKCS1-v1_5' },
    fits: (key) => {
      const algorithm = key.algorithm as RsaHashedKeyAlgorithm;
      return (
        algorithm.name === 'RSASSA-PKCS1-v1_5' &&
        algorithm.hash.name === 'SHA-256' &&
        algorithm.modulusLength >= 2048
      );
    },
  },
  EdDSA: ed25519,
  Ed25519: ed25519,
};

function isAlgorithm(alg: string): alg is CardSignatureAlgorithm {
  return Object.hasOwn(algorithms, alg);
}

type KeyOutcome = { readonly key: CryptoKey } | { readonly failure: CardSignatureFailure };

async function importKey(
  subtle: SubtleCrypto,
  given: CryptoKey | JsonWebKey,
  alg: CardSignatureAlgorithm,
): Promise<KeyOutcome> {
  const algorithm = algorithms[alg];
  let key: CryptoKey;
  if (given instanceof CryptoKey) {
    key = given;
  } else {
    // WebCrypto's JWK import itself refuses a key whose `alg`, `kty` or curve does not fit the algorithm.
    try {
      key = await subtle.importKey('jwk', given, algorithm.importParams, false, ['verify']);
    } catch (error) {
      return { failure: isNotSupported(error) ? 'unsupported-algorithm' : 'invalid-key' };
    }
  }
  // A private key never carries the `verify` usage, so this also refuses one.
  const fits = key.usages.includes('verify') && algorithm.fits(key);
  return fits ? { key } : { failure: 'invalid-key' };
}

function isNotSupported(error: unknown): boolean {
  return error instanceof Error && error.name === 'NotSupportedError';
}

function failed(index: number, reason: CardSignatureFailure, header?: Header): CardSignatureCheck {
  return Object.freeze({
    index,
    verified: false,
    reason,
    ...(header === undefined ? {} : { kid: header.kid, alg: header.alg }),
  });
}

async function verifyOne(
  signature: unknown,
  index: number,
  payload: string,
  resolveKey: CardSignatureKeyResolver,
): Promise<CardSignatureCheck> {
  const decoded = decode(AgentCardSignature, signature);
  const header = decoded.ok ? readHeader(decoded.value) : undefined;
  if (!decoded.ok || header === undefined) {
    return failed(index, 'malformed');
  }
  if (header.crit) {
    return failed(index, 'critical-header', header);
  }
  const { alg, kid } = header;
  if (!isAlgorithm(alg)) {
    return failed(index, 'unsupported-algorithm', header);
  }
  let given: CryptoKey | JsonWebKey | undefined;
  try {
    given = await resolveKey(Object.freeze({ index, kid, alg, ...optionalMembers({ jku: header.jku }) }));
  } catch {
    return failed(index, 'key-unavailable', header);
  }
  if (given === undefined || given === null || typeof given !== 'object') {
    return failed(index, 'unknown-key', header);
  }
  const subtle = globalThis.crypto.subtle;
  const outcome = await importKey(subtle, given, alg);
  if ('failure' in outcome) {
    return failed(index, outcome.failure, header);
  }
  const bytes = fromBase64url(decoded.value.signature);
  // RFC 7515 §5.2, step 8: the signing input is ASCII(BASE64URL(protected) '.' BASE64URL(payload)).
  const input = encoder.encode(`${decoded.value.protected}.${payload}`);
  let valid: boolean;
  try {
    valid =
      bytes !== undefined && (await subtle.verify(algorithms[alg].verifyParams, outcome.key, bytes, input));
  } catch {
    valid = false;
  }
  return valid ? Object.freeze({ index, verified: true, kid, alg }) : failed(index, 'mismatch', header);
}

/**
Verifies each entry of a card's `signatures` (A2A spec §8.4.2) and says which verified: a JWS whose protected
header names `alg` and `kid`, over the detached payload {@link cardSignaturePayload} of the card as parsed.
Keys come from `resolveKey` only; `jku` is passed to it, never fetched. Never throws for what the card holds:
every problem is a `CardSignatureFailure` of its entry. At most 64 entries are checked (the card contract's
bound); a `card` that is not an object, or has no `signatures` array, has nothing to verify.

A verified signature is data. It proves that the holder of the key the resolver returned signed this content;
whether that makes the card trustworthy is the caller's decision (docs/protocol-checks.md#card-trust), e.g. by
pinning `fetchAgentCard(...).digest` in `discover({ trust: { kind: 'digest', digest } })`.

@example
```ts
const fetched = await fetchAgentCard({ cardUrl });
const checks = await verifyCardSignature(fetched.raw, ({ kid, alg }) => (alg === 'ES256' ? keys.get(kid) : undefined));
const trusted = checks.some((check) => check.verified);
```
*/
export async function verifyCardSignature(
  card: JsonValue,
  resolveKey: CardSignatureKeyResolver,
): Promise<readonly CardSignatureCheck[]> {
  if (!isJsonObject(card)) {
    return Object.freeze([]);
  }
  const { signatures } = card;
  if (!Array.isArray(signatures)) {
    return Object.freeze([]);
  }
  let payload: string | undefined;
  try {
    payload = toBase64url(encoder.encode(cardSignaturePayload(card)));
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) {
      throw error;
    }
  }
  const checks: CardSignatureCheck[] = [];
  for (const [index, signature] of signatures.entries()) {
    checks.push(
      payload === undefined || index >= contractBounds.signatures
        ? failed(index, 'malformed')
        : await verifyOne(signature, index, payload, resolveKey),
    );
  }
  return Object.freeze(checks);
}
