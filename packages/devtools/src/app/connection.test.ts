import type { AgentCard } from '@surecall/client';
import { describe, expect, it } from 'vitest';
import {
  type ConnectForm,
  choosePin,
  connectQuery,
  emptyConnectForm,
  formFromQuery,
  parseConnectForm,
  splitMockToken,
} from './connection.js';

const cardUrl = 'http://127.0.0.1:4100/.well-known/agent-card.json';
const form = (overrides: Partial<ConnectForm>): ConnectForm => ({
  ...emptyConnectForm,
  cardUrl,
  ...overrides,
});

const card: Pick<AgentCard, 'supportedInterfaces'> = {
  supportedInterfaces: [
    { url: 'http://h/a2a/grpc', protocolBinding: 'GRPC', protocolVersion: '1.0' },
    { url: 'http://h/old', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    { url: 'http://h/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: 'http://h/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    { url: 'http://h/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: 'acme' },
  ],
};

describe('parseConnectForm', () => {
  it('accepts a card URL alone', () => {
    expect(parseConnectForm(form({}))).toEqual({ ok: true, request: { cardUrl } });
  });

  it('passes every filled field, trimmed, with the digest in lower case', () => {
    const digest = `sha256:${'AB'.repeat(32)}`;
    expect(
      parseConnectForm(
        form({
          binding: 'HTTP+JSON',
          pinUrl: ' http://h/a2a/rest ',
          tenant: 'acme',
          digest,
          token: 't0k',
          scheme: 'oidc',
        }),
      ),
    ).toEqual({
      ok: true,
      request: {
        cardUrl,
        binding: 'HTTP+JSON',
        pinUrl: 'http://h/a2a/rest',
        tenant: 'acme',
        digest: digest.toLowerCase(),
        bearer: { scheme: 'oidc', token: 't0k' },
      },
    });
  });

  it.each([
    [{ cardUrl: '' }, 'cardUrl'],
    [{ cardUrl: 'ftp://h/card.json' }, 'cardUrl'],
    [{ cardUrl: 'http://user:pw@h/card.json' }, 'cardUrl'],
    [{ cardUrl: '/relative' }, 'cardUrl'],
    [{ pinUrl: 'not a url' }, 'pinUrl'],
    [{ digest: 'sha256:abc' }, 'digest'],
    [{ digest: `sha1:${'a'.repeat(64)}` }, 'digest'],
    [{ token: 'x', scheme: ' ' }, 'scheme'],
  ] as const)('refuses %j, naming %s', (overrides, field) => {
    const result = parseConnectForm(form(overrides));
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.problem.field).toBe(field);
  });
});

describe('choosePin', () => {
  it.each([
    [{}, { binding: 'JSONRPC', url: 'http://h/a2a/jsonrpc' }],
    [{ binding: 'HTTP+JSON' }, { binding: 'HTTP+JSON', url: 'http://h/a2a/rest' }],
    [{ pinUrl: 'http://h:80/a2a/rest' }, { binding: 'HTTP+JSON', url: 'http://h/a2a/rest' }],
    [{ tenant: 'acme' }, { binding: 'HTTP+JSON', url: 'http://h/a2a/rest', tenant: 'acme' }],
    [{ binding: 'JSONRPC', pinUrl: 'http://h/old' }, undefined],
    [{ pinUrl: 'http://h/a2a/grpc' }, undefined],
    [{ binding: 'JSONRPC', tenant: 'acme' }, undefined],
  ] as const)('for %j pins %j', (request, pin) => {
    expect(choosePin(card, request)).toEqual(pin);
  });
});

describe('a mock agent token in the card URL fragment', () => {
  const token = 'A'.repeat(20) + '-_0123456789abcdefghijk';

  it('is taken out of the card URL into the request', () => {
    expect(parseConnectForm(form({ cardUrl: `${cardUrl}#mock-token=${token}` }))).toEqual({
      ok: true,
      request: { cardUrl, mockToken: token },
    });
  });

  it.each([
    ['another fragment', '#section'],
    ['a token too short', '#mock-token=abc'],
    ['a token with other characters', `#mock-token=${token}!`],
  ])('is not read from %s, which is dropped with the fragment', (_name, fragment) => {
    expect(splitMockToken(`${cardUrl}${fragment}`)).toEqual({ cardUrl });
  });

  it('never goes in the shareable query string', () => {
    const query = connectQuery(form({ cardUrl: `${cardUrl}#mock-token=${token}` }));
    expect(query).toBe(`card=${encodeURIComponent(cardUrl)}`);
  });
});

describe('connectQuery and formFromQuery', () => {
  it('round-trip the form without the token', () => {
    const filled = form({
      binding: 'HTTP+JSON',
      pinUrl: 'http://h/a2a/rest',
      tenant: 't',
      digest: 'sha256:x',
      token: 'secret',
    });
    const query = connectQuery(filled);
    expect(query).not.toContain('secret');
    expect(formFromQuery(`?${query}`)).toEqual({ ...filled, token: '' });
  });

  it('writes only the card URL when nothing else is set', () => {
    expect(connectQuery(form({}))).toBe(`card=${encodeURIComponent(cardUrl)}`);
  });

  it('reads no form without a card, and an unknown binding as auto', () => {
    expect(formFromQuery('')).toBeUndefined();
    expect(formFromQuery('?card=%20')).toBeUndefined();
    expect(formFromQuery(`?card=${encodeURIComponent(cardUrl)}&binding=GRPC`)?.binding).toBe('auto');
  });
});
