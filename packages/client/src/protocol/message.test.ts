import { describe, expect, expectTypeOf, it } from 'vitest';
import { decode } from './decode.js';
import { base64DecodedLength, Message, Part, Role } from './message.js';

const MiB = 1024 * 1024;

function rule(schema: Parameters<typeof decode>[0], value: unknown): string | undefined {
  const result = decode(schema, value);
  return result.ok ? undefined : `${result.error.violation.rule} at ${result.error.violation.path}`;
}

const agentMessage = {
  messageId: '5ef72132',
  contextId: '49fd8b51',
  role: 'ROLE_AGENT',
  parts: [{ text: 'echo: echo hi', mediaType: 'text/plain' }],
  metadata: { peer: { mode: 'echo', requestedVersion: '1.0', tenant: '', requestMetadata: null } },
};

describe('Part', () => {
  // The part examples of A2A spec §4.1.6 and the official server's captured parts
  // (docs/interop.md#the-official-js-sdk-server).
  it.each([
    [{ text: 'hi' }],
    [{ text: '' }],
    [{ raw: 'iVBORw0KGgo=', filename: 'a.png', mediaType: 'image/png' }],
    [{ raw: 'iVBORw0KGgo', filename: 'a.png' }],
    [{ raw: '-_-_' }],
    [{ raw: '' }],
    [{ url: 'https://files.example/report.pdf', mediaType: 'application/pdf' }],
    [{ data: { k: 1 }, mediaType: 'application/json' }],
    [{ data: { words: 3 }, mediaType: 'application/json' }],
    [{ data: null }],
    [{ data: [1, 'two', false] }],
    [{ data: 'a string' }],
    [{ text: 'x ', mediaType: 'text/plain; charset=utf-8', metadata: { chunk: 1 } }],
  ])('accepts %j', (part) => {
    expect(decode(Part, part)).toEqual({ ok: true, value: part });
  });

  it.each([
    ['no member', { mediaType: 'text/plain' }, 'oneof-none at $'],
    ['empty object', {}, 'oneof-none at $'],
    ['two members', { text: 'a', data: 1 }, 'oneof-many at $'],
    ['text and url', { text: 'a', url: 'https://x.example' }, 'oneof-many at $'],
    ['four members', { text: 'a', raw: '', url: 'https://x.example', data: {} }, 'oneof-many at $'],
    ['data null beside text (null is a present Value)', { text: 'a', data: null }, 'oneof-many at $'],
    ['text null (null is absence, so no member is present)', { text: null }, 'oneof-none at $'],
    ['text not a string', { text: 1 }, 'invalid_type at $.text'],
    ['v0.3 kind part', { kind: 'text', text: 'a' }, undefined],
    ['v0.3 file part', { kind: 'file', file: { uri: 'https://x.example' } }, 'oneof-none at $'],
    ['raw not base64', { raw: 'not base64!' }, 'base64 at $.raw'],
    ['raw mixing alphabets', { raw: 'ab+_' }, 'base64 at $.raw'],
    ['raw with one stray char', { raw: 'abcde' }, 'base64 at $.raw'],
    ['raw padded short', { raw: 'abc=d' }, 'base64 at $.raw'],
    ['url relative', { url: '/report.pdf' }, 'url at $.url'],
    ['url with userinfo', { url: 'https://user:pw@files.example/a' }, 'url at $.url'],
    ['url without host', { url: 'mailto:a@example.com' }, 'url at $.url'],
    ['url with surrounding space', { url: ' https://files.example/a' }, 'whitespace at $.url'],
    ['media type without subtype', { text: 'a', mediaType: 'text' }, 'media-type at $.mediaType'],
    [
      'media type with a bad parameter',
      { text: 'a', mediaType: 'text/plain; charset' },
      'media-type at $.mediaType',
    ],
    ['filename with a line break', { text: 'a', filename: 'a\nb.txt' }, 'control-character at $.filename'],
    ['metadata not an object', { text: 'a', metadata: [1] }, 'invalid_type at $.metadata'],
  ])('refuses %s', (_name, part, expected) => {
    expect(rule(Part, part)).toBe(expected);
  });

  it('keeps the v0.3 `kind` out: unknown members are dropped, not refused (A2A spec §5.7)', () => {
    expect(decode(Part, { kind: 'text', text: 'a', extra: { deep: true } })).toEqual({
      ok: true,
      value: { text: 'a' },
    });
  });

  describe('bounds (1 MiB per part)', () => {
    it('text: 1 MiB of UTF-8 passes, one byte more fails', () => {
      expect(rule(Part, { text: 'a'.repeat(MiB) })).toBeUndefined();
      expect(rule(Part, { text: 'a'.repeat(MiB + 1) })).toBe('max-bytes at $.text');
      // Counted in bytes, not UTF-16 units: 'é' is 2 bytes, '東' 3, '😀' 4 (two units).
      expect(rule(Part, { text: 'é'.repeat(MiB / 2) })).toBeUndefined();
      expect(rule(Part, { text: `${'é'.repeat(MiB / 2)}a` })).toBe('max-bytes at $.text');
      expect(rule(Part, { text: '😀'.repeat(MiB / 4) })).toBeUndefined();
      expect(rule(Part, { text: `${'😀'.repeat(MiB / 4)}a` })).toBe('max-bytes at $.text');
    });

    it('raw: 1 MiB decoded passes, one byte more fails', () => {
      // Every 4 base64 characters are 3 bytes: (MiB - 1) / 3 quads, then one padded quad of 1 or 2 bytes.
      const quads = 'AAAA'.repeat((MiB - 1) / 3);
      expect(base64DecodedLength(`${quads}AQ==`)).toBe(MiB);
      expect(rule(Part, { raw: `${quads}AQ==` })).toBeUndefined();
      expect(rule(Part, { raw: `${quads}AQI=` })).toBe('max-bytes at $.raw');
      // Unpadded (ProtoJSON accepts both) counts the same.
      expect(rule(Part, { raw: `${quads}AQ` })).toBeUndefined();
      expect(rule(Part, { raw: `${quads}AQI` })).toBe('max-bytes at $.raw');
    });

    it('data: 1 MiB of compact JSON passes, one byte more fails', () => {
      // `"…"` adds two bytes of quotes.
      expect(rule(Part, { data: 'a'.repeat(MiB - 2) })).toBeUndefined();
      expect(rule(Part, { data: 'a'.repeat(MiB - 1) })).toBe('max-bytes at $.data');
    });

    it('url: 4096 bytes pass, 4097 fail', () => {
      const base = 'https://files.example/';
      expect(rule(Part, { url: base + 'a'.repeat(4096 - base.length) })).toBeUndefined();
      expect(rule(Part, { url: base + 'a'.repeat(4097 - base.length) })).toBe('max-bytes at $.url');
    });

    it('filename: 512 bytes pass, 513 fail; mediaType: 256 pass, 257 fail', () => {
      expect(rule(Part, { text: '', filename: 'é'.repeat(256) })).toBeUndefined();
      expect(rule(Part, { text: '', filename: `${'é'.repeat(256)}a` })).toBe('max-bytes at $.filename');
      expect(rule(Part, { text: '', mediaType: `text/${'a'.repeat(251)}` })).toBeUndefined();
      expect(rule(Part, { text: '', mediaType: `text/${'a'.repeat(252)}` })).toBe('max-bytes at $.mediaType');
    });

    it('metadata: 256 entries pass, 257 fail', () => {
      const entries = (count: number) =>
        Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
      expect(rule(Part, { text: '', metadata: entries(256) })).toBeUndefined();
      expect(rule(Part, { text: '', metadata: entries(257) })).toBe('max-entries at $.metadata');
    });
  });

  it('narrows by the present member', () => {
    const part = decode(Part, { raw: 'AA==' });
    if (!part.ok) {
      throw new Error('expected a part');
    }
    const value: Part = part.value;
    if ('text' in value) {
      expectTypeOf(value.text).toEqualTypeOf<string>();
      // @ts-expect-error a text part has no `raw`
      value.raw;
    } else if ('raw' in value) {
      expectTypeOf(value.raw).toEqualTypeOf<string>();
    } else if ('url' in value) {
      expectTypeOf(value.url).toEqualTypeOf<string>();
    } else {
      expectTypeOf(value).toHaveProperty('data');
    }
    expectTypeOf<Part>().toHaveProperty('mediaType');
    // @ts-expect-error a part needs a content member
    const empty: Part = { mediaType: 'text/plain' };
    expect(empty).toBeDefined();
  });
});

