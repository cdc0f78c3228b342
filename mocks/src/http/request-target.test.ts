import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRequestTarget } from './request-target.js';

const own = ['127.0.0.1:4100', 'localhost:4100'];

describe('readRequestTarget', () => {
  it.each([
    // What clients send: unchanged.
    ['/', '/', ''],
    ['/.well-known/agent-card.json', '/.well-known/agent-card.json', ''],
    ['/a2a/rest/tasks?pageSize=5', '/a2a/rest/tasks', '?pageSize=5'],
    ['/a2a/rest/t%2F1/tasks/a%20b:cancel', '/a2a/rest/t%2F1/tasks/a%20b:cancel', ''],
    ["/a2a/rest/tasks/!$&'()*+,;=:@~", "/a2a/rest/tasks/!$&'()*+,;=:@~", ''],
    ['/__executions?messageId=a&messageId=b', '/__executions', '?messageId=a&messageId=b'],
    ['/__faults?x=a/../b?c', '/__faults', '?x=a/../b?c'],
    // Dot segments (RFC 3986 §5.2.4, its §5.4.1 examples among them), plain and encoded.
    ['/x/../__faults', '/__faults', ''],
    ['/./__faults', '/__faults', ''],
    ['/%2e/__faults', '/__faults', ''],
    ['/x/%2E%2e/__faults', '/__faults', ''],
    ['/x/.%2e/__faults', '/__faults', ''],
    ['/.well-known/../__executions', '/__executions', ''],
    ['/../../__faults', '/__faults', ''],
    ['/b/c/./../../g', '/g', ''],
    ['/b/c/d;p/../g', '/b/c/g', ''],
    ['/b/c/d/.', '/b/c/d/', ''],
    ['/b/c/..', '/b/', ''],
    ['/b/c/g..', '/b/c/g..', ''],
    ['/b/c/...', '/b/c/...', ''],
    ['/b/./g/.', '/b/g/', ''],
    ['/b//../g', '/b/g', ''],
    // Unreserved characters decoded (RFC 3986 §6.2.2.2), every other encoding kept as data.
    ['/%5F%5Ffaults', '/__faults', ''],
    ['/__f%61ults', '/__faults', ''],
    ['/x%2F..%2F__faults', '/x%2F..%2F__faults', ''],
    ['/%5c__faults', '/%5c__faults', ''],
    ['/__faults/a%2Fb', '/__faults/a%2Fb', ''],
    // Empty segments and case stay.
    ['//__faults', '//__faults', ''],
    ['//127.0.0.1:4100/__faults', '//127.0.0.1:4100/__faults', ''],
    ['/__FAULTS', '/__FAULTS', ''],
    // The absolute form of the own authority, reduced to its path.
    ['http://127.0.0.1:4100/__faults?a=1', '/__faults', '?a=1'],
    ['HTTP://LOCALHOST:4100/x/../__executions', '/__executions', ''],
    ['http://127.0.0.1:4100', '/', ''],
    ['http://127.0.0.1:4100?a', '/', '?a'],
  ])('reads %s as %s %s', (target, path, query) => {
    expect(readRequestTarget(target, own)).toEqual({ ok: true, value: { path, query } });
  });

  it.each([
    // Not the origin or absolute form.
    ['*', 400, 'form'],
    ['', 400, 'form'],
    ['__faults', 400, 'form'],
    ['127.0.0.1:4100', 400, 'form'],
    ['\\__faults', 400, 'form'],
    ['http://127.0.0.1:4100#x', 400, 'form'],
    // Outside RFC 3986 §3.3 in the path, a fragment anywhere.
    ['/x/..\\__faults', 400, 'character'],
    ['/\\__faults', 400, 'character'],
    ['/__faults#x', 400, 'character'],
    ['/x#/../__faults', 400, 'character'],
    ['/__faults?a#b', 400, 'character'],
    ['/a b', 400, 'character'],
    ['/a"b', 400, 'character'],
    ['/a|b', 400, 'character'],
    ['/a[b]', 400, 'character'],
    ['/é', 400, 'character'],
    ['/%', 400, 'character'],
    ['/%2', 400, 'character'],
    ['/%G0', 400, 'character'],
    // The absolute form: another scheme, another authority.
    ['https://127.0.0.1:4100/__faults', 400, 'scheme'],
    ['ftp://127.0.0.1:4100/__faults', 400, 'scheme'],
    ['http://evil.example/__faults', 421, 'authority'],
    ['http://127.0.0.1:4101/__faults', 421, 'authority'],
    ['http://127.0.0.1/__faults', 421, 'authority'],
    ['http://127.0.0.1:4100@evil.example/__faults', 421, 'authority'],
    ['http://evil.example@127.0.0.1:4100/__faults', 421, 'authority'],
    ['http:///__faults', 421, 'authority'],
  ])('refuses %j with %i (%s)', (target, status, reason) => {
    expect(readRequestTarget(target, own)).toEqual({ ok: false, error: { status, reason } });
  });

  it('reads a path the way the router will: the WHATWG URL of the same path has it, with no dot segment left', () => {
    const piece = fc.constantFrom(
      '/',
      '.',
      '..',
      '%2e',
      '%2E',
      '%2f',
      '%5C',
      '\\',
      '#',
      '?',
      'a',
      '_',
      '%5F',
      ':',
      '@',
      '%',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const read = readRequestTarget(`/${pieces.join('')}`, own);
        if (read.ok) {
          const { path } = read.value;
          expect(new URL(`http://127.0.0.1:4100${path}`).pathname).toBe(path);
          expect(path.split('/').filter((segment) => segment === '.' || segment === '..')).toEqual([]);
          expect(readRequestTarget(path, own)).toEqual({ ok: true, value: { path, query: '' } });
        }
      }),
    );
  });

  it('leaves every path a client builds from encoded segments as it is', () => {
    const segment = fc
      .string({ unit: 'grapheme', maxLength: 8 })
      .map((text) => encodeURIComponent(text))
      .filter((encoded) => encoded !== '.' && encoded !== '..');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), (segments) => {
        const path = `/${segments.join('/')}`;
        expect(readRequestTarget(path, own)).toEqual({ ok: true, value: { path, query: '' } });
      }),
    );
  });
});
