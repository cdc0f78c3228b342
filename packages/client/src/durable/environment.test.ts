import { describe, expect, it } from 'vitest';
import { currentEnvironment } from './environment.js';

// What each runtime shows of itself (docs/interop.md#runtimes): Deno and Bun print a Node version, workerd's
// Node compatibility may too, and an Electron renderer has Node and Chromium together. The runtimes
// themselves are run by test/durable/runtime-resend.test.ts.
const node = { process: { versions: { node: '24.12.0' } }, navigator: { userAgent: 'Node.js/24' } };

describe('currentEnvironment', () => {
  it.each<[string, object, boolean]>([
    ['Node', node, false],
    ['Node with a DOM imitation (jsdom)', { ...node, document: {} }, false],
    ['Bun, which prints a Node version', { process: { versions: { node: '26.3.0', bun: '1.4.5' } } }, false],
    ['a Bun that would not print a Node version', { process: { versions: { bun: '1.4.5' } } }, true],
    [
      'workerd with Node compatibility',
      { navigator: { userAgent: 'Cloudflare-Workers' }, process: { versions: { node: '22.0.0' } } },
      false,
    ],
    ['workerd without it', { navigator: { userAgent: 'Cloudflare-Workers' } }, false],
    [
      'Deno, which prints a Node version',
      {
        Deno: {},
        process: { versions: { node: '26.3.0', deno: '2.9.6' } },
        navigator: { userAgent: 'Deno/2.9.6' },
      },
      true,
    ],
    ['Deno without its process global (Deno 1)', { Deno: {} }, true],
    [
      'a runtime that prints a Deno version beside a Node one',
      { process: { versions: { node: '1', deno: '2' } } },
      true,
    ],
    [
      'an Electron renderer',
      { document: {}, process: { versions: { node: '22.0.0', chrome: '140' } } },
      true,
    ],
    ['a page', { document: {}, navigator: { userAgent: 'Mozilla/5.0' } }, true],
    ['a worker', { WorkerGlobalScope: () => undefined, navigator: { userAgent: 'Mozilla/5.0' } }, true],
    ['a runtime it does not know', { navigator: { userAgent: 'Something/1.0' } }, true],
    ['no globals at all', {}, true],
  ])('%s: the browser rule is %s', (_, scope, browser) => {
    expect(currentEnvironment(scope)).toEqual({ browser });
  });

  it('takes the runtime this suite runs in for Node', () => {
    expect(currentEnvironment()).toEqual({ browser: false });
  });
});
