import { describe, expect, it } from 'vitest';
import type { A2aClient } from '../client/client.js';
import { OptionsError } from '../core/errors.js';
import type { Ledger } from '../ledger/ledger.js';
import {
  type DeduplicationAttestation,
  type DurableAgentOptions,
  defaultContextHistory,
  defaultDurableAgentOptions,
  resolveDurableAgentOptions,
} from './options.js';

const node = { browser: false } as const;
const browser = { browser: true } as const;

// The resolver reads only `honoursIdempotency` of the client and nothing of the ledger.
const honouring = { honoursIdempotency: true } as A2aClient;
const foreign = { honoursIdempotency: false } as A2aClient;
const ledger = {} as Ledger;
const attestation: DeduplicationAttestation = {
  owner: 'platform',
  evidence: 'ADR-42',
  retentionMs: 86_400_000,
};
const history = { kind: 'context-history', maxPages: 4, historyLength: 64, retryAfterMs: 1000 } as const;

function refusal(options: Partial<DurableAgentOptions> & Record<string, unknown>): [string, string] {
  try {
    resolveDurableAgentOptions({ client: honouring, ledger, ...options } as DurableAgentOptions, node);
  } catch (error) {
    expect(error).toBeInstanceOf(OptionsError);
    return [(error as OptionsError).option, (error as OptionsError).reason];
  }
  throw new Error('expected an OptionsError');
}

