import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestError } from '../core/errors.js';
import { extraHeadersOf, reservedHeaderNames } from './extra-headers.js';
import { type ExtraHeaders, requestHeaders } from './request-headers.js';

const target = { url: 'https://agent.example/a2a', method: 'POST' } as const;

function build(extra: ExtraHeaders, a2aVersion?: false): Record<string, string> {
  return requestHeaders(
    { ...target, accept: 'json', ...(a2aVersion === false ? { a2aVersion } : {}) },
    true,
    extraHeadersOf(extra, target),
  );
}

function ruleOf(extra: ExtraHeaders): string | undefined {
  try {
    build(extra);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(RequestError);
    return (error as RequestError).violation?.rule;
  }
}

const tchar = fc.constantFrom(
  ..."!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
);
const name = fc
  .array(tchar, { minLength: 1, maxLength: 24 })
  .map((chars) => `x-${chars.join('')}`)
  .filter((value) => !reservedHeaderNames.has(value.toLowerCase()));
const vchar = fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code));
const value = fc
  .array(fc.oneof(vchar, fc.constant(' '), fc.constant('\t')), { maxLength: 40 })
  .map((chars) => chars.join('').trim());

describe('requestHeaders', () => {
  it('sends the protocol headers over whatever the extra ones say, and the extra ones as given', () => {
    const headers = build(() => ({ traceparent: '00-abc-def-01', 'X-Tenant': 'acme' }));
    expect(headers).toEqual({
      'a2a-version': '1.0',
      accept: 'application/a2a+json, application/json',
      'content-type': 'application/json',
      traceparent: '00-abc-def-01',
      'x-tenant': 'acme',
    });
  });

  it('passes the target to the function', () => {
    const asked: unknown[] = [];
    build((request) => {
      asked.push(request);
      return undefined;
    });
    expect(asked).toEqual([target]);
  });

  it('admits every token name with every visible-ASCII value', () => {
    fc.assert(
      fc.property(name, value, (field, text) => {
        expect(build(() => ({ [field]: text }))[field.toLowerCase()]).toBe(text);
      }),
    );
  });

  it('refuses a value holding any control character but HTAB, or any character above 0x7e', () => {
    const bad = fc.oneof(
      fc.integer({ min: 0, max: 0x1f }).filter((code) => code !== 0x09),
      fc.integer({ min: 0x7f, max: 0xffff }),
    );
    fc.assert(
      fc.property(name, value, bad, (field, text, code) => {
        const middle = Math.floor(text.length / 2);
        const broken = `a${text.slice(0, middle)}${String.fromCharCode(code)}${text.slice(middle)}a`;
        expect(ruleOf(() => ({ [field]: broken }))).toBe('header-value');
      }),
    );
  });

  it('refuses every reserved name in any case, and the Proxy- and Sec- prefixes', () => {
    for (const reserved of [...reservedHeaderNames, 'proxy-connection', 'sec-ch-ua']) {
      expect(ruleOf(() => ({ [reserved.toUpperCase()]: 'x' }))).toBe('header-reserved');
      expect(ruleOf(() => ({ [reserved]: 'x' }))).toBe('header-reserved');
    }
  });

  it('keeps A2A-Version out of the card fetch even when asked for no other header', () => {
    expect(
      Object.hasOwn(
        build(() => undefined, false),
        'a2a-version',
      ),
    ).toBe(false);
  });
});
