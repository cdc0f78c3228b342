import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript source through this condition
// (CONTRIBUTING.md#source-condition), so nothing needs building before a test run.
const conditions = ['@surecall/source'];

// What a client test asserts must hold whichever way a conformant peer prints its answers.
const serializerSuites = [
  'packages/client/test/client.test.ts',
  'packages/client/test/client-auth.test.ts',
  'packages/client/test/client-faults.test.ts',
  'packages/client/test/bindings/mock-agent.test.ts',
  'packages/client/test/discovery/discovery-loopback.test.ts',
  'packages/client/test/durable/agent.test.ts',
  'packages/client/test/durable/lost-response-matrix.test.ts',
  'packages/client/test/durable/recovery.test.ts',
  'packages/client/test/durable/remote-skill.test.ts',
  'packages/client/test/idempotency/*.test.ts',
  'packages/client/test/optional-ids.test.ts',
  'packages/client/test/remote-text.test.ts',
  'packages/client/test/reference-agent.test.ts',
  'packages/client/test/extended-card.test.ts',
];

// The suites that need PostgreSQL: the shared ledger contract (run on the other stores by `client`) and the
// fleet's own.
const postgresSuites = [
  'packages/client/src/ledger/ledger.test.ts',
  'packages/client/test/ledger/postgres*.test.ts',
  'packages/client/test/durable/fleet*.test.ts',
];

// The suites that run in Chromium, not Node: only the `client (chromium)` project runs them.
const browserSuites = 'packages/client/test/**/*.browser.test.ts';
const { CHROMIUM_PATH } = process.env;

// The `surecall` command over a real PostgreSQL: only the `cli (postgres)` project, which starts one, runs
// it.
const cliPostgresSuite = 'packages/cli/test/postgres.test.ts';

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    reporters: ['default', './scripts/vitest-summary.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'client',
          include: ['packages/client/{src,test}/**/*.test.ts'],
          exclude: [...postgresSuites.slice(1), browserSuites, 'node_modules/**'],
          environment: 'node',
        },
      },
      {
        // The fleet ledger on a real PostgreSQL that the global setup starts (scripts/postgres.sh) unless
        // SURECALL_PG_URL names one: the shared ledger contract, the fleet, leases.
        extends: true,
        test: {
          name: 'client (postgres)',
          include: postgresSuites,
          environment: 'node',
          globalSetup: ['packages/client/test/support/postgres-setup.ts'],
          env: { SURECALL_LEDGER_STORES: 'postgres' },
        },
      },
      {
        // The ledger contract on the real IndexedDB and Web Locks, in Debian's Chromium (never a downloaded
        // browser, ARCHITECTURE.md#decisions; `CHROMIUM_PATH` overrides it as for e2e/), headless; its own
        // stage of `npm test`, `npm run test:browser`, after scripts/ensure-chromium.sh.
        extends: true,
        test: {
          name: 'client (chromium)',
          include: [browserSuites],
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: { executablePath: CHROMIUM_PATH ?? '/usr/bin/chromium' },
            }),
            instances: [{ browser: 'chromium' }],
            // A ledger test draws nothing: a screenshot of its page would show an empty page.
            screenshotFailures: false,
          },
        },
      },
      // The suites whose answers come from the mock agent, again against every other ProtoJSON printer
      // (docs/interop.md#serializer-styles).
      ...['emit-defaults', 'proto-names', 'enum-numbers'].map((style) => ({
        extends: true as const,
        test: {
          name: `client (${style})`,
          include: serializerSuites,
          environment: 'node' as const,
          env: { SURECALL_MOCK_SERIALIZER: style },
        },
      })),
      {
        // The `surecall` command end to end: the bin in a child process against the mock agent on loopback.
        extends: true,
        // Each case starts a Node process that compiles the source with tsx: seconds on a loaded machine, not
        // milliseconds.
        test: {
          name: 'cli',
          include: ['packages/cli/{src,test}/**/*.test.ts'],
          exclude: [cliPostgresSuite, 'node_modules/**'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        // The `surecall` command over the fleet ledger (`--ledger postgres://…`), on the PostgreSQL the same
        // global setup as `client (postgres)` starts unless SURECALL_PG_URL names one.
        extends: true,
        test: {
          name: 'cli (postgres)',
          include: [cliPostgresSuite],
          environment: 'node',
          globalSetup: ['packages/client/test/support/postgres-setup.ts'],
          testTimeout: 120_000,
        },
      },
      {
        // Checks of the repository itself: citations and anchors.
        extends: true,
        // Several read every file of the repository: seconds on a quiet machine, more beside other jobs.
        test: {
          name: 'repository',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: { name: 'mocks', include: ['mocks/{src,test}/**/*.test.ts'], environment: 'node' },
      },
      {
        // The devtools' logic lives in pure functions over client events (CONTRIBUTING.md#devtools), so Node
        // runs it; components are proven in Chromium by e2e/.
        extends: true,
        test: {
          name: 'devtools',
          include: ['packages/devtools/{src,test}/**/*.test.ts'],
          environment: 'node',
        },
      },
    ],
  },
});
