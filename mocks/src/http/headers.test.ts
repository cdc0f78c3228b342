import { describe, expect, it } from 'vitest';
import { origin } from '../../test/support/helpers.js';
import { AgentError } from '../agent/remote-errors.js';
import { activatedExtensions, checkVersion, isJsonContentType } from './headers.js';

describe('checkVersion', () => {
  const request = (headers: Record<string, string>, query = '') =>
    new Request(`${origin}/a2a/rest/tasks${query}`, { headers });

  it.each([
    [{ 'a2a-version': '1.0' }, ''],
    [{ 'A2A-Version': ' 1.0 ' }, ''],
    [{}, '?A2A-Version=1.0'],
  ])('accepts %o %s', (headers, query) => {
    expect(() => checkVersion(request(headers, query))).not.toThrow();
  });

  it.each([
    [{}, ''],
    [{ 'a2a-version': '' }, ''],
    [{ 'a2a-version': '0.3' }, '?A2A-Version=1.0'],
    [{ 'a2a-version': '1.0.0' }, ''],
    [{}, '?a2a-version=1.0'],
  ])('refuses %o %s', (headers, query) => {
    expect(() => checkVersion(request(headers, query))).toThrow(AgentError);
  });
});

describe('activatedExtensions and isJsonContentType', () => {
  const uri = 'https://a2a-rust.com/extensions/idempotency/v1';
  const request = (headers: Record<string, string>) => new Request(origin, { headers });

  it.each([
    [`${uri}`, 'honouring', [uri]],
    [` https://x.test/a ,${uri} `, 'honouring', [uri]],
    ['https://x.test/a', 'honouring', []],
    [uri, 'refusing', []],
    [uri, 'foreign', []],
  ] as const)('%j in %s mode activates %j', (header, mode, expected) => {
    expect(activatedExtensions(request({ 'a2a-extensions': header }), mode)).toEqual(expected);
  });

  it.each([
    ['application/json', true],
    ['Application/JSON; charset=utf-8', true],
    ['application/a2a+json', true],
    ['text/plain', false],
    ['application/jsonx', false],
    ['', false],
  ])('%j is JSON: %s', (contentType, json) => {
    expect(isJsonContentType(request(contentType === '' ? {} : { 'content-type': contentType }))).toBe(json);
  });
});
