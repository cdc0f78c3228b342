/**
Proves the `mockAgent` Playwright fixture with the API `request` fixture only: no browser is launched.
*/
import { expect, test } from '../src/mounts/playwright.js';

const a2a = { 'A2A-Version': '1.0', 'Content-Type': 'application/json' };

function message(messageId: string, text: string) {
  return { messageId, role: 'ROLE_USER', parts: [{ text }] };
}

test('serves the agent card at cardUrl, with interfaces on its own origin', async ({
  request,
  mockAgent,
}) => {
  const response = await request.get(mockAgent.cardUrl);
  expect(response.ok()).toBe(true);
  const card = (await response.json()) as { supportedInterfaces: { url: string; protocolBinding: string }[] };
  expect(card.supportedInterfaces).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ protocolBinding: 'JSONRPC', url: `${mockAgent.origin}/a2a/jsonrpc` }),
      expect.objectContaining({ protocolBinding: 'HTTP+JSON', url: `${mockAgent.origin}/a2a/rest` }),
    ]),
  );
});

/** The control routes need the agent's per-run token. */
function control(mockAgent: { readonly token: string }) {
  return { headers: { 'x-surecall-mock-token': mockAgent.token } };
}

test('refuses the control routes without the per-run token', async ({ request, mockAgent }) => {
  expect((await request.get(`${mockAgent.origin}/__faults`)).status()).toBe(401);
  expect(
    (
      await request.post(`${mockAgent.origin}/__faults`, { data: { kind: 'drop-after', operation: '*' } })
    ).status(),
  ).toBe(401);
  expect(mockAgent.faults.list()).toEqual([]);
  expect((await request.get(`${mockAgent.origin}/__faults`, control(mockAgent))).status()).toBe(200);
});

test('answers a send, and counts it in code and over HTTP', async ({ request, mockAgent }) => {
  const response = await request.post(`${mockAgent.origin}/a2a/jsonrpc`, {
    headers: a2a,
    data: { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message('pw-1', 'echo hi') } },
  });
  expect(await response.json()).toMatchObject({
    jsonrpc: '2.0',
    id: 1,
    result: { message: { role: 'ROLE_AGENT' } },
  });
  expect(mockAgent.executions.of('pw-1')).toBe(1);
  const counted = await request.get(`${mockAgent.origin}/__executions?messageId=pw-1`, control(mockAgent));
  expect(await counted.json()).toEqual({ total: 1, byMessageId: { 'pw-1': 1 } });
});

test('applies a fault flipped over HTTP: the send is applied, its answer lost', async ({
  request,
  mockAgent,
}) => {
  const armed = await request.post(`${mockAgent.origin}/__faults`, {
    ...control(mockAgent),
    data: { kind: 'drop-after', operation: 'SendMessage', binding: 'HTTP+JSON' },
  });
  expect(armed.status()).toBe(201);
  const { id } = (await armed.json()) as { id: string };
  expect(mockAgent.faults.list().map((fault) => fault.id)).toEqual([id]);

  await expect(
    request.post(`${mockAgent.origin}/a2a/rest/message:send`, {
      headers: a2a,
      data: { message: message('pw-lost', 'task a b') },
    }),
  ).rejects.toThrow();

  const counted = await request.get(`${mockAgent.origin}/__executions?messageId=pw-lost`, control(mockAgent));
  expect(await counted.json()).toEqual({ total: 1, byMessageId: { 'pw-lost': 1 } });
  expect(await (await request.get(`${mockAgent.origin}/__faults`, control(mockAgent))).json()).toEqual({
    faults: [],
  });
});

test('refuses an invalid fault with a clear JSON error', async ({ request, mockAgent }) => {
  const response = await request.post(`${mockAgent.origin}/__faults`, {
    ...control(mockAgent),
    data: { kind: 'cut-stream', operation: 'SendStreamingMessage' },
  });
  expect(response.status()).toBe(400);
  expect(await response.json()).toMatchObject({ error: { code: 'invalid-fault', field: 'afterFrames' } });
});

test.describe('with one agent per worker', () => {
  test.describe.configure({ mode: 'serial' });
  test.use({ mockAgentScope: 'worker', mockAgentOptions: { stepMs: 0 } });
  // Both tests run in this worker, one after the other.
  let firstOrigin = '';

  test('shares the agent and leaves a fault behind', async ({ mockAgent }) => {
    firstOrigin = mockAgent.origin;
    mockAgent.faults.set({ kind: 'drop-before', operation: '*', count: 5 });
  });

  test('gets the same agent with a clean lab and counter', async ({ request, mockAgent }) => {
    expect(mockAgent.origin).toBe(firstOrigin);
    expect(mockAgent.faults.list()).toEqual([]);
    expect(mockAgent.executions.total()).toBe(0);
    expect((await request.get(mockAgent.cardUrl)).ok()).toBe(true);
  });
});
