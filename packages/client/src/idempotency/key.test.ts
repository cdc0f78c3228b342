/**
The key rules of the a2a-rust idempotency extension: the unit checklist of
docs/idempotency.md#what-the-tests-prove, items 1–18, with a2a-rust's own test keys, plus key generation and
the card evidence.
*/
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentCard } from '../protocol/agent-card.js';
import { parseAgentCard } from '../protocol/decode.js';
import type { Message } from '../protocol/message.js';
import {
  declaresExtension,
  honoursIdempotency,
  idempotencyExtensionUri,
  idempotencyMetadataKey,
  type KeyError,
  type KeyedMessage,
  keyErrorText,
  keyOf,
  maxKeyLength,
  minKeyLength,
  newIdempotencyKey,
  setKey,
  validateKey,
} from './key.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const sixteen = 'a'.repeat(16);
const KEY = '8f14e45fceea167a5a36dedd4bea2543';

describe('the constants', () => {
  it('are a2a-rust’s, byte for byte (docs/idempotency.md#keys)', () => {
    expect([idempotencyExtensionUri, idempotencyMetadataKey, minKeyLength, maxKeyLength]).toEqual([
      'https://a2a-rust.com/extensions/idempotency/v1',
      'a2a-rust.com/idempotency-key',
      16,
      255,
    ]);
  });
});

describe('validateKey (docs/idempotency.md#keys)', () => {
  it.each([
    ['32 hex digits', KEY],
    ['exactly 16 bytes', 'a'.repeat(minKeyLength)],
    ['exactly 255 bytes', 'a'.repeat(maxKeyLength)],
    ['the separator :', 'tenant-a:8f14e45fceea167a'],
    ['the separator _', 'run_8f14e45fceea167a'],
    ['the separator .', 'v1.8f14e45fceea167a'],
    ['unpadded base64url', 'jxTkX87qFnpaNt7dS-olQw_A'],
  ])('accepts %s', (_name, key) => {
    expect(validateKey(key)).toEqual({ ok: true, value: key });
  });

  it.each<[string, string, KeyError]>([
    ['the empty string', '', 'TooShort'],
    ['"1"', '1', 'TooShort'],
    ['"retry"', 'retry', 'TooShort'],
    ['15 bytes', 'a'.repeat(15), 'TooShort'],
    ['256 bytes', 'a'.repeat(256), 'TooLong'],
    ['a newline', `${sixteen}\n`, 'InvalidCharacter'],
    ['CRLF', `${sixteen}\r\n`, 'InvalidCharacter'],
    ['a space', `${sixteen} `, 'InvalidCharacter'],
    ['NUL', `${sixteen}\0`, 'InvalidCharacter'],
    ['a slash', `${sixteen}/`, 'InvalidCharacter'],
    ['é', `${sixteen}é`, 'InvalidCharacter'],
    ['standard base64 + and =', `${sixteen}+=`, 'InvalidCharacter'],
    // Bytes, not UTF-16 units: 14 `a`s and é are 16 bytes but 15 units, so Rust says InvalidCharacter, not
    // TooShort.
    ['14 a and é (16 bytes, 15 units)', `${'a'.repeat(14)}é`, 'InvalidCharacter'],
    ['127 two-byte characters (254 bytes)', 'é'.repeat(127), 'InvalidCharacter'],
    ['128 two-byte characters (256 bytes, 128 units)', 'é'.repeat(128), 'TooLong'],
    ['7 two-byte characters (14 bytes)', 'é'.repeat(7), 'TooShort'],
  ])('refuses %s', (_name, key, error) => {
    expect(validateKey(key)).toEqual({ ok: false, error });
  });

  it('calls a non-string NotAString rather than throwing', () => {
    expect(validateKey(42 as unknown as string)).toEqual({ ok: false, error: 'NotAString' });
  });

  it('accepts exactly the strings of 16–255 ASCII letters, digits and - _ . :', () => {
    const reference = /^[A-Za-z0-9._:-]{16,255}$/;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 300 }),
          fc.stringMatching(/^[A-Za-z0-9._:-]{10,260}$/),
          fc.stringMatching(/^[A-Za-z0-9._:\-/ é\n]{14,20}$/),
        ),
        (key) => validateKey(key).ok === reference.test(key),
      ),
    );
  });

  it('checks the rules in Rust’s order: length before characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (key) => {
        const bytes = new TextEncoder().encode(key).length;
        const result = validateKey(key);
        if (bytes < minKeyLength) {
          return result.error === 'TooShort';
        }
        return bytes > maxKeyLength ? result.error === 'TooLong' : result.error !== 'TooShort';
      }),
    );
  });
});

