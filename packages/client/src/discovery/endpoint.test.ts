import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EndpointRule } from '../core/errors.js';
import { endpointRule, isLiteralLoopback, sameEndpoint, tenantRule } from './endpoint.js';

const card = '/.well-known/agent-card.json';
const strict = { role: 'interface', loopback: false } as const;
const loopback = { role: 'interface', loopback: true } as const;

describe('endpointRule (docs/protocol-checks.md#endpoints)', () => {
  it.each<[string, unknown, EndpointRule | undefined]>([
    ['an https URL', 'https://agent.example/a2a', undefined],
    ['an https URL with a port', 'https://agent.example:8443/a2a', undefined],
    ['not a string', 42, 'invalid-url'],
    ['not a URL', 'agent.example/a2a', 'invalid-url'],
    ['a relative URL', '/a2a', 'invalid-url'],
    ['the empty string', '', 'invalid-url'],
    ['surrounding whitespace, which the parser would strip', ' https://agent.example/a2a', 'invalid-url'],
    ['a line break, which the parser would drop', 'https://agent.example/a2\na', 'invalid-url'],
    ['over 4096 bytes', `https://agent.example/${'a'.repeat(4096)}`, 'invalid-url'],
    ['a user name', 'https://user@agent.example/a2a', 'embedded-credentials'],
    ['a user name and password', 'https://user:secret@agent.example/a2a', 'embedded-credentials'],
    ['a password only', 'https://:secret@agent.example/a2a', 'embedded-credentials'],
    ['a query', 'https://agent.example/a2a?tenant=acme', 'query-or-fragment'],
    ['an empty query', 'https://agent.example/a2a?', 'query-or-fragment'],
    ['a fragment', 'https://agent.example/a2a#top', 'query-or-fragment'],
    ['an empty fragment', 'https://agent.example/a2a#', 'query-or-fragment'],
    ['no host', 'urn:/a2a', 'missing-host'],
    ['a file URL', 'file:///a2a', 'missing-host'],
    ['http without loopback', 'http://agent.example/a2a', 'https-required'],
    ['http to 127.0.0.1 without loopback', 'http://127.0.0.1/a2a', 'https-required'],
    ['a WebSocket URL', 'wss://agent.example/a2a', 'https-required'],
  ])('%s', (_, url, rule) => {
    expect(endpointRule(url, strict)).toBe(rule);
  });

  it.each<[string, string, EndpointRule | undefined]>([
    ['127.0.0.1', 'http://127.0.0.1:4100/a2a', undefined],
    ['the top of 127.0.0.0/8', 'http://127.255.255.254/a2a', undefined],
    ['the IPv4 shorthand 127.1', 'http://127.1/a2a', undefined],
    ['a hexadecimal IPv4 loopback', 'http://0x7f.0.0.1/a2a', undefined],
    ['a single-number IPv4 loopback', 'http://2130706433/a2a', undefined],
    ['[::1]', 'http://[::1]:4100/a2a', undefined],
    ['the IPv6 loopback written in full', 'http://[0:0:0:0:0:0:0:1]/a2a', undefined],
    ['https anywhere, still', 'https://agent.example/a2a', undefined],
    ['localhost, a name', 'http://localhost:4100/a2a', 'literal-loopback-required'],
    ['localhost with a trailing dot', 'http://localhost./a2a', 'literal-loopback-required'],
    [
      'a name that starts like a loopback address',
      'http://127.0.0.1.nip.io/a2a',
      'literal-loopback-required',
    ],
    ['a private address', 'http://10.0.0.1/a2a', 'literal-loopback-required'],
    ['just past 127.0.0.0/8', 'http://128.0.0.1/a2a', 'literal-loopback-required'],
    ['the unspecified address', 'http://0.0.0.0/a2a', 'literal-loopback-required'],
    [
      'an IPv4-mapped loopback, which is not ::1',
      'http://[::ffff:127.0.0.1]/a2a',
      'literal-loopback-required',
    ],
    ['another IPv6 address', 'http://[::2]/a2a', 'literal-loopback-required'],
    ['ftp, even to loopback', 'ftp://127.0.0.1/a2a', 'https-required'],
  ])('with loopback: %s', (_, url, rule) => {
    expect(endpointRule(url, loopback)).toBe(rule);
  });

  it.each<[string, string, EndpointRule | undefined]>([
    ['the well-known path', `https://agent.example${card}`, undefined],
    [
      'the well-known path after dot segments',
      'https://agent.example/x/../.well-known/agent-card.json',
      undefined,
    ],
    ['another path', 'https://agent.example/agent-card.json', 'agent-card-path-required'],
    ['the v0.3 path', 'https://agent.example/.well-known/agent.json', 'agent-card-path-required'],
    ['a trailing slash', `https://agent.example${card}/`, 'agent-card-path-required'],
    ['another case', 'https://agent.example/.well-known/Agent-Card.json', 'agent-card-path-required'],
    [
      'a percent-encoded letter',
      'https://agent.example/.well-known/agent%2Dcard.json',
      'agent-card-path-required',
    ],
    ['under a prefix', `https://agent.example/tenant${card}`, 'agent-card-path-required'],
    ['a query on the right path', `https://agent.example${card}?tenant=`, 'query-or-fragment'],
  ])('a card URL: %s', (_, url, rule) => {
    expect(endpointRule(url, { role: 'card', loopback: false })).toBe(rule);
  });

  it('applies the card path only to a card', () => {
    expect(endpointRule('https://agent.example/a2a', { role: 'card', loopback: false })).toBe(
      'agent-card-path-required',
    );
    expect(endpointRule('https://agent.example/a2a', strict)).toBeUndefined();
  });
});