describe('Role', () => {
  it.each([
    ['ROLE_USER', 'ROLE_USER'],
    ['ROLE_AGENT', 'ROLE_AGENT'],
    // ProtoJSON's integer form is normalised to the name.
    [1, 'ROLE_USER'],
    [2, 'ROLE_AGENT'],
  ])('reads %j as %s', (input, expected) => {
    expect(decode(Role, input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['ROLE_UNSPECIFIED', 'unspecified'],
    [0, 'unspecified'],
    [undefined, 'required'],
    ['user', 'enum'],
    ['role_user', 'enum'],
    [3, 'enum'],
    [-1, 'enum'],
    [1.5, 'enum'],
    [null, 'enum'],
  ])('refuses %j (%s)', (input, expected) => {
    const result = decode(Role, input);
    expect(result.ok ? undefined : result.error.violation.rule).toBe(expected);
  });

  it('types only the two real roles', () => {
    expectTypeOf<Role>().toEqualTypeOf<'ROLE_USER' | 'ROLE_AGENT'>();
  });
});

describe('Message', () => {
  it('reads the official server’s direct reply unchanged (docs/interop.md#the-official-js-sdk-server)', () => {
    expect(decode(Message, agentMessage)).toEqual({ ok: true, value: agentMessage });
  });

  it('reads a client message with every optional member', () => {
    const message = {
      messageId: '98d9ecb3',
      contextId: '39f222c5',
      taskId: '8297f7d5',
      role: 'ROLE_USER',
      parts: [{ text: 'task x y' }],
      metadata: { 'a2a-rust.com/idempotency-key': 'k'.repeat(32) },
      extensions: ['https://a2a-rust.com/extensions/idempotency/v1'],
      referenceTaskIds: ['6de9284c'],
    };
    expect(decode(Message, message)).toEqual({ ok: true, value: message });
  });

  it('invents no defaults: absent lists stay absent', () => {
    const result = decode(Message, { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'a' }] });
    expect(result.ok && Object.keys(result.value)).toEqual(['messageId', 'role', 'parts']);
  });

  it('drops unknown members, v0.3 `kind` included', () => {
    expect(decode(Message, { ...agentMessage, kind: 'message', final: true })).toEqual({
      ok: true,
      value: agentMessage,
    });
  });

  it.each([
    ['missing messageId', { ...agentMessage, messageId: undefined }, 'required at $.messageId'],
    ['empty messageId', { ...agentMessage, messageId: '' }, 'required at $.messageId'],
    ['messageId with surrounding space', { ...agentMessage, messageId: 'm ' }, 'whitespace at $.messageId'],
    [
      'control character in contextId',
      { ...agentMessage, contextId: 'c\u0000' },
      'control-character at $.contextId',
    ],
    [
      'C1 control character in taskId',
      { ...agentMessage, taskId: 'c\u0085d' },
      'control-character at $.taskId',
    ],
    ['missing role (ProtoJSON: UNSPECIFIED)', { ...agentMessage, role: undefined }, 'required at $.role'],
    ['ROLE_UNSPECIFIED', { ...agentMessage, role: 'ROLE_UNSPECIFIED' }, 'required at $.role'],
    ['v0.3 role', { ...agentMessage, role: 'agent' }, 'enum at $.role'],
    ['missing parts', { ...agentMessage, parts: undefined }, 'required at $.parts'],
    ['no parts (REQUIRED list: at least one)', { ...agentMessage, parts: [] }, 'required at $.parts'],
    ['a bad part', { ...agentMessage, parts: [{ text: 'a' }, {}] }, 'oneof-none at $.parts[1]'],
    [
      'extension not a URI (no scheme)',
      { ...agentMessage, extensions: ['idempotency'] },
      'uri at $.extensions[0]',
    ],
  ])('refuses %s', (_name, message, expected) => {
    expect(rule(Message, message)).toBe(expected);
  });

  it.each([
    ['parts', 128, { text: 'a' }],
    ['extensions', 64, 'https://ext.example/v1'],
    ['referenceTaskIds', 128, 'task-1'],
  ])('holds %s to %i entries', (field, limit, element) => {
    const at = { ...agentMessage, [field]: Array.from({ length: limit }, () => element) };
    const past = { ...agentMessage, [field]: Array.from({ length: limit + 1 }, () => element) };
    expect(rule(Message, at)).toBeUndefined();
    expect(rule(Message, past)).toBe(`max-items at $.${field}`);
  });

  it.each(['messageId', 'contextId', 'taskId'])('holds %s to 512 bytes', (field) => {
    expect(rule(Message, { ...agentMessage, [field]: `${'東'.repeat(170)}ab` })).toBeUndefined();
    expect(rule(Message, { ...agentMessage, [field]: `${'東'.repeat(170)}abc` })).toBe(
      `max-bytes at $.${field}`,
    );
  });

  it('holds metadata to 256 KiB of compact JSON', () => {
    // {"k":"…"} is 8 bytes around the value.
    const at = { ...agentMessage, metadata: { k: 'a'.repeat(256 * 1024 - 8) } };
    const past = { ...agentMessage, metadata: { k: 'a'.repeat(256 * 1024 - 7) } };
    expect(rule(Message, at)).toBeUndefined();
    expect(rule(Message, past)).toBe('max-bytes at $.metadata');
  });

  it('types what callers write', () => {
    expectTypeOf<Message['role']>().toEqualTypeOf<Role>();
    expectTypeOf<Message['parts']>().toEqualTypeOf<Part[]>();
    expectTypeOf<Message>().toMatchObjectType<{
      messageId: string;
      contextId?: string | undefined;
      taskId?: string | undefined;
    }>();
    const minimal: Message = { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
    expect(minimal.parts).toHaveLength(1);
  });
});
