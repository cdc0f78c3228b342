/**
An empty `interceptors` list asks nothing (docs/protocol-checks.md#interceptors): a JSON-RPC send of a client
given `interceptors: []` goes straight to its `fetch`, so it never loads the hooks, which live in the deferred
module (ARCHITECTURE.md#decisions, "Code loads with its first use"). The deferred module is made to fail to
load: the empty list's send still answers, while a list with one interceptor needs the hooks and fails before
anything is sent.
*/
import { jsonRpcPath } from '@surecall/mocks';
import { createMockAgentServer } from '@surecall/mocks/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ClientOptions } from '../src/client/options.js';
import { cardDigest } from '../src/discovery/digest.js';
import type { AgentCard } from '../src/protocol/agent-card.js';
import { parseAgentCard } from '../src/protocol/decode.js';
import { servedCard } from './support/card.js';

const mock = createMockAgentServer({ stepMs: 0 });
let card: AgentCard;
let digest: string;

beforeAll(async () => {
  mock.listen();
  const raw = await servedCard(mock.cardUrl);
  card = parseAgentCard(raw);
  digest = await cardDigest(raw);
});
afterEach(() => {
  vi.doUnmock('../src/deferred.js');
  vi.resetModules();
});
afterAll(() => mock.close());

async function sendWith(interceptors: ClientOptions['interceptors']) {
  vi.resetModules();
  vi.doMock('../src/deferred.js', () => {
    throw new Error('the deferred chunk could not be fetched');
  });
  const { createClient } = await import('../src/client/client.js');
  const client = createClient({
    card,
    cardDigest: digest,
    pin: { binding: 'JSONRPC', url: `${mock.origin}${jsonRpcPath}` },
    security: { kind: 'anonymous' },
    ...(interceptors === undefined ? {} : { interceptors }),
  });
  return client.sendMessage({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hello' }] },
  });
}

// Each case compiles the client's graph afresh (`vi.resetModules`): seconds on a loaded machine.
describe('an empty interceptors list', { timeout: 30_000 }, () => {
  it('sends without loading the hooks, as a client given none does', async () => {
    await expect(sendWith([])).resolves.toHaveProperty('task');
    await expect(sendWith(undefined)).resolves.toHaveProperty('task');
  });

  it('while one interceptor needs them, before anything is sent', async () => {
    await expect(sendWith([{ before: () => undefined }])).rejects.toMatchObject({
      kind: 'transport',
      reason: 'network',
      dispatched: false,
    });
  });
});
