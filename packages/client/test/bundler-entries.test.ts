import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build as esbuild } from 'esbuild';
import * as fakeIndexedDb from 'fake-indexeddb';
import { build } from 'vite';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Ledger, LedgerOptions } from '../src/ledger/ledger.js';
import { intent } from './support/intent.js';

// What bundlers make of the ledger entries (CONTRIBUTING.md#public-entries, rule 4), each a real build.
//
// The Node-only stores resolve only under `node`. Vite took
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

// docs/durable-send.md#ledger-stores: no environment gets a volatile store by default. Without the `browser`
// condition (esbuild --platform=neutral, Rollup's node-resolve without `browser: true`) and in workers
// (`worker`, and wrangler's `workerd`, `worker`, `browser`), `@surecall/client/ledger` used to be the memory
// store: a durable send said committed and nothing survived a reload. It is the IndexedDB store there
// (ledger/portable.ts over idb.ts), which refuses where there is no IndexedDB, naming the explicit choices.
describe('@surecall/client/ledger without the browser condition', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  type Entry = { readonly openLedger: (options: LedgerOptions) => Promise<Ledger> };

  /** Bundles `@surecall/client/ledger` for the neutral platform under `conditions`, and loads the bundle. */
  async function neutral(
    conditions: readonly string[],
  ): Promise<{ entry: Entry; inputs: string[]; code: string }> {
    const outfile = join(directory, `ledger-${conditions.join('-') || 'none'}.mjs`);
    const result = await esbuild({
      stdin: { contents: "export * from '@surecall/client/ledger';", resolveDir: directory, loader: 'js' },
      bundle: true,
      platform: 'neutral',
      format: 'esm',
      conditions: ['@surecall/source', ...conditions],
      outfile,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const code = result.outputFiles?.[0]?.text ?? '';
    await writeFile(outfile, code);
    const inputs = Object.keys(result.metafile?.inputs ?? {}).filter((input) =>
      input.includes('src/ledger/'),
    );
    return { entry: (await import(pathToFileURL(outfile).href)) as Entry, inputs, code };
  }

  it.each<[string, readonly string[]]>([
    ['no platform condition (esbuild --platform=neutral, Rollup without browser: true)', []],
    ['a worker bundle', ['worker']],
    ["wrangler's workerd bundle", ['workerd', 'worker', 'browser']],
  ])(
    '%s: the IndexedDB store, never the memory store, and nothing Node-only',
    async (_, conditions) => {
      const { entry, inputs, code } = await neutral(conditions);
      expect(inputs.some((input) => input.endsWith('src/ledger/idb.ts'))).toBe(true);
      expect(inputs.some((input) => input.endsWith('src/ledger/portable.ts'))).toBe(true);
      expect(inputs.filter((input) => /src\/ledger\/(memory|file|lock|location)\.ts$/.test(input))).toEqual(
        [],
      );
      expect(code).not.toMatch(/from ["']node:|import\(["']node:/);

      // Where there is no IndexedDB (workerd, Node): a typed refusal that names the explicit choices.
      const refusal = await entry.openLedger({ name: 'sends' }).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(refusal).toMatchObject({ name: 'LedgerError', reason: 'unsupported', rule: 'indexeddb' });
      expect(refusal?.message).toContain('@surecall/client/ledger/memory');
      expect(refusal?.message).toContain('@surecall/client/ledger/file');

      // Where there is one, a record outlives the ledger that wrote it.
      for (const [name, value] of Object.entries(fakeIndexedDb)) {
        if (name.startsWith('IDB')) {
          vi.stubGlobal(name, value);
        }
      }
      vi.stubGlobal('indexedDB', new fakeIndexedDb.IDBFactory());
      const first = await entry.openLedger({ name: 'sends' });
      await first.create(intent('kept'));
      await first.close();
      const reopened = await entry.openLedger({ name: 'sends' });
      expect((await reopened.list()).map((record) => record.id)).toEqual(['kept']);
      await reopened.close();
    },
    60_000,
  );
});
