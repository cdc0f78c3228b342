/**
The mock agent's control routes on a real loopback server, reached by every other spelling of their paths
without the token (issue 30, item 1; docs/interop.md#loopback-server-security): each is refused, no fault is
armed or cleared, and the execution counter is neither read nor reset. The spellings are the shared table of
`support/bypass-targets.ts`, which the CLI devtools server's test runs too.
*/
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActiveFault } from '../src/faults/faults.js';
import { type RunningMockAgent, startMockAgent } from '../src/mounts/loopback.js';
import { bypassTargets, type RawAnswer, rawRequest } from './support/bypass-targets.js';

let mock: RunningMockAgent;
let armed: readonly ActiveFault[];
let total: number;

/** Every control route with every method that reads or changes something (mocks/src/http/handle.ts). */
function attempts(): readonly {
  readonly method: string;
  readonly path: string;
  readonly query?: string;
  readonly body?: string;
}[] {
  const [fault] = armed;
  return [
    { method: 'GET', path: '/__faults' },
    {
      method: 'POST',
      path: '/__faults',
      body: JSON.stringify({ kind: 'drop-before', operation: 'GetTask' }),
    },
    { method: 'DELETE', path: '/__faults' },
    { method: 'DELETE', path: `/__faults/${fault?.id ?? 'fault-1'}` },
    { method: 'GET', path: '/__executions' },
    { method: 'GET', path: '/__executions', query: '?messageId=m-control-1' },
    { method: 'DELETE', path: '/__executions' },
  ];
}

/** The statuses that refuse: a malformed target, no token, no such route, another authority. */
const refusals = [400, 401, 404, 421];

let sends = 0;

/** One send of a new message, so the counter has something to lose. */
async function send(): Promise<void> {
  sends += 1;
  const sent = await fetch(`${mock.origin}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'a2a-version': '1.0', 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: { messageId: `m-control-${sends}`, role: 'ROLE_USER', parts: [{ text: 'echo one' }] },
      },
    }),
  });
  expect(sent.status).toBe(200);
}

beforeAll(async () => {
  mock = await startMockAgent({ port: 0, stepMs: 0 });
});

// Each case starts from the same state, so that one case's harm never shows up as another's.
beforeEach(async () => {
  mock.faults.clear();
  // A fault on an operation no request here makes, so that clearing it would show and nothing it does gets in
  // the way.
  mock.faults.set({ kind: 'drop-after', operation: 'CancelTask', count: 3 });
  armed = mock.faults.list();
  if (mock.executions.total() === 0) {
    await send();
  }
  total = mock.executions.total();
  expect(armed).toHaveLength(1);
  expect(total).toBeGreaterThan(0);
});

afterAll(async () => {
  await mock.close();
});

describe('the control routes', () => {
  it('answer their plain paths only with the token, so the attempts below would have worked with it', async () => {
    for (const { method, path, query = '' } of attempts().filter((attempt) => attempt.method === 'GET')) {
      const target = `${path}${query}`;
      expect((await rawRequest(mock.port, { method, target })).status).toBe(401);
      const headers = { 'x-surecall-mock-token': mock.token };
      expect((await rawRequest(mock.port, { method, target, headers })).status).toBe(200);
    }
  });

  it.each(bypassTargets)(
    'refuse $name without the token: nothing read, armed, cleared or reset',
    async ({ target }) => {
      const answers: (RawAnswer & { readonly request: string })[] = [];
      for (const { method, path, query = '', body } of attempts()) {
        const raw = `${target(path, mock.port)}${query}`;
        const answer = await rawRequest(mock.port, {
          method,
          target: raw,
          ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body }),
        });
        answers.push({ ...answer, request: `${method} ${raw}` });
      }
      // Soft, so that a failing case names every request that got through and what it did.
      for (const answer of answers) {
        expect.soft(refusals, `${answer.request} → ${answer.status}`).toContain(answer.status);
        expect.soft(answer.body, answer.request).not.toMatch(/"faults"|"total"|"id"/);
      }
      expect.soft(mock.faults.list(), 'the armed faults').toEqual(armed);
      expect.soft(mock.executions.total(), 'the execution counter').toBe(total);
    },
  );

  it('answer each spelling as the server reads it: 400 unclean, 421 another authority, 401 under /__, else 404 from the agent', async () => {
    const statuses: Record<string, number> = {};
    for (const { name, target } of bypassTargets) {
      statuses[name] = (
        await rawRequest(mock.port, { method: 'GET', target: target('/__faults', mock.port) })
      ).status;
    }
    expect(statuses).toMatchInlineSnapshot(`
      {
        "a . segment": 401,
        "a . segment after the route": 401,
        "a . segment encoded as %2E": 401,
        "a . segment encoded as %2e": 401,
        "a .. after a segment": 401,
        "a .. beyond the root": 401,
        "a .. encoded as %2E%2e": 401,
        "a .. encoded as %2e%2e": 401,
        "a .. encoded as %2e.": 401,
        "a .. encoded as .%2E": 401,
        "a .. followed by a backslash": 400,
        "a .. followed by an encoded slash": 404,
        "a .. followed by an encoded slash, lower case": 404,
        "a .. out of /.well-known": 401,
        "a ./ before a slash": 404,
        "a backslash for the first slash": 400,
        "a double slash and a foreign authority": 404,
        "a double slash and the own authority": 404,
        "a double slash first": 404,
        "a fragment after the route": 400,
        "a fragment hiding dot segments": 400,
        "a slash and a backslash": 400,
        "a trailing double slash": 401,
        "a trailing slash": 401,
        "an encoded .. beyond the root": 401,
        "an encoded backslash first": 404,
        "an encoded backslash first, lower case": 404,
        "an encoded slash before ..": 404,
        "an encoded slash first": 404,
        "backslashes for every slash": 400,
        "dot segments after the route": 401,
        "encoded backslashes around ..": 404,
        "every character percent-encoded": 401,
        "every character percent-encoded, lower-case hex": 401,
        "the absolute form": 401,
        "the absolute form by localhost": 401,
        "the absolute form of a foreign host": 421,
        "the absolute form of a foreign host on the port": 421,
        "the absolute form of another port": 421,
        "the absolute form over https": 400,
        "the absolute form with a ..": 401,
        "the absolute form with the own authority as userinfo": 421,
        "the absolute form with userinfo before the own authority": 421,
        "the absolute form without a port": 421,
        "the absolute form, scheme in upper case": 401,
        "the route in upper case": 401,
        "the route with its slashes encoded": 401,
        "three .. beyond the root": 401,
        "two backslashes and the own authority": 400,
      }
    `);
  });
});
