// The client's page (bundled/page.js) built from the installed tarballs by the bundlers users have, each as its
// documentation says to build for the browser, then checked and run: `node bundlers.mjs <agent origin>` in a
// scratch project of scripts/tarballs.sh where the bundlers are installed. For each bundler: no Node-only
// module in what the browser gets (a `node:` import, `fs`, the file journal, the PostgreSQL store or `pg`,
// the gRPC binding or `@grpc/grpc-js`, each found by a mark its own code carries, checked to carry it), the
// page served on loopback and opened in Debian's Chromium (playwright-core, the launch options of
// e2e/playwright.config.ts) until `#answer` says the send answered and the durable send was kept across a
// reopen, and the client's bytes: the scripts Chromium loaded for the page, as the bundler minified them, and
// gzipped file by file (for Next, without those its `/404` page loads too: React and Next's runtime).
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const [agent] = process.argv.slice(2);
if (agent === undefined) {
  throw new Error('usage: node bundlers.mjs <agent origin>');
}
const project = process.cwd();
const out = join(project, 'bundled-out');
function run(command, args) {
  try {
    execFileSync(command, args, {
      cwd: project,
      stdio: 'pipe',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}
const npx = (...args) => run('npx', ['--no-install', ...args]);

// The Node-only code, each by a mark its own module carries (checked below, so a mark that stops being there
// fails instead of passing every bundle).
const marks = [
  {
    what: 'the file journal',
    mark: 'O_DSYNC',
    in: 'node_modules/@surecall/client/dist/ledger/journal/writes.js',
  },
  {
    what: 'the PostgreSQL store',
    mark: 'information_schema',
    in: 'node_modules/@surecall/client/dist/ledger/postgres/options.js',
  },
  { what: 'pg', mark: 'PGAPPNAME', in: 'node_modules/pg/lib/connection-parameters.js' },
  { what: '@grpc/grpc-js', mark: 'grpc-node-js', in: 'node_modules/@grpc/grpc-js/build/src/transport.js' },
];
for (const { what, mark, in: file } of marks) {
  if (!readFileSync(join(project, file), 'utf8').includes(mark)) {
    throw new Error(`${file} no longer carries ${mark}, the mark of ${what}`);
  }
}
const nodeImport =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*|\brequire\s*\(\s*)["'](?:node:[a-z/_]+|fs|fs\/promises|child_process|os|path|worker_threads|pg)["']/;

const pageHtml = (script, module = true) =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8" /><title>surecall, bundled</title></head>\n<body><p id="answer"></p><script ${module ? 'type="module" ' : 'defer '}src="${script}"></script></body></html>\n`;

// A client component that runs the same page in an effect, for Next's app router.
const nextPage = `'use client';
import { useEffect } from 'react';
import { start } from '../bundled/page.js';
export default function Page() {
  useEffect(() => {
    start();
  }, []);
  return <p id="answer" />;
}
`;
const nextLayout =
  'export default function Layout({ children }) {\n  return <html lang="en"><body>{children}</body></html>;\n}\n';

function nextBuild(flag) {
  return (dir) => {
    const app = join(project, `next-${flag}`);
    rmSync(app, { recursive: true, force: true });
    mkdirSync(join(app, 'app'), { recursive: true });
    writeFileSync(join(app, 'app', 'page.js'), nextPage.replace('../bundled/', '../../bundled/'));
    writeFileSync(join(app, 'app', 'layout.js'), nextLayout);
    // A static export: the pages and their chunks in `out/`, served as any static site.
    writeFileSync(
      join(app, 'next.config.mjs'),
      `export default { output: 'export', turbopack: { root: ${JSON.stringify(project)} } };\n`,
    );
    run('npx', ['--no-install', 'next', 'build', `--${flag}`, app]);
    cpSync(join(app, 'out'), dir, { recursive: true });
  };
}

const bundlers = [
  {
    name: 'Vite 8',
    build(dir) {
      npx('vite', 'build', 'bundled', '--outDir', dir, '--emptyOutDir', '--logLevel', 'error');
    },
  },
  {
    name: 'esbuild',
    build(dir) {
      npx(
        'esbuild',
        'bundled/main.js',
        '--bundle',
        '--splitting',
        '--format=esm',
        '--platform=browser',
        '--minify',
        '--log-level=error',
        `--outdir=${dir}`,
      );
      writeFileSync(join(dir, 'index.html'), pageHtml('./main.js'));
    },
  },
  {
    name: 'Rollup 4',
    build(dir) {
      // node-resolve with `browser: true`, as its documentation says for a browser bundle; terser minifies.
      writeFileSync(
        join(project, 'rollup.config.mjs'),
        `import { nodeResolve } from '@rollup/plugin-node-resolve';\nimport terser from '@rollup/plugin-terser';\nexport default { input: 'bundled/main.js', output: { dir: ${JSON.stringify(dir)}, format: 'es' }, plugins: [nodeResolve({ browser: true }), terser()] };\n`,
      );
      npx('rollup', '-c', 'rollup.config.mjs', '--silent');
      writeFileSync(join(dir, 'index.html'), pageHtml('./main.js'));
    },
  },
  {
    name: 'webpack 5',
    build(dir) {
      // webpack's Node API with its production defaults (terser, the `browser` condition for target `web`).
      run(process.execPath, [
        '--input-type=module',
        '-e',
        `import webpack from 'webpack';
webpack({ mode: 'production', target: 'web', entry: './bundled/main.js', output: { path: ${JSON.stringify(dir)} } }, (error, stats) => {
  if (error || stats.hasErrors()) { console.error(error ?? stats.toString('errors-only')); process.exit(1); }
});`,
      ]);
      writeFileSync(join(dir, 'index.html'), pageHtml('./main.js', false));
    },
  },
  {
    name: 'Parcel 2',
    build(dir) {
      // The resolver option README.md#install names: without it Parcel ignores `exports` and finds no ledger.
      // An app's package.json has no `main`, which Parcel would take for a library target.
      const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
      delete manifest.main;
      manifest['@parcel/resolver-default'] = { packageExports: true };
      writeFileSync(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      npx(
        'parcel',
        'build',
        'bundled/index.html',
        '--dist-dir',
        dir,
        '--no-source-maps',
        '--cache-dir',
        join(project, '.parcel-cache'),
        '--public-url',
        './',
        '--log-level',
        'error',
      );
    },
  },
  // Next's own runtime (React, the router) is what its `/404` page loads too, so it is not the client's.
  { name: 'Next 16, Turbopack', build: nextBuild('turbopack'), runtime: '/404.html' },
  { name: 'Next 16, webpack', build: nextBuild('webpack'), runtime: '/404.html' },
];

function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      return jsFiles(path);
    }
    return path.endsWith('.js') ? [path] : [];
  });
}

const types = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
};

