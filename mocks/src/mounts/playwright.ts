/**
@module
A Playwright `test` with a `mockAgent` fixture: the mock agent on a loopback port, started in the test's
process for each test (or once per worker), stopped afterwards.

@example
```ts
import { expect, test } from '@surecall/mocks/playwright';

test.use({ mockAgentOptions: { stepMs: 5 } }); // optional; `mockAgentScope: 'worker'` shares one agent per worker

test('a lost answer is reconciled', async ({ page, mockAgent }) => {
  mockAgent.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
  await page.goto(`/?card=${encodeURIComponent(mockAgent.cardUrl)}`);
  // … drive the page …
  expect(mockAgent.executions.total()).toBe(1);
});
```
*/
// Its declarations name Node's types: a consumer's TypeScript loads them without a `types` setting
// (ARCHITECTURE.md#runtimes).
/// <reference types="node" preserve="true" />
import { test as base } from '@playwright/test';
import { type RunningMockAgent, type StartMockAgentOptions, startMockAgent } from './loopback.js';

export { expect } from '@playwright/test';

/**
What a test gets: where the agent is, the token of its control routes (`x-surecall-mock-token`), its fault
lab, its execution counter and the agent itself.
*/
export type MockAgentFixture = Pick<
  RunningMockAgent,
  'cardUrl' | 'origin' | 'token' | 'faults' | 'executions' | 'agent'
>;

/** Scope of the agent a test gets. */
export type MockAgentScope = 'test' | 'worker';

/**
Test-scoped fixtures and options added by {@link test}; set the options with `test.use`, in a file or a
describe.
*/
export type MockAgentTestFixtures = {
  /** The running mock agent. */
  readonly mockAgent: MockAgentFixture;
  /** Options of the agent (mode, tenantRequired, stepMs, …). @default {} */
  readonly mockAgentOptions: StartMockAgentOptions;
  /**
  `'test'`: a fresh agent per test. `'worker'`: tests of one worker with the same options share one agent,
  whose faults are cleared and execution counts reset after each test (its tasks stay, as on any long-running
  agent). @default 'test'
  */
  readonly mockAgentScope: MockAgentScope;
};

/**
The worker's shared agents, one per distinct options, started on first use and stopped with the worker.
Internal to {@link test}.
*/
export type MockAgentWorkerFixtures = {
  readonly mockAgentShared: { get(options: StartMockAgentOptions): Promise<RunningMockAgent> };
};

function view(running: RunningMockAgent): MockAgentFixture {
  const { cardUrl, origin, token, faults, executions, agent } = running;
  return { cardUrl, origin, token, faults, executions, agent };
}

/** A key equal for equal options; a function (the `now` clock) is told apart by identity. */
function keyOf(options: StartMockAgentOptions, functions: Map<unknown, number>): string {
  return JSON.stringify(options, (_key, value: unknown) => {
    if (typeof value !== 'function') {
      return value;
    }
    const id = functions.get(value) ?? functions.set(value, functions.size + 1).get(value);
    return `function#${id}`;
  });
}

/**
Playwright's `test`, extended with the `mockAgent` fixture and its two options.

@example
```ts
test.describe('with one agent per worker', () => {
  test.use({ mockAgentScope: 'worker', mockAgentOptions: { mode: 'refusing' } });
  test('reads the card', async ({ request, mockAgent }) => {
    expect((await request.get(mockAgent.cardUrl)).ok()).toBe(true);
  });
});
```
*/
export const test = base.extend<MockAgentTestFixtures, MockAgentWorkerFixtures>({
  mockAgentOptions: [{}, { option: true }],
  mockAgentScope: ['test', { option: true }],
  mockAgentShared: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern, and this one has none.
    async ({}, use) => {
      const started = new Map<string, Promise<RunningMockAgent>>();
      const functions = new Map<unknown, number>();
      await use({
        get: (options) => {
          const key = keyOf(options, functions);
          const running = started.get(key) ?? startMockAgent(options);
          started.set(key, running);
          return running;
        },
      });
      await Promise.all([...started.values()].map(async (running) => (await running).close()));
    },
    { scope: 'worker', box: true },
  ],
  mockAgent: async ({ mockAgentOptions, mockAgentScope, mockAgentShared }, use) => {
    if (mockAgentScope === 'worker') {
      const shared = await mockAgentShared.get(mockAgentOptions);
      try {
        await use(view(shared));
      } finally {
        shared.faults.clear();
        shared.executions.reset();
      }
      return;
    }
    const running = await startMockAgent(mockAgentOptions);
    try {
      await use(view(running));
    } finally {
      await running.close();
    }
  },
});