describe('keyErrorText (docs/idempotency.md#keys)', () => {
  it('names the rule of each error, in a2a-rust’s words', () => {
    expect(keyErrorText).toEqual({
      TooShort:
        'idempotency key must be at least 16 bytes; generate it from a CSPRNG, not from message content',
      TooLong: 'idempotency key must be at most 255 bytes',
      InvalidCharacter: 'idempotency key accepts only ASCII alphanumerics and `-`, `_`, `.`, `:`',
      NotAString: '`a2a-rust.com/idempotency-key` must be a JSON string',
    });
  });
});

describe('keyOf (docs/idempotency.md#keys)', () => {
  it.each<[string, KeyedMessage, ReturnType<typeof keyOf>]>([
    ['no metadata', {}, { ok: true, value: undefined }],
    ['unrelated metadata', { metadata: { trace: 'x' } }, { ok: true, value: undefined }],
    ['metadata that is an array', { metadata: [KEY] }, { ok: true, value: undefined }],
    ['metadata that is a string', { metadata: KEY }, { ok: true, value: undefined }],
    ['metadata that is null', { metadata: null }, { ok: true, value: undefined }],
    ['a valid key', { metadata: { [idempotencyMetadataKey]: KEY } }, { ok: true, value: KEY }],
    ['the number 42', { metadata: { [idempotencyMetadataKey]: 42 } }, { ok: false, error: 'NotAString' }],
    [
      'null (present, not absent)',
      { metadata: { [idempotencyMetadataKey]: null } },
      { ok: false, error: 'NotAString' },
    ],
    [
      'an object',
      { metadata: { [idempotencyMetadataKey]: { key: KEY } } },
      { ok: false, error: 'NotAString' },
    ],
    ['"short"', { metadata: { [idempotencyMetadataKey]: 'short' } }, { ok: false, error: 'TooShort' }],
    [
      'a key with a space',
      { metadata: { [idempotencyMetadataKey]: `${sixteen} x` } },
      { ok: false, error: 'InvalidCharacter' },
    ],
  ])('%s', (_name, message, expected) => {
    expect(keyOf(message)).toEqual(expected);
  });

  it('reads a key whether or not the URI is declared', () => {
    const declared = {
      metadata: { [idempotencyMetadataKey]: KEY },
      extensions: [idempotencyExtensionUri],
    };
    const undeclared = { metadata: { [idempotencyMetadataKey]: KEY } };
    expect([keyOf(declared), keyOf(undeclared)]).toEqual([
      { ok: true, value: KEY },
      { ok: true, value: KEY },
    ]);
    expect([declaresExtension(declared), declaresExtension(undeclared)]).toEqual([true, false]);
  });

  it('ignores an inherited entry: only the message’s own metadata counts', () => {
    const metadata = Object.create({ [idempotencyMetadataKey]: KEY }) as Record<string, unknown>;
    expect(keyOf({ metadata })).toEqual({ ok: true, value: undefined });
  });
});

function message(extra: Partial<Message> = {}): Message {
  return { messageId: 'msg-1', role: 'ROLE_USER', parts: [{ text: 'summarise the incident' }], ...extra };
}

