import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from './sha256.js';

// FIPS 180-4's examples: the empty message, one block, two blocks.
const vectors = [
  ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  [
    'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  ],
] as const;

async function webCrypto(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function withoutNode(): void {
  vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('sha256Hex', () => {
  it.each(vectors)('hashes %j synchronously under Node', (text, hex) => {
    expect(sha256Hex(text)).toBe(hex);
  });

  it.each(vectors)('hashes %j through WebCrypto off Node', async (text, hex) => {
    withoutNode();
    const result = sha256Hex(text);
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toBe(hex);
  });

  it('hashes the UTF-8 bytes of any string, the same on both paths', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), async (text) => {
        const sync = sha256Hex(text);
        expect(typeof sync).toBe('string');
        expect(sync).toBe(await webCrypto(text));
        withoutNode();
        expect(await sha256Hex(text)).toBe(sync);
        vi.restoreAllMocks();
      }),
    );
  });

  it('is undefined where the platform has no SHA-256 at all', () => {
    withoutNode();
    vi.stubGlobal('crypto', {});
    expect(sha256Hex('abc')).toBeUndefined();
  });
});
