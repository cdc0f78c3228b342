import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript source through this condition (CONTRIBUTING.md#source-condition), so
// nothing needs building before a test run.
const conditions = ['@surecall/source'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    reporters: ['default', './scripts/vitest-summary.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'client', include: ['packages/client/{src,test}/**/*.test.ts'], environment: 'node' },
      },
      {
        // Checks of the repository itself: citations and anchors.
        extends: true,
        test: { name: 'repository', include: ['scripts/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'mocks', include: ['mocks/{src,test}/**/*.test.ts'], environment: 'node' },
      },
      {
        // The devtools' logic lives in pure functions over client events (CONTRIBUTING.md#devtools), so Node runs it; components are proven in Chromium by e2e/.
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