describe('setKey (docs/idempotency.md#keys)', () => {
  it('writes the key into metadata and declares the URI (the example of docs/idempotency.md#keys)', () => {
    const sent = message();
    expect(setKey(sent, KEY)).toEqual({ ok: true, value: KEY });
    expect(keyOf(sent)).toEqual({ ok: true, value: KEY });
    expect(sent.metadata).toEqual({ [idempotencyMetadataKey]: KEY });
    expect(sent.extensions).toEqual([idempotencyExtensionUri]);
  });

  it('keeps the other metadata entries', () => {
    const sent = message({ metadata: { trace: 'abc', nested: { a: 1 } } });
    setKey(sent, KEY);
    expect(sent.metadata).toEqual({ trace: 'abc', nested: { a: 1 }, [idempotencyMetadataKey]: KEY });
  });

  it.each([
    ['a string', 'scalar'],
    ['a number', 7],
    ['an array', [1, 2]],
    ['null', null],
  ])('replaces metadata that is %s', (_name, metadata) => {
    const sent: KeyedMessage = { metadata };
    setKey(sent, KEY);
    expect(sent.metadata).toEqual({ [idempotencyMetadataKey]: KEY });
  });

  it('overwrites a previous value, a non-string included', () => {
    const sent: KeyedMessage = { metadata: { [idempotencyMetadataKey]: 42 } };
    setKey(sent, KEY);
    expect(keyOf(sent)).toEqual({ ok: true, value: KEY });
  });

  it('called twice, leaves one URI and the newer key', () => {
    const sent = message();
    setKey(sent, KEY);
    setKey(sent, 'tenant-a:8f14e45fceea167a');
    expect(sent.extensions).toEqual([idempotencyExtensionUri]);
    expect(keyOf(sent)).toEqual({ ok: true, value: 'tenant-a:8f14e45fceea167a' });
  });

  it('keeps the other URIs, and replaces an `extensions` that is not a list', () => {
    const sent = message({ extensions: ['https://ext.example/traces/v1'] });
    setKey(sent, KEY);
    expect(sent.extensions).toEqual(['https://ext.example/traces/v1', idempotencyExtensionUri]);
    const odd: KeyedMessage = { extensions: 'https://ext.example/traces/v1' };
    setKey(odd, KEY);
    expect(odd.extensions).toEqual([idempotencyExtensionUri]);
  });

  it.each([
    ['too short', 'retry', 'TooShort'],
    ['too long', 'a'.repeat(256), 'TooLong'],
    ['with a newline', `${sixteen}\n`, 'InvalidCharacter'],
  ])('refuses a key %s and leaves the message untouched', (_name, key, error) => {
    const bare = message();
    expect(setKey(bare, key)).toEqual({ ok: false, error });
    expect(bare).toEqual(message());
    expect('metadata' in bare || 'extensions' in bare).toBe(false);
    const scalar: KeyedMessage = { metadata: 'scalar' };
    setKey(scalar, key);
    expect(scalar).toEqual({ metadata: 'scalar' });
  });

  it('keeps the key and the URI across a JSON round trip', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._:-]{16,255}$/), (key) => {
        const sent = message({ metadata: { trace: 'x' } });
        setKey(sent, key);
        const received = JSON.parse(JSON.stringify(sent)) as Message;
        return (
          keyOf(received).value === key &&
          declaresExtension(received) &&
          JSON.stringify(received) === JSON.stringify(sent)
        );
      }),
    );
  });
});

describe('newIdempotencyKey', () => {
  it('renders 16 bytes of crypto.getRandomValues as 32 lowercase hex digits, a valid key', () => {
    const spy = vi.spyOn(crypto, 'getRandomValues');
    const key = newIdempotencyKey();
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]?.[0]).toHaveProperty('byteLength', 16);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(validateKey(key).ok).toBe(true);
  });

  it('writes every byte as two digits, the first byte first', () => {
    vi.spyOn(crypto, 'getRandomValues').mockImplementation((array) => {
      (array as Uint8Array).set([0, 1, 15, 16, 255, 171, 205, 239, 1, 2, 3, 4, 5, 6, 7, 8]);
      return array;
    });
    expect(newIdempotencyKey()).toBe('00010f10ffabcdef0102030405060708');
  });

  it('never repeats', () => {
    const keys = new Set(Array.from({ length: 1000 }, newIdempotencyKey));
    expect(keys.size).toBe(1000);
  });
});

function cardWith(extensions: readonly unknown[] | undefined): AgentCard {
  return parseAgentCard({
    name: 'Agent',
    description: 'An agent.',
    supportedInterfaces: [
      { url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    version: '1.0',
    capabilities: extensions === undefined ? {} : { extensions },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 'S', description: 'A skill.', tags: ['t'] }],
  });
}

describe('honoursIdempotency (docs/idempotency.md#honouring-peers)', () => {
  it.each([
    ['the exact URI', [{ uri: idempotencyExtensionUri }], true],
    [
      'the URI among others, required and described',
      [{ uri: 'https://ext.example/a' }, { uri: idempotencyExtensionUri, required: true, description: 'x' }],
      true,
    ],
    ['no extensions', undefined, false],
    ['other extensions only', [{ uri: 'https://a2a-rust.com/extensions/failure/v1' }], false],
    ['the URI in another case', [{ uri: 'https://A2A-RUST.com/extensions/idempotency/v1' }], false],
    ['the URI with a trailing slash', [{ uri: `${idempotencyExtensionUri}/` }], false],
    ['another version', [{ uri: 'https://a2a-rust.com/extensions/idempotency/v2' }], false],
  ])('%s: %s', (_name, extensions, expected) => {
    expect(honoursIdempotency(cardWith(extensions))).toBe(expected);
  });
});
