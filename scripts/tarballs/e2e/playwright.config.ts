import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

// Debian's Chromium with the launch options of the repository's e2e/playwright.config.ts; the built web app
// served by `vite preview` on the loopback port scripts/tarballs.sh picked.
const { CHROMIUM_PATH, SURECALL_WEB_PORT = '4173' } = process.env;
const origin = `http://127.0.0.1:${SURECALL_WEB_PORT}`;

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: 'list',
  webServer: {
    command: `npx --no-install vite preview web --outDir ../web-dist --host 127.0.0.1 --port ${SURECALL_WEB_PORT} --strictPort`,
    url: `${origin}/`,
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    reuseExistingServer: false,
  },
  use: {
    baseURL: origin,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
  },
});
