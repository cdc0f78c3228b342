import { afterEach, describe, expect, it, vi } from 'vitest';

// docs/protocol-checks.md#ledger, `ledger.pg`: the optional driver is checked by what its import returned,
// not only by whether the import threw. Next's webpack build turns a missing optional `pg` into an empty
// module, which used to fail as `TypeError: Pool is not a constructor`.
afterEach(() => {
  vi.doUnmock('pg');
  vi.resetModules();
});

/** Opens a pool from a connection string with `module` standing for what `import('pg')` gives. */
async function openWith(module: unknown): Promise<unknown> {
  vi.resetModules();
  vi.doMock('pg', () => {
    if (module instanceof Error) {
      throw module;
    }
    return module as Record<string, unknown>;
  });
  const { openPool } = await import('./connection.js');
  return openPool({ connectionString: 'postgres://127.0.0.1:1/none' }, 2);
}

describe('openPool without the pg driver', () => {
  it.each<[string, unknown]>([
    ['an empty module, as a bundler makes of a missing optional peer', {}],
    ['a module whose default export is empty', { default: {} }],
    ['a default export that is no driver', { default: { Pool: 'pg' } }],
    ['an import that fails', new Error("Cannot find package 'pg'")],
  ])('%s: unsupported, rule pg', async (_, module) => {
    const error = await openWith(module).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    // Its own module instance's class (the registry was reset), so compared by name.
    expect(error).toMatchObject({ name: 'LedgerError', reason: 'unsupported', rule: 'pg' });
  });

  it('makes its pool with the driver it loaded', async () => {
    class Pool {
      readonly options: unknown;
      constructor(options: unknown) {
        this.options = options;
      }
    }
    await expect(openWith({ default: { Pool } })).resolves.toMatchObject({
      owns: true,
      pool: { options: { connectionString: 'postgres://127.0.0.1:1/none', max: 2 } },
    });
  });
});
