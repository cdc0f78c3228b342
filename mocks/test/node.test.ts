import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockAgentServer, startMockAgent } from '../src/mounts/node.js';

const a2a = { 'a2a-version': '1.0', 'content-type': 'application/json' };

function sendBody(messageId: string, text: string): string {
  return JSON.stringify({ message: { messageId, role: 'ROLE_USER', parts: [{ text }] } });
}

describe('createMockAgentServer', () => {
  const mock = createMockAgentServer({ stepMs: 0 });

  beforeAll(() => mock.listen());
  afterEach(() => mock.faults.clear());
  afterAll(() => mock.close());

  it('answers its origin in-process, https included, with the card pointing at that origin', async () => {
    expect(mock.cardUrl).toBe('https://agent.test/.well-known/agent-card.json');
    const card = (await (await fetch(mock.cardUrl)).json()) as { supportedInterfaces: { url: string }[] };
    expect(card.supportedInterfaces.map((entry) => entry.url)).toEqual([
      'https://agent.test/a2a/jsonrpc',
      'https://agent.test/a2a/rest',
    ]);
  });

  it('runs a send, and a drop-after fault loses its answer while the work happens', async () => {
    const response = await fetch(`${mock.origin}/a2a/rest/message:send`, {
      method: 'POST',
      headers: a2a,
      body: sendBody('n-1', 'task a'),
    });
    expect(await response.json()).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' } } });
    mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
    await expect(
      fetch(`${mock.origin}/a2a/rest/message:send`, {
        method: 'POST',
        headers: a2a,
        body: sendBody('n-2', 'task b'),
      }),
    ).rejects.toThrow(TypeError);
    expect(mock.executions.of('n-2')).toBe(1);
    expect(mock.agent.executions.total()).toBe(2);
  });

  it('fails any other request, since unhandled requests are errors by default', async () => {
    await expect(fetch('https://elsewhere.test/.well-known/agent-card.json')).rejects.toThrow();
  });
});

describe('startMockAgent', () => {
  it('serves the agent, its faults and its counter on 127.0.0.1, then closes', async () => {
    const mock = await startMockAgent({ port: 0, stepMs: 0 });
    expect(mock.origin).toBe(`http://127.0.0.1:${mock.port}`);
    expect(mock.cardUrl).toBe(`${mock.origin}/.well-known/agent-card.json`);
    expect(mock.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const control = { 'x-surecall-mock-token': mock.token };
    expect((await fetch(`${mock.origin}/__faults`)).status).toBe(401);
    const armed = await fetch(`${mock.origin}/__faults`, {
      method: 'POST',
      headers: control,
      body: JSON.stringify({ kind: 'status-after', operation: 'SendMessage', status: 502 }),
    });
    expect(armed.status).toBe(201);
    const response = await fetch(`${mock.origin}/a2a/rest/message:send`, {
      method: 'POST',
      headers: a2a,
      body: sendBody('n-3', 'echo hi'),
    });
    expect(response.status).toBe(502);
    expect(
      await (await fetch(`${mock.origin}/__executions?messageId=n-3`, { headers: control })).json(),
    ).toEqual({
      total: 1,
      byMessageId: { 'n-3': 1 },
    });
    await mock.close();
    await expect(fetch(mock.cardUrl)).rejects.toThrow(TypeError);
  });
});

describe('the fault lab over a real socket, around the real agent', () => {
  it('cut-stream breaks the client read after N frames while the task runs to completion', async () => {
    const mock = await startMockAgent({ port: 0, stepMs: 0 });
    try {
      mock.faults.set({ kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 });
      const response = await fetch(`${mock.origin}/a2a/rest/message:stream`, {
        method: 'POST',
        headers: a2a,
        body: sendBody('n-4', 'task a b c'),
      });
      const reader = response.body?.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const broken = await (async () => {
        try {
          for (
            let next = await reader?.read();
            next !== undefined && !next.done;
            next = await reader?.read()
          ) {
            text += decoder.decode(next.value, { stream: true });
          }
          return undefined;
        } catch (error) {
          return error;
        }
      })();
      expect(broken).toBeInstanceOf(TypeError);
      const frames = text.split('\n\n').filter(Boolean);
      expect(frames).toHaveLength(2);
      const { task } = JSON.parse(frames[0]?.replace(/^data: /, '') ?? '{}') as { task: { id: string } };
      await vi.waitFor(async () => {
        const current = await fetch(`${mock.origin}/a2a/rest/tasks/${task.id}`, { headers: a2a });
        expect(await current.json()).toMatchObject({ status: { state: 'TASK_STATE_COMPLETED' } });
      });
    } finally {
      await mock.close();
    }
  });
});
