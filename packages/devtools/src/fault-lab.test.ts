import { createMockAgentServer } from '@surecall/mocks/node';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect } from './app/connect.js';
import { createFaultLabClient, FaultLabError } from './fault-lab.js';

const mock = createMockAgentServer({ stepMs: 0, origin: 'https://agent.test' });
const lab = createFaultLabClient(mock.origin);

beforeAll(() => mock.listen());
afterEach(() => {
  mock.server.resetHandlers();
  mock.faults.clear();
  mock.executions.reset();
});
afterAll(() => mock.close());

async function failure(promise: Promise<unknown>): Promise<FaultLabError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof FaultLabError)) {
    throw new Error('expected a FaultLabError');
  }
  return error;
}

describe('createFaultLabClient', () => {
  it('arms, lists and disarms faults', async () => {
    const id = await lab.arm({ kind: 'drop-after', operation: 'SendMessage', count: 2 });
    await lab.arm({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 1 });
    expect((await lab.list()).map((fault) => [fault.id, fault.spec.kind, fault.remaining])).toEqual([
      [id, 'drop-after', 2],
      [expect.any(String), 'cut-stream', 1],
    ]);
    await lab.disarm(id);
    expect((await lab.list()).map((fault) => fault.spec.kind)).toEqual(['cut-stream']);
    await lab.disarm();
    expect(await lab.list()).toEqual([]);
  });

  it('treats disarming a fault already spent as done', async () => {
    await expect(lab.disarm('fault-999')).resolves.toBeUndefined();
  });

  it('names the refused field of a bad spec, and nothing of the body', async () => {
    const error = await failure(lab.arm({ kind: 'delay', operation: 'GetTask', ms: -1 }));
    expect(error.status).toBe(400);
    expect(error.message).toBe('POST /__faults: HTTP 400 (ms)');
  });

  it('counts executions, per message id, and resets them: a dropped answer still ran once', async () => {
    const { client } = await connect({ cardUrl: mock.cardUrl });
    await lab.arm({ kind: 'drop-after', operation: 'SendMessage' });
    const message = { messageId: 'm-lost', role: 'ROLE_USER' as const, parts: [{ text: 'echo lost' }] };
    await expect(client.sendMessage({ message })).rejects.toMatchObject({
      kind: 'transport',
      dispatched: true,
    });
    expect(await lab.executions(['m-lost', 'm-other'])).toEqual({
      total: 1,
      byMessageId: { 'm-lost': 1, 'm-other': 0 },
    });
    expect(await lab.list()).toEqual([]);
    await lab.resetExecutions();
    expect(await lab.executions([])).toEqual({ total: 0, byMessageId: {} });
  });

  it('reports an origin without a fault lab', async () => {
    mock.server.use(
      http.get(`${mock.origin}/__faults`, () => new HttpResponse(null, { status: 404 })),
      http.get(`${mock.origin}/__executions`, () => HttpResponse.json({ total: 'many' })),
    );
    expect((await failure(lab.list())).message).toBe('GET /__faults: HTTP 404');
    expect((await failure(lab.executions([]))).message).toBe('GET /__executions: not an execution count');
  });

  it('reports an origin that does not answer', async () => {
    mock.server.use(http.all(`${mock.origin}/__faults`, () => HttpResponse.error()));
    const error = await failure(lab.list());
    expect(error).toMatchObject({ status: undefined, message: 'GET /__faults: no answer' });
  });
});
