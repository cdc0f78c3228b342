import { afterEach, describe, expect, it, vi } from 'vitest';
import { restBinding, resultOf, userMessage } from '../../test/support/helpers.js';
import { createAgent, type MockAgent } from './agent.js';
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

describe('streams', () => {
  it('a client that hangs up is unsubscribed, and the task runs on', async () => {
    vi.useFakeTimers();
    const agent = agentWith(10);
    const response = await restBinding.exchange(agent, 'SendStreamingMessage', {
      message: userMessage('slow 3'),
    });
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain('TASK_STATE_SUBMITTED');
    await reader?.cancel();
    await vi.advanceTimersByTimeAsync(5000);
    const [task] = resultOf<{ tasks: WireTask[] }>(await restBinding.call(agent, 'ListTasks', {})).tasks;
    expect(task?.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
