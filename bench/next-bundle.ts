/**
`bundle-client-next` (part of `npm run bench -- client`): the bytes a Next app's page loads for the client,
built by Turbopack (Next's default bundler), against the same page's client built by Vite.

Both build the page of `bundle-client` (discover() pinned to JSON-RPC, one sendMessage()) from the client as
it is published: `npm run build` of `@surecall/client` (its `dist/`, with zod's subset:
ARCHITECTURE.md#decisions, "zod's subset ships pre-shaken"), copied with its package.json into a scratch
folder's node_modules, so each bundler reads its `exports` as an installed package. Next 16 builds a client
component that runs the page in an effect; Vite 8 an `index.html` with the same code as its module. A page's
client bytes are what it loads beyond the same page without the client: for Next the chunks its prerendered
HTML names, for Vite the entry and the chunks it preloads; chunks behind the client's one dynamic import are
loaded on demand, so not counted. Each chunk is gzipped (level 9) on its own, as it is served. Sizes are
deterministic, so each side is built once; goal ≤ 1.1 (docs/interop.md#bundlers).
*/
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { type BenchRow, row } from './harness.js';

const repository = join(import.meta.dirname, '..');
const scratch = join(repository, 'bench', '.bundle-next');

/** The page's own code: what `bundle-client` bundles, ending in a mark the page shows. */
const clientCode = `
const origin = globalThis.location.origin;
const client = await discover({
  cardUrl: origin + '/.well-known/agent-card.json',
  pins: [{ binding: 'JSONRPC', url: origin + '/a2a/jsonrpc' }],
  trust: { kind: 'tls' },
  security: { kind: 'anonymous' },
});
const answer = await client.sendMessage({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } });
return 'message' in answer ? 'answered' : 'a task';
`;

type Page = 'client' | 'blank';

function pageBody(page: Page): { imports: string; run: string } {
  return page === 'client'
    ? { imports: "import { discover } from '@surecall/client';\n", run: clientCode }
    : { imports: '', run: "return 'answered';" };
}

/** Minified and gzipped bytes of the given files, each gzipped on its own. */
function sizes(files: readonly string[]): { min: number; gzip: number } {
  let min = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    min += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { min, gzip };
}

/** The JavaScript files an HTML page loads up front: its module scripts and module preloads. */
function scriptsOf(html: string, root: string, prefix: string): string[] {
  const found = [...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((match) => match[1] ?? '');
  return [...new Set(found)]
    .filter((path) => path.startsWith(prefix))
    .map((path) => join(root, path.slice(prefix.length)));
}

function nextPage(page: Page): { min: number; gzip: number } {
  const dir = join(scratch, `next-${page}`);
  const { imports, run } = pageBody(page);
  mkdirSync(join(dir, 'app'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  writeFileSync(
    join(dir, 'next.config.mjs'),
    `export default { turbopack: { root: ${JSON.stringify(repository)} } };\n`,
  );
  writeFileSync(
    join(dir, 'app', 'layout.js'),
    "import { createElement } from 'react';\nexport default function Layout({ children }) {\n  return createElement('html', null, createElement('body', null, children));\n}\n",
  );
  writeFileSync(
    join(dir, 'app', 'page.js'),
    `'use client';\nimport { createElement, useEffect, useState } from 'react';\n${imports}async function run() {${run}}\nexport default function Page() {\n  const [text, setText] = useState('');\n  useEffect(() => { run().then(setText); }, []);\n  return createElement('p', { id: 'answer' }, text);\n}\n`,
  );
  execFileSync(
    process.execPath,
    [join(repository, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build', '--turbopack'],
    {
      cwd: dir,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
      stdio: 'pipe',
    },
  );
  const html = readFileSync(join(dir, '.next', 'server', 'app', 'index.html'), 'utf8');
  return sizes(scriptsOf(html, join(dir, '.next'), '/_next/'));
}

async function vitePage(page: Page): Promise<{ min: number; gzip: number }> {
  const dir = join(scratch, `vite-${page}`);
  const { imports, run } = pageBody(page);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html>\n<p id="answer"></p>\n<script type="module" src="./main.js"></script>\n',
  );
  writeFileSync(
    join(dir, 'main.js'),
    `${imports}async function run() {${run}}\ndocument.getElementById('answer').textContent = await run();\n`,
  );
  await build({
    root: dir,
    logLevel: 'silent',
    configFile: false,
    build: { outDir: 'dist', target: 'es2022' },
  });
  const html = readFileSync(join(dir, 'dist', 'index.html'), 'utf8');
  return sizes(scriptsOf(html, join(dir, 'dist'), '/'));
}

/** `bundle-client-next`: Turbopack's client bytes for the page against Vite's, both from the built client. */
export async function bundleClientNext(): Promise<BenchRow> {
  execFileSync('npm', ['run', 'build', '--workspace', '@surecall/client'], {
    cwd: repository,
    stdio: 'pipe',
  });
  rmSync(scratch, { recursive: true, force: true });
  try {
    const installed = join(scratch, 'node_modules', '@surecall', 'client');
    mkdirSync(installed, { recursive: true });
    cpSync(join(repository, 'packages', 'client', 'package.json'), join(installed, 'package.json'));
    cpSync(join(repository, 'packages', 'client', 'dist'), join(installed, 'dist'), { recursive: true });
    const next = { client: nextPage('client'), blank: nextPage('blank') };
    const vite = { client: await vitePage('client'), blank: await vitePage('blank') };
    const ours = { min: next.client.min - next.blank.min, gzip: next.client.gzip - next.blank.gzip };
    const anchor = { min: vite.client.min - vite.blank.min, gzip: vite.client.gzip - vite.blank.gzip };
    const kb = (bytes: number): number => bytes / 1000;
    console.log(
      `bundle-client-next: the client's page, Next 16 with Turbopack ${kb(ours.min)} KB min, ${kb(ours.gzip)} KB gzip; Vite ${kb(anchor.min)} KB min, ${kb(anchor.gzip)} KB gzip (each beyond its page without the client)`,
    );
    return row(
      'bundle-client-next',
      'KB gzip',
      { ours: kb(ours.gzip), anchor: kb(anchor.gzip) },
      'the same page built by Vite 8 from the same built client',
      { op: '<=', ratio: 1.1 },
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
