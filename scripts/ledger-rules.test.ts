/**
@module
The ledger's rule ids, listed and checked (docs/protocol-checks.md#ledger): every `rule` the ledger's source
can give a `LedgerError` has a row there, and every row names a rule the source gives. The reader
(`ledger-rules.ts`) is tried first on sources written here, so a reader that stopped seeing one of the places
a rule is named fails too.
*/
import { describe, expect, it } from 'vitest';
import { documentedRules, ledgerCodeRules, ledgerDocumentedRules, rulesOf } from './ledger-rules.js';

/**
Reasons that stand as a rule: a `LedgerError` made without a rule whose `reason` becomes the `rule` of the
`corrupt` error a replay reports (`error.rule ?? error.reason`, journal/line.ts `corruptAt`; `verifyHistory`
alike). A state machine's `reused-attempt` is the only one a replay can meet.
*/
const reasonsStandingAsRules = ['reused-attempt'];

describe('the rule reader', () => {
  it('finds a rule wherever the ledger names one', () => {
    const source = [
      "import { LedgerError } from '../core/errors.js';",
      "throw new LedgerError('corrupt', { rule: 'literal', position: 1 });",
      "throw new LedgerError('stale-revision', first ? { rule: 'chosen' } : {});",
      "throw new LedgerError('io', { rule: error.rule ?? 'fallback', cause: error });",
      // Written in two pieces, so that this file holds no template placeholder in a string.
      "throw new LedgerError('invalid-transition', { rule: `start-from-$" + '{state.status}` });',
      "throw new LedgerError('reused-attempt');",
      'function refuse(rule: string): never { throw new LedgerError("invalid-transition", { rule }); }',
      "refuse('by-parameter');",
      'const invalid = (name: string, rule: string) => name;',
      "invalid('x', 'by-arrow');",
      "const rule = error instanceof LedgerError ? error.rule : 'by-variable';",
      "export const borrowedRules = ['listed', 'also-listed'] as const;",
      "const message = { rule: 'not-a-ledger-error' };",
    ].join('\n');
    const found = rulesOf([source]);
    expect([...found.rules].sort()).toEqual([
      'also-listed',
      'by-arrow',
      'by-parameter',
      'by-variable',
      'chosen',
      'fallback',
      'listed',
      'literal',
      'start-from-<status>',
    ]);
    expect([...found.bareReasons]).toEqual(['reused-attempt']);
  });

  it('follows a rule parameter into another source', () => {
    const declared = 'export function fail(payload: unknown, rule: string, path = []) { return rule; }';
    const called = "fail(payload, 'elsewhere', ['state']);";
    expect([...rulesOf([declared, called]).rules]).toEqual(['elsewhere']);
  });

  it("reads the rule ids of a document's Ledger section, and of no other", () => {
    const markdown = [
      '## Redaction',
      '| `redact.message` | x |',
      '| `ledger.elsewhere` | x |',
      '## Ledger',
      '| rule id | reason | what |',
      '| --- | --- | --- |',
      '| `ledger.chain`   | corrupt | x |',
      'Prose between the tables.',
      '| `ledger.<type>-from-<status>` | invalid-transition | x |',
      '## After',
      '| `ledger.after` | x |',
    ].join('\n');
    expect(documentedRules(`\n${markdown}\n`)).toEqual(['chain', '<type>-from-<status>']);
  });
});

describe("the ledger's rules", () => {
  const code = ledgerCodeRules();
  const documented = ledgerDocumentedRules();

  it('are read from the source at all', () => {
    for (const rule of ['chain', 'journal-line', 'follower', 'invalid_type', 'attempt-mismatch']) {
      expect(code.rules).toContain(rule);
    }
    for (const reason of reasonsStandingAsRules) {
      expect(code.bareReasons).toContain(reason);
    }
  });

  it('each have a row in docs/protocol-checks.md#ledger', () => {
    const listed = new Set(documented);
    expect([...code.rules, ...reasonsStandingAsRules].filter((rule) => !listed.has(rule)).sort()).toEqual([]);
  });

  it('are listed once each, and only those the source gives', () => {
    const given = new Set([...code.rules, ...reasonsStandingAsRules]);
    expect(documented.filter((rule) => !given.has(rule)).sort()).toEqual([]);
    expect(documented.filter((rule, index) => documented.indexOf(rule) !== index)).toEqual([]);
  });
});
