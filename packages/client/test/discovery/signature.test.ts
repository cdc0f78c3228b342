import { generateAgentCardSignature, AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { canonicalJson } from '../../src/core/canonical-json.js';
import {
  type CardSignatureAlgorithm,
  type CardSignatureKeyRequest,
  type CardSignatureKeyResolver,
  cardSignaturePayload,
  verifyCardSignature,
} from '../../src/discovery/signature.js';
import type { JsonObject, JsonValue } from '../../src/protocol/json-value.js';

const encoder = new TextEncoder();

function base64url(input: Uint8Array | string): string {
  const bytes = typeof input === 'string' ? encoder.encode(input) : input;
  let binary = '';
  for (const byte of bytes) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

type Signer = {
  readonly alg: string;
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly params: AlgorithmIdentifier | EcdsaParams;
};

type WireSignature = { protected: string; signature: string; header?: JsonObject };

const rsaParams = (modulusLength: number, hash = 'SHA-256'): RsaHashedKeyGenParams => ({
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash,
});

async function signer(alg: string, kid: string): Promise<Signer> {
  const generated =
    alg === 'ES256'
      ? { params: { name: 'ECDSA', hash: 'SHA-256' }, key: { name: 'ECDSA', namedCurve: 'P-256' } }
      : alg === 'RS256'
        ? { params: { name: 'RSASSA-PKCS1-v1_5' }, key: rsaParams(2048) }
        : { params: { name: 'Ed25519' }, key: { name: 'Ed25519' } };
  const pair = (await crypto.subtle.generateKey(generated.key, true, ['sign', 'verify'])) as CryptoKeyPair;
  return { alg, kid, privateKey: pair.privateKey, publicKey: pair.publicKey, params: generated.params };
}

// An independent signer: the JWS input over the plain RFC 8785 form of the card without `signatures` (the
// cards signed this way hold no default-valued member).
async function sign(
  card: JsonObject,
  by: Signer,
  options: { header?: JsonObject; unprotected?: JsonObject; payload?: string } = {},
): Promise<WireSignature> {
  const protectedHeader = base64url(
    JSON.stringify({ alg: by.alg, kid: by.kid, typ: 'JOSE', ...options.header }),
  );
  const { signatures: _, ...unsigned } = card;
  const payload = base64url(options.payload ?? canonicalJson(unsigned));
  const signature = await crypto.subtle.sign(
    by.params,
    by.privateKey,
    encoder.encode(`${protectedHeader}.${payload}`),
  );
  return {
    protected: protectedHeader,
    signature: base64url(new Uint8Array(signature)),
    ...(options.unprotected === undefined ? {} : { header: options.unprotected }),
  };
}

function signed(card: JsonObject, ...signatures: WireSignature[]): JsonObject {
  return { ...card, signatures };
}

const baseCard: JsonObject = {
  name: 'Signed agent',
  description: 'An agent whose card is signed.',
  version: '1.0.0',
  supportedInterfaces: [
    { url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes.', tags: ['echo'] }],
  'x-vendor': { tier: 'gold' },
};

let es256: Signer;
let rs256: Signer;
let ed25519: Signer;
let keys: Map<string, CryptoKey>;
let seen: CardSignatureKeyRequest[];

const resolver: CardSignatureKeyResolver = (request) => {
  seen.push(request);
  return keys.get(request.kid);
};

beforeAll(async () => {
  [es256, rs256, ed25519] = await Promise.all([
    signer('ES256', 'es-1'),
    signer('RS256', 'rs-1'),
    signer('EdDSA', 'ed-1'),
  ]);
  keys = new Map([es256, rs256, ed25519].map((entry) => [entry.kid, entry.publicKey]));
});

afterEach(() => {
  seen = [];
  vi.restoreAllMocks();
});
seen = [];

describe('verifyCardSignature (A2A spec §8.4.2)', () => {
  it.each<[string, () => Signer]>([
    ['ES256', () => es256],
    ['RS256', () => rs256],
    ['EdDSA (Ed25519)', () => ed25519],
  ])('verifies %s with a key generated here', async (_, by) => {
    const card = signed(baseCard, await sign(baseCard, by()));
    const checks = await verifyCardSignature(card, resolver);
    expect(checks).toEqual([{ index: 0, verified: true, kid: by().kid, alg: by().alg }]);
    expect(seen).toEqual([{ index: 0, kid: by().kid, alg: by().alg }]);
  });

  it('accepts the fully specified name Ed25519 (RFC 9864)', async () => {
    const card = signed(baseCard, await sign(baseCard, { ...ed25519, alg: 'Ed25519' }));
    expect(await verifyCardSignature(card, resolver)).toEqual([
      { index: 0, verified: true, kid: 'ed-1', alg: 'Ed25519' },
    ]);
  });

  it.each<[string, () => Signer]>([
    ['ES256', () => es256],
    ['RS256', () => rs256],
    ['EdDSA', () => ed25519],
  ])('takes a %s public key as a JWK', async (_, by) => {
    const jwk = await crypto.subtle.exportKey('jwk', by().publicKey);
    const card = signed(baseCard, await sign(baseCard, by()));
    const checks = await verifyCardSignature(card, () => jwk);
    expect(checks[0]?.verified).toBe(true);
  });

  it('covers the content: a changed member, an added one or a changed unknown one breaks it', async () => {
    const signature = await sign(baseCard, es256);
    for (const tampered of [
      { ...baseCard, name: 'Signed agent ' },
      { ...baseCard, iconUrl: 'https://agent.example/icon.png' },
      { ...baseCard, 'x-vendor': { tier: 'platinum' } },
      {
        ...baseCard,
        supportedInterfaces: [
          { url: 'https://evil.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
      },
    ]) {
      expect(await verifyCardSignature(signed(tampered, signature), resolver)).toEqual([
        { index: 0, verified: false, reason: 'mismatch', kid: 'es-1', alg: 'ES256' },
      ]);
    }
  });

  it('covers the protected header: a header signed by another key does not verify', async () => {
    const signature = await sign(baseCard, es256);
    const other = await sign(baseCard, { ...es256, kid: 'es-1' }, { header: { cty: 'x' } });
    const swapped = { protected: other.protected, signature: signature.signature };
    expect((await verifyCardSignature(signed(baseCard, swapped), resolver))[0]).toMatchObject({
      verified: false,
      reason: 'mismatch',
    });
  });

  it('ignores member order and whitespace, and the other signatures', async () => {
    const signature = await sign(baseCard, es256);
    const reordered = JSON.parse(
      JSON.stringify(Object.fromEntries(Object.entries(baseCard).reverse()), null, 2),
    ) as JsonObject;
    const rotated = signed(reordered, signature, await sign(baseCard, rs256));
    expect((await verifyCardSignature(rotated, resolver)).map((check) => check.verified)).toEqual([
      true,
      true,
    ]);
  });

  it('reports each signature: an old key no longer known next to the current one (rotation)', async () => {
    const retired = await signer('ES256', 'es-retired');
    const card = signed(baseCard, await sign(baseCard, retired), await sign(baseCard, es256));
    expect(await verifyCardSignature(card, resolver)).toEqual([
      { index: 0, verified: false, reason: 'unknown-key', kid: 'es-retired', alg: 'ES256' },
      { index: 1, verified: true, kid: 'es-1', alg: 'ES256' },
    ]);
  });

  it('does not verify with another key of the same algorithm', async () => {
    const impostor = await signer('ES256', 'es-1');
    const card = signed(baseCard, await sign(baseCard, impostor));
    expect((await verifyCardSignature(card, resolver))[0]).toMatchObject({ reason: 'mismatch' });
  });

  it('says unknown-key for a resolver answer that is no key', async () => {
    const card = signed(baseCard, await sign(baseCard, es256));
    for (const answer of [null, 'es-1', 42]) {
      const checks = await verifyCardSignature(card, () => answer as unknown as CryptoKey);
      expect(checks[0]).toMatchObject({ verified: false, reason: 'unknown-key' });
    }
  });

  it('says key-unavailable when the resolver fails', async () => {
    const card = signed(baseCard, await sign(baseCard, es256));
    const checks = await verifyCardSignature(card, () => Promise.reject(new Error('key store down')));
    expect(checks[0]).toMatchObject({ verified: false, reason: 'key-unavailable' });
  });

  it('passes jku to the resolver and never fetches it', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const card = signed(
      baseCard,
      await sign(baseCard, es256, { header: { jku: 'https://agent.example/jwks.json' } }),
    );
    expect((await verifyCardSignature(card, resolver))[0]?.verified).toBe(true);
    expect(seen).toEqual([{ index: 0, kid: 'es-1', alg: 'ES256', jku: 'https://agent.example/jwks.json' }]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('refuses a key that is not exactly the algorithm the header names', async () => {
    const p384 = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const rsa384 = (await crypto.subtle.generateKey(rsaParams(2048, 'SHA-384'), true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const rsa1024 = (await crypto.subtle.generateKey(rsaParams(1024), true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const esCard = signed(baseCard, await sign(baseCard, es256));
    const rsCard = signed(baseCard, await sign(baseCard, rs256));
    const edCard = signed(baseCard, await sign(baseCard, ed25519));
    const esJwk = await crypto.subtle.exportKey('jwk', es256.publicKey);
    const cases: [JsonObject, CryptoKey | JsonWebKey][] = [
      [esCard, rs256.publicKey],
      [esCard, p384.publicKey],
      [esCard, es256.privateKey],
      [esCard, { ...esJwk, alg: 'ES384' }],
      [esCard, { kty: 'EC', crv: 'P-256', x: 'AA' }],
      [rsCard, rsa384.publicKey],
      [rsCard, rsa1024.publicKey],
      [rsCard, ed25519.publicKey],
      [edCard, es256.publicKey],
    ];
    for (const [card, key] of cases) {
      expect((await verifyCardSignature(card, () => key))[0]).toMatchObject({
        verified: false,
        reason: 'invalid-key',
      });
    }
  });

  it.each<[string, JsonObject]>([
    ['none', { alg: 'none' }],
    ['HS256', { alg: 'HS256' }],
    ['ES384', { alg: 'ES384' }],
    ['PS256', { alg: 'PS256' }],
  ])('never verifies alg %s and never asks for its key', async (_, header) => {
    const card = signed(baseCard, await sign(baseCard, es256, { header }));
    expect((await verifyCardSignature(card, resolver))[0]).toMatchObject({
      verified: false,
      reason: 'unsupported-algorithm',
    });
    expect(seen).toEqual([]);
  });

  it('says unsupported-algorithm where the platform lacks Ed25519', async () => {
    const jwk = await crypto.subtle.exportKey('jwk', ed25519.publicKey);
    vi.spyOn(crypto.subtle, 'importKey').mockRejectedValue(
      new DOMException('no Ed25519', 'NotSupportedError'),
    );
    const card = signed(baseCard, await sign(baseCard, ed25519));
    expect((await verifyCardSignature(card, () => jwk))[0]).toMatchObject({
      reason: 'unsupported-algorithm',
    });
  });

  it('refuses a critical header it cannot understand (RFC 7515 §4.1.11)', async () => {
    const card = signed(baseCard, await sign(baseCard, es256, { header: { b64: false, crit: ['b64'] } }));
    expect((await verifyCardSignature(card, resolver))[0]).toMatchObject({ reason: 'critical-header' });
    expect(seen).toEqual([]);
  });

  it.each<[string, (valid: WireSignature) => JsonValue]>([
    ['a protected header that is not JSON', (valid) => ({ ...valid, protected: base64url('{"alg":') })],
    ['a protected header that is an array', (valid) => ({ ...valid, protected: base64url('["ES256"]') })],
    ['no kid', (valid) => ({ ...valid, protected: base64url('{"alg":"ES256"}') })],
    ['an empty kid', (valid) => ({ ...valid, protected: base64url('{"alg":"ES256","kid":""}') })],
    [
      'a kid with surrounding space',
      (valid) => ({ ...valid, protected: base64url('{"alg":"ES256","kid":" es-1"}') }),
    ],
    ['no alg', (valid) => ({ ...valid, protected: base64url('{"kid":"es-1"}') })],
    ['a numeric alg', (valid) => ({ ...valid, protected: base64url('{"alg":1,"kid":"es-1"}') })],
    [
      'a jku that is no string',
      (valid) => ({ ...valid, protected: base64url('{"alg":"ES256","kid":"es-1","jku":1}') }),
    ],
    [
      'a duplicate key in the header',
      (valid) => ({ ...valid, protected: base64url('{"alg":"ES256","kid":"es-1","kid":"x"}') }),
    ],
    ['an impossible base64url length', (valid) => ({ ...valid, protected: 'a' })],
    ['a character outside base64url', (valid) => ({ ...valid, signature: `${valid.signature}=` })],
    ['no signature', (valid) => ({ protected: valid.protected })],
    ['an entry that is no object', () => 'signature'],
    ['an unprotected header repeating a protected name', (valid) => ({ ...valid, header: { kid: 'es-1' } })],
  ])('says malformed for %s', async (_, corrupt) => {
    const valid = await sign(baseCard, es256);
    const card = { ...baseCard, signatures: [corrupt(valid)] };
    expect(await verifyCardSignature(card, resolver)).toEqual([
      { index: 0, verified: false, reason: 'malformed' },
    ]);
  });

  it('keeps an unprotected header that repeats nothing', async () => {
    const card = signed(baseCard, await sign(baseCard, es256, { unprotected: { note: 'rotated' } }));
    expect((await verifyCardSignature(card, resolver))[0]?.verified).toBe(true);
  });

  it('says mismatch for a signature of the wrong length', async () => {
    const valid = await sign(baseCard, es256);
    const card = signed(baseCard, { ...valid, signature: valid.signature.slice(0, -4) });
    expect((await verifyCardSignature(card, resolver))[0]).toMatchObject({ reason: 'mismatch' });
  });

  it('checks at most 64 entries, the card contract bound', async () => {
    const valid = await sign(baseCard, es256);
    const card = signed(baseCard, ...Array.from({ length: 66 }, () => valid));
    const checks = await verifyCardSignature(card, resolver);
    expect(checks).toHaveLength(66);
    expect(checks.slice(0, 64).every((check) => check.verified)).toBe(true);
    expect(checks.slice(64)).toEqual([
      { index: 64, verified: false, reason: 'malformed' },
      { index: 65, verified: false, reason: 'malformed' },
    ]);
    expect(seen).toHaveLength(64);
  });

  it.each<[string, JsonValue]>([
    ['a card with no signatures', baseCard],
    ['signatures that are no array', { ...baseCard, signatures: {} }],
    ['a card that is no object', [baseCard]],
    ['null', null],
  ])('has nothing to verify for %s', async (_, card) => {
    expect(await verifyCardSignature(card, resolver)).toEqual([]);
  });

  it('says malformed for every entry when the card has no canonical form', async () => {
    const valid = await sign(baseCard, es256);
    const card = { ...baseCard, rating: Number.NaN, signatures: [valid, valid] };
    expect(
      (await verifyCardSignature(card, resolver)).map((check) => check.verified === false && check.reason),
    ).toEqual(['malformed', 'malformed']);
  });

  it('returns frozen data', async () => {
    const checks = await verifyCardSignature(signed(baseCard, await sign(baseCard, es256)), resolver);
    expect(Object.isFrozen(checks)).toBe(true);
    expect(Object.isFrozen(checks[0])).toBe(true);
  });
});

describe('cardSignaturePayload (A2A spec §8.4.1)', () => {
  it('drops signatures and the members with no presence that hold their default', () => {
    const card: JsonObject = {
      name: 'a',
      signatures: [{ protected: 'x', signature: 'y' }],
      supportedInterfaces: [
        { url: 'https://a.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      ],
      capabilities: {
        streaming: false,
        extensions: [{ uri: 'https://e.example/v1', description: '', required: false, params: { keep: '' } }],
      },
      securitySchemes: {
        basic: { httpAuthSecurityScheme: { scheme: 'Basic', description: '', bearerFormat: '' } },
        mtls: { mtlsSecurityScheme: {} },
        oauth: {
          oauth2SecurityScheme: {
            oauth2MetadataUrl: '',
            flows: {
              authorizationCode: {
                authorizationUrl: 'u',
                tokenUrl: 't',
                refreshUrl: '',
                scopes: {},
                pkceRequired: false,
              },
            },
          },
        },
      },
      securityRequirements: [{ schemes: {} }, { schemes: { basic: { list: [] } } }],
      skills: [
        {
          id: 's',
          name: 'S',
          description: 'd',
          tags: [],
          examples: [],
          inputModes: [],
          securityRequirements: [],
        },
      ],
      defaultInputModes: [],
      unknown: '',
    };
    expect(cardSignaturePayload(card)).toMatchInlineSnapshot(
      `"{"capabilities":{"extensions":[{"params":{"keep":""},"uri":"https://e.example/v1"}],"streaming":false},"defaultInputModes":[],"name":"a","securityRequirements":[{},{"schemes":{"basic":{}}}],"securitySchemes":{"basic":{"httpAuthSecurityScheme":{"scheme":"Basic"}},"mtls":{"mtlsSecurityScheme":{}},"oauth":{"oauth2SecurityScheme":{"flows":{"authorizationCode":{"authorizationUrl":"u","scopes":{},"tokenUrl":"t"}}}}},"skills":[{"description":"d","id":"s","name":"S","tags":[]}],"supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"1.0","url":"https://a.example/a2a"}],"unknown":""}"`,
    );
  });

  it('drops an empty requirement list, scheme map and extension list, and keeps an empty card message', () => {
    expect(
      cardSignaturePayload({
        securityRequirements: [],
        securitySchemes: {},
        capabilities: { extensions: [] },
      }),
    ).toBe('{"capabilities":{}}');
  });

  it('keeps a __proto__ member as a member', () => {
    const card = JSON.parse('{"name":"a","__proto__":{"x":1}}') as JsonObject;
    expect(cardSignaturePayload(card)).toBe('{"__proto__":{"x":1},"name":"a"}');
  });

  it('verifies a card served with explicit defaults, signed without them as the spec says', async () => {
    const served: JsonObject = {
      ...baseCard,
      capabilities: { streaming: true, extensions: [{ uri: 'https://e.example/v1', required: false }] },
      securityRequirements: [],
    };
    const stripped = cardSignaturePayload(served);
    expect(stripped).not.toContain('required');
    const spec = await sign(served, es256, { payload: stripped });
    const naive = await sign(served, es256);
    const checks = await verifyCardSignature(signed(served, spec, naive), resolver);
    expect(checks.map((check) => check.verified)).toEqual([true, false]);
  });
});

describe('interop with the official @a2a-js/sdk signer', () => {
  // The SDK signs only the members its schema knows, so the interop card has no unknown member.
  function schemaCard(): JsonObject {
    const { 'x-vendor': _, ...known } = baseCard;
    return known;
  }

  async function sdkSign(card: JsonObject, by: Signer): Promise<JsonObject> {
    const sign = generateAgentCardSignature(by.privateKey, { alg: by.alg, kid: by.kid, typ: 'JOSE' });
    const { signatures } = SdkAgentCard.toJSON(await sign(SdkAgentCard.fromJSON(card))) as JsonObject;
    return { ...card, signatures: signatures ?? [] };
  }

  it.each<[CardSignatureAlgorithm, () => Signer]>([
    ['ES256', () => es256],
    ['RS256', () => rs256],
  ])('verifies a card the SDK signed with %s', async (_, by) => {
    const checks = await verifyCardSignature(await sdkSign(schemaCard(), by()), resolver);
    expect(checks).toEqual([{ index: 0, verified: true, kid: by().kid, alg: by().alg }]);
  });

  it('follows the spec where SDK 1.3.0 does not: the SDK signs without securitySchemes (a2a-js #663)', async () => {
    const card: JsonObject = {
      ...schemaCard(),
      securitySchemes: {
        oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://id.example/oidc' } },
      },
      securityRequirements: [{ schemes: { oidc: { list: ['agent.invoke'] } } }],
    };
    const checks = await verifyCardSignature(await sdkSign(card, es256), resolver);
    expect(checks[0]).toMatchObject({ verified: false, reason: 'mismatch' });
  });
});
