import type { Reporter, TestModule } from 'vitest/node';

/**
Prints one plain closing line, `Tests: N passed, N failed`, after vitest's own summary, so that a CI log
reader that does not know vitest still sees how many tests ran.
*/
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') {
          passed++;
        } else if (state === 'failed') {
          failed++;
        }
      }
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed\n`);
  }
}
