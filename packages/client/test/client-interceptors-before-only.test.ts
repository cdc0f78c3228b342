/**
Interceptors without an `after` never read an answer's head (docs/protocol-checks.md#interceptors): nobody
would see it, so a client whose interceptors only add headers (`@surecall/client/otel`'s among them) neither
copies nor freezes each answer's headers. The client's `fetch` hands back the mock agent's answers with
headers that refuse to be listed (their `get` still works, as the exchange needs it): a `before`-only client's
send answers, and one given an `after` fails, since listing them is what `after` needs.
*/
import { jsonRpcPath } from '@surecall/mocks';
import { createMockAgentServer } from '@surecall/mocks/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/client/client.js';
import type { Interceptor } from '../src/client/options.js';
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
afterAll(() => mock.close());

/** Headers that answer `get` but throw when listed. */
class UnlistedHeaders extends Headers {
  override [Symbol.iterator](): HeadersIterator<[string, string]> {
    throw new Error('the answer headers were listed');
  }
}

async function sendWith(interceptor: Interceptor) {
  const client = createClient({
    card,
    cardDigest: digest,
    pin: { binding: 'JSONRPC', url: `${mock.origin}${jsonRpcPath}` },
    security: { kind: 'anonymous' },
    interceptors: [interceptor],
    fetch: async (input, init) => {
      const answer = await globalThis.fetch(input, init);
      Object.defineProperty(answer, 'headers', { value: new UnlistedHeaders(answer.headers) });
      return answer;
    },
  });
  return client.sendMessage({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hello' }] },
  });
}

describe('interceptors without an after', () => {
  it('never list an answer’s headers, and the send answers', async () => {
    const seen: string[] = [];
    const answer = await sendWith({
      before: () => {
        seen.push('before');
        return { 'x-request-id': 'r-1' };
      },
    });
    expect(answer).toHaveProperty('task');
    expect(seen).toEqual(['before']);
  });

  it('while an after is shown them, so listing them is what fails', async () => {
    await expect(sendWith({ after: () => undefined })).rejects.toMatchObject({
      kind: 'transport',
      dispatched: true,
    });
  });
});
