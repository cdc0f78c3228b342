import { LedgerError } from '@surecall/client';
import { openLedger } from '@surecall/client/ledger/memory';
import { describe, expect, it } from 'vitest';
import { deliveryChoices, durableConfig, ledgerName, ledgerRole } from './durable-setup.js';

describe('deliveryChoices', () => {
  it('offers keyed delivery only to a peer that honours idempotency keys', () => {
    expect(deliveryChoices(false)).toEqual(['at-most-once']);
    expect(deliveryChoices(true)).toEqual(['at-most-once', 'keyed']);
  });
});

describe('durableConfig', () => {
  it('recovers an at-most-once send from its context history, a keyed one by keyed replay', () => {
    expect(durableConfig('at-most-once')).toEqual({
      delivery: 'at-most-once',
      recovery: { kind: 'context-history', maxPages: 4, historyLength: 64, retryAfterMs: 2000, maxProbes: 5 },
    });
    expect(durableConfig('keyed')).toEqual({
      delivery: 'keyed',
      recovery: { kind: 'keyed', retryAfterMs: 2000, maxProbes: 5 },
    });
  });
});

describe('ledgerName', () => {
  it('names one ledger per card digest', () => {
    expect(ledgerName('sha256:ab')).toBe('surecall-devtools:sha256:ab');
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
