import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAbsoluteUrl, isMediaType, labelRule, utf8Length, withinBytes } from './text.js';

describe('utf8Length', () => {
  it('agrees with TextEncoder for any string, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });

  it('agrees with TextEncoder for arbitrary UTF-16 code units', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff })), (units) => {
        const text = String.fromCharCode(...units);
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });

  it('decides withinBytes exactly at the boundary', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(64), (text, slack) => {
        const bytes = new TextEncoder().encode(text).length;
        expect(withinBytes(text, bytes)).toBe(true);
        expect(withinBytes(text, bytes + slack)).toBe(true);
        if (bytes > 0) {
          expect(withinBytes(text, bytes - 1)).toBe(false);
        }
      }),
    );
  });
});

describe('labelRule', () => {
  it.each([
    ['task-1', undefined],
    ['with inner space', undefined],
    ['东京', undefined],
    ['', 'empty'],
    [' leading', 'whitespace'],
    ['trailing\u00a0', 'whitespace'],
    ['\ufeffbom', 'whitespace'],
    ['tab\tinside', 'control-character'],
    ['nul\u0000', 'control-character'],
    ['del\u007f', 'control-character'],
    ['c1\u009f', 'control-character'],
    ['a'.repeat(33), 'max-bytes'],
    ['é'.repeat(16), undefined],
    [`${'é'.repeat(16)}a`, 'max-bytes'],
  ])('labelRule(%j) is %s', (text, expected) => {
    expect(labelRule(text, 32)).toBe(expected);
  });
});

describe('isAbsoluteUrl', () => {
  it.each([
    ['https://agent.example/a2a', true],
    ['http://127.0.0.1:4100/a2a', true],
    ['http://[::1]:4100/', true],
    ['s3://bucket/key', true],
    ['/relative', false],
    ['agent.example:443', false],
    ['mailto:a@example.com', false],
    ['file:///etc/passwd', false],
    ['https://user@agent.example/', false],
    ['https://:pw@agent.example/', false],
    ['not a url', false],
  ])('isAbsoluteUrl(%j) is %s', (text, expected) => {
    expect(isAbsoluteUrl(text)).toBe(expected);
  });
});

describe('isMediaType', () => {
  it.each([
    ['text/plain', true],
    ['application/vnd.a2a+json', true],
    ['text/plain; charset=utf-8', true],
    ['text/plain;charset="utf-8";format=flowed', true],
    ['multipart/form-data; boundary="a b\\"c"', true],
    ['*/*', true],
    ['text', false],
    ['text/', false],
    ['text/plain;', false],
    ['text/plain; charset', false],
    ['text plain', false],
    ['text/plain; charset="open', false],
  ])('isMediaType(%j) is %s', (text, expected) => {
    expect(isMediaType(text)).toBe(expected);
  });
});
