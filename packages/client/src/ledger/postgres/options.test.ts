/**
The PostgreSQL ledger's options (options.ts): the schema its tables live in is a lowercase identifier of its
own, never one PostgreSQL reserves or shares, and every refusal is `LedgerError('invalid-input')` naming the
option, before any connection is made.
*/
import { describe, expect, it } from 'vitest';
import { LedgerError } from '../../core/errors.js';
import { openPostgresLedger } from './entry.js';
import { resolvePostgresLedgerOptions } from './options.js';

/** What resolving `schema` gives: the schema kept, or the refusal's reason and rule. */
function resolved(schema: unknown): { schema: string } | { reason: string; rule: string | undefined } {
  try {
    return { schema: resolvePostgresLedgerOptions({ schema: schema as string }).schema };
  } catch (error) {
    if (!(error instanceof LedgerError)) {
      throw error;
    }
    return { reason: error.reason, rule: error.rule };
  }
}

const refused = { reason: 'invalid-input', rule: 'schema' };

describe('the PostgreSQL ledger options', () => {
  it.each([
    ['the default', undefined, { schema: 'surecall_ledger' }],
    ['a lowercase identifier', 'fleet_ledger_2', { schema: 'fleet_ledger_2' }],
    ['one that starts with _', '_ledger', { schema: '_ledger' }],
    ['one that holds pg_ past its start', 'ledger_pg_1', { schema: 'ledger_pg_1' }],
    ['one that starts with pg but not pg_', 'pgledger', { schema: 'pgledger' }],
    ['one named like public but longer', 'public_ledger', { schema: 'public_ledger' }],
    ['48 characters', `l${'x'.repeat(47)}`, { schema: `l${'x'.repeat(47)}` }],
    ['public', 'public', refused],
    ['information_schema', 'information_schema', refused],
    ['pg_catalog', 'pg_catalog', refused],
    ['pg_toast', 'pg_toast', refused],
    ['a temporary schema', 'pg_temp_3', refused],
    ['any other pg_ name', 'pg_ledger', refused],
    ['pg_ alone', 'pg_', refused],
    ['PUBLIC, which PostgreSQL folds to public', 'PUBLIC', refused],
    ['Pg_Catalog', 'Pg_Catalog', refused],
    ['Information_Schema', 'Information_Schema', refused],
    ['a capital', 'Ledger', refused],
    ['a quote', 'led"ger', refused],
    ['a dot', 'a.b', refused],
    ['a leading digit', '1ledger', refused],
    ['the empty string', '', refused],
    ['49 characters', `l${'x'.repeat(48)}`, refused],
    ['a number', 42, refused],
  ])('takes %s as the schema: %j → %j', (_, schema, expected) => {
    expect(resolved(schema)).toEqual(expected);
  });

  it.each(['public', 'information_schema', 'pg_catalog', 'PG_CATALOG'])(
    'refuses to open a ledger in %s, before it connects',
    async (schema) => {
      const error = await openPostgresLedger(
        { connectionString: 'postgres://nobody@127.0.0.1:1/none' },
        { schema },
      ).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(LedgerError);
      expect(error).toMatchObject(refused);
    },
  );
});