function serve(root) {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://127.0.0.1').pathname);
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Opens the page until `#answer` says how it went; the paths of the scripts it loaded meanwhile. */
async function open(url, name) {
  const page = await browser.newPage();
  const scripts = collect(page);
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(url);
    await page.waitForFunction(
      () => (document.getElementById('answer')?.textContent ?? '') !== '',
      undefined,
      {
        timeout: 30_000,
      },
    );
    const answer = await page.locator('#answer').textContent();
    if (answer !== 'answered; durable committed; kept across a reopen') {
      throw new Error(`${name}: the page says ${JSON.stringify(answer)} ${errors.join('; ')}`);
    }
    return [...scripts];
  } finally {
    await page.close();
  }
}

/** The scripts a page loads once it is loaded (Next's `/404`: its runtime without the client). */
async function scriptsLoaded(url) {
  const page = await browser.newPage();
  const scripts = collect(page);
  try {
    // Its scripts are async ones, which the load event waits for.
    await page.goto(url, { waitUntil: 'load' });
    return [...scripts];
  } finally {
    await page.close();
  }
}

function collect(page) {
  const scripts = new Set();
  page.on('requestfinished', (request) => {
    const { pathname } = new URL(request.url());
    if (request.resourceType() === 'script' || pathname.endsWith('.js')) {
      scripts.add(decodeURIComponent(pathname));
    }
  });
  return scripts;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    '--disable-quic',
  ],
});
const rows = [];
try {
  for (const bundler of bundlers) {
    const dir = join(out, bundler.name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase());
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const started = Date.now();
    bundler.build(dir);
    const seconds = (Date.now() - started) / 1000;
    for (const file of jsFiles(dir)) {
      const text = readFileSync(file, 'utf8');
      const found = [
        ...marks.filter(({ mark }) => text.includes(mark)).map(({ what }) => what),
        ...(nodeImport.test(text) ? [text.match(nodeImport)[0]] : []),
      ];
      if (found.length > 0) {
        throw new Error(`${bundler.name}: ${relative(dir, file)} holds Node-only code: ${found.join(', ')}`);
      }
    }
    const server = await serve(dir);
    const origin = `http://127.0.0.1:${server.address().port}`;
    let loaded;
    try {
      loaded = await open(`${origin}/?agent=${encodeURIComponent(agent)}`, bundler.name);
      if (bundler.runtime !== undefined) {
        const runtime = await scriptsLoaded(`${origin}${bundler.runtime}`);
        loaded = loaded.filter((path) => !runtime.includes(path));
      }
    } finally {
      server.close();
    }
    let min = 0;
    let gzip = 0;
    for (const path of loaded) {
      const bytes = readFileSync(join(dir, path));
      min += bytes.length;
      gzip += gzipSync(bytes, { level: 9 }).length;
    }
    rows.push({
      bundler: bundler.name,
      'client min (B)': min,
      'client gzip (B)': gzip,
      'build (s)': seconds,
    });
    console.log(
      `${bundler.name}: built in ${seconds} s, no Node-only code, the page ran in Chromium; ${min} B min, ${gzip} B gzip`,
    );
  }
} finally {
  await browser.close();
}
console.table(rows);
