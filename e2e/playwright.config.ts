import { randomBytes } from 'node:crypto';
import { defineConfig } from '@playwright/test';

/**
The devtools in a real browser: Debian's Chromium (never a downloaded one; ARCHITECTURE.md#decisions) against
a production build of the devtools served on 127.0.0.1, with the mock agent in the page behind MSW's service
worker. Run from the repository root:

  npx playwright test -c e2e/playwright.config.ts

A second server, the mock agent as a Node process, serves the specs that reload the page: the agent in the
page would forget its tasks with it, so the ledger's unknown send could never be found again.

Two more Node agents serve `browser-resend.e2e.ts` and the connect spec, each with its own execution counter:
one in `foreign` mode (it ignores idempotency keys, so a browser's own re-send runs twice there), one
honouring keys.

The Node agents' control routes (`/__faults`, `/__executions`) demand a per-run token
(docs/interop.md#loopback-server-security): this config draws one per run into `SURECALL_E2E_MOCK_TOKEN` (the
workers inherit it), hands it to the agents as `SURECALL_MOCK_TOKEN`, and the specs send it (helpers.ts) or
put it in the card URL's `#mock-token=` fragment for the page.

`CHROMIUM_PATH` overrides the browser, `DEVTOOLS_E2E_PORT` the devtools' port, `DEVTOOLS_E2E_AGENT_PORT` the
Node agent's, `DEVTOOLS_E2E_FOREIGN_PORT` and `DEVTOOLS_E2E_KEYED_PORT` the other two's. Screenshots go to
test-results/e2e/<test>/.
*/
const { DEVTOOLS_E2E_PORT, DEVTOOLS_E2E_AGENT_PORT, CHROMIUM_PATH } = process.env;
const { DEVTOOLS_E2E_FOREIGN_PORT, DEVTOOLS_E2E_KEYED_PORT } = process.env;
const port = Number(DEVTOOLS_E2E_PORT ?? 4179);
const agentPort = Number(DEVTOOLS_E2E_AGENT_PORT ?? 4180);
const foreignPort = Number(DEVTOOLS_E2E_FOREIGN_PORT ?? 4181);
const keyedPort = Number(DEVTOOLS_E2E_KEYED_PORT ?? 4182);
// Drawn once in the runner; its workers load this file again and must keep the runner's token.
process.env['SURECALL_E2E_MOCK_TOKEN'] ??= randomBytes(32).toString('base64url');
const mockToken = process.env['SURECALL_E2E_MOCK_TOKEN'];

/** A Node mock agent on `agentPort` in `mode`, started afresh for each run. */
function nodeAgent(agentPort: number, mode: 'honouring' | 'foreign') {
  return {
    command: `npm run mock-agent -- --port ${agentPort} --mode ${mode}`,
    cwd: root,
    env: { SURECALL_MOCK_TOKEN: mockToken },
    url: `http://127.0.0.1:${agentPort}/.well-known/agent-card.json`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  } as const;
}
const root = new URL('..', import.meta.url).pathname;

export default defineConfig({
  testDir: './tests',
  testMatch: '**/*.e2e.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  reporter: 'list',
  outputDir: '../test-results/e2e',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    serviceWorkers: 'allow',
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
  webServer: [
    {
      // A production build (the worker script generated first), previewed on a fixed loopback port.
      command: `npm run build:app --workspace @surecall/devtools && npm run preview --workspace @surecall/devtools -- --port ${port} --strictPort`,
      cwd: root,
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    // The mock agent outside the page (honouring keys, CORS open to the devtools' origin); its tasks survive
    // a page reload.
    nodeAgent(agentPort, 'honouring'),
    nodeAgent(foreignPort, 'foreign'),
    nodeAgent(keyedPort, 'honouring'),
  ],
});
