import { type RunningMockAgent, startMockAgent } from '@surecall/mocks/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/app/connect.js';
import { createFaultLabClient, FaultLabError } from '../src/fault-lab.js';

// The Faults panel against `npm run mock-agent`'s server: a real loopback socket whose control routes demand
// the per-run token.
let agent: RunningMockAgent;

beforeAll(async () => {
  agent = await startMockAgent({ port: 0, stepMs: 0 });
});
afterAll(() => agent.close());

describe('the fault lab of a loopback mock agent', () => {
  it('is refused without the token, with a 401 the panel names', async () => {
    const error = await createFaultLabClient(agent.origin)
      .list()
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(FaultLabError);
    expect(error).toMatchObject({ status: 401, message: 'GET /__faults: HTTP 401' });
    await expect(
      createFaultLabClient(agent.origin).arm({ kind: 'drop-after', operation: 'SendMessage' }),
    ).rejects.toMatchObject({ status: 401 });
    expect(agent.faults.list()).toEqual([]);
  });

  it('arms, counts and disarms with the token the card URL fragment carried', async () => {
    const connection = await connect({ cardUrl: agent.cardUrl, mockToken: agent.token });
    expect(connection.mockToken).toBe(agent.token);
    const lab = createFaultLabClient(connection.origin, connection.mockToken);
    const id = await lab.arm({ kind: 'drop-after', operation: 'SendMessage' });
    expect(agent.faults.list().map((fault) => fault.id)).toEqual([id]);
    const message = { messageId: 'm-lab', role: 'ROLE_USER' as const, parts: [{ text: 'echo lost' }] };
    await expect(connection.client.sendMessage({ message })).rejects.toMatchObject({ dispatched: true });
    expect(await lab.executions(['m-lab'])).toEqual({ total: 1, byMessageId: { 'm-lab': 1 } });
    expect(await lab.list()).toEqual([]);
    await lab.resetExecutions();
    await lab.disarm();
    expect(agent.executions.total()).toBe(0);
  });
});
