/**
`ClientOptions.interceptors` on a stream that breaks and resumes (docs/protocol-checks.md#interceptors,
docs/protocol-checks.md#stream-resumption): the resumption's SubscribeToTask is a request of the same call, so
`before` is asked for it and `after` sees its answer, over both bindings against the mock agent's
`cut-stream` fault. Every wait runs on fake timers.
*/
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HeaderContext, InterceptorAnswer } from '../src/client/options.js';
import { bindings, consume, mountAgent, server, userMessage } from './support/retry-agents.js';

const tenants: (string | null)[] = [];

beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' });
  server.events.on('request:start', ({ request }) => {
    if (request.headers.has('a2a-version')) {
      tenants.push(request.headers.get('x-tenant'));
    }
  });
});
afterEach(() => {
  vi.useRealTimers();
  server.resetHandlers();
  tenants.length = 0;
});
afterAll(() => server.close());

describe.each(bindings)('interceptors on a resumed stream over %s', (binding) => {
  it('are asked for the resumption and see its answer, under the same call', async () => {
    const mock = await mountAgent({ stepMs: 50 });
    const asked: HeaderContext[] = [];
    const answers: InterceptorAnswer[] = [];
    const client = mock.client(binding, {
      interceptors: [
        {
          before: (context) => {
            asked.push(context);
            return { 'x-tenant': 'acme' };
          },
          after: (answer) => {
            answers.push(answer);
          },
        },
      ],
    });
    tenants.length = 0;
    vi.useFakeTimers();
    mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });
    const { delivered, error } = await consume(
      client.sendStreamingMessage(
        { message: userMessage('task alpha beta gamma') },
        { resume: { initialDelayMs: 0 } },
      ),
    );
    expect(error).toBeUndefined();
    expect(delivered.length).toBeGreaterThan(2);
    expect(asked.map(({ operation, callId }) => [operation, callId])).toEqual([
      ['SendStreamingMessage', 1],
      ['SubscribeToTask', 1],
    ]);
    expect(asked[1]?.taskId).toBeDefined();
    expect(answers.map(({ operation, httpStatus }) => [operation, httpStatus])).toEqual([
      ['SendStreamingMessage', 200],
      ['SubscribeToTask', 200],
    ]);
    expect(tenants).toEqual(['acme', 'acme']);
  });
});
