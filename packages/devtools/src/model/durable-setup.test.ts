import { LedgerError } from '@surecall/client';
import { openLedger } from '@surecall/client/ledger/memory';
import { describe, expect, it } from 'vitest';
import { deliveryChoices, durableConfig, ledgerName, ledgerRole } from './durable-setup.js';

describe('deliveryChoices', () => {
  it('offers keyed delivery first to a peer that honours idempotency keys, and only at-most-once otherwise', () => {
    expect(deliveryChoices(false)).toEqual(['at-most-once']);
    expect(deliveryChoices(true)).toEqual(['keyed', 'at-most-once']);
  });
});

describe('durableConfig', () => {
  it('recovers a keyed send by keyed replay, needing no acknowledgement', () => {
    for (const acknowledged of [false, true]) {
      expect(durableConfig('keyed', acknowledged)).toEqual({
        delivery: 'keyed',
        recovery: { kind: 'keyed', retryAfterMs: 2000, maxProbes: 5 },
      });
    }
  });

  it('recovers an at-most-once send from its context history, acknowledged and audited only once a person agreed', () => {
    const recovery = {
      kind: 'context-history',
      maxPages: 4,
      historyLength: 64,
      retryAfterMs: 2000,
      maxProbes: 5,
    };
    expect(durableConfig('at-most-once', false)).toEqual({ delivery: 'at-most-once', recovery });
    expect(durableConfig('at-most-once', true)).toEqual({
      delivery: 'at-most-once',
      recovery,
      acknowledgeBrowserResend: true,
      audit: true,
    });
  });
});

describe('ledgerName', () => {
  it('names one ledger per interface, whatever the card digest', () => {
    expect(ledgerName({ binding: 'JSONRPC', url: 'http://127.0.0.1:4100/a2a/jsonrpc' })).toBe(
      'surecall-devtools:JSONRPC http://127.0.0.1:4100/a2a/jsonrpc',
    );
    expect(ledgerName({ binding: 'HTTP+JSON', url: 'https://a.example/rest', tenant: 'acme' })).toBe(
      'surecall-devtools:HTTP+JSON https://a.example/rest tenant acme',
    );
  });
});

describe('ledgerRole', () => {
  it('finds a writable ledger to be the writer, and writes nothing', async () => {
    const ledger = await openLedger({ name: 'role' });
    expect(await ledgerRole(ledger)).toBe('writer');
    expect(await ledger.list()).toEqual([]);
  });

  it('finds a ledger that refuses writes as locked to be a follower', async () => {
    const follower = { transition: () => Promise.reject(new LedgerError('locked', { rule: 'follower' })) };
    expect(await ledgerRole(follower)).toBe('follower');
  });
});