describe('resolveDurableAgentOptions', () => {
  it('applies the defaults for a peer without keys: at-most-once, the context scan with its documented bounds, no audit, default labels', () => {
    expect(resolveDurableAgentOptions({ client: foreign, ledger }, node)).toEqual({
      client: foreign,
      ledger,
      delivery: 'at-most-once',
      recovery: { ...defaultContextHistory },
      audit: false,
      tenant: 'default',
      run: 'default',
      skill: undefined,
    });
    expect(defaultContextHistory).toEqual({
      kind: 'context-history',
      maxPages: 4,
      historyLength: 64,
      retryAfterMs: 1000,
      maxProbes: 10,
      includeArtifacts: false,
    });
    expect(defaultDurableAgentOptions.maxProbes).toBe(10);
  });

  it('defaults to keyed delivery and the keyed replay wherever the peer honours keys', () => {
    for (const environment of [node, browser]) {
      expect(resolveDurableAgentOptions({ client: honouring, ledger }, environment)).toMatchObject({
        delivery: 'keyed',
        recovery: { kind: 'keyed', retryAfterMs: 1000, maxProbes: 10 },
        audit: false,
      });
    }
  });

  it('keeps a disabled recovery when it is asked for', () => {
    expect(
      resolveDurableAgentOptions({ client: foreign, ledger, recovery: { kind: 'disabled' } }, node).recovery,
    ).toEqual({ kind: 'disabled' });
  });

  // docs/interop.md#browsers: a browser re-sends a POST by itself, so an unkeyed send there needs the
  // caller's word.
  it('refuses at-most-once delivery in a browser without the acknowledgement, to any peer', () => {
    for (const options of [
      { client: foreign, ledger },
      { client: honouring, ledger, delivery: 'at-most-once' as const },
    ]) {
      expect(() => resolveDurableAgentOptions(options, browser)).toThrow(
        expect.objectContaining({ option: 'acknowledgeBrowserResend', reason: 'not-satisfied' }),
      );
      expect(resolveDurableAgentOptions(options, node).delivery).toBe('at-most-once');
    }
  });

  it('accepts at-most-once delivery in a browser with the acknowledgement, and audits it by default', () => {
    const acknowledged = { client: foreign, ledger, acknowledgeBrowserResend: true } as const;
    expect(resolveDurableAgentOptions(acknowledged, browser)).toMatchObject({
      delivery: 'at-most-once',
      recovery: { kind: 'context-history' },
      audit: true,
    });
    expect(resolveDurableAgentOptions({ ...acknowledged, audit: false }, browser).audit).toBe(false);
    // Without a scan there is nothing to audit with.
    expect(
      resolveDurableAgentOptions({ ...acknowledged, recovery: { kind: 'disabled' } }, browser).audit,
    ).toBe(false);
    expect(resolveDurableAgentOptions({ client: foreign, ledger, audit: true }, node).audit).toBe(true);
  });

  it('needs no acknowledgement for keyed or message-id-deduplicated delivery in a browser', () => {
    expect(
      resolveDurableAgentOptions({ client: honouring, ledger, delivery: 'keyed' }, browser).delivery,
    ).toBe('keyed');
    expect(
      resolveDurableAgentOptions(
        {
          client: foreign,
          ledger,
          delivery: 'message-id-deduplicated',
          recovery: { kind: 'message-id-replay', attestation },
        },
        browser,
      ).delivery,
    ).toBe('message-id-deduplicated');
  });

  it.each<[string, Record<string, unknown>, unknown]>([
    [
      'context-history with its defaults',
      { recovery: history },
      { ...history, maxProbes: 10, includeArtifacts: false },
    ],
    [
      'context-history at its ceilings',
      {
        recovery: { ...history, maxPages: 16, historyLength: 256, retryAfterMs: 3_600_000, maxProbes: 1000 },
      },
      {
        kind: 'context-history',
        maxPages: 16,
        historyLength: 256,
        retryAfterMs: 3_600_000,
        maxProbes: 1000,
        includeArtifacts: false,
      },
    ],
    [
      'StateKnot’s (2, 32, 250 ms)',
      { recovery: { kind: 'context-history', maxPages: 2, historyLength: 32, retryAfterMs: 250 } },
      {
        kind: 'context-history',
        maxPages: 2,
        historyLength: 32,
        retryAfterMs: 250,
        maxProbes: 10,
        includeArtifacts: false,
      },
    ],
    [
      'keyed with its defaults',
      { delivery: 'keyed', recovery: { kind: 'keyed' } },
      { kind: 'keyed', retryAfterMs: 1000, maxProbes: 10 },
    ],
    [
      'message-id replay',
      {
        delivery: 'message-id-deduplicated',
        recovery: { kind: 'message-id-replay', attestation, maxProbes: 2 },
      },
      { kind: 'message-id-replay', attestation, retryAfterMs: 1000, maxProbes: 2 },
    ],
  ])('accepts %s', (_name, options, recovery) => {
    expect(
      resolveDurableAgentOptions({ client: honouring, ledger, ...options } as DurableAgentOptions).recovery,
    ).toEqual(recovery);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['no client', { client: undefined }, 'client', 'malformed'],
    ['no ledger', { ledger: null }, 'ledger', 'malformed'],
    ['an unknown delivery', { delivery: 'exactly-once' }, 'delivery', 'unsupported'],
    [
      'keyed delivery to a peer that does not honour keys',
      { client: foreign, delivery: 'keyed' },
      'delivery',
      'not-satisfied',
    ],
    ['an unknown recovery', { recovery: { kind: 'guess' } }, 'recovery.kind', 'unsupported'],
    ['a recovery that is not an object', { recovery: 'keyed' }, 'recovery', 'malformed'],
    ['zero pages', { recovery: { ...history, maxPages: 0 } }, 'recovery.maxPages', 'below-minimum'],
    ['17 pages', { recovery: { ...history, maxPages: 17 } }, 'recovery.maxPages', 'above-ceiling'],
    [
      'a fractional page count',
      { recovery: { ...history, maxPages: 1.5 } },
      'recovery.maxPages',
      'not-a-whole-number',
    ],
    ['no history', { recovery: { ...history, historyLength: 0 } }, 'recovery.historyLength', 'below-minimum'],
    [
      '257 history messages',
      { recovery: { ...history, historyLength: 257 } },
      'recovery.historyLength',
      'above-ceiling',
    ],
    ['a zero delay', { recovery: { ...history, retryAfterMs: 0 } }, 'recovery.retryAfterMs', 'below-minimum'],
    [
      'a delay over an hour',
      { recovery: { ...history, retryAfterMs: 3_600_001 } },
      'recovery.retryAfterMs',
      'above-ceiling',
    ],
    [
      'a context-history recovery without a delay',
      { recovery: { kind: 'context-history', maxPages: 1, historyLength: 1 } },
      'recovery.retryAfterMs',
      'malformed',
    ],
    ['zero probes', { recovery: { ...history, maxProbes: 0 } }, 'recovery.maxProbes', 'below-minimum'],
    ['1001 probes', { recovery: { ...history, maxProbes: 1001 } }, 'recovery.maxProbes', 'above-ceiling'],
    [
      'includeArtifacts that is not a boolean',
      { recovery: { ...history, includeArtifacts: 'yes' } },
      'recovery.includeArtifacts',
      'malformed',
    ],
    [
      'keyed recovery of unkeyed sends',
      { delivery: 'at-most-once', recovery: { kind: 'keyed' } },
      'recovery',
      'inconsistent',
    ],
    [
      'an acknowledgement that is not true',
      { acknowledgeBrowserResend: 'yes' },
      'acknowledgeBrowserResend',
      'malformed',
    ],
    ['an audit that is not a boolean', { audit: 'yes' }, 'audit', 'malformed'],
    ['an audit without a scan', { audit: true }, 'audit', 'inconsistent'],
    [
      'message-id replay of at-most-once sends',
      { delivery: 'at-most-once', recovery: { kind: 'message-id-replay', attestation } },
      'recovery',
      'inconsistent',
    ],
    [
      'message-id-deduplicated delivery without the attested replay',
      { delivery: 'message-id-deduplicated' },
      'recovery',
      'inconsistent',
    ],
    [
      'message-id-deduplicated delivery with a scan',
      { delivery: 'message-id-deduplicated', recovery: history },
      'recovery',
      'inconsistent',
    ],
    [
      'an attestation that is not an object',
      { delivery: 'message-id-deduplicated', recovery: { kind: 'message-id-replay', attestation: true } },
      'recovery.attestation',
      'malformed',
    ],
    [
      'an attestation without an owner',
      {
        delivery: 'message-id-deduplicated',
        recovery: { kind: 'message-id-replay', attestation: { ...attestation, owner: '' } },
      },
      'recovery.attestation.owner',
      'malformed',
    ],
    [
      'an attestation without evidence',
      {
        delivery: 'message-id-deduplicated',
        recovery: { kind: 'message-id-replay', attestation: { owner: 'x', retentionMs: 1 } },
      },
      'recovery.attestation.evidence',
      'malformed',
    ],
    [
      'an attestation with no retention',
      {
        delivery: 'message-id-deduplicated',
        recovery: { kind: 'message-id-replay', attestation: { ...attestation, retentionMs: 0 } },
      },
      'recovery.attestation.retentionMs',
      'below-minimum',
    ],
    ['a tenant label with a line break', { tenant: 'acme\n' }, 'tenant', 'malformed'],
    ['an empty run label', { run: '' }, 'run', 'malformed'],
    ['a skill that is not a string', { skill: 7 }, 'skill', 'malformed'],
  ])('refuses %s', (_name, options, option, reason) => {
    expect(refusal(options)).toEqual([option, reason]);
  });
});
