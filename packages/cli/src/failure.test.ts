import { DiscoveryError, LedgerError } from '@surecall/client';
import { describe, expect, it } from 'vitest';
import { failureOf } from './failure.js';

describe('failureOf', () => {
  it.each([
    [
      'a card URL answering another status names it',
      new DiscoveryError('Discovery', { detail: 'status', httpStatus: 404 }),
      "the card URL answered HTTP 404: is it the agent's /.well-known/agent-card.json? (surecall discovery failed: Discovery (status))",
    ],
    [
      'a card that breaks the contract is refused',
      new DiscoveryError('InvalidAgentCard', { detail: 'schema' }),
      'the agent card was refused: surecall discovery failed: InvalidAgentCard (schema)',
    ],
    [
      'a reused id with another message says what an id names',
      new LedgerError('stale-revision', { rule: 'exists' }),
      'the ledger already holds a record with this id, for another message: an id names one message; give this send a new id, or look at the record with `surecall sends show <id>`: surecall ledger: stale-revision: exists',
    ],
  ])('%s', (_, error, text) => {
    expect(failureOf(error)).toEqual({ code: 1, text, usage: false });
  });
});
