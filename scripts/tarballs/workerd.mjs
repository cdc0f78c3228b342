// The installed client in Cloudflare's workerd (docs/interop.md#runtimes), run by scripts/tarballs.sh in the
// scratch project: `worker.mjs` is bundled from the project's node_modules as wrangler bundles a worker (its
// `workerd`, `worker` and `browser` conditions, no `@surecall/source`: the tarballs' dist), and miniflare
// runs it in workerd against the installed mock agent on loopback. esbuild and miniflare are the tools, not
// the packages under test: they come from the repository's own node_modules, at the versions its
// package-lock.json pins. Arguments: `<repository> <origin> <token> <report>`: the checks that held are
// written to the file `<report>` for `runtime-matrix.mjs`. Any failed check exits non-zero.
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [repository = '', origin = '', token = '', report = ''] = process.argv.slice(2);
const tools = createRequire(join(repository, 'package.json'));
const { build } = await import(pathToFileURL(tools.resolve('esbuild')).href);
const { Miniflare } = await import(pathToFileURL(tools.resolve('miniflare')).href);

const bundle = await build({
  entryPoints: [fileURLToPath(new URL('worker.mjs', import.meta.url))],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  conditions: ['workerd', 'worker', 'browser'],
  write: false,
  logLevel: 'warning',
});
const script = bundle.outputFiles[0]?.text ?? '';
// Every byte of the bundle came from the scratch project, none from the repository's sources.
if (!script.includes('node_modules/@surecall/client/dist/') || script.includes('packages/client/src/')) {
  throw new Error('the worker was not bundled from the installed @surecall/client');
}
const worker = new Miniflare({ modules: true, script, compatibilityDate: '2026-07-30' });
try {
  const answer = await worker.dispatchFetch('http://worker.test/', {
    method: 'POST',
    body: JSON.stringify({ origin, token }),
  });
  const text = await answer.text();
  if (answer.status !== 200) {
    throw new Error(`the worker answered ${answer.status}: ${text}`);
  }
  const { checks } = JSON.parse(text);
  await writeFile(report, text);
  console.log(`workerd: ${checks.length} checks passed; fetch re-sends a lost POST: no`);
} finally {
  await worker.dispose();
}
