/**
The store's statements (statements.ts): each numbers exactly the parameters it names, in their order, so
`bind` puts every value where the text uses it; the prepared ones are named after their text, apart for each
schema.
*/
import { describe, expect, it } from 'vitest';
import { qualify } from './schema.js';
import { bind, storeStatements } from './statements.js';

const statements = storeStatements(qualify('ledger_a'));

// The placeholder numbers a text uses, each once, in ascending order.
const numbersIn = (text: string): number[] =>
  [...new Set([...text.matchAll(/\$(\d+)/g)].map((found) => Number(found[1])))].sort((a, b) => a - b);

// A value for each of `params`.
const ones = <TParam extends string>(params: readonly TParam[]) =>
  Object.fromEntries(params.map((param) => [param, 1])) as Record<TParam, number>;

describe('the PostgreSQL store statements', () => {
  it.each(Object.entries(statements))(
    '%s numbers exactly its parameters, from 1 in their order, and leaves no name',
    (_, statement) => {
      expect(numbersIn(statement.text)).toEqual(statement.params.map((_, index) => index + 1));
      expect(statement.text).not.toMatch(/\$[A-Z]/);
    },
  );

  it('binds the values in the order of the parameters, whatever the order they are given in', () => {
    expect(bind(statements.claim, { S: 'session', NOW: 5, LEASE: 30_000, ID: 'r-1', W: 'worker' })).toEqual({
      text: statements.claim.text,
      values: ['r-1', 5, 'worker', 'session', 30_000],
    });
    expect(statements.claim.text).toContain('WHERE id = $1 AND due_at <= $2');
    expect(bind(statements.list, {})).toEqual({ text: statements.list.text });
  });

  it('prepares the statement every commit runs, named after their text and so apart for each schema', () => {
    const other = storeStatements(qualify('ledger_b'));
    const { writeBatch } = statements;
    expect(writeBatch.name).toMatch(/^surecall_[0-9a-f]{32}$/);
    expect(other.writeBatch.name).not.toBe(writeBatch.name);
    expect(bind(writeBatch, ones(writeBatch.params))).toMatchObject({ name: writeBatch.name });
    expect(statements.get.name).toBeUndefined();
  });
});
