/**
The store's statements (statements.ts): each numbers exactly the parameters it names, in their order, so
`bind` puts every value where the text uses it; the prepared ones are named after their text, apart for each
schema.
*/
import { describe, expect, it } from 'vitest';
import { qualify } from './schema.js';
import { batchPreparations, bind, type Statement, storeStatements } from './statements.js';

const statements = storeStatements(qualify('ledger_a'));

// The placeholder numbers a text uses, each once, in ascending order.
const numbersIn = (text: string): number[] =>
  [...new Set([...text.matchAll(/\$(\d+)/g)].map((found) => Number(found[1])))].sort((a, b) => a - b);

// A value for each of `params`.
const ones = <TParam extends string>(params: readonly TParam[]) =>
  Object.fromEntries(params.map((param) => [param, 1])) as Record<TParam, number>;

// Every statement by its name; each preparation of the batch statement as `writeBatches[n]`.
const named: [string, Statement<string>][] = Object.entries(statements).flatMap(
  ([name, statement]): [string, Statement<string>][] =>
    Array.isArray(statement)
      ? statement.map((each, index) => [`${name}[${index}]`, each])
      : [[name, statement as Statement<string>]],
);

describe('the PostgreSQL store statements', () => {
  it.each(named)(
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
    const names = statements.writeBatches.map((statement) => statement.name);
    expect(names).toHaveLength(batchPreparations.length);
    for (const [index, writeBatch] of statements.writeBatches.entries()) {
      expect(writeBatch.name).toMatch(/^surecall_[0-9a-f]{32}$/);
      expect(other.writeBatches[index]?.name).not.toBe(writeBatch.name);
      expect(bind(writeBatch, ones(writeBatch.params))).toMatchObject({ name: writeBatch.name });
      // Each preparation is the same statement, under a name of its own.
      expect(writeBatch.params).toEqual(statements.writeBatches[0]?.params);
      expect(writeBatch.text.replace(/^\/\*.*?\*\//, '')).toBe(
        statements.writeBatches[0]?.text.replace(/^\/\*.*?\*\//, ''),
      );
    }
    expect(new Set(names).size).toBe(names.length);
    expect(statements.get.name).toBeUndefined();
  });
});
