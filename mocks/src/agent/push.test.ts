import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonRpcBinding, taskOf, userMessage } from '../../test/support/helpers.js';
import { createAgent, type MockAgent } from './agent.js';
import { isLoopbackUrl, webhookTimeoutMs } from './push.js';
import type { WireTask } from './wire.js';

const agents: MockAgent[] = [];
function agentWith(stepMs = 0): MockAgent {
  const agent = createAgent({ stepMs });
  agents.push(agent);
  return agent;
}
afterEach(() => {
  for (const agent of agents.splice(0)) {
    agent.close();
  }
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('isLoopbackUrl', () => {
  it.each([
    ['http://127.0.0.1/hook', true],
    ['http://127.0.0.1:8080/hook', true],
    ['https://127.255.254.3/hook', true],
    ['http://127.1/hook', true],
    ['http://0x7f000001/hook', true],
    ['http://[::1]:9/hook', true],
    ['http://[0:0:0:0:0:0:0:1]/hook', true],
    ['http://localhost/hook', false],
    ['http://127.0.0.1.nip.io/hook', false],
    ['http://128.0.0.1/hook', false],
    ['http://10.0.0.1/hook', false],
    ['http://[::ffff:127.0.0.1]/hook', false],
    ['http://[::2]/hook', false],
    ['http://example.com/127.0.0.1', false],
    ['not a url', false],
  ])('%s → %s', (url, loopback) => {
    expect(isLoopbackUrl(url)).toBe(loopback);
  });
});

describe('webhook delivery', () => {
  async function taskWithHook(agent: MockAgent, url: string, configuration = {}): Promise<WireTask> {
    const message = userMessage('input');
    const task = taskOf(await jsonRpcBinding.call(agent, 'SendMessage', { message, configuration }));
    await jsonRpcBinding.call(agent, 'CreateTaskPushNotificationConfig', { taskId: task.id, url });
    return task;
  }

  it('sends one config’s notifications one after another, in order', async () => {
    const seen: string[] = [];
    const releases: (() => void)[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_, init) => {
      const { task } = JSON.parse(String(init?.body)) as { task: WireTask };
      seen.push(task.status.state);
      await new Promise<void>((resolve) => releases.push(resolve));
      return new Response(null, { status: 204 });
    });
    const agent = agentWith();
    const task = await taskWithHook(agent, 'http://127.0.0.1:1/hook');
    const done = await jsonRpcBinding.call(agent, 'SendMessage', {
      message: userMessage('Ada', { taskId: task.id }),
    });
    expect(taskOf(done).status.state).toBe('TASK_STATE_COMPLETED');
    // The task has completed, but its second notification waits for the first webhook call to finish.
    expect(seen).toEqual(['TASK_STATE_WORKING']);
    releases.shift()?.();
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    releases.shift()?.();
    expect(seen).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
  });

  it('abandons a webhook that does not answer within the timeout, and on close', async () => {
    vi.useFakeTimers();
    const signals: AbortSignal[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (_, init) =>
        new Promise((_resolve, reject) => {
          const signal = init?.signal as AbortSignal;
          signals.push(signal);
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    );
    const agent = agentWith();
    const immediately = { returnImmediately: true };
    const task = await taskWithHook(agent, 'http://127.0.0.1:1/hook', immediately);
    await jsonRpcBinding.call(agent, 'CancelTask', { id: task.id });
    expect(signals).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(webhookTimeoutMs - 1);
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signals[0]?.aborted).toBe(true);

    const other = await taskWithHook(agent, 'http://127.0.0.1:1/hook', immediately);
    await jsonRpcBinding.call(agent, 'CancelTask', { id: other.id });
    expect(signals).toHaveLength(2);
    agent.close();
    expect(signals[1]?.aborted).toBe(true);
  });
});
