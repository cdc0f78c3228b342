import { defineConfig } from '@playwright/test';

/**
Proves the `mockAgent` fixture of `@surecall/mocks/playwright`. The spec uses only Playwright's API `request`
fixture, so no browser is launched or needed. Run from the repository root with the workspace source
condition, because the mock agent imports `@surecall/client` from source:

  NODE_OPTIONS=--conditions=@surecall/source npx playwright test -c mocks/playwright.config.ts
*/
export default defineConfig({
  testDir: './test',
  testMatch: '**/*.e2e.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  forbidOnly: true,
  reporter: 'list',
  outputDir: '../test-results/mocks',
});
