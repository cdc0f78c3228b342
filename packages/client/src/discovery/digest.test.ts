import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CanonicalJsonError, canonicalJson } from '../core/canonical-json.js';
import type { JsonValue } from '../core/json-value.js';
import { cardDigest } from './digest.js';

function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

// A card as an agent might serve it: members out of order, an unknown member, signatures, non-ASCII text.
const card: JsonValue = {
  version: '1.0.0',
  name: 'Agent Ω',
  supportedInterfaces: [
    { url: 'https://agent.example/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true },
  description: 'Summarises reports: "fast" & €-cheap\n',
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
  skills: [],
  'x-vendor': { weight: 1.5e-7, count: 1e21 },
  signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2ln' }],
};
// The same card in RFC 8785 form, written out by hand.
const canonicalCard =
  '{"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["application/json"],' +
  '"description":"Summarises reports: \\"fast\\" & €-cheap\\n","name":"Agent Ω",' +
  '"signatures":[{"protected":"eyJhbGciOiJFUzI1NiJ9","signature":"c2ln"}],"skills":[],' +
  '"supportedInterfaces":[{"protocolBinding":"HTTP+JSON","protocolVersion":"1.0","url":"https://agent.example/a2a"}],' +
  '"version":"1.0.0","x-vendor":{"count":1e+21,"weight":1.5e-7}}';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('cardDigest', () => {
  it('is SHA-256 over the UTF-8 bytes of the canonical form', async () => {
    expect(await cardDigest(card)).toBe(sha256(canonicalCard));
  });

  it("is 'sha256:' and 64 lowercase hex digits", async () => {
    expect(await cardDigest(card)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await cardDigest({})).toBe(sha256('{}'));
  });

  it('does not change when the members are reordered or the whitespace differs', async () => {
    const reordered = JSON.parse(
      `{ "x-vendor": {"count": 1E21, "weight": 0.00000015}, ${JSON.stringify(card).slice(1)}`,
    ) as JsonValue;
    expect(await cardDigest(reordered)).toBe(await cardDigest(card));
  });

  it('changes with any value', async () => {
    expect(await cardDigest({ ...(card as object), version: '1.0.1' })).not.toBe(await cardDigest(card));
  });

  it('matches node:crypto over canonical text for any JSON value, whatever the member order', async () => {
    const values = fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }) as fc.Arbitrary<JsonValue>;
    await fc.assert(
      fc.asyncProperty(values, async (value) => {
        const digest = await cardDigest(value);
        const reversed = JSON.parse(JSON.stringify(value, (_key, item: unknown) => reverseMembers(item)));
        expect(await cardDigest(reversed)).toBe(digest);
        expect(digest).toBe(sha256(canonicalJson(value)));
      }),
      { numRuns: 50 },
    );
  });

  it('refuses a value without a canonical form', async () => {
    await expect(cardDigest({ weight: Number.NaN })).rejects.toBeInstanceOf(CanonicalJsonError);
  });

  it('looks WebCrypto up on every call', async () => {
    const digest = vi.fn(async () => new Uint8Array(32).fill(0x0a).buffer);
    vi.stubGlobal('crypto', { subtle: { digest } });
    expect(await cardDigest({ a: 1 })).toBe(`sha256:${'0a'.repeat(32)}`);
    expect(digest).toHaveBeenCalledWith('SHA-256', new TextEncoder().encode('{"a":1}'));
  });

  it('fails with a TypeError where WebCrypto is unavailable', async () => {
    vi.stubGlobal('crypto', undefined);
    await expect(cardDigest({})).rejects.toBeInstanceOf(TypeError);
  });
});

// Integer-like names keep their numeric place in any JS object; every other member changes position.
function reverseMembers(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return item;
  }
  return Object.fromEntries(Object.entries(item).reverse());
}
