import { describe, expect, it } from 'vitest';
import { isLoopbackOrigin, trustedOrigins } from './origin.js';

describe('isLoopbackOrigin', () => {
  it.each([
    'http://127.0.0.1',
    'http://127.0.0.1:5173',
    'http://127.0.0.1:0',
    'http://127.0.0.1:65535',
    'http://localhost:4179',
    'http://[::1]:8080',
  ])('trusts %s', (origin) => {
    expect(isLoopbackOrigin(origin)).toBe(true);
  });

  it.each([
    // No such port.
    'http://127.0.0.1:99999',
    'http://127.0.0.1:65536',
    'http://[::1]:99999',
    'http://localhost:-1',
    'http://127.0.0.1:',
    // Another host, by userinfo, by a longer name, by another spelling.
    'http://127.0.0.1:80@evil.com',
    'http://127.0.0.1@evil.com',
    'http://127.0.0.1.evil.com',
    'http://localhost.evil.com:8080',
    'http://localhost.:5173',
    'http://127.1:5173',
    'http://0x7f.0.0.1:5173',
    'http://[0:0::1]:5173',
    'http://[::ffff:127.0.0.1]:5173',
    // Userinfo before a loopback host.
    'http://user@127.0.0.1:5173',
    'http://user:secret@localhost:5173',
    // Not a serialized origin: a path, a query, a fragment, the default port, leading zeros, upper case,
    // spaces.
    'http://127.0.0.1:5173/',
    'http://127.0.0.1:5173/x',
    'http://127.0.0.1:5173?x',
    'http://127.0.0.1:5173#x',
    'http://127.0.0.1:80',
    'http://127.0.0.1:05173',
    'http://LOCALHOST:5173',
    'HTTP://127.0.0.1:5173',
    ' http://127.0.0.1:5173',
    // Another scheme, or none.
    'https://127.0.0.1:5173',
    'ws://127.0.0.1:5173',
    'file://127.0.0.1',
    '127.0.0.1:5173',
    'null',
    '',
  ])('does not trust %j', (origin) => {
    expect(isLoopbackOrigin(origin)).toBe(false);
  });
});

describe('trustedOrigins', () => {
  it('takes serialized origins, and refuses anything else naming the option', () => {
    expect(trustedOrigins(['https://devtools.example', 'http://10.0.0.2:8080'])).toEqual(
      new Set(['https://devtools.example', 'http://10.0.0.2:8080']),
    );
    for (const origin of [
      'https://devtools.example/',
      'devtools.example',
      'null',
      '*',
      'https://a@b.example',
    ]) {
      expect(() => trustedOrigins([origin])).toThrow(/^corsOrigins: /);
    }
  });
});
