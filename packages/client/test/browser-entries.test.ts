import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// CONTRIBUTING.md#public-entries, rule 4: the Node-only stores resolve only under `node`. Vite took
// `./ledger/file`'s `default` past its `"browser": null`, and a browser app importing it built with warnings
// and crashed at import; with no `default`, a browser build must fail to resolve it, while the browser-safe
// entries build. Each case is a real Vite build of one import, resolving the workspace's package through the
// `@surecall/source` condition (CONTRIBUTING.md#source-condition), so nothing needs building first.

const repository = fileURLToPath(new URL('../../..', import.meta.url));
let directory = '';
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'surecall-browser-entries-'));
  await symlink(join(repository, 'node_modules'), join(directory, 'node_modules'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Builds a page that imports `entry` for the browser; resolves with the error, or `undefined`. */
async function browserBuild(entry: string): Promise<Error | undefined> {
  const name = entry.replaceAll('/', '-');
  await writeFile(join(directory, `${name}.js`), `export * from '${entry}';\n`);
  try {
    await build({
      root: directory,
      configFile: false,
      logLevel: 'silent',
      resolve: { conditions: ['@surecall/source', 'module', 'browser', 'production'] },
      build: {
        write: false,
        lib: { entry: join(directory, `${name}.js`), formats: ['es'] },
        rollupOptions: { external: ['ky', 'zod', 'zod/mini', 'idb'] },
      },
    });
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

describe('a browser build of each ledger entry', () => {
  it.each(['@surecall/client/ledger/file', '@surecall/client/ledger/postgres'])(
    '%s does not resolve',
    async (entry) => {
      const error = await browserBuild(entry);
      expect(error?.message).toMatch(/is not exported under the conditions/);
    },
    60_000,
  );

  it.each(['@surecall/client/ledger/journal', '@surecall/client/ledger/memory'])(
    '%s builds',
    async (entry) => {
      expect(await browserBuild(entry)).toBeUndefined();
    },
    60_000,
  );
});
