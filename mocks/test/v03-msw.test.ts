/**
The mock agent's v0.3 mode behind MSW in the test's own process
(`createMockAgentServer({ protocol: '0.3' })`): the same v0.3 card, methods and fault lab as on a loopback
port (test/v03.test.ts), answered in-process.
*/
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockAgentServer } from '../src/mounts/node.js';

const mock = createMockAgentServer({ protocol: '0.3', stepMs: 0 });

beforeAll(() => mock.listen());
afterEach(() => mock.faults.clear());
afterAll(() => mock.close());

const send = (messageId: string) =>
  fetch(`${mock.origin}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: {
        message: { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text: 'task a' }] },
        configuration: { blocking: true },
      },
    }),
  });

describe('the v0.3 mode behind MSW', () => {
  it('serves the v0.3 card at its origin and answers message/send in v0.3 form', async () => {
    const card = (await (await fetch(mock.cardUrl)).json()) as { protocolVersion: string; url: string };
    expect(card).toMatchObject({ protocolVersion: '0.3.0', url: 'https://agent.test/a2a/jsonrpc' });
    const { result } = (await (await send('msw-1')).json()) as { result: unknown };
    expect(result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
  });

  it('loses an answer under drop-after, the work done once', async () => {
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    await expect(send('msw-2')).rejects.toThrow(TypeError);
    expect(mock.executions.of('msw-2')).toBe(1);
  });
});
