import { afterEach, describe, expect, it } from 'vitest';
import { origin, readSse, userMessage } from '../../test/support/helpers.js';
import { createAgent, type MockAgent } from '../agent/agent.js';
import type { Operations } from '../agent/operations.js';
import { AgentError } from '../agent/remote-errors.js';
import { handleJsonRpc } from './jsonrpc.js';

const agents: MockAgent[] = [];
afterEach(() => {
  for (const agent of agents.splice(0)) {
    agent.close();
  }
});

async function post(
  body: string,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<{
  status: number;
  json: { id?: unknown; error?: { code: number; data: { reason: string }[] }; result?: unknown };
}> {
  const agent = createAgent({ stepMs: 0 });
  agents.push(agent);
  const response = await agent.handle(
    new Request(`${origin}/a2a/jsonrpc`, {
      method,
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
      ...(method === 'POST' ? { body } : {}),
    }),
  );
  return { status: response.status, json: await response.json() };
}

const envelope = (fields: Record<string, unknown>): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {}, ...fields });

describe('handleJsonRpc', () => {
  it.each<[string, string, Record<string, string>, number, unknown]>([
    ['malformed JSON', '{"jsonrpc":', {}, -32700, null],
    ['an empty body', '', {}, -32700, null],
    ['a text/plain body', envelope({}), { 'content-type': 'text/plain' }, -32005, null],
    ['a batch', `[${envelope({})}]`, {}, -32600, null],
    ['jsonrpc 1.0', envelope({ jsonrpc: '1.0' }), {}, -32600, 1],
    ['no id', JSON.stringify({ jsonrpc: '2.0', method: 'ListTasks' }), {}, -32600, null],
    ['a fractional id', envelope({ id: 1.5 }), {}, -32600, null],
    ['an object id', envelope({ id: {} }), {}, -32600, null],
    ['no method', envelope({ method: undefined }), {}, -32600, 1],
    ['a v0.3 method', envelope({ method: 'message/send' }), {}, -32601, 1],
    ['an unknown method', envelope({ method: 'sendMessage' }), {}, -32601, 1],
    ['array params', envelope({ params: [] }), {}, -32602, 1],
    ['a numeric tenant', envelope({ params: { tenant: 7 } }), {}, -32602, 1],
    ['no A2A-Version', envelope({ method: 'nope' }), { 'a2a-version': '' }, -32009, 1],
  ])('answers %s with %s in HTTP 200', async (_, body, headers, code, id) => {
    const { status, json } = await post(body, headers);
    expect(status).toBe(200);
    expect(json).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
    expect(json.error?.data).toHaveLength(1);
  });

  it.each<[unknown]>([['abc'], [0], [-42], [null]])('echoes the id %j', async (id) => {
    const { json } = await post(envelope({ id }));
    expect(json).toEqual({
      jsonrpc: '2.0',
      id,
      result: { tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 },
    });
  });

  it('accepts a missing params as {}, and application/a2a+json', async () => {
    const { json } = await post(envelope({ params: undefined }), {
      'content-type': 'application/a2a+json; charset=utf-8',
    });
    expect(json.result).toMatchObject({ totalSize: 0 });
  });

  it('answers a GET with 405', async () => {
    const { status, json } = await post('', {}, 'GET');
    expect(status).toBe(405);
    expect(json.error?.code).toBe(-32600);
  });

  it('wraps each stream event in a JSON-RPC response carrying the request id', async () => {
    const agent = createAgent({ stepMs: 0 });
    agents.push(agent);
    const response = await agent.handle(
      new Request(`${origin}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'stream-1',
          method: 'SendStreamingMessage',
          params: { message: userMessage('task a') },
        }),
      }),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = await readSse(response);
    expect(events).toHaveLength(4);
    for (const event of events) {
      expect(event).toMatchObject({ jsonrpc: '2.0', id: 'stream-1', result: expect.any(Object) });
    }
  });

  it('answers an unexpected failure with -32603 and a fixed message', async () => {
    const operations: Operations = {
      call: async () => {
        throw new Error('secret internals');
      },
      close: () => {},
    };
    const response = await handleJsonRpc(
      new Request(`${origin}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: envelope({}),
      }),
      { operations, mode: 'honouring' },
    );
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ id: 1, error: { code: -32603, message: 'Internal error' } });
    expect(text).not.toContain('secret');
  });

  it('answers Unauthenticated with HTTP 401 and a JSON-RPC body', async () => {
    const operations: Operations = {
      call: async () => {
        throw new AgentError('Unauthenticated', 'who are you?');
      },
      close: () => {},
    };
    const response = await handleJsonRpc(
      new Request(`${origin}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: envelope({ method: 'GetExtendedAgentCard' }),
      }),
      { operations, mode: 'honouring' },
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toMatchObject({
      id: 1,
      error: { code: -32000, data: [{ reason: 'UNAUTHENTICATED' }] },
    });
  });
});
