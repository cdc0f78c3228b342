import { describe, expect, it } from 'vitest';
import { ledgerSourceFromHash } from './remote-ledger.js';

const token = `${'A'.repeat(21)}-_${'z9'.repeat(10)}`;
const origin = 'http://127.0.0.1:4300';

describe('ledgerSourceFromHash', () => {
  it.each([
    [`#ledger=${token}`, { origin, token }],
    [`#other=1&ledger=${token}`, { origin, token }],
    ['', undefined],
    ['#', undefined],
    ['#ledger=', undefined],
    [`#ledger=${token}x`, undefined],
    [`#ledger=${token.slice(1)}`, undefined],
    [`#ledger=${token.slice(1)}=`, undefined],
    [`#ledger=${token.slice(1)}+`, undefined],
    [`#card=${token}`, undefined],
  ])('%j', (hash, expected) => {
    expect(ledgerSourceFromHash(hash, origin)).toEqual(expected);
  });
});