describe('isLiteralLoopback', () => {
  it('admits only 127.0.0.0/8 and ::1, never a name', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), (a, b) => {
        expect(isLiteralLoopback(new URL(`http://127.${a}.${b}.1/`))).toBe(true);
        expect(isLiteralLoopback(new URL(`http://${a === 127 ? 126 : a}.${b}.0.1/`))).toBe(false);
      }),
    );
    expect(isLiteralLoopback(new URL('http://localhost/'))).toBe(false);
  });
});

describe('tenantRule', () => {
  it.each<[string, unknown, 'invalid-tenant' | undefined]>([
    ['a tenant', 'acme', undefined],
    ['512 bytes', 'x'.repeat(512), undefined],
    ['a non-ASCII tenant within 512 bytes', 'é'.repeat(256), undefined],
    ['empty', '', 'invalid-tenant'],
    ['513 bytes', 'x'.repeat(513), 'invalid-tenant'],
    ['514 bytes in 257 characters', 'é'.repeat(257), 'invalid-tenant'],
    ['a leading space', ' acme', 'invalid-tenant'],
    ['a trailing tab', 'acme\t', 'invalid-tenant'],
    ['a control character inside', 'ac\u0000me', 'invalid-tenant'],
    ['a DEL inside', 'ac\u007fme', 'invalid-tenant'],
    ['not a string', 7, 'invalid-tenant'],
  ])('%s', (_, tenant, rule) => {
    expect(tenantRule(tenant)).toBe(rule);
  });
});

describe('sameEndpoint (docs/protocol-checks.md#discovery-steps, URL equality)', () => {
  it.each<[string, string, string, boolean]>([
    ['identical', 'https://agent.example/a2a', 'https://agent.example/a2a', true],
    ['host case', 'https://AGENT.Example/a2a', 'https://agent.example/a2a', true],
    ['scheme case', 'HTTPS://agent.example/a2a', 'https://agent.example/a2a', true],
    ['the default https port', 'https://agent.example:443/a2a', 'https://agent.example/a2a', true],
    ['the default http port', 'http://127.0.0.1:80/a2a', 'http://127.0.0.1/a2a', true],
    ['port 80 on https is no default', 'https://agent.example:80/a2a', 'https://agent.example/a2a', false],
    ['another port', 'https://agent.example:8443/a2a', 'https://agent.example/a2a', false],
    ['the IPv4 shorthand 127.1', 'http://127.1:4100/a2a', 'http://127.0.0.1:4100/a2a', true],
    ['an IDNA host and its punycode', 'http://BÜCHER.example/a2a', 'http://xn--bcher-kva.example/a2a', true],
    ['dot segments', 'https://agent.example/x/./../a2a', 'https://agent.example/a2a', true],
    ['the IPv6 loopback spelled in full', 'http://[0:0:0:0:0:0:0:1]/a2a', 'http://[::1]/a2a', true],
    ['a trailing slash', 'https://agent.example/a2a/', 'https://agent.example/a2a', false],
    ['path case', 'https://agent.example/A2A', 'https://agent.example/a2a', false],
    ['an encoded slash', 'https://agent.example/a%2Fb', 'https://agent.example/a/b', false],
    ['another scheme', 'http://127.0.0.1/a2a', 'https://127.0.0.1/a2a', false],
    ['an empty root path and a slash', 'https://agent.example', 'https://agent.example/', true],
    ['an unparseable side', 'not a url', 'not a url', false],
  ])('%s', (_, left, right, same) => {
    expect(sameEndpoint(left, right)).toBe(same);
    expect(sameEndpoint(right, left)).toBe(same);
  });

  it('ignores host case and the default port, never path case', () => {
    const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}[a-z0-9]$/);
    const segment = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,15}$/);
    fc.assert(
      fc.property(label, fc.array(segment, { minLength: 1, maxLength: 4 }), (host, segments) => {
        const path = `/${segments.join('/')}`;
        const url = `https://${host}.example${path}`;
        expect(sameEndpoint(url, `https://${host.toUpperCase()}.EXAMPLE:443${path}`)).toBe(true);
        expect(sameEndpoint(url, `${url}/`)).toBe(false);
        if (/[a-z]/.test(path)) {
          expect(sameEndpoint(url, `https://${host}.example${path.toUpperCase()}`)).toBe(false);
        }
      }),
    );
  });
});
